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

/*
 * The accessors are inline: every field of every frame goes through them,
 * and a call per field cost more than the read.  rr_cursor_take_ is the
 * single place that decides whether n more bytes may be read; every other
 * read goes through it or through rr_cursor_look_ (the peeks).
 */
static inline void rr_cursor_init(struct rr_cursor *cur, const void *buf, size_t len)
{
	cur->base = buf;
	cur->len = buf ? len : 0;
	cur->pos = 0;
	cur->err = false;
}

static inline size_t rr_cursor_left(const struct rr_cursor *cur)
{
	return cur->err ? 0 : cur->len - cur->pos;
}

static inline size_t rr_cursor_pos(const struct rr_cursor *cur)
{
	return cur->pos;
}

static inline const uint8_t *rr_cursor_take_(struct rr_cursor *cur, size_t n)
{
	const uint8_t *p;

	if (cur->err || n > cur->len - cur->pos) {
		cur->err = true;
		return NULL;
	}
	p = cur->base + cur->pos;
	cur->pos += n;
	return p;
}

static inline const uint8_t *rr_cursor_look_(const struct rr_cursor *cur, size_t ahead, size_t n)
{
	if (cur->err || ahead > cur->len - cur->pos || n > cur->len - cur->pos - ahead)
		return NULL;
	return cur->base + cur->pos + ahead;
}

static inline uint32_t rr_cursor_be32_(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Fixed-width integers. */
static inline bool rr_get_u8(struct rr_cursor *cur, uint8_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 1);

	if (!p)
		return false;
	*v = p[0];
	return true;
}

static inline bool rr_get_be16(struct rr_cursor *cur, uint16_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 2);

	if (!p)
		return false;
	*v = (uint16_t)(p[0] << 8 | p[1]);
	return true;
}

static inline bool rr_get_be24(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 3);

	if (!p)
		return false;
	*v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
	return true;
}

static inline bool rr_get_be32(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 4);

	if (!p)
		return false;
	*v = rr_cursor_be32_(p);
	return true;
}

static inline bool rr_get_be64(struct rr_cursor *cur, uint64_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 8);

	if (!p)
		return false;
	*v = (uint64_t)rr_cursor_be32_(p) << 32 | rr_cursor_be32_(p + 4);
	return true;
}

static inline bool rr_get_le16(struct rr_cursor *cur, uint16_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 2);

	if (!p)
		return false;
	*v = (uint16_t)(p[1] << 8 | p[0]);
	return true;
}

static inline bool rr_get_le32(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = rr_cursor_take_(cur, 4);

	if (!p)
		return false;
	*v = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	return true;
}

static inline bool rr_get_le64(struct rr_cursor *cur, uint64_t *v)
{
	uint32_t lo, hi;

	if (!rr_get_le32(cur, &lo) || !rr_get_le32(cur, &hi))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

/* Peek without consuming; fails (without latching err) when short. */
static inline bool rr_peek_be32(const struct rr_cursor *cur, size_t ahead, uint32_t *v)
{
	const uint8_t *p = rr_cursor_look_(cur, ahead, 4);

	if (!p)
		return false;
	*v = rr_cursor_be32_(p);
	return true;
}

static inline bool rr_peek_u8(const struct rr_cursor *cur, size_t ahead, uint8_t *v)
{
	const uint8_t *p = rr_cursor_look_(cur, ahead, 1);

	if (!p)
		return false;
	*v = p[0];
	return true;
}

/* Raw bytes: *p points into the cursor's buffer, valid while it is. */
static inline bool rr_get_bytes(struct rr_cursor *cur, size_t n, const uint8_t **p)
{
	const uint8_t *q = rr_cursor_take_(cur, n);

	if (!q)
		return false;
	*p = q;
	return true;
}

bool rr_copy_bytes(struct rr_cursor *cur, void *dst, size_t n);

static inline bool rr_skip(struct rr_cursor *cur, size_t n)
{
	return rr_cursor_take_(cur, n) != NULL;
}

/* Move to an absolute position within the cursor (0..len). */
static inline bool rr_seek(struct rr_cursor *cur, size_t pos)
{
	if (cur->err || pos > cur->len) {
		cur->err = true;
		return false;
	}
	cur->pos = pos;
	return true;
}

/* Rest of the buffer, consumed. n may be 0. */
static inline void rr_get_rest(struct rr_cursor *cur, const uint8_t **p, size_t *n)
{
	size_t left = rr_cursor_left(cur);

	*p = rr_cursor_take_(cur, left);
	*n = *p ? left : 0;
}

/* A cursor over the next n bytes; the parent advances past them. */
static inline bool rr_cursor_sub(struct rr_cursor *cur, size_t n, struct rr_cursor *sub)
{
	const uint8_t *p = rr_cursor_take_(cur, n);

	if (!p)
		return false;
	rr_cursor_init(sub, p, n);
	return true;
}

/* XDR (RFC 4506). */
static inline size_t rr_xdr_pad(size_t n)
{
	return (4 - (n & 3)) & 3;
}
static inline uint64_t rr_xdr_roundup(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}
static inline bool rr_xdr_u32(struct rr_cursor *cur, uint32_t *v)
{
	return rr_get_be32(cur, v);
}
static inline bool rr_xdr_u64(struct rr_cursor *cur, uint64_t *v)
{
	return rr_get_be64(cur, v);
}
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
