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

struct rr_flow {
	struct rr_flow_key key;
	struct rr_conn *conn;     /* always set; paired when conn->flow[1-side] is set */
	int side;                 /* 0 or 1 */

	struct rr_xfer_flow *xfer;        /* xfer.c's, opaque here */

	struct rr_call_table *calls;      /* call.c's, opaque here */
	struct rr_seg_table *segs;        /* segstore.c's, opaque here */
	bool closed;              /* FIN seen */
	uint64_t last_frame;      /* last event on this flow: the least recent are forgotten first */
};

struct rr_conn {
	uint32_t id;
	uint8_t transport;
	struct rr_flow *flow[2];
	struct rr_flow *home;     /* the flow the connection (and its id) was made for */
	int requester;            /* side index, -1 until known */
	bool tentative;           /* paired on first sight, not yet proved by traffic */
	bool from_handshake;
	bool carried_rpcrdma;
	/* RFC 8797 private data, when the handshake was captured */
	bool has_cm_pd;
	uint32_t inline_send[2], inline_recv[2];   /* by side */
	bool has_cm_flags[2];
	uint8_t cm_flags[2];      /* RFC 8797 flags, by side */
	uint16_t server_port;     /* CM service port / iWARP listening port */
	char *name;
	bool capture_cut;         /* see rr_conn_info */
};

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

	GHashTable *flows;        /* struct rr_flow_key* -> struct rr_flow* */
	GHashTable *by_addrs;     /* address pair -> GPtrArray of flows (pairing candidates) */
	GPtrArray *conns;         /* live connections, in id order */
	uint32_t next_conn_id;
	bool told_flows;          /* ENG-LIMIT about forgotten connections said */
	GHashTable *cm_pending;   /* IB CM: comm id -> struct rr_cm_pending* */
	uint64_t buffered;        /* bytes held in Sends, segments and call copies */
	struct rr_xfer *xfer;     /* xfer.c's, opaque here */
	struct rr_segstore *segstore;   /* segstore.c's, opaque here */
	uint64_t cur_frame;
};

/* budget.c: take n bytes of the buffer budget (false, reported, when they do not fit), or give them back */
bool rr_budget_take(struct rr_engine *eng, uint64_t n, uint64_t frame, const char *what);
void rr_budget_give(struct rr_engine *eng, uint64_t n);

/* conn.c */
struct rr_flow *rr_flow_get(struct rr_engine *eng, const struct rr_flow_key *key);
/* The flow, if it exists (never creates one). */
struct rr_flow *rr_flow_find(struct rr_engine *eng, const struct rr_flow_key *key);
struct rr_conn *rr_conn_by_id(struct rr_engine *eng, uint32_t id);
/* Free the connection and its flows; the caller tore it down first. */
void rr_conn_forget(struct rr_engine *eng, struct rr_conn *c);
struct rr_flow *rr_flow_peer(const struct rr_flow *f);
/* f is the requester's direction (false while the roles are unknown). */
bool rr_flow_is_requester(const struct rr_flow *f);
typedef bool (*rr_flow_pred)(struct rr_flow *cand, void *arg);
/*
 * The peer flow.  Not a plain lookup: when f is unpaired or only
 * tentatively paired, the first candidate flow for which pred holds (the
 * evidence: it sent the call this reply answers, it owns this R_Key, ...)
 * becomes f's peer, splitting a tentative pair if need be.
 */
struct rr_flow *rr_conn_pair_by_evidence(struct rr_engine *eng, struct rr_flow *f, rr_flow_pred pred,
					 void *arg);
void rr_conn_pair(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b);
const char *rr_conn_name(struct rr_conn *c);
/* What a CM event did: the connection it tears down, the flows it starts afresh. */
struct rr_cm_outcome {
	struct rr_conn *gone;         /* torn down (DREQ, FIN both ways, RST) */
	struct rr_flow *restarted[2]; /* a new connection on these flows (CM REP): new PSN sequences */
};
void rr_conn_handle_cm(struct rr_engine *eng, const struct rr_event *ev, struct rr_cm_outcome *out);
/* The connection was torn down: its flows may carry a new one (FINs seen are forgotten). */
void rr_conn_reopen(struct rr_conn *c);
void rr_flow_free(struct rr_flow *f);
void rr_conn_free(struct rr_conn *c);
void rr_conn_note_call(struct rr_engine *eng, struct rr_flow *f, uint32_t prog);

/* conn.c: what a message record says of its connection */
void rr_conn_info_fill(const struct rr_engine *eng, const struct rr_conn *c, struct rr_conn_info *out);

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
