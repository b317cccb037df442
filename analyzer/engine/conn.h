/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conn.h - one-way flows and their pairing into connections (conn.c, and
 * conn_cm.c for the RDMA-CM / MPA handshake).
 *
 * Owns the flow table and the connections (rr_engine.conns, opaque
 * elsewhere) and the handshakes under way.  Of each flow and connection,
 * the other modules see the public part below, which only conn.c and
 * conn_cm.c write; behind it they keep the rest (a flow's FIN and last
 * activity; a connection's home flow, tentative pairing, handshake facts,
 * RFC 8797 private data and name), read through the functions below.
 */
#ifndef RPCRDMA_CONN_H
#define RPCRDMA_CONN_H

#include "engine_int.h"

struct rr_flow {
	struct rr_flow_key key;
	struct rr_conn *conn;     /* always set; paired when conn->flow[1-side] is set */
	int side;                 /* 0 or 1 */
	/*
	 * Each module's own state of the flow: made on first use, read and
	 * freed by that module alone (engine.c has each one freed before the
	 * flow is forgotten).
	 */
	struct rr_xfer_flow *xfer;        /* xfer.h */
	struct rr_seg_table *segs;        /* segstore.h */
	struct rr_call_table *calls;      /* call.h */
};

struct rr_conn {
	uint32_t id;              /* 0 until rr_conn_id() numbers it: read it through that */
	uint8_t transport;
	struct rr_flow *flow[2];  /* by side */
	int requester;            /* side index, -1 until known */
	bool carried_rpcrdma;     /* a Send on it was RPC-over-RDMA (rr_conn_mark_rpcrdma) */
};

struct rr_conn_table *rr_conn_table_new(void);
/* c's number, given when first asked for: whatever is reported about c names it so (1, 2, ...). */
uint32_t rr_conn_id(struct rr_engine *eng, struct rr_conn *c);
/* The connection numbered id, if it is still kept. */
struct rr_conn *rr_conn_by_id(const struct rr_engine *eng, uint32_t id);
/* x was made before y (numbered ones by number). */
bool rr_conn_older(const struct rr_conn *x, const struct rr_conn *y);
/* Free every flow and connection (each module freed its own state of the flows first). */
void rr_conn_table_free(struct rr_conn_table *t);

/* The flow of key, made (and paired if that is unambiguous) at frame when new; NULL past max_flows. */
struct rr_flow *rr_flow_get(struct rr_engine *eng, const struct rr_flow_key *key, uint64_t frame);
/* The flow, if it exists (never creates one). */
struct rr_flow *rr_flow_find(struct rr_engine *eng, const struct rr_flow_key *key);
guint rr_flow_count(const struct rr_engine *eng);
/* An event travelled on f: the least recently active connections are forgotten first. */
void rr_flow_touch(struct rr_flow *f, uint64_t frame);
struct rr_flow *rr_flow_peer(const struct rr_flow *f);
/* f is the requester's direction (false while the roles are unknown). */
bool rr_flow_is_requester(const struct rr_flow *f);
/*
 * The number of the host that sends f (receiver false) or receives it: one
 * host, one number, whatever connection or transport reached it (an address
 * is a host).  Never 0.
 */
uint32_t rr_flow_host(const struct rr_engine *eng, const struct rr_flow *f, bool receiver);

/* The live connections, in the order they were made. */
guint rr_conn_count(const struct rr_engine *eng);
struct rr_conn *rr_conn_nth(const struct rr_engine *eng, guint i);
/* The last frame on either of its flows (0 for none). */
uint64_t rr_conn_last_frame(const struct rr_conn *c);
/* Free the connection and its flows; the caller tore it down first. */
void rr_conn_forget(struct rr_engine *eng, struct rr_conn *c);

typedef bool (*rr_flow_pred)(struct rr_flow *cand, void *arg);
/*
 * The peer flow.  Not a plain lookup: when f is unpaired or only
 * tentatively paired, the first candidate flow for which pred holds (the
 * evidence: it sent the call this reply answers, it owns this R_Key, ...)
 * becomes f's peer, splitting a tentative pair if need be.
 */
struct rr_flow *rr_conn_pair_by_evidence(struct rr_engine *eng, struct rr_flow *f, rr_flow_pred pred,
					 void *arg);
/* "rocev2 10.0.0.1 qp 0x11 <-> 10.0.0.2 qp 0x12", requester first when known. */
const char *rr_conn_name(struct rr_conn *c);
/* A call of program prog went out on f: the roles follow if they were unknown. */
void rr_conn_note_call(struct rr_engine *eng, struct rr_flow *f, uint32_t prog);
void rr_conn_mark_rpcrdma(struct rr_conn *c);
/* The capture lost bytes of the connection (see rr_conn_info.capture_cut). */
void rr_conn_mark_cut(struct rr_conn *c);
bool rr_conn_is_cut(const struct rr_conn *c);
/*
 * The capture lost packets (IB/RoCE, counted by PSN) or bytes (iWARP) that
 * f carried: counted on f (rr_conn_info.lost_packets, lost_bytes), and the
 * connection marked cut.  Zero counts mark it only (how much is unknown).
 */
void rr_conn_note_loss(struct rr_flow *f, uint64_t packets, uint64_t bytes);
/* Packets counted lost on f showed up after all (late, or after the ACK that told of them). */
void rr_conn_note_found(struct rr_flow *f, uint64_t packets);
/* f's peer when the pairing is sure (a handshake, or traffic proved it); NULL otherwise. */
struct rr_flow *rr_flow_proved_peer(const struct rr_flow *f);
/* The connection was torn down: its flows may carry a new one (FINs seen are forgotten). */
void rr_conn_reopen(struct rr_conn *c);
/* What a message record says of its connection. */
void rr_conn_info_fill(const struct rr_engine *eng, const struct rr_conn *c, struct rr_conn_info *out);

/* conn_cm.c: what a CM event did. */
struct rr_cm_outcome {
	struct rr_conn *gone;         /* torn down (DREQ, FIN both ways, RST) */
	struct rr_flow *restarted[2]; /* a new connection on these flows (CM REP): new PSN sequences */
};
void rr_conn_handle_cm(struct rr_engine *eng, const struct rr_event *ev, struct rr_cm_outcome *out);
/* A joined capture's next part: handshakes under way are forgotten. */
void rr_conn_forget_handshakes(struct rr_engine *eng);

#endif
