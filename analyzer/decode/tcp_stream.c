// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tcp_stream.c - per-direction TCP reassembly under iWARP.
 *
 * Each direction keeps:
 *  - an in-order buffer of the bytes the MPA parser has not consumed yet,
 *    with "holes": byte ranges we know the length of but never saw (cut by
 *    the snaplen, or lost by the capture).  Holes are zero-filled so that
 *    offsets stay simple; stream_captured() tells the parser where they are;
 *  - out-of-order pieces, sorted and non-overlapping (the first copy of a
 *    byte wins), capped at OOO_CAP bytes;
 *  - the starts of TCP segments, where implementations (siw) begin FPDUs,
 *    which is where resynchronisation looks first.
 *
 * A hole before out-of-order data is declared lost (CAP_TCP_GAP) when the
 * other direction acknowledges past it (the receiver has the bytes, no
 * retransmission will come), when the out-of-order cap is reached, at
 * FIN/RST and at the end of the capture.
 *
 * Streams that are not iWARP (MPA_IGNORE) keep no bytes at all.
 *
 * Memory is bounded whatever the capture holds (docs/architecture.md):
 * one direction holds at most STREAM_HELD_MAX bytes for its parser (more
 * means the parser cannot frame them: they are declared lost), all
 * directions together at most TCP_HELD_MAX (past it, the direction holding
 * most loses its bytes), and the table at most TCP_STREAMS_MAX directions
 * (past it, the least recently active eighth is given up).  Buffers give
 * memory back when they empty out (tcp_table_settle()).
 *
 * This file fills the directions in and drives MPA (mpa.h); the bytes are
 * read through stream.h, and the directions live in tcp_table.h.
 *
 * An in-order segment that finds nothing waiting is parsed where it lies
 * in the frame (s->view) and only what the parser leaves of it is copied:
 * when FPDUs start at segment starts, as siw and hardware send them, the
 * bytes are never copied.
 */
#include <string.h>

#include "emit.h"
#include "mpa.h"
#include "stream.h"
#include "tcp.h"
#include "tcp_table.h"

#define OOO_CAP       (4u << 20)   /* out-of-order bytes kept per direction */
#define OOO_WINDOW    (16u << 20)  /* further ahead than this is a gap now */
#define HOLE_FILL_MAX (1u << 20)   /* bigger losses reset the buffer */
#define STREAM_HELD_MAX (2u << 20)  /* one direction: > HOLD_FOR_PEER (mpa.c) + a 64 KiB FPDU */
#define TCP_HELD_MAX  (12u << 20)   /* all directions together */
#define TCP_STREAMS_MAX 4096u

/* High-water marks for the table's memory budget (tcp_table_settle()). */
static void note_growth(struct tcp_stream *s)
{
	if (s->buf && s->buf->len > s->buf_hi)
		s->buf_hi = s->buf->len;
	if (s->segs && s->segs->len > s->segs_hi)
		s->segs_hi = s->segs->len;
	if (s->holes && s->holes->len > s->holes_hi)
		s->holes_hi = s->holes->len;
}

static void make_key(struct stream_key *k, const struct ip_view *ip, uint16_t sport,
		     uint16_t dport, bool reverse)
{
	memset(k, 0, sizeof(*k));
	k->version = (uint8_t)ip->version;
	memcpy(k->src, reverse ? ip->dst : ip->src, ip->version == 4 ? 4 : 16);
	memcpy(k->dst, reverse ? ip->src : ip->dst, ip->version == 4 ? 4 : 16);
	k->sport = reverse ? dport : sport;
	k->dport = reverse ? sport : dport;
}

/* (Re)start a direction at sequence number seq. */
static void stream_reset(struct tcp_stream *s, uint32_t seq)
{
	stream_release(s);
	s->have_base = true;
	s->closed = s->fin = false;
	s->unseen = s->told_loss = false;
	s->lost_untold = 0;
	s->nxt_seq = seq;
	s->nxt_off = s->buf_off = STREAM_ORIGIN;
	s->buf = g_byte_array_new();
	s->holes = g_array_new(FALSE, FALSE, sizeof(struct stream_hole));
	s->segs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	s->seg_frames = g_array_new(FALSE, FALSE, sizeof(struct seg_origin));
	memset(&s->mpa, 0, sizeof(s->mpa));
	s->mpa.mode = MPA_START;
	s->mpa.align = -1;
	s->mpa.pos = STREAM_ORIGIN;
	s->mpa.cfg.crc = -1;
}

/* The frame's bytes go into buf: the frame is about to go away. */
static void unview(struct tcp_stream *s)
{
	if (!s->view)
		return;
	if (s->view_len)
		g_byte_array_append(s->buf, s->view, (guint)s->view_len);
	note_growth(s);
	s->view = NULL;
	s->view_len = 0;
}

static bool keeps_bytes(const struct tcp_stream *s)
{
	return s->mpa.mode != MPA_IGNORE;
}

static void add_hole(struct tcp_stream *s, uint64_t a, uint64_t b)
{
	struct stream_hole h = { a, b };
	guint n = s->holes->len;

	s->unseen = true;
	if (n && g_array_index(s->holes, struct stream_hole, n - 1).b == a)
		g_array_index(s->holes, struct stream_hole, n - 1).b = b;
	else
		g_array_append_val(s->holes, h);
}

/*
 * Everything the direction holds is declared lost: the bytes waiting for
 * the parser and the out-of-order pieces.  The parser looks for the
 * framing again after them.
 */
static void give_up(struct rr_frame_ctx *fx, struct tcp_stream *s, const char *why)
{
	char name[200];
	size_t held = (s->view ? s->view_len : s->buf ? s->buf->len : 0) + s->ooo_bytes;

	if (s->mpa.iwarp || s->mpa.mode == MPA_WAIT_REP) {
		stream_name(s, name, sizeof(name));
		fx->d->stats.tcp_gaps++;
		dec_report(fx, CAP_TCP_GAP,
			   "iWARP TCP %s (frame %" PRIu64 "): %zu bytes held for reassembly were given up (%s)",
			   name, fx->frame, held, why);
	}
	s->lost_untold += held;
	stream_ooo_clear(s);
	s->view = NULL;
	s->view_len = 0;
	if (s->buf) {
		/* Fresh storage: the memory goes back, not just the bytes. */
		g_byte_array_free(s->buf, TRUE);
		g_array_free(s->holes, TRUE);
		g_array_free(s->segs, TRUE);
		g_array_free(s->seg_frames, TRUE);
		s->buf = g_byte_array_new();
		s->holes = g_array_new(FALSE, FALSE, sizeof(struct stream_hole));
		s->segs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
		s->seg_frames = g_array_new(FALSE, FALSE, sizeof(struct seg_origin));
		s->buf_hi = s->segs_hi = s->holes_hi = 0;
	}
	s->buf_off = s->nxt_off;
	s->unseen = true;
	mpa_lost(s, s->nxt_off);
}

/* Append in-order bytes: the captured prefix p[0..cap) of wire bytes. */
static void append(struct rr_frame_ctx *fx, struct tcp_stream *s, const uint8_t *p, uint32_t cap,
		   uint32_t wire, uint64_t frame, uint64_t ts)
{
	if (keeps_bytes(s)) {
		size_t have = s->view ? s->view_len : s->buf->len;

		if (have + wire > STREAM_HELD_MAX)
			give_up(fx, s, "the parser found no framing in the 2 MiB one direction may hold");
		unview(s);
		g_array_append_val(s->segs, s->nxt_off);
		struct seg_origin o = { frame, ts };

		g_array_append_val(s->seg_frames, o);
		if (cap)
			g_byte_array_append(s->buf, p, cap);
		if (wire > cap) {
			static const uint8_t zeros[4096];

			for (uint32_t z = wire - cap; z; ) {
				uint32_t k = z < sizeof(zeros) ? z : (uint32_t)sizeof(zeros);

				g_byte_array_append(s->buf, zeros, k);
				z -= k;
			}
			add_hole(s, s->nxt_off + cap, s->nxt_off + wire);
		}
		note_growth(s);
	} else {
		s->buf_off = s->nxt_off + wire;
	}
	s->nxt_off += wire;
	s->nxt_seq += wire;
}

static void report_gap(struct rr_frame_ctx *fx, struct tcp_stream *s, uint64_t upto,
		       const char *why)
{
	char name[200];

	if (!s->mpa.iwarp && s->mpa.mode != MPA_WAIT_REP)
		return;     /* not (yet) ours: a gap in someone else's stream */
	stream_name(s, name, sizeof(name));
	fx->d->stats.tcp_gaps++;
	dec_report(fx, CAP_TCP_GAP,
		   "iWARP TCP %s (frame %" PRIu64 "): %" PRIu64 " bytes at seq %u were not captured (%s)",
		   name, fx->frame, upto - s->nxt_off, s->nxt_seq, why);
}

/* Declare [nxt_off, upto) lost. */
static void gap(struct rr_frame_ctx *fx, struct tcp_stream *s, uint64_t upto, const char *why)
{
	uint64_t n = upto - s->nxt_off;

	if (upto <= s->nxt_off)
		return;
	report_gap(fx, s, upto, why);
	s->lost_untold += n;
	if (!keeps_bytes(s) || n > HOLE_FILL_MAX) {
		/* Too much to pretend: start the buffer over behind the loss. */
		s->view = NULL;
		s->view_len = 0;
		if (s->buf)
			g_byte_array_set_size(s->buf, 0);
		g_array_set_size(s->holes, 0);
		g_array_set_size(s->segs, 0);
		g_array_set_size(s->seg_frames, 0);
		s->nxt_seq += (uint32_t)n;
		s->nxt_off = s->buf_off = upto;
		s->unseen = true;
		mpa_lost(s, upto);
		return;
	}
	append(fx, s, NULL, 0, (uint32_t)n, 0, 0);
	/* append() counted a segment start here; a loss is not one. */
	g_array_set_size(s->segs, s->segs->len - 1);
	g_array_set_size(s->seg_frames, s->seg_frames->len - 1);
}

/* Move out-of-order pieces that now fit into the in-order buffer. */
static void drain(struct rr_frame_ctx *fx, struct tcp_stream *s)
{
	while (s->ooo && s->ooo->off <= s->nxt_off) {
		struct ooo_piece *p = s->ooo;
		uint64_t skip = s->nxt_off - p->off;

		s->ooo = p->next;
		s->ooo_bytes -= p->cap;
		s->ooo_pieces--;
		if (skip < p->wire) {
			uint32_t cap = skip < p->cap ? p->cap - (uint32_t)skip : 0;
			struct rr_cursor c;
			const uint8_t *d = NULL;

			rr_cursor_init(&c, p->data, p->cap);
			rr_skip(&c, p->cap - cap);
			rr_get_bytes(&c, cap, &d);
			append(fx, s, d, cap, p->wire - (uint32_t)skip, p->frame, p->ts);
		}
		g_free(p->data);
		g_free(p);
	}
}

static void ooo_insert_piece(struct tcp_stream *s, struct ooo_piece **at, uint64_t off,
			     uint32_t wire, struct rr_cursor *data, uint32_t cap)
{
	struct ooo_piece *p = g_new0(struct ooo_piece, 1);
	const uint8_t *d = NULL;

	p->off = off;
	p->wire = wire;
	p->frame = s->cur_frame;
	p->ts = s->cur_ts;
	p->cap = cap;
	if (cap && rr_get_bytes(data, cap, &d))
		p->data = g_memdup2(d, cap);
	else
		p->cap = 0;
	s->ooo_bytes += p->cap;
	s->ooo_pieces++;
	p->next = *at;
	*at = p;
}

/* Keep [off, off+wire) (captured prefix in data) where no earlier copy is. */
static void ooo_add(struct tcp_stream *s, uint64_t off, uint32_t wire, struct rr_cursor *data)
{
	struct ooo_piece **at = &s->ooo;
	uint64_t end = off + wire, capend = off + rr_cursor_left(data);

	while (off < end) {
		uint64_t stop = end;

		while (*at && (*at)->off + (*at)->wire <= off)
			at = &(*at)->next;
		if (*at && (*at)->off <= off) {         /* covered: first copy wins */
			uint64_t skip = (*at)->off + (*at)->wire - off;

			if (skip > end - off)
				skip = end - off;
			rr_skip(data, skip < rr_cursor_left(data) ? (size_t)skip : rr_cursor_left(data));
			off += skip;
			continue;
		}
		if (*at && (*at)->off < stop)
			stop = (*at)->off;
		ooo_insert_piece(s, at, off, (uint32_t)(stop - off), data,
				 capend > off ? (uint32_t)((capend < stop ? capend : stop) - off) : 0);
		at = &(*at)->next;
		off = stop;
	}
}

/* Retransmitted bytes we still hold: are they the same? */
static void compare_old(struct rr_frame_ctx *fx, struct tcp_stream *s, uint64_t off,
			struct rr_cursor *data, size_t n)
{
	struct rr_cursor old;
	const uint8_t *a, *b;
	size_t have;
	char name[200];

	if (off < s->buf_off || !keeps_bytes(s))
		return;
	have = stream_captured(s, off, n);
	if (!have || !stream_cursor(s, off, have, &old) || !rr_get_bytes(&old, have, &a))
		return;
	{
		struct rr_cursor c = *data;

		if (!rr_get_bytes(&c, have, &b))
			return;
	}
	if (memcmp(a, b, have) == 0)
		return;
	stream_name(s, name, sizeof(name));
	dec_frame_cond(fx, CAP_DUP,
		       "TCP %s frame %" PRIu64 ": retransmitted bytes at seq %u differ from the first copy, which is kept",
		       name, fx->frame, (uint32_t)(s->nxt_seq - (uint32_t)(s->nxt_off - off)));
}

static void close_stream(struct rr_frame_ctx *fx, struct tcp_stream *s, uint8_t kind)
{
	if (s->mpa.iwarp) {
		struct rr_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.kind = RR_EV_CM;
		ev.frag = RR_FRAG_ONLY;
		stream_flow(s, &ev.flow);
		ev.cm.kind = kind;
		dec_emit(fx, &ev);
	}
	stream_release(s);
	s->closed = true;
}

/* Everything still pending is lost: declare the holes, parse, flush. */
static void flush(struct rr_frame_ctx *fx, struct tcp_stream *s, const char *why)
{
	while (s->ooo) {
		gap(fx, s, s->ooo->off, why);
		drain(fx, s);
		/* Parse as the holes fill, so they never pile up. */
		mpa_process(fx, s, false);
	}
	mpa_process(fx, s, true);
}

static void data_in(struct rr_frame_ctx *fx, struct tcp_stream *s, uint32_t seq,
		    struct rr_cursor *payload, uint32_t wire)
{
	int32_t delta = (int32_t)(seq - s->nxt_seq);
	uint64_t off, end;

	s->cur_frame = fx->frame;
	s->cur_ts = fx->ts;
	if (delta < 0 && (uint64_t)(-(int64_t)delta) > s->nxt_off - STREAM_ORIGIN + (1u << 30))
		return;     /* from before anything we know */
	off = s->nxt_off + (int64_t)delta;
	end = off + wire;
	if (end <= s->nxt_off) {                    /* pure retransmission */
		compare_old(fx, s, off, payload, rr_cursor_left(payload));
		return;
	}
	if (off < s->nxt_off) {                     /* overlap: trim the front */
		size_t trim = (size_t)(s->nxt_off - off);
		size_t have = rr_cursor_left(payload);

		compare_old(fx, s, off, payload, trim < have ? trim : have);
		rr_skip(payload, trim < have ? trim : have);
		wire -= (uint32_t)trim;
		off = s->nxt_off;
	}
	if (off == s->nxt_off) {
		const uint8_t *p = NULL;
		uint32_t cap = (uint32_t)rr_cursor_left(payload);

		if (cap > wire)
			cap = wire;
		rr_get_bytes(payload, cap, &p);
		if (cap && cap == wire && !s->ooo && keeps_bytes(s) && !s->view && !s->buf->len) {
			/* Nothing waits before it: parse it in the frame. */
			g_array_append_val(s->segs, s->nxt_off);
			struct seg_origin o = { fx->frame, fx->ts };

			g_array_append_val(s->seg_frames, o);
			note_growth(s);
			s->view = p;
			s->view_len = cap;
			s->nxt_off += wire;
			s->nxt_seq += wire;
			return;
		}
		append(fx, s, p, cap, wire, fx->frame, fx->ts);
		drain(fx, s);
		return;
	}
	if (!keeps_bytes(s)) {
		/* Nobody reads this stream: skip ahead without keeping bytes. */
		s->nxt_seq = seq + wire;
		s->nxt_off = s->buf_off = end;
		return;
	}
	if (off - s->nxt_off > OOO_WINDOW) {
		gap(fx, s, off, "sequence jump");
		data_in(fx, s, seq, payload, wire);
		return;
	}
	ooo_add(s, off, wire, payload);
	while (s->ooo_bytes > OOO_CAP && s->ooo) {
		gap(fx, s, s->ooo->off, "out-of-order data beyond the reassembly limit");
		drain(fx, s);
	}
}

/* Over the table's budget: the directions holding most lose their bytes. */
static void keep_budget(struct rr_frame_ctx *fx, struct tcp_table *t)
{
	while (tcp_table_held(t) > TCP_HELD_MAX) {
		struct tcp_stream *big = tcp_table_biggest(t);
		size_t before;

		if (!big)
			return;
		before = big->acct;
		give_up(fx, big, "all TCP directions together hold more than the 12 MiB reassembly budget; "
			"the one holding most gives its bytes up");
		tcp_table_settle(t, big);
		if (big->acct >= before)
			return;     /* nothing more to give back */
	}
}

/*
 * The table is full: the least recently active eighth of the directions
 * are decoded as far as they go, closed and forgotten.  A forgotten
 * direction that shows up again starts over, as one first seen mid-stream.
 */
static void forget_idle(struct rr_frame_ctx *fx, struct tcp_table *t, const struct tcp_stream *keep)
{
	guint k, i;
	struct tcp_stream **all = tcp_table_by_age(t, keep, &k);

	if (tcp_table_first_full(t))
		dec_report(fx, ENG_LIMIT,
			   "frame %" PRIu64 ": more than %u TCP directions at once; the least recently active "
			   "are closed and forgotten (a later segment of theirs starts them over)",
			   fx->frame, TCP_STREAMS_MAX);
	for (i = 0; i < k && i < TCP_STREAMS_MAX / 8; i++) {
		struct tcp_stream *s = all[i];

		if (s->have_base && !s->closed) {
			flush(fx, s, "given up: too many TCP connections");
			close_stream(fx, s, RR_CM_DREQ);
		}
		tcp_table_forget(t, s);
	}
	g_free(all);
}

static void tcp_direction(struct rr_frame_ctx *fx, struct tcp_stream *s, const struct tcp_view *tcp,
			  struct rr_cursor *payload, uint32_t wire)
{
	bool cut = rr_cursor_left(payload) < wire;

	if (tcp->flags & TCPF_SYN) {
		stream_reset(s, tcp->seq + 1);
		return;
	}
	if (s->closed)
		return;
	if (!s->have_base) {
		if (!wire)
			return;
		stream_reset(s, tcp->seq);
	}
	if (cut)
		dec_trunc(fx, "TCP frame %" PRIu64 ": %zu of %u payload bytes captured (snaplen)",
			  fx->frame, rr_cursor_left(payload), wire);
	if (wire)
		data_in(fx, s, tcp->seq, payload, wire);
	if (tcp->flags & TCPF_RST) {
		flush(fx, s, "connection reset");
		close_stream(fx, s, RR_CM_RESET);
		return;
	}
	if (tcp->flags & TCPF_FIN) {
		s->fin = true;
		s->fin_off = s->nxt_off + (uint64_t)(int64_t)(int32_t)(tcp->seq + wire - s->nxt_seq);
	}
	mpa_process(fx, s, false);
	if (wire && (s->mpa.iwarp || s->mpa.mode == MPA_FPDU))
		fx->iwarp_tcp = true;
	if (s->fin && s->nxt_off >= s->fin_off) {
		flush(fx, s, "connection closed");
		close_stream(fx, s, RR_CM_DREQ);
	}
	/* What the parser left of this frame's bytes is kept. */
	unview(s);
}

/*
 * A segment of a connection held as iWARP (either direction: MPA framing
 * found or the MPA exchange seen) is RDMA transport, whatever it carries.
 * Until then a TCP segment is anybody's, and its conditions stay held.
 */
static void note_iwarp(struct rr_frame_ctx *fx, const struct tcp_stream *s, const struct tcp_stream *r)
{
	if ((s && s->mpa.iwarp) || (r && r->mpa.iwarp))
		dec_rdma(fx);
}

void tcp_segment(struct rr_frame_ctx *fx, const struct ip_view *ip, const struct tcp_view *tcp,
		 struct rr_cursor *payload, uint32_t wire)
{
	struct tcp_table *tab = fx->d->tcp;
	struct stream_key k;
	struct tcp_stream *s, *r;

	make_key(&k, ip, tcp->sport, tcp->dport, false);
	s = tcp_table_find(tab, &k);
	if (s) {
		r = stream_peer(fx, s);
	} else {
		struct stream_key rk;

		make_key(&rk, ip, tcp->sport, tcp->dport, true);
		r = tcp_table_get(tab, &rk);
	}
	note_iwarp(fx, s, r);
	/* The other direction acknowledging bytes we never saw: they are lost. */
	if (r && r->have_base && !r->closed && (tcp->flags & TCPF_ACK)) {
		int32_t ahead = (int32_t)(tcp->ack - r->nxt_seq);

		if (ahead > 0) {
			uint64_t upto = r->nxt_off + (uint64_t)ahead;

			if (r->ooo && r->ooo->off < upto)
				upto = r->ooo->off;
			gap(fx, r, upto, "acknowledged by the receiver");
			drain(fx, r);
			mpa_process(fx, r, false);
		}
	}

	if (!s) {
		if (!wire && !(tcp->flags & TCPF_SYN)) {
			if (r) {
				tcp_table_settle(tab, r);
				keep_budget(fx, tab);
			}
			return;
		}
		if (tcp_table_size(tab) >= TCP_STREAMS_MAX)
			forget_idle(fx, tab, r);
		s = tcp_table_add(tab, &k);
		s->peer = r;
		if (r)
			r->peer = s;
	}
	s->last_frame = fx->frame;
	tcp_direction(fx, s, tcp, payload, wire);
	note_iwarp(fx, s, r);
	tcp_table_settle(tab, s);
	if (r)
		tcp_table_settle(tab, r);
	keep_budget(fx, tab);
}

void tcp_finish(struct rr_frame_ctx *fx)
{
	struct tcp_table *tab = fx->d->tcp;
	GHashTableIter it;
	struct tcp_stream *s;

	tcp_table_walk(tab, &it);
	while (tcp_table_next(&it, &s)) {
		if (s->have_base && !s->closed)
			flush(fx, s, "end of capture");
		tcp_table_settle(tab, s);
		keep_budget(fx, tab);
	}
}
