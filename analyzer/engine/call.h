/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * call.h - calls kept until their reply (call.c): the header, inline part,
 * Send frames and the segments each one advertised.
 */
#ifndef RPCRDMA_CALL_H
#define RPCRDMA_CALL_H

#include "engine_int.h"
#include "segstore.h"

struct rr_seg *rr_call_seg(const struct rr_call *call, enum rr_seg_role role, uint32_t chunk, uint32_t index);
void rr_call_collect_frames(GArray *dst, const struct rr_call *call, bool reads);
/* Put every segment the call advertised in the segment store. */
void rr_call_register_segments(struct rr_engine *eng, struct rr_call *call);
void rr_call_free(struct rr_engine *eng, struct rr_call *call);
/* Forget the call on its flow and free it. */
void rr_call_drop(struct rr_engine *eng, struct rr_call *call);

#endif
