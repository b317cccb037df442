// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpa_detect.c - finding MPA framing in a TCP direction whose MPA
 * Request/Reply the capture does not hold (it started later: the normal
 * case).  A stream is recognised by its bytes: a chain of FPDUs with sane
 * DDP/RDMAP headers, first without markers, then with markers at each of
 * the 128 possible 4-byte phases.  The CRC is "on" when the trailers are
 * valid CRC32c.  Once one direction of a connection is in step, the other
 * needs a single FPDU.
 */
#include <string.h>

#include "fpdu.h"
#include "mpa_detect.h"
#include "stream.h"
#include "tcp_table.h"

#define FPDU_MIN_SPAN 520           /* a chain this long crosses a marker slot */
#define DETECT_LIMIT (256u << 10)   /* give up on a stream after this much */
#define DETECT_SCAN  (70u << 10)    /* candidate starts looked at per attempt */

/* ---- heuristics ----------------------------------------------------------- */

struct chain {
	int n;              /* FPDUs that parsed */
	int crc_ok;         /* of them, with a valid CRC32c */
	int markers;        /* markers checked and found right */
	uint64_t end;       /* after the last good FPDU */
	enum fres stop;     /* why the chain stopped */
};

static void run_chain(struct rr_frame_ctx *fx, const struct tcp_stream *s,
		      const struct mpa_cfg *cfg, uint64_t p, struct chain *ch)
{
	struct fpdu f;
	GByteArray *scratch = fx->d->scratch;

	memset(ch, 0, sizeof(*ch));
	ch->end = p;
	for (int i = 0; i < 64; i++) {
		ch->stop = fpdu_parse(fx, s, cfg, ch->end, true, &f, scratch, FP_CRC);
		if (ch->stop != FR_OK)
			return;
		if (!f.whole) {
			ch->stop = FR_HOLE;
			return;
		}
		/* Either every trailer is a valid CRC, or none need be. */
		if (f.crc_ok)
			ch->crc_ok++;
		else if (ch->crc_ok) {
			ch->stop = FR_BAD;
			return;
		}
		ch->markers += f.markers_seen;
		ch->n++;
		ch->end = f.end;
		if (ch->end - p > 4 * FPDU_MIN_SPAN && ch->n >= 3)
			return;
	}
}

/*
 * strong: long enough that markers, had there been any, would have broken
 * it.  weak (only when nothing more will come): a short chain that
 * accounts for every byte to the end of the stream.
 */
static bool chain_good(const struct chain *ch, uint64_t p, bool markers, bool weak,
		       uint64_t data_end)
{
	uint64_t span = ch->end - p;

	if (ch->n == 0 || ch->stop == FR_BAD)
		return false;
	if (ch->crc_ok && ch->crc_ok != ch->n)
		return false;
	if (markers && ch->markers == 0)
		return false;
	if (span >= FPDU_MIN_SPAN && (ch->n >= 2 || ch->crc_ok))
		return true;
	return weak && ch->end == data_end && (ch->n >= 2 || ch->crc_ok);
}

/* Could an FPDU start at these 4 bytes: a sane ULPDU_Length, DDP version 1, RDMAP version 1, a known opcode? */
static bool looks_like_fpdu(const uint8_t *b)
{
	uint16_t len = (uint16_t)(b[0] << 8 | b[1]);

	return len >= 14 && (b[2] & 0x3F) == 0x01 && (b[3] & 0xF0) == 0x40 && (b[3] & 0x0F) <= 7;
}

static bool prefilter(const struct tcp_stream *s, uint64_t p)
{
	const uint8_t *b = stream_bytes(s, p, 4);

	return b && looks_like_fpdu(b);
}

/*
 * The first q >= p with q + 4 <= limit where prefilter(s, q) holds; when
 * there is none, the first q >= p with q + 4 > limit (where a loop over
 * them would stop).  The bytes are tested where the stream holds them, a
 * captured run at a time.
 */
static uint64_t next_candidate(const struct tcp_stream *s, uint64_t p, uint64_t limit)
{
	while (p + 4 <= limit) {
		size_t got, i;
		const uint8_t *b = stream_span(s, p, (size_t)(limit - p), &got);

		if (got < 4) {          /* a hole (or nothing held) at p */
			p++;
			continue;
		}
		for (i = 0; i + 4 <= got; i++)
			if (looks_like_fpdu(b + i))
				return p + i;
		p += got - 3;           /* the first start whose 4 bytes run past the run */
	}
	return p;
}

static void undecided_add(struct mpa_dir *m, uint64_t p)
{
	if (m->n_undecided == (int)G_N_ELEMENTS(m->undecided)) {
		/* Full: the oldest one has waited longest, forget it. */
		memmove(m->undecided, m->undecided + 1,
			sizeof(m->undecided) - sizeof(m->undecided[0]));
		m->n_undecided--;
	}
	m->undecided[m->n_undecided++] = p;
}

/* Could a marker sit at base (reserved bits zero)? Cheap filter. */
static bool marker_plausible(const struct tcp_stream *s, uint64_t m)
{
	const uint8_t *b = stream_bytes(s, m, MARKER_LEN);

	if (!b)
		return true;    /* not here yet: let the chain decide */
	return b[0] == 0 && b[1] == 0;
}

/*
 * Look for a chain of FPDUs.  The marker-less pass is incremental: each
 * candidate start is judged once, except those whose chain ran into the
 * end of the data, which are kept (a few) and judged again.  The marker
 * pass (128 phases per candidate) runs each time the data has doubled.
 * At the end of the stream, short chains are accepted too, marker-less
 * ones last.
 */
static bool marker_pass(struct rr_frame_ctx *fx, struct tcp_stream *s, uint64_t from,
			uint64_t limit, bool weak, struct mpa_cfg *cfg, struct chain *ch,
			uint64_t *at)
{
	cfg->markers = true;
	for (uint64_t p = from; p + 8 <= limit; p++) {
		/* The next p where an FPDU may start at p or just after a marker at p. */
		uint64_t q = next_candidate(s, p, limit);

		if (q + 4 > limit)
			break;
		if (q >= p + MARKER_LEN)
			p = q - MARKER_LEN;
		if (p + 8 > limit)
			break;
		for (uint64_t ph = 0; ph < MARKER_INT; ph += 4) {
			cfg->marker_base = p + ph;
			if (!marker_plausible(s, p + ph))
				continue;
			run_chain(fx, s, cfg, p, ch);
			if (chain_good(ch, p, true, weak, s->nxt_off)) {
				*at = p;
				return true;
			}
		}
	}
	cfg->markers = false;
	return false;
}

/* The other direction of this TCP connection is already in step with MPA. */
static bool peer_in_step(struct rr_frame_ctx *fx, const struct tcp_stream *s)
{
	const struct tcp_stream *peer = stream_peer(fx, s);

	return peer && peer->mpa.iwarp && peer->mpa.mode == MPA_FPDU;
}

/*
 * Once one direction is known to be iWARP, the other is too: a single
 * whole FPDU starting at a TCP segment boundary and ending exactly at the
 * end of the data is enough.  Waiting for a longer chain would hold this
 * direction's events back behind the other's (a call behind its reply).
 */
static bool detect_beside_peer(struct rr_frame_ctx *fx, struct tcp_stream *s, struct mpa_cfg *cfg,
			       struct chain *ch, uint64_t *at)
{
	const struct tcp_stream *peer = stream_peer(fx, s);
	uint64_t p = s->mpa.pos, end = s->nxt_off;

	/* With markers the phase must be searched for: leave that to the full detection. */
	if (!peer_in_step(fx, s) || peer->mpa.cfg.markers)
		return false;
	/* Candidates: segment starts, where an FPDU most often begins. */
	while (p < end) {
		if (prefilter(s, p)) {
			run_chain(fx, s, cfg, p, ch);
			if (ch->n >= 1 && ch->stop != FR_BAD && ch->end == end &&
			    (peer->mpa.cfg.crc != 1 || ch->crc_ok == ch->n)) {
				*at = p;
				return true;
			}
		}
		if (!stream_next_seg(s, p + 1, &p))
			break;
	}
	return false;
}

/* Step with the FPDU framing found at p. */
static void lock_on(struct tcp_stream *s, const struct mpa_cfg *cfg, const struct chain *ch, uint64_t p)
{
	struct mpa_dir *m = &s->mpa;

	/* Bytes before p belong to an FPDU that began before the capture. */
	m->cfg = *cfg;
	m->cfg.crc = ch->crc_ok ? 1 : 0;
	m->pos = p;
	m->align = (int)(p & 3);
	m->iwarp = true;
	m->mode = MPA_FPDU;
	m->n_undecided = 0;
	stream_consumed(s, p);
}

bool mpa_detect(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final)
{
	struct mpa_dir *m = &s->mpa;
	uint64_t from = m->pos, end = s->nxt_off, limit, p;
	struct mpa_cfg cfg = { .crc = -1 };
	struct chain ch;
	int keep = 0;

	if (end <= m->tried_end && !final)
		return false;
	m->tried_end = end;
	limit = end - from > DETECT_SCAN ? from + DETECT_SCAN : end;

	if (detect_beside_peer(fx, s, &cfg, &ch, &p))
		goto found;

	for (int i = 0; i < m->n_undecided; i++) {
		p = m->undecided[i];
		run_chain(fx, s, &cfg, p, &ch);
		if (chain_good(&ch, p, false, false, end))
			goto found;
		if (ch.stop != FR_BAD)
			m->undecided[keep++] = p;
	}
	m->n_undecided = keep;
	if (m->scan_to < from)
		m->scan_to = from;
	for (p = next_candidate(s, m->scan_to, limit); p + 4 <= limit; p = next_candidate(s, p + 1, limit)) {
		run_chain(fx, s, &cfg, p, &ch);
		if (chain_good(&ch, p, false, false, end))
			goto found;
		if (ch.stop != FR_BAD)
			undecided_add(m, p);
	}
	m->scan_to = p;

	/* Markers: once a marker slot must have gone by, then each time the
	 * data has doubled, and at the end. */
	if ((end - from >= 2 * MARKER_INT &&
	     (m->marker_tried <= from || end - from >= 2 * (m->marker_tried - from))) || final) {
		m->marker_tried = end;
		if (marker_pass(fx, s, from, limit, false, &cfg, &ch, &p))
			goto found;
	}
	/*
	 * At the end, short chains that account for every byte: marker-less ones
	 * first.  A short stream never reached a marker slot, so a "marker" in
	 * it is just four zero bytes (a CRC field that is off) and proves
	 * nothing; taking it would skip the stream's first FPDU.
	 */
	if (final) {
		for (p = next_candidate(s, from, limit); p + 4 <= limit; p = next_candidate(s, p + 1, limit)) {
			run_chain(fx, s, &cfg, p, &ch);
			if (chain_good(&ch, p, false, true, end))
				goto found;
		}
		if (marker_pass(fx, s, from, limit, true, &cfg, &ch, &p))
			goto found;
	}
	if (end - from > DETECT_LIMIT || final) {
		stream_ignore(s);
		return true;
	}
	return false;

found:
	lock_on(s, &cfg, &ch, p);
	/* Lock the other direction on too, now that it needs just one FPDU;
	 * fpdu_step_merged() then lets the two out in frame order. */
	{
		struct tcp_stream *peer = stream_peer(fx, s);
		struct mpa_cfg pcfg = { .crc = -1 };
		uint64_t pp;

		if (peer && peer->buf && peer->mpa.mode == MPA_DETECT &&
		    detect_beside_peer(fx, peer, &pcfg, &ch, &pp))
			lock_on(peer, &pcfg, &ch, pp);
	}
	return true;
}

