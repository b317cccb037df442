/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * call.h - calls kept until their reply (call.c).
 *
 * Owns, per flow (rr_flow.calls, opaque elsewhere): the calls sent on that
 * flow, by XID.  Per call: the struct below and the segments it advertised
 * (registered in the segment store).  Only call.c writes a call: it makes
 * one from its Send (rr_call_new) and records what its message said once
 * the rebuild delivered it (rr_call_delivered); the rebuild reads it.
 */
#ifndef RPCRDMA_CALL_H
#define RPCRDMA_CALL_H

#include "conn.h"
#include "segstore.h"

struct rr_send_done;

struct rr_call {
	uint32_t xid;
	struct rr_flow *flow;     /* the flow the call was sent on (owner of its segments) */
	const struct rr_hdr *hdr;
	const uint8_t *inline_buf;/* RDMA_MSG: payload after the header */
	size_t inline_len;
	size_t inline_captured;   /* of inline_len: the bytes the snaplen left (the rest are zeros) */
	GArray *frames;           /* Send frames */
	GPtrArray *segs;          /* struct rr_seg*, owned */
	bool send_truncated;
	uint64_t first_frame;
	uint64_t ts_usec;         /* capture time of its Send */
	uint64_t gaps_at_start;   /* PSN gaps seen when it was sent */
	/* Once its message was delivered: */
	bool delivered;
	bool backchannel;
	bool has_ulp;
	bool capture_loss;        /* its message lost bytes: what its ULP said is partial */
	struct rr_ulp_info ulp;
};

/*
 * A call from its Send, kept on f (whose sender owns the segments it
 * advertised, now in the segment store).  NULL when the buffer budget
 * refuses it.
 */
struct rr_call *rr_call_new(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
			    const struct rr_send_done *d);
/* What its message said, for the reply. */
void rr_call_delivered(struct rr_call *call, bool backchannel, bool has_ulp, bool capture_loss,
		       const struct rr_ulp_info *ulp);
/* Forget the call on its flow and free it. */
void rr_call_drop(struct rr_engine *eng, struct rr_call *call);
/* Free a call no flow holds any more (see rr_call_take_all). */
void rr_call_free(struct rr_engine *eng, struct rr_call *call);

/* The engine is going away: free the spare calls it kept. */
void rr_call_spares_free(struct rr_engine *eng);

/* The call with this XID sent on f, or NULL. */
struct rr_call *rr_call_find(struct rr_flow *f, uint32_t xid);
/* A pairing predicate (rr_conn_pair_by_evidence): f carried a call with this XID. */
bool rr_flow_has_call(struct rr_flow *f, void *xid_ptr);
guint rr_call_count(struct rr_flow *f);
/* The outstanding call sent first on f (the likeliest to have lost its reply), or NULL. */
struct rr_call *rr_call_oldest(struct rr_flow *f);
/* Every call of f, which forgets them: the caller frees each with rr_call_free. */
GPtrArray *rr_call_take_all(struct rr_flow *f);
/* The engine is going away: free f's calls, delivered or not. */
void rr_call_free_all(struct rr_engine *eng, struct rr_flow *f);
/* The flow is forgotten, its calls gone already: free its table. */
void rr_call_flow_free(struct rr_flow *f);

struct rr_seg *rr_call_seg(const struct rr_call *call, enum rr_seg_role role, uint32_t chunk, uint32_t index);
/* Add the frames that placed bytes in its read segments (reads) or its write and reply segments. */
void rr_call_collect_frames(GArray *dst, const struct rr_call *call, bool reads);

#endif
