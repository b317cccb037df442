// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded reader's larger helpers; the accessors are inline in cursor.h (its contract). */
#include <string.h>

#include "cursor.h"

bool rr_copy_bytes(struct rr_cursor *cur, void *dst, size_t n)
{
	const uint8_t *q = rr_cursor_take_(cur, n);

	if (!q)
		return false;
	if (n)
		memcpy(dst, q, n);
	return true;
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
	q = rr_cursor_take_(cur, n + rr_xdr_pad(n));
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
