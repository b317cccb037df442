// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream.c - the bytes one TCP direction holds for the MPA parser, and
 * the ways to read them.
 *
 * tcp_stream.c fills them in; MPA framing (mpa.c, mpa_detect.c, fpdu.c)
 * and DDP/RDMAP read them here and say what they no longer need.  The
 * bytes of [buf_off, nxt_off) are in buf, or, during the tcp_segment()
 * call that brought them, still in the frame (s->view).
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "stream.h"

#define COMPACT_AT    (64u << 10)

void stream_ooo_clear(struct tcp_stream *s)
{
	while (s->ooo) {
		struct ooo_piece *p = s->ooo;

		s->ooo = p->next;
		g_free(p->data);
		g_free(p);
	}
	s->ooo_bytes = 0;
	s->ooo_pieces = 0;
}

void stream_release(struct tcp_stream *s)
{
	stream_ooo_clear(s);
	s->view = NULL;
	s->view_len = 0;
	if (s->buf)
		g_byte_array_free(s->buf, TRUE);
	if (s->holes)
		g_array_free(s->holes, TRUE);
	if (s->segs)
		g_array_free(s->segs, TRUE);
	if (s->seg_frames)
		g_array_free(s->seg_frames, TRUE);
	s->seg_frames = NULL;
	s->buf = NULL;
	s->holes = s->segs = NULL;
	s->buf_hi = s->segs_hi = s->holes_hi = 0;
}

/* The bytes of [buf_off, nxt_off), wherever they are. */
static const uint8_t *held(const struct tcp_stream *s, size_t *len)
{
	if (s->view) {
		*len = s->view_len;
		return s->view;
	}
	*len = s->buf->len;
	return s->buf->data;
}

bool stream_cursor(const struct tcp_stream *s, uint64_t off, size_t n, struct rr_cursor *c)
{
	struct rr_cursor all;
	const uint8_t *data;
	size_t len;

	if (!s->buf || off < s->buf_off || off > s->nxt_off || n > s->nxt_off - off)
		return false;
	data = held(s, &len);
	rr_cursor_init(&all, data, len);
	return rr_seek(&all, (size_t)(off - s->buf_off)) && rr_cursor_sub(&all, n, c);
}

size_t stream_captured(const struct tcp_stream *s, uint64_t off, size_t n)
{
	uint64_t end;

	if (!s->buf || off < s->buf_off || off >= s->nxt_off)
		return 0;
	end = off + n < s->nxt_off ? off + n : s->nxt_off;
	for (guint i = 0; i < s->holes->len; i++) {
		const struct stream_hole *h = &g_array_index(s->holes, struct stream_hole, i);

		if (h->b <= off)
			continue;
		if (h->a <= off)
			return 0;
		if (h->a < end)
			end = h->a;
		break;
	}
	return (size_t)(end - off);
}

const uint8_t *stream_span(const struct tcp_stream *s, uint64_t off, size_t n, size_t *got)
{
	const uint8_t *data;
	size_t have = stream_captured(s, off, n), len;

	*got = 0;
	if (!have)
		return NULL;
	data = held(s, &len);
	/* As stream_cursor() would: only bytes the buffer (or view) really has. */
	if (off - s->buf_off > len || have > len - (size_t)(off - s->buf_off))
		return NULL;
	*got = have;
	return data + (off - s->buf_off);
}

uint64_t stream_skip_hole(const struct tcp_stream *s, uint64_t off)
{
	for (guint i = 0; s->holes && i < s->holes->len; i++) {
		const struct stream_hole *h = &g_array_index(s->holes, struct stream_hole, i);

		if (h->a <= off && off < h->b)
			return h->b;
	}
	return off;
}

bool stream_next_seg(const struct tcp_stream *s, uint64_t from, uint64_t *out)
{
	for (guint i = 0; s->segs && i < s->segs->len; i++) {
		uint64_t o = g_array_index(s->segs, uint64_t, i);

		if (o >= from) {
			*out = o;
			return true;
		}
	}
	return false;
}

/* Drop what the parser no longer needs, now and then (memmove cost). */
void stream_consumed(struct tcp_stream *s, uint64_t off)
{
	size_t drop, len;
	guint i;

	if (!s->buf || off <= s->buf_off)
		return;
	if (off > s->nxt_off)
		off = s->nxt_off;
	drop = (size_t)(off - s->buf_off);
	held(s, &len);
	if (drop < COMPACT_AT && drop < len)
		return;
	if (s->view) {
		s->view += drop;
		s->view_len -= drop;
	} else {
		g_byte_array_remove_range(s->buf, 0, (guint)drop);
	}
	s->buf_off = off;
	for (i = 0; i < s->holes->len && g_array_index(s->holes, struct stream_hole, i).b <= off; i++)
		;
	if (i)
		g_array_remove_range(s->holes, 0, i);
	for (i = 0; i < s->segs->len && g_array_index(s->segs, uint64_t, i) < off; i++)
		;
	/* Keep the segment that holds off: its frame carries bytes after off too. */
	if (i > 1) {
		g_array_remove_range(s->segs, 0, i - 1);
		g_array_remove_range(s->seg_frames, 0, i - 1);
	}
}

uint32_t stream_frames(const struct tcp_stream *s, uint64_t a, uint64_t b, uint64_t *out,
		       uint32_t max, uint64_t *last_ts)
{
	uint32_t n = 0;
	guint i;

	for (i = 0; s->segs && i < s->segs->len && n < max; i++) {
		uint64_t start = g_array_index(s->segs, uint64_t, i);
		uint64_t end = i + 1 < s->segs->len ? g_array_index(s->segs, uint64_t, i + 1) : UINT64_MAX;
		const struct seg_origin *o = &g_array_index(s->seg_frames, struct seg_origin, i);

		if (end <= a || start >= b || o->frame == 0)
			continue;
		if (n == 0 || out[n - 1] != o->frame)
			out[n++] = o->frame;
		if (last_ts)
			*last_ts = o->ts;
	}
	return n;
}

void stream_drop(struct tcp_stream *s)
{
	stream_ooo_clear(s);
	s->view = NULL;
	s->view_len = 0;
	if (s->buf)
		g_byte_array_set_size(s->buf, 0);
	if (s->holes)
		g_array_set_size(s->holes, 0);
	if (s->segs)
		g_array_set_size(s->segs, 0);
	if (s->seg_frames)
		g_array_set_size(s->seg_frames, 0);
	s->buf_off = s->nxt_off;
}

void stream_ignore(struct tcp_stream *s)
{
	s->mpa.mode = MPA_IGNORE;
	stream_drop(s);
}

void stream_flow(const struct tcp_stream *s, struct rr_flow_key *flow)
{
	memset(flow, 0, sizeof(*flow));
	flow->transport = RR_TRANSPORT_IWARP;
	flow->src.family = flow->dst.family = s->key.version == 4 ? RR_ADDR_IPV4 : RR_ADDR_IPV6;
	memcpy(flow->src.bytes, s->key.src, 16);
	memcpy(flow->dst.bytes, s->key.dst, 16);
	flow->src.port = s->key.sport;
	flow->dst.port = s->key.dport;
	flow->dst_qp = 0;
}

void stream_name(const struct tcp_stream *s, char *buf, size_t len)
{
	char a[80], b[80];

	ip_fmt_endpoint(a, sizeof(a), s->key.version, s->key.src, s->key.sport);
	ip_fmt_endpoint(b, sizeof(b), s->key.version, s->key.dst, s->key.dport);
	snprintf(buf, len, "%s -> %s", a, b);
}

bool stream_heuristic_ok(struct rr_frame_ctx *fx, const struct tcp_stream *s)
{
	uint16_t port = fx->d->opts.iwarp_port;

	return port == 0 || s->key.sport == port || s->key.dport == port;
}
