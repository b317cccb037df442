// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpa.c - MPA (RFC 5044, RFC 6581) framing over one reassembled TCP
 * direction: the Request/Reply frames, then FPDUs:
 *
 *   ULPDU_Length(2) | ULPDU | pad to 4 | CRC32c(4)     + markers
 *
 * The CRC field is always there; it is checked when either side asked
 * for CRCs (C bit) and carries zeros or anything otherwise.  It goes on
 * the wire as iSCSI sends it (RFC 3720 B.4: least significant byte first),
 * and covers everything of the FPDU before it, markers included.
 *
 * Markers (4 bytes: 16 reserved bits, 16-bit FPDUPTR) sit every 512
 * octets of TCP sequence space counted from the first octet of the first
 * FPDU, where the first marker (FPDUPTR 0) is; a marker in the middle of
 * an FPDU points back to that FPDU's header.  A direction carries markers
 * when the peer's MPA frame had M set.
 *
 * Without the handshake, mpa_detect.c finds the framing first; fpdu.c
 * parses each FPDU, and this file walks the stream from one to the next,
 * finding its step again after a loss.
 */
#include <string.h>

#include "ddp.h"
#include "emit.h"
#include "fpdu.h"
#include "mpa.h"
#include "mpa_detect.h"
#include "stream.h"
#include "tcp_table.h"

#define MPA_KEY_LEN  16
#define MPA_HDR_LEN  20
#define MPA_PD_MAX   512
#define HOLD_FOR_PEER (1u << 20)    /* bytes one direction waits for the other's framing */
#define REP_WAIT_LIMIT (64u << 10)  /* initiator data without a Reply in sight */
#define RESYNC_TAIL  64

#define MPA_FLAG_M 0x80
#define MPA_FLAG_C 0x40
#define MPA_FLAG_R 0x20
#define MPA_FLAG_ENH 0x10           /* RFC 6581 enhanced connection setup */

static const char REQ_KEY[] = "MPA ID Req Frame";
static const char REP_KEY[] = "MPA ID Rep Frame";

/* ---- MPA Request / Reply ------------------------------------------------ */

static void emit_mpa(struct rr_frame_ctx *fx, struct tcp_stream *s, uint8_t kind, uint8_t flags,
		     uint8_t rev, uint64_t pd_at, uint16_t pd_len)
{
	struct rr_event ev;
	struct rr_cursor c;
	size_t have;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RR_EV_CM;
	ev.frag = RR_FRAG_ONLY;
	stream_flow(s, &ev.flow);
	ev.cm.kind = kind;
	ev.cm.mpa_rev = rev;
	ev.cm.mpa_markers = flags & MPA_FLAG_M;
	ev.cm.mpa_crc = flags & MPA_FLAG_C;
	if (rev >= 2 && (flags & MPA_FLAG_ENH) && pd_len >= 4 &&
	    stream_captured(s, pd_at, 4) == 4 && stream_cursor(s, pd_at, 4, &c)) {
		uint16_t ird = 0, ord = 0;

		/* RFC 6581: IRD and ORD (14 bits each) lead the private data. */
		rr_get_be16(&c, &ird);
		rr_get_be16(&c, &ord);
		ird &= 0x3FFF;
		ord &= 0x3FFF;
		ev.cm.responder_resources = ird > 255 ? 255 : (uint8_t)ird;
		ev.cm.initiator_depth = ord > 255 ? 255 : (uint8_t)ord;
		pd_at += 4;
		pd_len -= 4;
	}
	have = stream_captured(s, pd_at, pd_len);
	if (have && stream_cursor(s, pd_at, have, &c)) {
		rr_get_bytes(&c, have, &ev.cm.private_data);
		ev.cm.private_len = (uint32_t)have;
	}
	dec_emit(fx, &ev);
}

/* Reply seen on s: configure both directions (RFC 5044 7.1). */
static void configure(struct rr_frame_ctx *fx, struct tcp_stream *s, uint8_t rep_flags)
{
	struct tcp_stream *peer = stream_peer(fx, s);
	bool known = peer && peer->mpa.req_seen;
	bool rep_c = rep_flags & MPA_FLAG_C;
	int crc = (known && peer->mpa.req_c) || rep_c ? 1 : known ? 0 : -1;

	s->mpa.iwarp = true;
	s->mpa.mode = MPA_FPDU;
	s->mpa.cfg.markers = known && peer->mpa.req_m;   /* the initiator asked */
	s->mpa.cfg_tentative = !known;
	s->mpa.cfg.marker_base = s->mpa.pos;
	s->mpa.cfg.crc = crc;
	s->mpa.align = (int)(s->mpa.pos & 3);
	if (!peer || peer->mpa.mode == MPA_FPDU || peer->mpa.mode == MPA_IGNORE ||
	    peer->mpa.mode == MPA_RESYNC)
		return;
	peer->mpa.iwarp = true;
	peer->mpa.mode = peer->mpa.lost ? MPA_RESYNC : MPA_FPDU;
	peer->mpa.cfg.markers = rep_flags & MPA_FLAG_M;     /* the responder asked */
	peer->mpa.cfg_tentative = !known;
	peer->mpa.cfg.marker_base = peer->mpa.pos;
	peer->mpa.cfg.crc = crc;
	peer->mpa.align = (int)(peer->mpa.pos & 3);
	mpa_process(fx, peer, false);
}

static bool mpa_start(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final)
{
	uint64_t pos = s->mpa.pos;
	uint8_t key[MPA_KEY_LEN], flags = 0, rev = 0;
	uint16_t pd_len = 0;
	struct rr_cursor c;
	bool req;
	char name[200];

	if (stream_captured(s, pos, MPA_HDR_LEN) < MPA_HDR_LEN) {
		if (!final && s->nxt_off - pos < MPA_HDR_LEN)
			return false;
		goto not_mpa;
	}
	stream_cursor(s, pos, MPA_HDR_LEN, &c);
	rr_copy_bytes(&c, key, MPA_KEY_LEN);
	rr_get_u8(&c, &flags);
	rr_get_u8(&c, &rev);
	rr_get_be16(&c, &pd_len);
	if (memcmp(key, REQ_KEY, MPA_KEY_LEN) == 0)
		req = true;
	else if (memcmp(key, REP_KEY, MPA_KEY_LEN) == 0)
		req = false;
	else
		goto not_mpa;
	dec_rdma(fx);           /* the MPA key: this connection is iWARP */
	if (pd_len > MPA_PD_MAX) {
		stream_name(s, name, sizeof(name));
		dec_malformed(fx, "iWARP TCP %s frame %" PRIu64 ": MPA %s private data length %u exceeds %u",
			      name, fx->frame, req ? "Request" : "Reply", pd_len, MPA_PD_MAX);
		stream_ignore(s);
		return true;
	}
	if (s->nxt_off - pos < (uint64_t)MPA_HDR_LEN + pd_len)
		return final ? (stream_ignore(s), true) : false;
	s->mpa.pos = pos + MPA_HDR_LEN + pd_len;
	if (req) {
		s->mpa.iwarp = true;
		s->mpa.req_seen = true;
		s->mpa.req_m = flags & MPA_FLAG_M;
		s->mpa.req_c = flags & MPA_FLAG_C;
		s->mpa.mode = MPA_WAIT_REP;
		emit_mpa(fx, s, RR_CM_REQ, flags, rev, pos + MPA_HDR_LEN, pd_len);
	} else if (flags & MPA_FLAG_R) {
		struct tcp_stream *peer = stream_peer(fx, s);

		s->mpa.iwarp = true;
		emit_mpa(fx, s, RR_CM_REJ, flags, rev, pos + MPA_HDR_LEN, pd_len);
		stream_ignore(s);
		if (peer && peer->mpa.mode == MPA_WAIT_REP)
			stream_ignore(peer);
		return true;
	} else {
		emit_mpa(fx, s, RR_CM_REP, flags, rev, pos + MPA_HDR_LEN, pd_len);
		configure(fx, s, flags);
	}
	stream_consumed(s, s->mpa.pos);
	return true;

not_mpa:
	if (stream_heuristic_ok(fx, s))
		s->mpa.mode = MPA_DETECT;
	else
		stream_ignore(s);
	return true;
}

/* ---- in step --------------------------------------------------------------- */

static void fpdu_emit(struct rr_frame_ctx *fx, struct tcp_stream *s, struct fpdu *f)
{
	uint64_t frames[64];
	uint32_t n, i, k;
	struct rr_cursor c;
	char name[200];

	if (f->whole && s->mpa.cfg.crc == -1)
		s->mpa.cfg.crc = f->crc_ok ? 1 : 0;
	if (f->whole && s->mpa.cfg.crc == 1 && !f->crc_ok) {
		/*
		 * The connection carries CRCs and this one is wrong: the FPDU's
		 * bytes are not what was sent (a receiver would not take them), so
		 * they make no event and count as lost, as a TCP gap's do.
		 */
		stream_name(s, name, sizeof(name));
		fx->d->stats.mpa_crc_bad++;
		dec_report(fx, CAP_MPA_CRC,
			   "iWARP TCP %s frame %" PRIu64 ": MPA CRC 0x%08x != computed 0x%08x; a receiver drops it: "
			   "not used as evidence", name, fx->frame, f->crc_got, f->crc_want);
		s->unseen = true;
		s->lost_untold += f->end - f->start;
		return;
	}
	rr_cursor_init(&c, f->ulpdu, f->ulpdu_len);
	rr_skip(&c, 2 + f->ddp.hdr_len);
	/* Every TCP segment the FPDU spans carried part of it. */
	n = stream_frames(s, f->start, f->end, frames, G_N_ELEMENTS(frames), &fx->ev_ts);
	/* The event belongs to the frame of its last byte, and its time, even when found later. */
	fx->ev_frame = n ? frames[n - 1] : 0;
	for (i = 0, k = 0; i + 1 < n; i++)
		frames[k++] = frames[i];
	fx->more_frames = frames;
	fx->n_more_frames = k;
	ddp_emit(fx, s, &f->ddp, &c, f->ulen);
	fx->ev_frame = 0;
	fx->more_frames = NULL;
	fx->n_more_frames = 0;
}

static bool fpdu_step(struct rr_frame_ctx *fx, struct tcp_stream *s)
{
	struct fpdu f;
	char name[200];
	/* The CRC only matters when it is on, or not known yet. */
	enum fres r = fpdu_parse(fx, s, &s->mpa.cfg, s->mpa.pos, false, &f, fx->d->scratch,
				 FP_ULPDU | (s->mpa.cfg.crc != 0 ? FP_CRC : 0));

	switch (r) {
	case FR_MORE:
		return false;
	case FR_BAD:
		if (s->mpa.cfg_tentative) {
			s->mpa.cfg_tentative = false;
			s->mpa.cfg.markers = !s->mpa.cfg.markers;
			return true;
		}
		stream_name(s, name, sizeof(name));
		dec_malformed(fx, "iWARP TCP %s frame %" PRIu64 ": FPDU of %u bytes: bad %s; resynchronising",
			      name, fx->frame, f.ulen, f.why ? f.why : "header");
		s->mpa.mode = MPA_RESYNC;
		return true;
	case FR_HOLE:
		s->mpa.mode = MPA_RESYNC;   /* CAP_TRUNC / CAP_TCP_GAP said why */
		return true;
	case FR_SKIP:
		s->mpa.pos = f.end;
		return true;
	case FR_OK:
		break;
	}
	s->mpa.cfg_tentative = false;
	fpdu_emit(fx, s, &f);
	s->mpa.pos = f.end;
	stream_consumed(s, s->mpa.pos);
	return true;
}

/* The frame that holds the last byte of the next whole FPDU, if one is there. */
static bool next_fpdu_frame(struct rr_frame_ctx *fx, struct tcp_stream *s, uint64_t *frame)
{
	struct fpdu f;
	uint64_t frames[64];
	uint32_t n;

	/* Fewer bytes than the least FPDU (length, 2 bytes of pad, CRC): none, without parsing. */
	if (s->mpa.mode != MPA_FPDU || s->nxt_off - s->mpa.pos < 8 ||
	    fpdu_parse(fx, s, &s->mpa.cfg, s->mpa.pos, false, &f, fx->d->scratch, 0) != FR_OK ||
	    !f.whole)
		return false;
	n = stream_frames(s, f.start, f.end, frames, G_N_ELEMENTS(frames), NULL);
	*frame = n ? frames[n - 1] : fx->frame;
	return true;
}

/*
 * Step whichever direction of the connection has the older next FPDU.
 * Normally only one direction has a whole FPDU waiting; after a direction
 * was found late, both may, and their events must come out in frame order
 * (a call before its reply, a Read Request before its responses).
 */
static bool fpdu_step_merged(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final)
{
	struct tcp_stream *peer = stream_peer(fx, s);
	uint64_t fs, fp;

	/*
	 * The other direction still has bytes whose framing is not known yet
	 * (markers need a kilobyte or so to be found): wait for it, within
	 * HOLD_FOR_PEER, so its older events are not overtaken by ours.
	 */
	if (peer && peer->buf && peer->mpa.mode == MPA_DETECT && peer->nxt_off > peer->mpa.pos) {
		if (final) {
			/* Last chance for the peer: its detection then steps both in order. */
			mpa_process(fx, peer, true);
			return true;
		}
		if (s->nxt_off - s->mpa.pos < HOLD_FOR_PEER)
			return false;
	}

	if (peer && peer->buf && next_fpdu_frame(fx, peer, &fp) &&
	    (!next_fpdu_frame(fx, s, &fs) || fp < fs))
		return fpdu_step(fx, peer);
	return fpdu_step(fx, s);
}

/* After a loss: the first aligned offset where an FPDU and its successor
 * make sense. */
static bool resync(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final)
{
	uint64_t p = s->mpa.pos, end = s->nxt_off;
	struct fpdu f, g;

	if (s->mpa.align >= 0)
		p += (uint64_t)((s->mpa.align - (int)(p & 3)) & 3);
	for (; p + 2 <= end; p += s->mpa.align >= 0 ? 4 : 1) {
		enum fres r, r2;

		if (stream_captured(s, p, 4) < 4) {
			uint64_t q = stream_skip_hole(s, p + 1);

			/* Jump over a hole, staying on the FPDU alignment. */
			if (q > p + 4) {
				p = q - 4;
				if (s->mpa.align >= 0)
					p -= (uint64_t)(((int)(p & 3) - s->mpa.align) & 3);
			}
			continue;
		}
		r = fpdu_parse(fx, s, &s->mpa.cfg, p, true, &f, fx->d->scratch,
			       s->mpa.cfg.crc == 1 ? FP_CRC : 0);
		if (r == FR_MORE && !final) {
			s->mpa.pos = p;     /* judge when the rest is here */
			stream_consumed(s, p);
			return false;
		}
		if (r != FR_OK || (s->mpa.cfg.crc == 1 && f.whole && !f.crc_ok))
			continue;
		r2 = fpdu_parse(fx, s, &s->mpa.cfg, f.end, true, &g, fx->d->scratch, 0);
		if (r2 == FR_BAD)
			continue;
		if (r2 == FR_MORE && !final && f.end + 2 <= end) {
			s->mpa.pos = p;
			return false;
		}
		s->mpa.pos = p;
		s->mpa.mode = MPA_FPDU;
		return true;
	}
	p = end > s->mpa.pos + RESYNC_TAIL ? end - RESYNC_TAIL : s->mpa.pos;
	s->mpa.pos = p;
	stream_consumed(s, p);
	return false;
}

void mpa_lost(struct tcp_stream *s, uint64_t new_pos)
{
	if (s->mpa.pos >= new_pos)
		return;
	s->mpa.pos = new_pos;
	s->mpa.tried_end = 0;
	s->mpa.scan_to = new_pos;
	s->mpa.marker_tried = 0;
	s->mpa.n_undecided = 0;
	switch (s->mpa.mode) {
	case MPA_FPDU:
		s->mpa.mode = MPA_RESYNC;
		break;
	case MPA_START:
		s->mpa.mode = MPA_DETECT;
		break;
	case MPA_WAIT_REP:
		s->mpa.lost = true;
		break;
	default:
		break;
	}
}

void mpa_process(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final)
{
	for (int guard = 0; guard < 1000000; guard++) {
		bool more;

		if (!s->buf)
			return;
		switch (s->mpa.mode) {
		case MPA_START:
			more = mpa_start(fx, s, final);
			break;
		case MPA_WAIT_REP:
			more = false;
			if (s->nxt_off - s->mpa.pos > REP_WAIT_LIMIT || final) {
				/* No Reply in the capture: look at the bytes. */
				if (stream_heuristic_ok(fx, s))
					s->mpa.mode = MPA_DETECT;
				else
					stream_ignore(s);
				more = true;
			}
			break;
		case MPA_DETECT:
			more = mpa_detect(fx, s, final);
			break;
		case MPA_FPDU:
			more = fpdu_step_merged(fx, s, final);
			break;
		case MPA_RESYNC:
			more = resync(fx, s, final);
			break;
		default:
			return;
		}
		if (!more)
			return;
	}
}
