/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve_inject.h - the injections serve makes on a reply: the generator's
 * hooks (inject_live.h) on the reply it builds, and what the requester did
 * next (its reaction: another call, the same XID again, a disconnect, an
 * RDMA access error), judged by judge.c.
 */
#ifndef AGENT_SERVE_INJECT_H
#define AGENT_SERVE_INJECT_H

#include <rpcrdma/hdr.h>

#include "common.h"
#include "inject_live.h"
#include "judge.h"

struct serve_inj {
	pg_exch *ex;                 /* the reply's live exchange; its rp is the RPC reply */
	bool sel[INJ_MAX_SPECS], applied[INJ_MAX_SPECS], failed[INJ_MAX_SPECS];
	char expected[INJ_MAX_SPECS][160];   /* the findings each hook named */
	bool send_failed;            /* the broken reply's Send completed in error (serve_inj_sent) */
};

/* A broken reply waiting for the requester's next move. */
struct serve_pending {
	bool on;
	uint32_t xid, credit;
	bool applied[INJ_MAX_SPECS];
	char rule[INJ_MAX_SPECS][16];   /* the rule each inject line named */
	gint64 t0;
};

/* The k-th reply (XID xid) to the call described as it (NULL: not described). */
void serve_inj_begin(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, uint64_t k,
		     uint32_t xid, const pg_item *it);
/* One stage of the selected items on the reply msg (NULL before the header). */
void serve_inj_stage(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, unsigned stage,
		     pg_rdmamsg *msg);
/* The call's read chunks (h) and the reply's Write chunks (writes, not owned)
 * as the exchange's plan lists, then the ops stage: the RDMA operations the
 * table's hooks add (extra-read, read-after-reply, write-after-reply). */
void serve_inj_ops(struct agent_run *r, struct inj_live *lv, struct serve_inj *si,
		   const struct rr_hdr *h, GPtrArray *writes);
/* Posts the operations added for when (PG_OPS_READS: before the reply,
 * PG_OPS_AFTER_REPLY: after it) on c; false when one failed, *refused set
 * when it completed in error (the QP died at it) rather than the peer
 * having gone. */
struct vb_conn;
bool serve_inj_run_ops(struct agent_run *r, struct serve_inj *si, struct vb_conn *c, uint32_t xid,
		       int when, bool *refused);

/* Frees a pg_chunk serve made for a reply's plan (segments, returned lengths, data). */
void serve_chunk_free(gpointer p);
/* Did any item change this reply? */
bool serve_inj_any(const struct serve_inj *si);
/* Is the agent's own item name asked for on this reply? (marks it applied) */
bool serve_inj_agent(struct agent_run *r, struct serve_inj *si, const char *name);
/* The reply knobs (pg_rpcrdma.h) the table's plan hooks set, which serve honours:
 * overfill, fill_short, write_pad, reply_inline_despite_write; NULL without any. */
pg_knobs *serve_inj_knobs(struct serve_inj *si);
/* What a knob changed (PG_DONE_*), for the header hooks that check it. */
void serve_inj_done(struct serve_inj *si, unsigned done);
/* The reply went out: its inject lines, and the reaction to wait for. */
void serve_inj_sent(struct agent_run *r, struct serve_inj *si, struct serve_pending *p, uint32_t xid,
		    uint32_t credit);
/* The requester's next move after a broken reply: reaction and verdict lines. */
void serve_inj_react(struct agent_run *r, struct serve_pending *p, enum jd_answer a);
void serve_inj_end(struct serve_inj *si);

#endif
