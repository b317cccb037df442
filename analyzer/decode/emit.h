/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emit.h - the only ways out of the capture decoder (emit.c).
 *
 * Every layer hands its events and diagnostics here, and this module calls
 * no layer back: statistics (frames with events, truncated frames,
 * malformed headers) are counted in one place and CAP_TRUNC is said at
 * most once per frame.
 *
 * Capture conditions about a frame's own bytes (CAP_TRUNC, CAP_MALFORMED,
 * and those given to dec_frame_cond) are told only of a frame the decoder
 * has identified as RDMA transport: RoCEv1 by its ethertype, a native
 * InfiniBand link, a BTH the decoder accepts (RoCEv2 on UDP 4791), a TCP
 * connection held as iWARP, or any frame an event comes out of.  A layer
 * may find such a condition before anyone knows (a TCP segment cut by the
 * snaplen, any UDP datagram): it is held until dec_rdma() and dropped at
 * dec_frame_end() if that never comes, so traffic that is not RDMA is not
 * reported at all.  dec_report() is told at once: its callers name a
 * subject they already know to be RDMA (an iWARP stream, the capture).
 */
#ifndef RR_DECODE_EMIT_H
#define RR_DECODE_EMIT_H

#include "decode_int.h"

/* An event out of the frame in fx (or of fx->ev_frame, when set); the frame is RDMA. */
void dec_emit(struct rr_frame_ctx *fx, struct rr_event *ev);
/* The frame is RDMA transport: what was held is told now, later conditions at once. */
void dec_rdma(struct rr_frame_ctx *fx);
/* The frame is decoded: conditions still held (it was not RDMA) are dropped. */
void dec_frame_end(struct rr_frame_ctx *fx);

/* CAP_TRUNC, once per frame, told only of an RDMA frame. */
void dec_trunc(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);
/* CAP_MALFORMED, told only of an RDMA frame. */
void dec_malformed(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);
/* Another condition about the frame's own bytes (CAP_ICRC, CAP_DUP), told only of an RDMA frame. */
void dec_frame_cond(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, ...)
	RR_PRINTF(3, 4);
/* Told at once: the caller knows its subject is RDMA, or the capture as a whole. */
void dec_report(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, ...)
	RR_PRINTF(3, 4);
/* A header that does not fit: CAP_TRUNC when the capture cut the frame,
 * CAP_MALFORMED when the frame really is that short (either told only of
 * an RDMA frame). */
void dec_short(struct rr_frame_ctx *fx, const char *fmt, ...) RR_PRINTF(2, 3);

/* "10.0.0.1:20049" or "[fe80::1]:20049", for sentences. */
void ip_fmt_endpoint(char *buf, size_t len, int version, const uint8_t *addr, uint16_t port);

#endif
