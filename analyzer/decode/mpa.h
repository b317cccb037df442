/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpa.h - MPA framing of one reassembled TCP direction (mpa.c), as TCP
 * reassembly drives it.
 */
#ifndef RR_DECODE_MPA_H
#define RR_DECODE_MPA_H

#include "iwarp.h"

/* Parse as far as the bytes held allow; final: no more will come. */
void mpa_process(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final);
/* A gap or a reset moved the stream past the parser. */
void mpa_lost(struct tcp_stream *s, uint64_t new_pos);

#endif
