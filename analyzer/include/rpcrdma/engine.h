/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - the RPC-over-RDMA engine: events in, rebuilt RPC messages out.
 *
 *   frames -> transport decoder -> rr_engine_feed(event)
 *          -> connection tracking (conn.c) -> transfer assembly (xfer.c)
 *          -> chunk segments (segstore.c) -> message rebuild (rebuild.c)
 *          -> rr_message_fn (reporters: ulb-lint, the plugin)
 *
 * What a message's payload is: the bytes the same RPC message would carry
 * on TCP, without the record mark.  A complete XDR stream: chunk data put
 * back at its place, XDR pads restored as zeros.  Messages that carry no
 * RPC message (RDMA_DONE, RDMA_ERROR) are reported with an empty payload.
 *
 * Order of delivery: a call is delivered when its last byte has been seen
 * (the Send, plus every Read chunk byte); a reply when its Send has been
 * seen (RDMA Writes precede the Send on the wire).  A call whose read chunk
 * never completes is delivered, marked incomplete, when its reply arrives,
 * when its connection is torn down, or by rr_engine_finish().
 *
 * Memory: state is kept per outstanding call and per advertised segment,
 * capped by struct rr_engine_limits, and dropped when the reply has been
 * rebuilt or the connection torn down.  A limit hit is an ENG-LIMIT
 * diagnostic, never an allocation of a size taken from the wire.
 */
#ifndef RPCRDMA_ENGINE_H
#define RPCRDMA_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "event.h"
#include "hdr.h"
#include "rpc.h"
#include "ulp.h"

struct rr_engine_limits {
	uint32_t max_calls_per_flow;     /* outstanding calls in one direction (default 8192) */
	uint32_t max_segment_bytes;      /* largest segment buffered (default 64 MiB) */
	uint64_t max_buffered_bytes;     /* all chunk and Send data held at once (default 1 GiB) */
	uint32_t max_send_bytes;         /* largest multi-packet Send (default 16 MiB) */
	uint64_t max_message_bytes;      /* largest rebuilt RPC message (default 64 MiB) */
	uint32_t max_flows;              /* one-way flows tracked (default 65536) */
};

enum rr_msg_dir {
	RR_DIR_CALL = 0,
	RR_DIR_REPLY = 1,
};

struct rr_message {
	uint32_t xid;
	enum rr_msg_dir dir;
	bool backchannel;             /* sent in the backward direction (RFC 8166 7) */
	/*
	 * 1-based connection number.  Without the handshake, two flows first
	 * seen as separate connections may later be proved one (a reply
	 * matches a call); the older number is kept from then on, so messages
	 * delivered before that carry the other one.
	 */
	uint32_t conn_id;
	const char *conn_name;        /* "rocev2 10.0.0.1 qp 0x11 <-> 10.0.0.2 qp 0x12" */
	uint8_t transport;            /* enum rr_transport */

	const struct rr_hdr *hdr;     /* transport header of the Send */
	uint32_t credit;

	const uint64_t *frames;       /* every frame that carried bytes of it, ascending */
	size_t n_frames;

	const uint8_t *payload;       /* see above; valid during the callback */
	size_t payload_len;
	bool complete;                /* every byte of every chunk was seen */

	bool has_rpc;                 /* payload decoded as an RPC call or reply header */
	struct rr_rpc_call call;      /* dir == CALL */
	struct rr_rpc_reply reply;    /* dir == REPLY */
	bool has_ulp;                 /* ulp is valid (program known) */
	struct rr_ulp_info ulp;       /* procedure, NFSv4 op list */
	const struct rr_ulp_info *call_ulp;  /* replies: what the matching call said, or NULL */
};

typedef void (*rr_message_fn)(void *ctx, const struct rr_message *msg);

struct rr_engine_stats {
	uint64_t events;
	uint64_t messages;
	uint64_t calls, replies;
	uint64_t incomplete;
	uint64_t rdma_unmatched;      /* Read/Write bytes that matched no advertised segment */
	uint64_t not_rpcrdma;         /* Sends that were not RPC-over-RDMA */
	uint64_t dup_packets;
	uint64_t connections;
};

struct rr_engine;

void rr_engine_default_limits(struct rr_engine_limits *lim);
/* limits may be NULL for the defaults. */
struct rr_engine *rr_engine_new(const struct rr_engine_limits *limits,
				rr_message_fn fn, void *ctx, const struct rr_diag_sink *diag);
void rr_engine_feed(struct rr_engine *eng, const struct rr_event *ev);
/* End of input: deliver what is still pending (marked incomplete). */
void rr_engine_finish(struct rr_engine *eng);
const struct rr_engine_stats *rr_engine_stats(const struct rr_engine *eng);
void rr_engine_free(struct rr_engine *eng);

#endif
