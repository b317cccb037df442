/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fpdu.h - one MPA FPDU (RFC 5044 4) at a stream offset, under a given
 * framing (fpdu.c): what both MPA framing in step (mpa.c) and the
 * detection of framing without the handshake (mpa_detect.c) parse with.
 */
#ifndef RR_DECODE_FPDU_H
#define RR_DECODE_FPDU_H

#include "ddp.h"
#include "iwarp.h"

#define MARKER_INT   512            /* markers sit every 512 octets (RFC 5044 4.3) */
#define MARKER_LEN   4

enum fres {
	FR_OK,          /* an FPDU within the data held (f->whole: all captured) */
	FR_MORE,        /* it ends past the data held: wait for more */
	FR_BAD,         /* not an FPDU (f->why says which field) */
	FR_HOLE,        /* its length was not captured */
	FR_SKIP,        /* length known, DDP/RDMAP headers not captured */
};

struct fpdu {
	uint64_t start, hdr, end, crc_at;
	uint16_t ulen;
	bool whole, crc_ok, markers_ok;
	int markers_seen;
	uint32_t crc_got, crc_want;     /* with FP_CRC */
	struct ddp_hdr ddp;
	const char *why;
	const uint8_t *ulpdu;           /* with FP_ULPDU: ULPDU_Length + ULPDU, captured part */
	size_t ulpdu_len;
};

#define FP_CRC   1u     /* check the CRC (crc_ok is false without it) */
#define FP_ULPDU 2u     /* point ulpdu at the ULPDU's bytes */

/* Parse the FPDU at stream offset p under cfg (strict: for heuristics). */
enum fres fpdu_parse(struct rr_frame_ctx *fx, const struct tcp_stream *s,
		     const struct mpa_cfg *cfg, uint64_t p, bool strict, struct fpdu *f,
		     GByteArray *scratch, unsigned want);

#endif
