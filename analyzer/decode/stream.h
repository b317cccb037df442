/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stream.h - one reassembled TCP direction as its readers see it
 * (stream.c): the bytes kept for the MPA parser, read always through a
 * cursor, the holes in them, the TCP segments they came in, and the
 * direction's name.
 *
 * Offsets are stream offsets (iwarp.h).  The bytes held are those of
 * [buf_off, nxt_off); holes in them read as zeros.
 */
#ifndef RR_DECODE_STREAM_H
#define RR_DECODE_STREAM_H

#include "iwarp.h"

/* A cursor over [off, off + n) of the bytes held; false when not held. */
bool stream_cursor(const struct tcp_stream *s, uint64_t off, size_t n, struct rr_cursor *c);
/* Bytes from off (at most n) that were captured before the first hole. */
size_t stream_captured(const struct tcp_stream *s, uint64_t off, size_t n);
/*
 * Those bytes themselves, as stream_captured() counts them (*got of them):
 * a pointer into what the stream holds, valid until it takes in or drops
 * bytes; NULL (and *got 0) when there are none.  The parsers' hot reads,
 * without a cursor.
 */
const uint8_t *stream_span(const struct tcp_stream *s, uint64_t off, size_t n, size_t *got);
/* The n bytes at off when every one was captured (see stream_span), else NULL. */
static inline const uint8_t *stream_bytes(const struct tcp_stream *s, uint64_t off, size_t n)
{
	size_t got;
	const uint8_t *p = stream_span(s, off, n, &got);

	return got == n ? p : NULL;
}
/* off, or the end of the hole off lies in. */
uint64_t stream_skip_hole(const struct tcp_stream *s, uint64_t off);
/*
 * Frame numbers of the TCP segments that carried bytes of [a, b), in
 * order, without repeats; at most max.  Returns how many.  last_ts (may be
 * NULL): the time of the last of them.
 */
uint32_t stream_frames(const struct tcp_stream *s, uint64_t a, uint64_t b, uint64_t *out,
		       uint32_t max, uint64_t *last_ts);
/* Next segment start >= from, if any. */
bool stream_next_seg(const struct tcp_stream *s, uint64_t from, uint64_t *out);
/* The parser is done with everything before off. */
void stream_consumed(struct tcp_stream *s, uint64_t off);

/* Forget every byte kept (the stream turned out not to be iWARP). */
void stream_drop(struct tcp_stream *s);
/* The stream is not iWARP: MPA_IGNORE, and keep no bytes from now on. */
void stream_ignore(struct tcp_stream *s);
/* Free the out-of-order pieces. */
void stream_ooo_clear(struct tcp_stream *s);
/* Free everything the direction holds (its state stays). */
void stream_release(struct tcp_stream *s);

/* The flow key of events on this direction. */
void stream_flow(const struct tcp_stream *s, struct rr_flow_key *flow);
/* "10.0.0.1:20049 -> 10.0.0.2:40000", for sentences. */
void stream_name(const struct tcp_stream *s, char *buf, size_t len);
/* Whether heuristics may look at this stream (rr_decode_opts.iwarp_port). */
bool stream_heuristic_ok(struct rr_frame_ctx *fx, const struct tcp_stream *s);

#endif
