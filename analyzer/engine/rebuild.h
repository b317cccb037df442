/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rebuild.h - the message rebuild (rebuild.c for Sends and calls,
 * rebuild_reply.c for replies): whether a Send is RPC-over-RDMA, and the
 * RPC message Payload rebuilt from its inline part and chunks.  Keeps no
 * state of its own: calls are call.c's, segment bytes the segment store's.
 */
#ifndef RPCRDMA_REBUILD_H
#define RPCRDMA_REBUILD_H

#include "call.h"
#include "xfer.h"

/* A whole Send: judged, counted by the check stage, then a call kept or a message delivered. */
void rr_rebuild_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_send_done *d);
/* Deliver the call if every read segment is complete. */
void rr_call_try_complete(struct rr_engine *eng, struct rr_call *call);
/* Deliver the call if it is still pending, with what it has. */
void rr_call_flush(struct rr_engine *eng, struct rr_call *call);
/* The connection went away: deliver what f's calls have, then drop them. */
void rr_rebuild_flow_reset(struct rr_engine *eng, struct rr_flow *f);

/* rebuild_reply.c, for rr_rebuild_send: a reply, with the call it answers (or NULL). */
void rr_rebuild_reply(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
		      const struct rr_send_done *d, struct rr_call *call);

#endif
