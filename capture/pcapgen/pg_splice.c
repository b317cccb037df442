// SPDX-License-Identifier: GPL-2.0-or-later
/* A call's Payload from its inline part and read chunks (pg_splice.h). */
#include "pg_splice.h"

#include <stdio.h>

#include "pg_buf.h"

/* XDR roundup (RFC 4506 §4.10): zeros that bring n up to a multiple of 4. */
static size_t roundup_zeros(uint32_t n)
{
	return (4 - n % 4) % 4;
}

bool pg_splice_call(const uint8_t *inl, size_t inl_len, const pg_splice_chunk *chunks, unsigned n,
		    GByteArray *out, char *err, size_t errlen)
{
	size_t used = 0;        /* inline bytes already in out */

	g_byte_array_set_size(out, 0);
	for (unsigned i = 0; i < n; i++) {
		const pg_splice_chunk *c = &chunks[i];
		size_t before;

		/* The Position counts the Payload stream, chunks and their roundup included. */
		if (c->position < out->len) {
			snprintf(err, errlen, "read chunk %u: Position %u falls inside earlier data", i,
				 c->position);
			return false;
		}
		before = c->position - out->len;
		if (before > inl_len - used) {
			snprintf(err, errlen, "read chunk %u: Position %u is beyond the %zu inline bytes", i,
				 c->position, inl_len);
			return false;
		}
		pb_bytes(out, inl + used, before);
		used += before;
		pb_bytes(out, c->data, c->len);
		pb_zero(out, roundup_zeros(c->len));
	}
	pb_bytes(out, inl + used, inl_len - used);
	return true;
}
