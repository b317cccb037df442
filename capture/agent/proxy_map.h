/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proxy_map.h - the relay's chunk arithmetic, apart from any verbs: which
 * read chunks a call carries, the one-segment chunks the proxy offers in
 * their place, how many bytes a responder returned in each chunk, and the
 * requester's chunks returned with the lengths that were filled (RFC 8166
 * 3.4.6: a Write chunk's segments are filled in order; 4.3.3: every Write
 * chunk and an offered Reply chunk come back in the reply).  Headers come
 * decoded by the engine (rpcrdma/hdr.h) and go out as the generator's
 * pg_chunk, which pg_rdmamsg_encode() writes.  Unit-tested in
 * tests/agent_proxy.
 */
#ifndef AGENT_PROXY_MAP_H
#define AGENT_PROXY_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/hdr.h>

#include "pg_rpcrdma.h"

/* One read chunk of a call: the segments that share a Position, in order. */
struct px_rchunk {
	uint32_t position;
	uint32_t first, count;   /* indexes into rr_hdr.reads */
	uint64_t length;         /* the chunk's bytes, all its segments */
};

/*
 * Groups h's read list into chunks (RFC 8166 3.4.5: consecutive segments
 * with the same Position are one chunk).  Returns how many (at most max);
 * false in *ok when the list has more chunks than max.
 */
unsigned px_read_chunks(const struct rr_hdr *h, struct px_rchunk *out, unsigned max, bool *ok);

/* A chunk of one segment (handle, length, offset); position for a read chunk. */
pg_chunk *px_offer(uint32_t position, uint32_t handle, uint32_t length, uint64_t offset);

/* Bytes a responder returned in write chunk k of its reply (0 when the list is shorter). */
uint64_t px_returned(const struct rr_hdr *reply, uint32_t k);
/* Bytes returned in the reply's Reply chunk (0 without one). */
uint64_t px_returned_reply(const struct rr_hdr *reply);

/*
 * The requester's chunk c (of call header h) as it comes back when used
 * bytes were written into it: its segments in order, each as long as what
 * it received (RFC 8166 3.4.6).  false when used exceeds the chunk.
 */
bool px_fill(const struct rr_hdr *h, const struct rr_write_chunk *c, uint64_t used, pg_chunk *out);

/*
 * The returned chunks of a reply to call h into m: write chunk k filled
 * with wused[k] bytes, the Reply chunk (when h offered one) with rused
 * (0: returned with every length zero).  The chunks go into own (freed by
 * the caller with px_chunks_free()).  false when a length exceeds its chunk.
 */
bool px_returned_chunks(pg_rdmamsg *m, const struct rr_hdr *h, const uint64_t *wused, uint64_t rused,
			GPtrArray *own);

/* A GPtrArray of pg_chunk that frees them. */
GPtrArray *px_chunks_new(void);
void px_chunks_free(GPtrArray *own);

/*
 * The transport header's length of a reply to h, chunks returned (RFC 8166
 * 4.3): what decides whether a reply of n Payload bytes fits inline.
 */
size_t px_reply_hdr_len(const struct rr_hdr *h);

#endif
