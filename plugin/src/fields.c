// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields.c - the ids Wireshark hands out at registration: the protocol,
 * the tap, every field and subtree the plugin draws with.
 * Their own file so that registration (packet-rpcrdma.c, which fills them)
 * and drawing (draw.c, which reads them) both depend on it and not on each
 * other.
 */
#include "ws_compat.h"

#include "fields.h"
#include "rpcrdma_plugin.h"

int proto_rpcrdma = -1;
int rrp_tap = -1;
int rrp_frame_tap = -1;

int hf_rr_xid = -1, hf_rr_vers = -1, hf_rr_credits = -1, hf_rr_proc = -1, hf_rr_align = -1,
    hf_rr_thresh = -1;
int hf_rr_err = -1, hf_rr_vers_low = -1, hf_rr_vers_high = -1, hf_rr_undecoded = -1;
int hf_rr_reads = -1, hf_rr_writes = -1, hf_rr_reply = -1, hf_rr_present = -1;
int hf_rr_chunk = -1, hf_rr_chunk_role = -1, hf_rr_chunk_index = -1, hf_rr_chunk_count = -1;
int hf_rr_seg_bytes = -1, hf_rr_seg_frame = -1;
int hf_rr_segment = -1, hf_rr_seg_handle = -1, hf_rr_seg_length = -1, hf_rr_seg_offset = -1,
    hf_rr_position = -1;
int hf_rr_send = -1, hf_rr_send_frame = -1, hf_rr_send_completed_in = -1, hf_rr_send_length = -1,
    hf_rr_outstanding = -1;
int hf_rr_message = -1, hf_rr_msg_dir = -1, hf_rr_msg_length = -1, hf_rr_msg_complete = -1,
    hf_rr_msg_frame = -1;
int hf_rr_msg_fragments = -1, hf_rr_msg_fragment_count = -1;
int hf_rr_rebuilt_in = -1, hf_rr_ddp_bytes = -1, hf_rr_inline_bytes = -1, hf_rr_reply_in = -1,
    hf_rr_request_in = -1;
int hf_rr_time = -1, hf_rr_conn = -1, hf_rr_conn_name = -1, hf_rr_backchannel = -1, hf_rr_op = -1;
int hf_rr_finding = -1, hf_rr_violation = -1, hf_rr_rule = -1, hf_rr_rule_name = -1, hf_rr_rule_severity = -1,
    hf_rr_rule_section = -1;
int hf_rr_rule_text = -1, hf_rr_rule_detail = -1, hf_rr_evidence = -1, hf_rr_iwarp_found = -1;

int ett_rr = -1, ett_rr_send = -1, ett_rr_list = -1, ett_rr_chunk = -1, ett_rr_segment = -1,
    ett_rr_message = -1, ett_rr_violation = -1, ett_rr_fragments = -1;
