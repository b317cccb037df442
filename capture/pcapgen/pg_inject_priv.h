/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The injectors' hooks, one file per group of the rule table
 * (analyzer/include/rpcrdma/rules.def) that they break, and the helpers
 * they share. pg_inject.c lists them; the stages (pg_inject.h) call them. */
#ifndef PG_INJECT_PRIV_H
#define PG_INJECT_PRIV_H

#include "pg_inject.h"

/* The injector's numeric argument, or dflt without one. */
uint32_t pg_inj_arg(const pg_inj_ctx *c, uint32_t dflt);
/* A finding at the Send of the message the hook is working on. */
void pg_inj_expect(pg_inj_ctx *c, const char *rule);
/* The NFS binding the exchange falls under. */
enum { PG_BIND_NFS3, PG_BIND_NFS4, PG_BIND_ACL, PG_BIND_CB, PG_BIND_OTHER };
int pg_inj_binding(const pg_inj_ctx *c);
/* Did the responder return a non-zero length in this chunk? */
bool pg_inj_chunk_used(const pg_chunk *ch);

/* A, framing and the fixed header: pg_inject_framing.c */
bool pg_inj_bad_vers(pg_inj_ctx *c);
bool pg_inj_xid_mismatch(pg_inj_ctx *c);
bool pg_inj_orphan_reply_plan(pg_inj_ctx *c);
bool pg_inj_orphan_reply_header(pg_inj_ctx *c);
bool pg_inj_reuse_xid(pg_inj_ctx *c);
bool pg_inj_bad_proc(pg_inj_ctx *c);
bool pg_inj_record_mark(pg_inj_ctx *c);
bool pg_inj_bad_msg_type(pg_inj_ctx *c);
bool pg_inj_no_rpc(pg_inj_ctx *c);
bool pg_inj_msgp(pg_inj_ctx *c);

/* B, header encoding and chunk lists: pg_inject_chunks.c */
bool pg_inj_bad_discriminator(pg_inj_ctx *c);
bool pg_inj_nomsg_empty(pg_inj_ctx *c);
bool pg_inj_trailing_bytes(pg_inj_ctx *c);
bool pg_inj_unaligned_position(pg_inj_ctx *c);
bool pg_inj_split_run_plan(pg_inj_ctx *c);
bool pg_inj_split_run(pg_inj_ctx *c);
bool pg_inj_descending_positions(pg_inj_ctx *c);
bool pg_inj_position_beyond(pg_inj_ctx *c);
bool pg_inj_position_in_header(pg_inj_ctx *c);
bool pg_inj_position_in_item(pg_inj_ctx *c);
bool pg_inj_reply_chunk_cut(pg_inj_ctx *c);   /* pg_inject_rebuild.c */
/* F, a Send without a Receive posted: pg_inject_rnr.c */
bool pg_inj_rnr_nak(pg_inj_ctx *c);
bool pg_inj_reply_too_long(pg_inj_ctx *c);
bool pg_inj_small_receive(pg_inj_ctx *c);
bool pg_inj_msg_pzrc(pg_inj_ctx *c);
bool pg_inj_zero_length_segment(pg_inj_ctx *c);
bool pg_inj_empty_write_chunk(pg_inj_ctx *c);
bool pg_inj_pz_interleave_plan(pg_inj_ctx *c);
bool pg_inj_pz_interleave(pg_inj_ctx *c);

/* C, the inline threshold: pg_inject_inline.c */
bool pg_inj_long_reply_inline(pg_inj_ctx *c);
bool pg_inj_long_reply_inline_check(pg_inj_ctx *c);
bool pg_inj_msg_writes_reply_chunk(pg_inj_ctx *c);
bool pg_inj_oversize_send(pg_inj_ctx *c);

/* D, read chunks: pg_inject_read.c */
bool pg_inj_short_read_chunk_plan(pg_inj_ctx *c);
bool pg_inj_short_read_chunk(pg_inj_ctx *c);
bool pg_inj_extra_read(pg_inj_ctx *c);
bool pg_inj_read_after_reply(pg_inj_ctx *c);
bool pg_inj_partial_read(pg_inj_ctx *c);
bool pg_inj_reply_read_list_plan(pg_inj_ctx *c);
bool pg_inj_reply_read_list(pg_inj_ctx *c);
bool pg_inj_count_in_chunk_plan(pg_inj_ctx *c);
bool pg_inj_count_in_chunk(pg_inj_ctx *c);
bool pg_inj_part_pad_read(pg_inj_ctx *c);

/* E, the Write list and the Reply chunk: pg_inject_write.c */
bool pg_inj_write_after_reply(pg_inj_ctx *c);
bool pg_inj_reply_chunk_changed(pg_inj_ctx *c);
bool pg_inj_segcount_changed(pg_inj_ctx *c);
bool pg_inj_pad_written(pg_inj_ctx *c);
bool pg_inj_pad_written_check(pg_inj_ctx *c);
bool pg_inj_inline_despite_write(pg_inj_ctx *c);
bool pg_inj_inline_despite_write_check(pg_inj_ctx *c);
bool pg_inj_misdirected_write(pg_inj_ctx *c);
bool pg_inj_misdirected_write_check(pg_inj_ctx *c);
bool pg_inj_handle_changed(pg_inj_ctx *c);
bool pg_inj_write_beyond_plan(pg_inj_ctx *c);
bool pg_inj_write_beyond(pg_inj_ctx *c);
bool pg_inj_fill_order_plan(pg_inj_ctx *c);
bool pg_inj_fill_order(pg_inj_ctx *c);
bool pg_inj_phantom_length(pg_inj_ctx *c);
bool pg_inj_unused_nonzero(pg_inj_ctx *c);
bool pg_inj_pad_segment_plan(pg_inj_ctx *c);
bool pg_inj_pad_segment(pg_inj_ctx *c);
bool pg_inj_pad_room_plan(pg_inj_ctx *c);
bool pg_inj_write_length_lie(pg_inj_ctx *c);
bool pg_inj_hidden_short_fill(pg_inj_ctx *c);
bool pg_inj_pad_written_exact(pg_inj_ctx *c);
bool pg_inj_write_late(pg_inj_ctx *c);
bool pg_inj_long_unpadded_plan(pg_inj_ctx *c);
bool pg_inj_long_unpadded(pg_inj_ctx *c);

/* F, credits: pg_inject_credits.c */
bool pg_inj_zero_credit(pg_inj_ctx *c);

/* G, RDMA_ERROR: pg_inject_error.c */
bool pg_inj_short_err_vers(pg_inj_ctx *c);
bool pg_inj_garbage_args(pg_inj_ctx *c);
bool pg_inj_err_range(pg_inj_ctx *c);
bool pg_inj_err_code(pg_inj_ctx *c);
bool pg_inj_silent_read(pg_inj_ctx *c);
bool pg_inj_short_header_mark(pg_inj_ctx *c);
bool pg_inj_short_header(pg_inj_ctx *c);

/* I, DDP-eligibility: pg_inject_ddp.c */
bool pg_inj_ineligible_chunk_plan(pg_inj_ctx *c);
bool pg_inj_ineligible_chunk(pg_inj_ctx *c);
bool pg_inj_ineligible_write_plan(pg_inj_ctx *c);
bool pg_inj_ineligible_write(pg_inj_ctx *c);
bool pg_inj_minorversion(pg_inj_ctx *c);

/* J, COMPOUND pairing: pg_inject_compound.c */
/* An NFSv4 COMPOUND without READ or READLINK: no result of it is DDP-eligible (RFC 8267 6.1). */
bool pg_inj_compound_without_read_class(const pg_item *it);
bool pg_inj_data_missing_plan(pg_inj_ctx *c);
bool pg_inj_data_missing_ops(pg_inj_ctx *c);
bool pg_inj_data_missing(pg_inj_ctx *c);
bool pg_inj_null_write_chunk_plan(pg_inj_ctx *c);
bool pg_inj_null_write_chunk(pg_inj_ctx *c);
bool pg_inj_empty_chunk_used(pg_inj_ctx *c);
bool pg_inj_small_write_chunk(pg_inj_ctx *c);

/* L, reply sizing: pg_inject_alloc.c */
bool pg_inj_readdir_count(pg_inj_ctx *c);

/* K, complexity: pg_inject_complexity.c */
bool pg_inj_extra_write_chunk_plan(pg_inj_ctx *c);
bool pg_inj_extra_write_chunk(pg_inj_ctx *c);

/* M, the backchannel: pg_inject_backchannel.c */
bool pg_inj_cb_long_call(pg_inj_ctx *c);
bool pg_inj_cb_long_call_check(pg_inj_ctx *c);
bool pg_inj_cb_reply_chunk_plan(pg_inj_ctx *c);
bool pg_inj_cb_reply_chunk(pg_inj_ctx *c);
bool pg_inj_cb_nfs_program(pg_inj_ctx *c);
/* N, rpcbind over RPC-over-RDMA: pg_inject_backchannel.c */
bool pg_inj_rpcb_nfs4(pg_inj_ctx *c);
bool pg_inj_rpcb_mount(pg_inj_ctx *c);

/* O, memory: pg_inject_memory.c */
bool pg_inj_reuse_handle(pg_inj_ctx *c);
bool pg_inj_wrong_invalidate(pg_inj_ctx *c);

/* P, XDR alignment: pg_inject_xdr.c */
bool pg_inj_long_read_chunk_plan(pg_inj_ctx *c);
bool pg_inj_long_read_chunk(pg_inj_ctx *c);
bool pg_inj_overlap_chunk(pg_inj_ctx *c);
bool pg_inj_pad_inline(pg_inj_ctx *c);
bool pg_inj_unaligned_payload(pg_inj_ctx *c);

/* capture damage: pg_inject_damage.c */
bool pg_inj_bad_icrc(pg_inj_ctx *c);
bool pg_inj_bad_mpa_crc(pg_inj_ctx *c);
bool pg_inj_truncate_snaplen(pg_inj_ctx *c);

#endif
