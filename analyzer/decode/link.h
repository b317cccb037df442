/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * link.h - the link layers (link.c, erf.c): where frame_decoder.c hands a
 * frame, by its DLT.  Each ends in ip.h or ib.h; link.c then decodes the
 * frames that tunnels carried (tunnel.h), to a bounded depth.
 */
#ifndef RR_DECODE_LINK_H
#define RR_DECODE_LINK_H

#include "decode_int.h"

/* link.c */
void link_ethernet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void link_sll(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void link_sll2(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
/* version 0: read it from the first byte (DLT_RAW). */
void link_raw(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version);

/* erf.c: one ERF record (DLT_ERF, as ibdump writes them). */
void erf_record(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);

#endif
