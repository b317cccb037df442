/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - the message record (record.c): described from the whole
 * Payload, checked by the check stage, delivered to the reporter.  Keeps no
 * state of its own.
 */
#ifndef RPCRDMA_RECORD_H
#define RPCRDMA_RECORD_H

#include "conn.h"

void rr_record_init(struct rr_message *m, struct rr_engine *eng, struct rr_flow *f,
		    const struct rr_hdr *hdr, enum rr_msg_dir dir, uint64_t send_frame, size_t send_len);
/* Walk the whole payload: RPC header, ULP, every DDP-eligible item (appended to items). */
void rr_record_describe(struct rr_message *m, const struct rr_ulp_info *callinfo, GArray *items);
/* The view, then the check stage, then the reporter. */
void rr_record_emit(struct rr_engine *eng, struct rr_message *m);

/* record_view.c: fill m->view and m->segs (segs, of struct rr_msg_seg, holds them). */
void rr_record_view(struct rr_message *m, GArray *segs);

#endif
