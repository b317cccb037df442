/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_int.h - state shared by the engine's modules.  Not installed.
 *
 *   engine.c    event dispatch, limits, delivery to the reporter
 *   conn.c      one-way flows and their pairing into connections
 *   xfer.c      packets -> whole Sends, and RDMA Write / Read Response bytes
 *               -> (rkey, va) placements (IB PSN and iWARP STag/TO logic)
 *   segstore.c  segments advertised by calls, and the bytes placed in them
 *   rebuild.c   transport header + chunks -> the RPC message Payload stream
 */
#ifndef RPCRDMA_ENGINE_INT_H
#define RPCRDMA_ENGINE_INT_H

#include <glib.h>

#include "engine.h"

struct rr_conn;
struct rr_call;
struct rr_flow;

struct rr_range {
	uint64_t start, end;
};

struct rr_checker;

struct rr_engine {
	struct rr_engine_limits lim;
	struct rr_checker *checker;   /* the check stage (check/check.h) */
	struct rr_check_opts check_opts;
	rr_message_fn fn;
	void *ctx;
	rr_send_fn send_fn;
	void *send_ctx;
	struct rr_diag_sink diag;
	struct rr_engine_stats stats;

	uint64_t buffered;        /* bytes held in Sends, segments and call copies */
	struct rr_conn_table *conns;    /* conn.c's, opaque here */
	struct rr_xfer *xfer;     /* xfer.c's, opaque here */
	struct rr_segstore *segstore;   /* segstore.c's, opaque here */
};

/* budget.c: take n bytes of the buffer budget (false, reported, when they do not fit), or give them back */
bool rr_budget_take(struct rr_engine *eng, uint64_t n, uint64_t frame, const char *what);
void rr_budget_give(struct rr_engine *eng, uint64_t n);

/* rebuild.c */
struct rr_send_done;
void rr_rebuild_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_send_done *d);
void rr_call_try_complete(struct rr_engine *eng, struct rr_call *call);
void rr_call_flush(struct rr_engine *eng, struct rr_call *call);   /* deliver if pending */
void rr_rebuild_flow_reset(struct rr_engine *eng, struct rr_flow *f);

/* rebuild_reply.c */
void rr_rebuild_reply(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
		      const struct rr_send_done *d, struct rr_call *call);

/* record.c */
void rr_record_init(struct rr_message *m, struct rr_engine *eng, struct rr_flow *f,
		    const struct rr_hdr *hdr, enum rr_msg_dir dir, uint64_t send_frame, size_t send_len);
/* Walk the whole payload: RPC header, ULP, every DDP-eligible item (appended to items). */
void rr_record_describe(struct rr_message *m, const struct rr_ulp_info *callinfo, GArray *items);
/* Check stage, then the reporter; the findings it attached are released after. */
void rr_record_emit(struct rr_engine *eng, struct rr_message *m);

/* frames.c */
void rr_frames_add(GArray *frames, uint64_t frame);
/* ev->frame and ev->more_frames */
void rr_frames_add_event(GArray *frames, const struct rr_event *ev);

#endif
