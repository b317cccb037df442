/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cursor.h - the one bounded reader for packet and message bytes.
 *
 * Every decoder in the toolkit (link layers, IB/iWARP headers, the
 * RPC-over-RDMA header, RPC and NFS XDR) reads through a struct rr_cursor.
 * No decoder does pointer arithmetic on packet bytes itself.
 *
 * Contract:
 *  - A read that would go past the end fails, returns false, leaves the
 *    output untouched, and latches cur->err.  Once err is set every further
 *    read fails, so a decoder may chain reads and test once at the end.
 *  - Multi-byte integers are big-endian (network and XDR order) unless the
 *    name says _le.
 *  - XDR helpers work in 4-octet units: opaques are padded to a multiple of
 *    4, booleans must be exactly 0 or 1 (RFC 4506 4.4), and a variable
 *    opaque longer than its stated maximum fails.
 *  - rr_cursor_sub() gives a cursor over the next n bytes and advances the
 *    parent past them, so nested structures cannot read past their own end.
 */
#ifndef RPCRDMA_CURSOR_H
#define RPCRDMA_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rr_cursor {
	const uint8_t *base;
	size_t len;
	size_t pos;
	bool err;
};

void rr_cursor_init(struct rr_cursor *cur, const void *buf, size_t len);

static inline size_t rr_cursor_left(const struct rr_cursor *cur)
{
	return cur->err ? 0 : cur->len - cur->pos;
}

static inline size_t rr_cursor_pos(const struct rr_cursor *cur)
{
	return cur->pos;
}

/* Fixed-width integers. */
bool rr_get_u8(struct rr_cursor *cur, uint8_t *v);
bool rr_get_be16(struct rr_cursor *cur, uint16_t *v);
bool rr_get_be24(struct rr_cursor *cur, uint32_t *v);
bool rr_get_be32(struct rr_cursor *cur, uint32_t *v);
bool rr_get_be64(struct rr_cursor *cur, uint64_t *v);
bool rr_get_le16(struct rr_cursor *cur, uint16_t *v);
bool rr_get_le32(struct rr_cursor *cur, uint32_t *v);
bool rr_get_le64(struct rr_cursor *cur, uint64_t *v);

/* Peek without consuming; fails (without latching err) when short. */
bool rr_peek_be32(const struct rr_cursor *cur, size_t ahead, uint32_t *v);
bool rr_peek_u8(const struct rr_cursor *cur, size_t ahead, uint8_t *v);

/* Raw bytes: *p points into the cursor's buffer, valid while it is. */
bool rr_get_bytes(struct rr_cursor *cur, size_t n, const uint8_t **p);
bool rr_copy_bytes(struct rr_cursor *cur, void *dst, size_t n);
bool rr_skip(struct rr_cursor *cur, size_t n);
/* Move to an absolute position within the cursor (0..len). */
bool rr_seek(struct rr_cursor *cur, size_t pos);
/* Rest of the buffer, consumed. n may be 0. */
void rr_get_rest(struct rr_cursor *cur, const uint8_t **p, size_t *n);

/* A cursor over the next n bytes; the parent advances past them. */
bool rr_cursor_sub(struct rr_cursor *cur, size_t n, struct rr_cursor *sub);

/* XDR (RFC 4506). */
static inline size_t rr_xdr_pad(size_t n)
{
	return (4 - (n & 3)) & 3;
}
static inline uint64_t rr_xdr_roundup(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}
bool rr_xdr_u32(struct rr_cursor *cur, uint32_t *v);
bool rr_xdr_u64(struct rr_cursor *cur, uint64_t *v);
bool rr_xdr_bool(struct rr_cursor *cur, bool *v);
/* Fixed-length opaque of n bytes plus its pad. */
bool rr_xdr_opaque_fixed(struct rr_cursor *cur, size_t n, const uint8_t **p);
/* Variable opaque/string: length word (<= max), bytes, pad. */
bool rr_xdr_opaque(struct rr_cursor *cur, uint32_t max, const uint8_t **p, uint32_t *n);
/* Skip a variable opaque without looking at it. */
bool rr_xdr_skip_opaque(struct rr_cursor *cur, uint32_t max);
/* Skip n bytes rounded up to the XDR unit. */
bool rr_xdr_skip(struct rr_cursor *cur, uint64_t n);

#endif
