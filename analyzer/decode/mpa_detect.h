/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpa_detect.h - finding MPA framing in a direction whose MPA
 * Request/Reply the capture does not hold (mpa_detect.c).
 */
#ifndef RR_DECODE_MPA_DETECT_H
#define RR_DECODE_MPA_DETECT_H

#include "iwarp.h"

/*
 * MPA_DETECT: look for FPDU framing; true when the mode changed (to
 * MPA_FPDU, or MPA_IGNORE when there is none to find) or more can be done.
 */
bool mpa_detect(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final);

#endif
