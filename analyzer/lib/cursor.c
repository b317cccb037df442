// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded reader; see cursor.h for the contract. */
#include <string.h>

#include "cursor.h"

void rr_cursor_init(struct rr_cursor *cur, const void *buf, size_t len)
{
	cur->base = buf;
	cur->len = buf ? len : 0;
	cur->pos = 0;
	cur->err = false;
}

/* The single place that decides whether n more bytes may be read. */
static const uint8_t *take(struct rr_cursor *cur, size_t n)
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

static const uint8_t *look(const struct rr_cursor *cur, size_t ahead, size_t n)
{
	if (cur->err || ahead > cur->len - cur->pos || n > cur->len - cur->pos - ahead)
		return NULL;
	return cur->base + cur->pos + ahead;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool rr_get_u8(struct rr_cursor *cur, uint8_t *v)
{
	const uint8_t *p = take(cur, 1);

	if (!p)
		return false;
	*v = p[0];
	return true;
}

bool rr_get_be16(struct rr_cursor *cur, uint16_t *v)
{
	const uint8_t *p = take(cur, 2);

	if (!p)
		return false;
	*v = (uint16_t)(p[0] << 8 | p[1]);
	return true;
}

bool rr_get_be24(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = take(cur, 3);

	if (!p)
		return false;
	*v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
	return true;
}

bool rr_get_be32(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = take(cur, 4);

	if (!p)
		return false;
	*v = be32(p);
	return true;
}

bool rr_get_be64(struct rr_cursor *cur, uint64_t *v)
{
	const uint8_t *p = take(cur, 8);

	if (!p)
		return false;
	*v = (uint64_t)be32(p) << 32 | be32(p + 4);
	return true;
}

bool rr_get_le16(struct rr_cursor *cur, uint16_t *v)
{
	const uint8_t *p = take(cur, 2);

	if (!p)
		return false;
	*v = (uint16_t)(p[1] << 8 | p[0]);
	return true;
}

bool rr_get_le32(struct rr_cursor *cur, uint32_t *v)
{
	const uint8_t *p = take(cur, 4);

	if (!p)
		return false;
	*v = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	return true;
}

bool rr_get_le64(struct rr_cursor *cur, uint64_t *v)
{
	uint32_t lo, hi;

	if (!rr_get_le32(cur, &lo) || !rr_get_le32(cur, &hi))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

bool rr_peek_be32(const struct rr_cursor *cur, size_t ahead, uint32_t *v)
{
	const uint8_t *p = look(cur, ahead, 4);

	if (!p)
		return false;
	*v = be32(p);
	return true;
}

bool rr_peek_u8(const struct rr_cursor *cur, size_t ahead, uint8_t *v)
{
	const uint8_t *p = look(cur, ahead, 1);

	if (!p)
		return false;
	*v = p[0];
	return true;
}

bool rr_get_bytes(struct rr_cursor *cur, size_t n, const uint8_t **p)
{
	const uint8_t *q = take(cur, n);

	if (!q)
		return false;
	*p = q;
	return true;
}

bool rr_copy_bytes(struct rr_cursor *cur, void *dst, size_t n)
{
	const uint8_t *q = take(cur, n);

	if (!q)
		return false;
	if (n)
		memcpy(dst, q, n);
	return true;
}

bool rr_skip(struct rr_cursor *cur, size_t n)
{
	return take(cur, n) != NULL;
}

bool rr_seek(struct rr_cursor *cur, size_t pos)
{
	if (cur->err || pos > cur->len) {
		cur->err = true;
		return false;
	}
	cur->pos = pos;
	return true;
}

void rr_get_rest(struct rr_cursor *cur, const uint8_t **p, size_t *n)
{
	size_t left = rr_cursor_left(cur);

	*p = take(cur, left);
	*n = *p ? left : 0;
}

bool rr_cursor_sub(struct rr_cursor *cur, size_t n, struct rr_cursor *sub)
{
	const uint8_t *p = take(cur, n);

	if (!p)
		return false;
	rr_cursor_init(sub, p, n);
	return true;
}

bool rr_xdr_u32(struct rr_cursor *cur, uint32_t *v)
{
	return rr_get_be32(cur, v);
}

bool rr_xdr_u64(struct rr_cursor *cur, uint64_t *v)
{
	return rr_get_be64(cur, v);
}

bool rr_xdr_bool(struct rr_cursor *cur, bool *v)
{
	uint32_t w;

	if (!rr_peek_be32(cur, 0, &w) || w > 1) {
		cur->err = true;
		return false;
	}
	rr_skip(cur, 4);
	*v = w != 0;
	return true;
}

bool rr_xdr_opaque_fixed(struct rr_cursor *cur, size_t n, const uint8_t **p)
{
	const uint8_t *q;

	if (n > SIZE_MAX - 3) {
		cur->err = true;
		return false;
	}
	q = take(cur, n + rr_xdr_pad(n));
	if (!q)
		return false;
	if (p)
		*p = q;
	return true;
}

bool rr_xdr_opaque(struct rr_cursor *cur, uint32_t max, const uint8_t **p, uint32_t *n)
{
	uint32_t len;
	size_t save = cur->pos;

	if (!rr_get_be32(cur, &len))
		return false;
	if (len > max || !rr_xdr_opaque_fixed(cur, len, p)) {
		cur->pos = save;
		cur->err = true;
		return false;
	}
	if (n)
		*n = len;
	return true;
}

bool rr_xdr_skip_opaque(struct rr_cursor *cur, uint32_t max)
{
	return rr_xdr_opaque(cur, max, NULL, NULL);
}

bool rr_xdr_skip(struct rr_cursor *cur, uint64_t n)
{
	uint64_t r = rr_xdr_roundup(n);

	if (r < n || r > SIZE_MAX) {
		cur->err = true;
		return false;
	}
	return rr_skip(cur, (size_t)r);
}
