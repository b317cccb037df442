/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - the only ways out of the capture decoder (emit.c).
 *
 * Every layer hands its events and diagnostics here, and this module calls
 * no layer back: statistics (frames with events, truncated frames,
 * malformed headers) are counted in one place and CAP_TRUNC is said at
 * most once per frame.
 */
#ifndef RR_DECODE_EMIT_H
#define RR_DECODE_EMIT_H

#include "decode_int.h"

/* An event out of the frame in fx (or of fx->ev_frame, when set). */
void dec_emit(struct rr_frame_ctx *fx, struct rr_event *ev);
/* CAP_TRUNC, once per frame. */
void dec_trunc(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);
void dec_malformed(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);
void dec_report(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, ...)
	RR_PRINTF(3, 4);
/* A header that does not fit: CAP_TRUNC when the capture cut the frame,
 * CAP_MALFORMED when the frame really is that short. */
void dec_short(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);

/* "10.0.0.1:20049" or "[fe80::1]:20049", for sentences. */
void ip_fmt_endpoint(char *buf, size_t len, int version, const uint8_t *addr, uint16_t port);

#endif
