/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pg_splice.h - a call's Payload stream put back together from what its
 * receiver holds: the inline part (for a Long Call, the Position-Zero
 * read chunk) and the other read chunks.
 *
 * Each read chunk's bytes go in at its Position, an offset in the Payload
 * stream, and are followed by the XDR roundup of the chunk's own length:
 * zeros up to a multiple of 4 of the data item (RFC 4506 §4.10), which a
 * requester does not send in the chunk (RFC 8166 §3.4.5.2).  Written from
 * the RFCs alone, beside the generator: the live agent's responder builds
 * its record of a call with it, so that what it hashes is checked against
 * the engine's rebuild by code that shares nothing with analyzer/.
 */
#ifndef PG_SPLICE_H
#define PG_SPLICE_H

#include "pg_common.h"

/* One read chunk: its Position and its bytes, its segments in order. */
typedef struct {
	uint32_t position;
	const uint8_t *data;
	uint32_t len;
} pg_splice_chunk;

/*
 * The Payload into out: inl with chunks[0..n) inserted in ascending
 * Position.  false, with a sentence in err, when a Position falls inside
 * data already placed or beyond what the inline part can reach.
 */
bool pg_splice_call(const uint8_t *inl, size_t inl_len, const pg_splice_chunk *chunks, unsigned n,
		    GByteArray *out, char *err, size_t errlen);

#endif
