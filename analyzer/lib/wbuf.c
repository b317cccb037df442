// SPDX-License-Identifier: GPL-2.0-or-later
/* The growable writer; see wbuf.h. */
#include <glib.h>
#include <string.h>

#include "wbuf.h"

void rr_wbuf_init(struct rr_wbuf *w, size_t limit)
{
	memset(w, 0, sizeof(*w));
	w->limit = limit ? limit : RR_WBUF_DEFAULT_LIMIT;
}

void rr_wbuf_free(struct rr_wbuf *w)
{
	g_free(w->data);
	w->data = NULL;
	w->len = w->cap = 0;
}

uint8_t *rr_wbuf_steal(struct rr_wbuf *w, size_t *len)
{
	uint8_t *d = w->data;

	*len = w->len;
	w->data = NULL;
	w->len = w->cap = 0;
	return d;
}

void rr_wbuf_reset(struct rr_wbuf *w)
{
	w->len = 0;
	w->err = false;
}

static uint8_t *room(struct rr_wbuf *w, size_t n)
{
	size_t want;

	if (w->err || n > w->limit - w->len) {
		w->err = true;
		return NULL;
	}
	want = w->len + n;
	if (want > w->cap) {
		size_t cap = w->cap ? w->cap : 256;

		while (cap < want)
			cap = cap > w->limit / 2 ? w->limit : cap * 2;
		w->data = g_realloc(w->data, cap);
		w->cap = cap;
	}
	w->len += n;
	return w->data + w->len - n;
}

bool rr_put_u8(struct rr_wbuf *w, uint8_t v)
{
	uint8_t *p = room(w, 1);

	if (!p)
		return false;
	p[0] = v;
	return true;
}

bool rr_put_be16(struct rr_wbuf *w, uint16_t v)
{
	uint8_t *p = room(w, 2);

	if (!p)
		return false;
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return true;
}

bool rr_put_be24(struct rr_wbuf *w, uint32_t v)
{
	uint8_t *p = room(w, 3);

	if (!p)
		return false;
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
	return true;
}

static void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

bool rr_put_be32(struct rr_wbuf *w, uint32_t v)
{
	uint8_t *p = room(w, 4);

	if (!p)
		return false;
	store_be32(p, v);
	return true;
}

bool rr_put_be64(struct rr_wbuf *w, uint64_t v)
{
	return rr_put_be32(w, (uint32_t)(v >> 32)) && rr_put_be32(w, (uint32_t)v);
}

bool rr_put_le16(struct rr_wbuf *w, uint16_t v)
{
	uint8_t *p = room(w, 2);

	if (!p)
		return false;
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return true;
}

bool rr_put_le32(struct rr_wbuf *w, uint32_t v)
{
	return rr_put_le16(w, (uint16_t)v) && rr_put_le16(w, (uint16_t)(v >> 16));
}

bool rr_put_bytes(struct rr_wbuf *w, const void *src, size_t n)
{
	uint8_t *p = room(w, n);

	if (!p)
		return false;
	if (n)
		memcpy(p, src, n);
	return true;
}

bool rr_put_zeros(struct rr_wbuf *w, size_t n)
{
	uint8_t *p = room(w, n);

	if (!p)
		return false;
	memset(p, 0, n);
	return true;
}

bool rr_wbuf_patch_be32(struct rr_wbuf *w, size_t at, uint32_t v)
{
	if (w->err || at > w->len || w->len - at < 4) {
		w->err = true;
		return false;
	}
	store_be32(w->data + at, v);
	return true;
}

bool rr_xdr_put_fixed(struct rr_wbuf *w, const void *p, size_t n)
{
	return rr_put_bytes(w, p, n) && rr_put_zeros(w, (4 - (n & 3)) & 3);
}

bool rr_xdr_put_opaque(struct rr_wbuf *w, const void *p, uint32_t n)
{
	return rr_put_be32(w, n) && rr_xdr_put_fixed(w, p, n);
}
