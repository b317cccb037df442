// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fpdu.c - one MPA FPDU (RFC 5044 4) at a stream offset:
 *
 *   ULPDU_Length(2) | ULPDU | pad to 4 | CRC32c(4)     + markers
 *
 * The CRC field is always there; whether it must hold the CRC is the
 * caller's to judge from crc_ok.  It goes on the wire as iSCSI sends it
 * (RFC 3720 B.4: least significant byte first), and covers everything of
 * the FPDU before it, markers included.
 *
 * Markers (4 bytes: 16 reserved bits, 16-bit FPDUPTR) sit every 512
 * octets of TCP sequence space counted from cfg->marker_base; a marker in
 * the middle of an FPDU points back to that FPDU's header.
 *
 * Everything is read from the stream as it holds it (stream_span, stream_cursor);
 * logical FPDU bytes are gathered around markers and holes by lcopy().
 */
#include <string.h>

#include "crc.h"
#include "fpdu.h"
#include "stream.h"

#define HDR_PEEK     48             /* ULPDU length + DDP/RDMAP headers */

static uint64_t next_marker(const struct mpa_cfg *cfg, uint64_t off)
{
	uint64_t k;

	if (off <= cfg->marker_base)
		return cfg->marker_base;
	k = (off - cfg->marker_base + MARKER_INT - 1) / MARKER_INT;
	return cfg->marker_base + k * MARKER_INT;
}

/* Stream offset reached after n logical bytes from cur (markers skipped). */
static uint64_t lend(const struct mpa_cfg *cfg, uint64_t cur, uint64_t n)
{
	if (!cfg->markers)
		return cur + n;
	while (n) {
		uint64_t m = next_marker(cfg, cur);

		if (m == cur) {
			cur += MARKER_LEN;
			continue;
		}
		if (m - cur >= n)
			return cur + n;
		n -= m - cur;
		cur = m;
	}
	return cur;
}

/* Gather up to n logical bytes from cur into out (room for n), stopping
 * at a hole or at the end of the stream.  Returns how many were gathered. */
static size_t lcopy(const struct tcp_stream *s, const struct mpa_cfg *cfg, uint64_t cur,
		    uint64_t n, uint8_t *out)
{
	size_t got = 0;

	while (n) {
		uint64_t run = n;
		const uint8_t *p;
		size_t have;

		if (cfg->markers) {
			uint64_t m = next_marker(cfg, cur);

			if (m == cur) {
				cur += MARKER_LEN;
				continue;
			}
			if (m - cur < run)
				run = m - cur;
		}
		p = stream_span(s, cur, (size_t)run, &have);
		if (!p)
			break;
		memcpy(out + got, p, have);
		got += have;
		if (have < run)
			break;
		cur += run;
		n -= run;
	}
	return got;
}

/*
 * The logical bytes [cur, cur + n) as far as captured: without markers a
 * pointer into the stream itself, with markers gathered into scratch.
 * Valid until the stream or scratch changes.
 */
static size_t lview(const struct tcp_stream *s, const struct mpa_cfg *cfg, uint64_t cur,
		    uint64_t n, GByteArray *scratch, const uint8_t **out)
{
	size_t got;

	if (!cfg->markers) {
		*out = stream_span(s, cur, (size_t)n, &got);
		return got;
	}
	g_byte_array_set_size(scratch, (guint)n);
	got = lcopy(s, cfg, cur, n, scratch->data);
	g_byte_array_set_size(scratch, (guint)got);
	*out = scratch->data;
	return got;
}

static uint32_t pad_of(uint32_t ulen)
{
	return (4 - ((ulen + 2) & 3)) & 3;
}

static uint32_t crc_over(const struct tcp_stream *s, uint64_t a, uint64_t b)
{
	struct rr_cursor c;
	uint32_t reg = 0xFFFFFFFFu;

	if (stream_cursor(s, a, (size_t)(b - a), &c))
		rr_crc32c_cursor(&reg, &c, (size_t)(b - a));
	return ~reg;
}

/* Markers inside [f->start, f->end): reserved zero, FPDUPTR pointing back. */
static void check_markers(const struct tcp_stream *s, const struct mpa_cfg *cfg, struct fpdu *f)
{
	f->markers_ok = true;
	f->markers_seen = 0;
	if (!cfg->markers)
		return;
	for (uint64_t m = next_marker(cfg, f->start); m < f->end; m += MARKER_INT) {
		const uint8_t *b = stream_bytes(s, m, MARKER_LEN);
		uint16_t rsvd, ptr;

		if (!b)
			continue;
		rsvd = (uint16_t)(b[0] << 8 | b[1]);
		ptr = (uint16_t)(b[2] << 8 | b[3]);
		if (rsvd != 0 || !(m == f->start ? ptr == 0 : (ptr == m - f->hdr || ptr == m - f->start)))
			f->markers_ok = false;
		f->markers_seen++;
	}
}

/*
 * One FPDU at stream offset p.  want says what to work out beyond the
 * framing: FP_CRC the CRC verdict, FP_ULPDU the ULPDU's captured bytes
 * (f->ulpdu, de-markered; a view into the stream or into scratch, valid
 * until either changes).
 */
enum fres fpdu_parse(struct rr_frame_ctx *fx, const struct tcp_stream *s,
		     const struct mpa_cfg *cfg, uint64_t p, bool strict, struct fpdu *f,
		     GByteArray *scratch, unsigned want)
{
	uint8_t hb[HDR_PEEK];
	struct rr_cursor c;
	uint32_t total;
	size_t got, need;
	enum ddp_result r;

	memset(f, 0, sizeof(*f));
	f->start = p;
	f->hdr = (cfg->markers && next_marker(cfg, p) == p) ? p + MARKER_LEN : p;
	/* ULPDU_Length and the DDP/RDMAP headers, as far as they are there. */
	got = lcopy(s, cfg, p, HDR_PEEK, hb);
	if (got < 2)
		return lend(cfg, p, 2) > s->nxt_off ? FR_MORE : FR_HOLE;
	f->ulen = (uint16_t)(hb[0] << 8 | hb[1]);
	total = 2u + f->ulen + pad_of(f->ulen) + 4u;
	f->end = lend(cfg, p, total);
	f->crc_at = lend(cfg, p, total - 4);
	if (cfg->markers && next_marker(cfg, f->crc_at) == f->crc_at)
		f->crc_at += MARKER_LEN;

	need = 2 + (f->ulen < HDR_PEEK - 2 ? f->ulen : HDR_PEEK - 2);
	rr_cursor_init(&c, hb, got < need ? got : need);
	rr_skip(&c, 2);
	r = ddp_parse(&c, f->ulen, strict, &f->ddp, &f->why);
	if (r == DDP_BAD)
		return FR_BAD;
	if (f->end > s->nxt_off)
		return FR_MORE;
	if (r == DDP_SHORT)
		return FR_SKIP;      /* length known, headers not captured */

	f->whole = stream_captured(s, p, (size_t)(f->end - p)) == f->end - p;
	if (f->whole && (want & FP_CRC)) {
		struct rr_cursor t;

		stream_cursor(s, f->crc_at, 4, &t);
		rr_get_le32(&t, &f->crc_got);
		f->crc_want = crc_over(s, p, f->crc_at);
		f->crc_ok = f->crc_want == f->crc_got;
		if (!f->crc_ok && f->hdr != p) {
			uint32_t alt = crc_over(s, f->hdr, f->crc_at);

			if (alt == f->crc_got) {
				f->crc_want = alt;
				f->crc_ok = true;
			}
		}
	}
	check_markers(s, cfg, f);
	if (strict && !f->markers_ok) {
		f->why = "MPA marker";
		return FR_BAD;
	}
	if (want & FP_ULPDU)
		f->ulpdu_len = lview(s, cfg, p, 2u + f->ulen, scratch, &f->ulpdu);
	(void)fx;
	return FR_OK;
}
