// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcp_table.c - the table of TCP directions and its memory accounting.
 *
 * A direction is counted in the budget for what the allocator holds for
 * it: glib grows arrays to powers of two and never shrinks them, so the
 * count follows high-water marks, and capacity a burst left behind is
 * given back once the data has mostly gone (docs/architecture.md).
 */
#include <stdlib.h>
#include <string.h>

#include "stream.h"
#include "tcp_table.h"

#define SHRINK_FROM   (256u << 10)  /* capacity worth giving back */

struct tcp_table {
	GHashTable *streams;    /* struct stream_key -> struct tcp_stream */
	struct tcp_stream *last;    /* the stream found last: most segments repeat it */
	size_t held;            /* sum of the streams' acct */
	bool told_full;
};

static guint key_hash(gconstpointer k)
{
	const struct stream_key *key = k;
	uint64_t h = key->version ^ (uint64_t)key->sport << 16 ^ (uint64_t)key->dport << 32;

	for (int i = 0; i < 16; i += 4) {
		uint32_t a, b;

		memcpy(&a, key->src + i, 4);
		memcpy(&b, key->dst + i, 4);
		h = (h ^ a) * 0x9E3779B97F4A7C15u;
		h = (h ^ b) * 0x9E3779B97F4A7C15u;
	}
	return (guint)(h ^ h >> 32);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
	const struct stream_key *x = a, *y = b;

	return x->version == y->version && x->sport == y->sport && x->dport == y->dport &&
	       memcmp(x->src, y->src, 16) == 0 && memcmp(x->dst, y->dst, 16) == 0;
}

static void stream_free(gpointer p)
{
	stream_release(p);
	g_free(p);
}

struct tcp_table *tcp_table_new(void)
{
	struct tcp_table *t = g_new0(struct tcp_table, 1);

	t->streams = g_hash_table_new_full(key_hash, key_equal, NULL, stream_free);
	return t;
}

void tcp_table_clear(struct tcp_table *t)
{
	g_hash_table_remove_all(t->streams);
	t->last = NULL;
	t->held = 0;
}

void tcp_table_free(struct tcp_table *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->streams);
	g_free(t);
}

struct tcp_stream *tcp_table_find(struct tcp_table *t, const struct stream_key *k)
{
	struct tcp_stream *s;

	if (t->last && key_equal(k, &t->last->key))
		return t->last;
	s = g_hash_table_lookup(t->streams, k);
	if (s)
		t->last = s;
	return s;
}

struct tcp_stream *tcp_table_get(struct tcp_table *t, const struct stream_key *k)
{
	return g_hash_table_lookup(t->streams, k);
}

struct tcp_stream *tcp_table_add(struct tcp_table *t, const struct stream_key *k)
{
	struct tcp_stream *s = g_new0(struct tcp_stream, 1);

	s->key = *k;
	g_hash_table_insert(t->streams, &s->key, s);
	t->last = s;
	return s;
}

guint tcp_table_size(const struct tcp_table *t)
{
	return g_hash_table_size(t->streams);
}

struct tcp_stream *stream_peer(struct rr_frame_ctx *fx, const struct tcp_stream *s)
{
	struct stream_key k = s->key;
	struct tcp_stream *p;

	if (s->peer)
		return s->peer;
	memcpy(k.src, s->key.dst, 16);
	memcpy(k.dst, s->key.src, 16);
	k.sport = s->key.dport;
	k.dport = s->key.sport;
	p = g_hash_table_lookup(fx->d->tcp->streams, &k);
	/* Streams stay in the table until the end: the pointer stays good. */
	((struct tcp_stream *)s)->peer = p;
	return p;
}

void tcp_table_walk(struct tcp_table *t, GHashTableIter *it)
{
	g_hash_table_iter_init(it, t->streams);
}

bool tcp_table_next(GHashTableIter *it, struct tcp_stream **s)
{
	gpointer v;

	if (!g_hash_table_iter_next(it, NULL, &v))
		return false;
	*s = v;
	return true;
}

/* ---- memory accounting ---------------------------------------------------- */

/* glib grows arrays to powers of two and never shrinks them. */
static size_t alloc_size(size_t n)
{
	size_t c = 16;

	if (!n)
		return 0;
	while (c < n)
		c <<= 1;
	return c;
}

/* What one direction holds, as the allocator sees it. */
static size_t stream_held(const struct tcp_stream *s)
{
	return alloc_size(s->buf_hi) + 2 * alloc_size((size_t)s->segs_hi * sizeof(uint64_t)) +
	       alloc_size((size_t)s->holes_hi * sizeof(struct stream_hole)) + s->ooo_bytes +
	       (size_t)s->ooo_pieces * (sizeof(struct ooo_piece) + 32);
}

static GArray *array_shrunk(GArray *a, guint elt)
{
	GArray *n = g_array_sized_new(FALSE, FALSE, elt, a->len);

	g_array_append_vals(n, a->data, a->len);
	g_array_free(a, TRUE);
	return n;
}

/* Give back capacity a burst left behind once the data is mostly gone. */
static void shrink(struct tcp_stream *s)
{
	if (s->buf && s->buf_hi >= SHRINK_FROM && s->buf->len < s->buf_hi / 4) {
		GByteArray *n = g_byte_array_sized_new(s->buf->len);

		g_byte_array_append(n, s->buf->data, s->buf->len);
		g_byte_array_free(s->buf, TRUE);
		s->buf = n;
		s->buf_hi = n->len;
	}
	if (s->segs && s->segs_hi * sizeof(uint64_t) >= SHRINK_FROM / 4 &&
	    s->segs->len < s->segs_hi / 4) {
		s->segs = array_shrunk(s->segs, sizeof(uint64_t));
		s->seg_frames = array_shrunk(s->seg_frames, sizeof(struct seg_origin));
		s->segs_hi = s->segs->len;
	}
	if (s->holes && s->holes_hi * sizeof(struct stream_hole) >= SHRINK_FROM / 4 &&
	    s->holes->len < s->holes_hi / 4) {
		s->holes = array_shrunk(s->holes, sizeof(struct stream_hole));
		s->holes_hi = s->holes->len;
	}
}

void tcp_table_settle(struct tcp_table *t, struct tcp_stream *s)
{
	size_t now;

	shrink(s);
	now = stream_held(s);
	t->held = t->held - s->acct + now;
	s->acct = now;
}

size_t tcp_table_held(const struct tcp_table *t)
{
	return t->held;
}

struct tcp_stream *tcp_table_biggest(struct tcp_table *t)
{
	GHashTableIter it;
	gpointer v;
	struct tcp_stream *big = NULL;

	g_hash_table_iter_init(&it, t->streams);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct tcp_stream *s = v;

		if (!big || s->acct > big->acct)
			big = s;
	}
	return big;
}

bool tcp_table_first_full(struct tcp_table *t)
{
	if (t->told_full)
		return false;
	t->told_full = true;
	return true;
}

static int by_last_frame(const void *a, const void *b)
{
	const struct tcp_stream *x = *(struct tcp_stream *const *)a;
	const struct tcp_stream *y = *(struct tcp_stream *const *)b;

	return x->last_frame < y->last_frame ? -1 : x->last_frame > y->last_frame;
}

struct tcp_stream **tcp_table_by_age(struct tcp_table *t, const struct tcp_stream *keep,
				     guint *n)
{
	struct tcp_stream **all = g_new(struct tcp_stream *, g_hash_table_size(t->streams));
	GHashTableIter it;
	gpointer v;
	guint k = 0;

	g_hash_table_iter_init(&it, t->streams);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (v != keep)
			all[k++] = v;
	qsort(all, k, sizeof(*all), by_last_frame);
	*n = k;
	return all;
}

void tcp_table_forget(struct tcp_table *t, struct tcp_stream *s)
{
	if (s->peer)
		s->peer->peer = NULL;
	if (t->last == s)
		t->last = NULL;
	t->held -= s->acct;
	g_hash_table_remove(t->streams, &s->key);
}
