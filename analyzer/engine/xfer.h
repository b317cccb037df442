/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfer.h - transfers (xfer.c, xfer_send.c): packets -> whole Sends, and RDMA
 * Write / Read Response bytes -> placements in the segment store.
 *
 * Owns, per flow (rr_flow.xfer, opaque elsewhere): the Sends and Writes
 * being put together, the Read Requests seen, Read Responses that came
 * before their request, and the IB PSN state (xfer_seq.c: duplicates, and
 * gaps, which count lost packets on the flow through conn.h).  Per engine
 * (rr_engine.xfer): the Send the current event completed, and how many
 * PSN gaps were seen.
 */
#ifndef RPCRDMA_XFER_H
#define RPCRDMA_XFER_H

#include "conn.h"

/* A whole Send that the transfer layer put together; engine.c hands it to the rebuild. */
struct rr_send_done {
	struct rr_flow *flow;     /* NULL: nothing completed */
	const uint8_t *data;      /* the event's bytes, or buf's */
	size_t len;
	GByteArray *buf;          /* owned when the Send was assembled */
	const uint64_t *frames;
	size_t n_frames;
	GArray *frames_buf;       /* owned when assembled */
	uint64_t one_frame;
	bool truncated;
	size_t captured;          /* bytes from the start before the first one not captured */
	bool invalidate;
	uint32_t inv_rkey;
	uint64_t ts_usec;
	uint64_t psn_gaps;        /* PSN gaps seen so far: packets went missing between two Sends */
};

struct rr_xfer *rr_xfer_new(void);
void rr_xfer_free(struct rr_xfer *x);

void rr_xfer_event(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev);
/* IB/RoCE: an ACK or NAK tells how far the other side's request stream reached (xfer_seq.c). */
void rr_xfer_ack(struct rr_engine *eng, const struct rr_event *ev);
/* The Send the last event completed: moved into *out (false: none).  Release it after. */
bool rr_xfer_take_send(struct rr_engine *eng, struct rr_send_done *out);
void rr_xfer_send_release(struct rr_send_done *d);
/* IB CM REQ: the active side's first PSN, kept (bounded) until its REP (xfer_seq.c). */
void rr_xfer_cm_req(struct rr_engine *eng, const struct rr_event *req);
/*
 * A new connection on the flow's QP numbers (the handshake, rep the CM REP
 * event): PSNs start a new sequence, at the PSN the REQ or REP gave the
 * flow's sender, so that packets lost from its very start count too.
 */
void rr_xfer_flow_restart(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *rep);
/* The connection went away: forget partial transfers (their bytes are lost). */
void rr_xfer_flow_reset(struct rr_engine *eng, struct rr_flow *f);
/* The flow is forgotten: free its transfer state (after a reset, or at the engine's end). */
void rr_xfer_flow_free(struct rr_flow *f);

#endif
