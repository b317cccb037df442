/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xdr_enc.h - a tiny XDR encoder for the ULP tests, on top of struct
 * rr_wbuf.  It knows nothing of the walkers: the tests spell out each
 * structure from the RFC XDR definitions, field by field.
 */
#ifndef RR_TEST_XDR_ENC_H
#define RR_TEST_XDR_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/wbuf.h>

static inline void x_u32(struct rr_wbuf *w, uint32_t v)
{
	rr_put_be32(w, v);
}

static inline void x_u64(struct rr_wbuf *w, uint64_t v)
{
	rr_put_be64(w, v);
}

static inline void x_bool(struct rr_wbuf *w, bool v)
{
	rr_put_be32(w, v ? 1 : 0);
}

/* Variable-length opaque: length, bytes, zero pad. */
static inline void x_opaque(struct rr_wbuf *w, const void *p, uint32_t n)
{
	rr_xdr_put_opaque(w, p, n);
}

static inline void x_str(struct rr_wbuf *w, const char *s)
{
	rr_xdr_put_opaque(w, s, (uint32_t)strlen(s));
}

/* Fixed-length opaque filled with a byte value (plus pad to 4). */
static inline void x_fill(struct rr_wbuf *w, uint8_t byte, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rr_put_u8(w, byte);
	rr_put_zeros(w, (4 - (n & 3)) & 3);
}

/* Only the length word of a variable opaque (its bytes moved to a chunk). */
static inline void x_len_only(struct rr_wbuf *w, uint32_t n)
{
	rr_put_be32(w, n);
}

static inline void x_cursor(struct rr_cursor *c, const struct rr_wbuf *w)
{
	rr_cursor_init(c, w->data, w->len);
}

#endif
