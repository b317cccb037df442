/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpa_int.h - what MPA framing (mpa.c) and the detection of framing
 * without the handshake (mpa_detect.c) share.
 */
#ifndef RR_MPA_INT_H
#define RR_MPA_INT_H

#include "ddp.h"
#include "iwarp.h"

#define MPA_KEY_LEN  16
#define MPA_HDR_LEN  20
#define MPA_PD_MAX   512
#define MARKER_INT   512
#define MARKER_LEN   4
#define FPDU_MIN_SPAN 520           /* a chain this long crosses a marker slot */
#define DETECT_LIMIT (256u << 10)   /* give up on a stream after this much */
#define DETECT_SCAN  (70u << 10)    /* candidate starts looked at per attempt */
#define HOLD_FOR_PEER (1u << 20)    /* bytes one direction waits for the other's framing */
#define REP_WAIT_LIMIT (64u << 10)  /* initiator data without a Reply in sight */
#define RESYNC_TAIL  64
#define HDR_PEEK     48             /* ULPDU length + DDP/RDMAP headers */

#define MPA_FLAG_M 0x80
#define MPA_FLAG_C 0x40
#define MPA_FLAG_R 0x20
#define MPA_FLAG_ENH 0x10           /* RFC 6581 enhanced connection setup */

static const char REQ_KEY[] = "MPA ID Req Frame";
static const char REP_KEY[] = "MPA ID Rep Frame";

enum fres { FR_OK, FR_MORE, FR_BAD, FR_HOLE, FR_SKIP };

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
/* MPA_DETECT: look for FPDU framing; true when the mode changed or more can be done. */
bool mpa_detect(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final);

#endif
