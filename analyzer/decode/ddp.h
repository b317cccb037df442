/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ddp.h - DDP (RFC 5041) and RDMAP (RFC 5040) headers of one ULPDU
 * (ddp_rdmap.c).
 */
#ifndef RR_DECODE_DDP_H
#define RR_DECODE_DDP_H

#include "iwarp.h"

struct ddp_hdr {
	bool tagged, last;
	uint8_t opcode;         /* RDMAP opcode */
	uint32_t stag;          /* tagged */
	uint64_t to;
	uint32_t inv_stag, qn, msn, mo;    /* untagged */
	uint32_t sink_stag, rd_size, src_stag;   /* Read Request */
	uint64_t sink_to, src_to;
	size_t hdr_len;         /* DDP + RDMAP header bytes in the ULPDU */
};
enum ddp_result { DDP_OK = 0, DDP_BAD = -1, DDP_SHORT = -2 };
/*
 * Parse the DDP/RDMAP headers at the start of a ULPDU of ulpdu_len bytes,
 * of which cur holds the captured part.  strict also rejects reserved bits
 * (for heuristics).  On DDP_BAD, *why names the field.
 */
enum ddp_result ddp_parse(struct rr_cursor *cur, uint32_t ulpdu_len, bool strict,
			  struct ddp_hdr *h, const char **why);
/* Emit the event for one DDP segment; cur is positioned after the headers. */
void ddp_emit(struct rr_frame_ctx *fx, struct tcp_stream *s, const struct ddp_hdr *h,
	      struct rr_cursor *cur, uint32_t ulpdu_len);

#endif
