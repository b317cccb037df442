/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * drive.h - what the requester's files share: the run's state, the
 * memory behind one call, taking a reply (drive_reply.c) and the
 * injections made on a call (drive_inject.c).
 */
#ifndef AGENT_DRIVE_H
#define AGENT_DRIVE_H

#include <rpcrdma/hdr.h>
#include <rpcrdma/ulp.h>

#include "common.h"
#include "inject_live.h"
#include "inject_req.h"
#include "judge.h"
#include "kernel_target.h"
#include "mrpool.h"
#include "pg_nfs.h"
#include "pg_rpcrdma.h"
#include "pg_scenario.h"
#include "readback.h"
#include "v41_session.h"
#include "verbs.h"

struct drive {
	struct agent_run run;
	const char *server, *scenario_path, *target;
	const char *export_path;
	pg_scenario *s;
	pg_nfs_state nfs;
	struct inj_live lv;         /* the generator's injectors on our calls */
	struct vb_conn *conn;
	uint32_t next_xid, granted;
	unsigned exchanges, failures;
	unsigned retries;           /* --retries: reconnects and retransmissions per call */
	uint64_t msg_index;
	uint64_t ddp_bytes;         /* moved by RDMA Read and Write, both ways */
	bool prev_rdma_error;       /* the previous call was answered RDMA_ERROR */
	bool reply_unrebuilt;       /* the reply being taken is not to be compared (rebuilt=no) */
	struct kt_handles kh;
	struct mr_pool *pool;       /* chunk memory, registered once per connection (mrpool.h) */
	uint64_t pool_regs, pool_reuses;
	unsigned window;            /* --window: calls outstanding at most (0: the credits granted) */
	unsigned peak_outstanding;  /* the most calls outstanding at once */
	struct v41_session v41;     /* --target kernel: the NFSv4.1 session (v41_session.h) */
	struct rb_state rb;         /* READ returns what WRITE put there (readback.h) */
	enum jd_answer last;
	uint32_t last_credit;
};

/* The regions behind one chunk: one per segment, or one for all (cover=coalesce). */
struct chunk_mem {
	struct vb_mr *mr[PG_MAX_SEGS];   /* taken from the connection's pool */
	struct mr_pool *pool;
	unsigned n_mr;
	pg_chunk *c;
};

/* The memory behind one call's chunks. */
#define DRIVE_MAX_READ_CHUNKS (PG_MAX_CHUNKS + 1)
/* What the chunk pool keeps registered while unused: a window of 1 MiB calls and their replies. */
#define DRIVE_POOL_KEEP (64u << 20)
struct call_mem {
	struct chunk_mem r[DRIVE_MAX_READ_CHUNKS], w[PG_MAX_CHUNKS], reply;
	unsigned n_r, n_w;
};

/* ---- drive_call.c ---- */
struct drive_inj;
/* The call for one item, encoded and reduced into chunks
 * (false: a scenario error, said and counted); its chunks registered from
 * the pool (false when one could not be) and given back. */
bool drive_build_call(struct drive *d, pg_exch *ex, uint32_t xid, pg_rng *rng, struct drive_inj *di);
bool drive_map_call(struct drive *d, const pg_plan *plan, struct call_mem *cm);
void drive_unmap_call(struct call_mem *cm);
/* The chunk memory of a new connection (its protection domain's). */
struct mr_pool *drive_pool_new(struct vb_conn *conn);

/* ---- drive_reply.c ---- */
/* The call's rpc line. */
void drive_record_call(struct drive *d, const pg_plan *p, const pg_rpc_pair *rp, bool rebuilt);
/* The reply as it arrived (its rpc line, events, d->last); false when none came. */
bool drive_take_reply(struct drive *d, uint32_t xid, const struct rr_ulp_info *callinfo,
		      const struct call_mem *cm, struct rr_hdr *h, bool *err_reply);
/* The same with a reply already received (msg, as vb_recv gave it) for the call xid. */
void drive_use_reply(struct drive *d, const struct vb_msg *msg, uint32_t xid,
		     const struct rr_ulp_info *callinfo, const struct call_mem *cm, struct rr_hdr *h,
		     bool *err_reply);

/* ---- drive_pipe.c ---- */
/*
 * --window: the scenario's calls with up to that many outstanding (0: as
 * many as the server grants), each reply taken as it comes, by its XID.
 * Runs without injections only (a reaction belongs to one call).  Returns
 * false when the connection is gone.
 */
bool drive_pipe_items(struct drive *d);

/* ---- drive_inject.c ---- */
/* The injections aimed at one call: the requester's (inject_req.h). */
struct drive_inj {
	struct req_inj r;
};
/* Which items hit the k-th call (xid, item it). */
void drive_inj_select(struct drive *d, struct drive_inj *di, uint64_t k, uint32_t xid,
		      const pg_item *it);
/* Runs one stage of the table's hooks, and the agent's own injections at their place. */
void drive_inj_stage(struct drive *d, struct drive_inj *di, pg_exch *ex, unsigned stage,
		     pg_rdmamsg *msg, uint32_t *xid);
/* Whether the engine can rebuild the call as sent (the rpc line's rebuilt=). */
bool drive_inj_rebuildable(struct drive *d, const struct drive_inj *di, const pg_exch *ex);
/* The inject lines of the call. */
void drive_inj_record(struct drive *d, const struct drive_inj *di, uint32_t xid);
/* Is item name asked for and hitting this call? */
const struct inj_spec *drive_inj_on(const struct drive *d, const struct drive_inj *di,
				    const char *name);
/* The reaction and verdict lines for every applied item. */
void drive_inj_react(struct drive *d, const struct drive_inj *di, uint32_t xid,
		     const struct jd_reaction *r);

#endif
