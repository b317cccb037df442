/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - the plugin's field and subtree ids (fields.c, beside
 * proto_rpcrdma and rrp_tap).  Registered in packet-rpcrdma.c (where the
 * filter names are: rpcrdma.*), drawn by draw.c.  Expert infos, one per
 * rule, are expert.c's.  docs/plugin.md lists every filter name with its
 * meaning.
 */
#ifndef RRP_FIELDS_H
#define RRP_FIELDS_H

/* Transport header (RFC 8166 4.3) */
extern int hf_rr_xid, hf_rr_vers, hf_rr_credits, hf_rr_proc, hf_rr_align, hf_rr_thresh;
extern int hf_rr_err, hf_rr_vers_low, hf_rr_vers_high, hf_rr_undecoded;
extern int hf_rr_reads, hf_rr_writes, hf_rr_reply, hf_rr_present;
extern int hf_rr_chunk, hf_rr_chunk_role, hf_rr_chunk_index, hf_rr_chunk_count;
extern int hf_rr_seg_bytes, hf_rr_seg_frame;
extern int hf_rr_segment, hf_rr_seg_handle, hf_rr_seg_length, hf_rr_seg_offset, hf_rr_position;
/* The Send */
extern int hf_rr_send, hf_rr_send_frame, hf_rr_send_completed_in, hf_rr_send_length, hf_rr_outstanding;
/* The rebuilt message */
extern int hf_rr_message, hf_rr_msg_dir, hf_rr_msg_length, hf_rr_msg_complete, hf_rr_msg_frame;
extern int hf_rr_msg_fragments, hf_rr_msg_fragment_count;
extern int hf_rr_rebuilt_in, hf_rr_ddp_bytes, hf_rr_inline_bytes, hf_rr_reply_in, hf_rr_request_in;
extern int hf_rr_time, hf_rr_conn, hf_rr_conn_name, hf_rr_backchannel, hf_rr_op;
/* Findings */
extern int hf_rr_finding, hf_rr_violation, hf_rr_rule, hf_rr_rule_name, hf_rr_rule_severity, hf_rr_rule_section;
extern int hf_rr_rule_text, hf_rr_rule_detail, hf_rr_evidence, hf_rr_iwarp_found;

extern int ett_rr, ett_rr_send, ett_rr_list, ett_rr_chunk, ett_rr_segment, ett_rr_message;
extern int ett_rr_violation, ett_rr_fragments;

#endif
