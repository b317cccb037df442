/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * payload.h - the Payload stream (engine.h's definition: the RPC message
 * as TCP would carry it, chunk data in place, XDR pads as zeros) of a
 * reply, put back together from the pieces the requester really holds:
 * its inline part and the bytes RDMA wrote into its own memory.  Where an
 * item sits in the stream is asked of the engine's ULP walkers, so the
 * agent knows no NFS layout of its own.  A call's Payload, whose read
 * chunks carry their Positions, is pg_splice_call()'s (pcapgen).
 */
#ifndef AGENT_PAYLOAD_H
#define AGENT_PAYLOAD_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include <rpcrdma/hdr.h>
#include <rpcrdma/ulp.h>

/* One write chunk's bytes, in segment order, as the requester has them. */
struct pl_chunk {
	const uint8_t *data;
	uint32_t len;
};

/* What the engine's walk of a call says: program, procedure, ops, counts. */
bool pl_describe_call(const uint8_t *msg, size_t len, struct rr_rpc_call *call,
		      struct rr_ulp_info *info);

/*
 * A reply: base is the inline part (RDMA_MSG) or the Reply chunk's bytes
 * (RDMA_NOMSG); writes[k] holds what came back in write chunk k.  Each
 * result the walk reports is taken from the write chunk of its ordinal
 * when that chunk carried bytes.
 */
bool pl_reply(const struct rr_ulp_info *callinfo, const uint8_t *base, size_t base_len,
	      const struct pl_chunk *writes, unsigned n_writes, GByteArray *out, char *err,
	      size_t errlen);

#endif
