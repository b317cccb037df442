// SPDX-License-Identifier: GPL-2.0-or-later
/* The injector table: names, rules, help and hooks, in the order
 * --list-injectors prints them. */
#include "pg_inject_priv.h"
#include "pg_scenario_priv.h"

#include <string.h>

#define INJ(n, a, r, h, ...) { .name = n, .needs_arg = a, .rules = r, .help = h, __VA_ARGS__ }

static const pg_injector table[] = {
	INJ("bad-vers", false, "RR-001 RR-110 RR-111", "rdma_vers set to ARG (default 2)",
	    .header = pg_inj_bad_vers),
	INJ("xid-mismatch", false, "RR-002", "rdma_xid XORed with ARG (default 0x10000)",
	    .header = pg_inj_xid_mismatch),
	INJ("orphan-reply", false, "RR-003", "the reply's XID (header and RPC) XORed with ARG "
	    "(default 0x80000000): no call has it", .plan = pg_inj_orphan_reply_plan,
	    .header = pg_inj_orphan_reply_header),
	INJ("dup-xid", false, "RR-004", "the call reuses the previous call's XID while that one "
	    "is still outstanding (pipeline=on)", .prep = pg_inj_reuse_xid),
	INJ("bad-proc", false, "RR-005", "message type set to ARG (default 7)", .header = pg_inj_bad_proc),
	INJ("record-mark", false, "RR-007", "the inline Payload starts with a TCP record mark",
	    .header = pg_inj_record_mark),
	INJ("bad-msg-type", false, "RR-008", "RPC msg_type set to ARG (default 2)",
	    .plan = pg_inj_bad_msg_type),
	INJ("bad-discriminator", false, "RR-020", "the reply chunk's optional-data word set to "
	    "ARG (default 2)", .header = pg_inj_bad_discriminator),
	INJ("nomsg-empty", false, "RR-021 RR-048", "RDMA_NOMSG with no chunk lists: the Payload "
	    "is not sent", .header = pg_inj_nomsg_empty),
	INJ("trailing-bytes", false, "RR-022", "ARG bytes (default 8) after an RDMA_NOMSG, "
	    "RDMA_ERROR or RDMA_DONE header", .wire = pg_inj_trailing_bytes),
	INJ("unaligned-position", false, "RR-023 RR-026",
	    "first non-zero read chunk Position += ARG (default 2)", .header = pg_inj_unaligned_position),
	INJ("split-run", false, "RR-024", "the first non-zero read chunk gets one more segment, "
	    "listed after the other chunks", .plan = pg_inj_split_run_plan, .header = pg_inj_split_run),
	INJ("descending-positions", false, "RR-025", "the Read list in reverse order",
	    .header = pg_inj_descending_positions),
	INJ("position-beyond", false, "RR-026", "first non-zero Position set ARG (default 64) "
	    "bytes past the end of the Payload", .header = pg_inj_position_beyond),
	INJ("position-in-header", false, "RR-032", "first non-zero Position set to ARG (default 12), "
	    "inside the RPC call header", .header = pg_inj_position_in_header),
	INJ("reply-chunk-cut", false, "RR-032", "an RDMA_NOMSG reply returns its Reply chunk ARG "
	    "bytes (default 64) short of what was written", .header = pg_inj_reply_chunk_cut),
	INJ("position-in-item", false, "RR-032", "first non-zero Position moved into the middle of "
	    "the first non-eligible opaque argument (a file handle)", .header = pg_inj_position_in_item),
	INJ("msg-pzrc", false, "RR-028", "a Long Call sent as RDMA_MSG with its Payload inline "
	    "and its Position-Zero chunk", .header = pg_inj_msg_pzrc),
	INJ("zero-length-segment", false, "RR-031", "a zero-length read segment at the first "
	    "eligible argument (left inline)", .header = pg_inj_zero_length_segment),
	INJ("long-reply-inline", false, "RR-045", "the reply is sent inline (RDMA_MSG) although "
	    "the call offered a Reply chunk", .plan = pg_inj_long_reply_inline,
	    .header = pg_inj_long_reply_inline_check),
	INJ("msg-writes-reply-chunk", false, "RR-049", "RDMA_MSG reply that also wrote its "
	    "Payload into the Reply chunk", .header = pg_inj_msg_writes_reply_chunk),
	INJ("short-read-chunk", false, "RR-062", "first non-zero read chunk carries ARG bytes "
	    "(default 4) less than the count left inline", .plan = pg_inj_short_read_chunk_plan,
	    .header = pg_inj_short_read_chunk),
	INJ("extra-read", false, "RR-066", "the responder also RDMA-Reads 16 bytes past the end "
	    "of a read segment", .ops = pg_inj_extra_read),
	INJ("read-after-reply", false, "RR-068", "the responder RDMA-Reads a read segment again "
	    "after its reply", .ops = pg_inj_read_after_reply),
	INJ("reply-read-list", false, "RR-069", "the reply carries an eligible result in a read "
	    "chunk (Read-Read model)", .plan = pg_inj_reply_read_list_plan,
	    .header = pg_inj_reply_read_list),
	INJ("inline-despite-write", false, "RR-080 RR-162", "reply carries the data inline and "
	    "leaves the Write chunk empty", .plan = pg_inj_inline_despite_write,
	    .header = pg_inj_inline_despite_write_check),
	INJ("misdirected-write", false, "RR-081", "the second eligible result is written into "
	    "the first result's Write chunk, the first returns inline",
	    .plan = pg_inj_misdirected_write, .header = pg_inj_misdirected_write_check),
	INJ("segcount-changed", false, "RR-083", "reply's first Write chunk returns a different "
	    "segment count", .header = pg_inj_segcount_changed),
	INJ("handle-changed", false, "RR-084", "reply's first returned segment handle XORed "
	    "with ARG (default 0xa5a500)", .header = pg_inj_handle_changed),
	INJ("write-beyond", false, "RR-085", "the first segment of a multi-segment Write chunk "
	    "gets ARG bytes (default 16) more than its length", .plan = pg_inj_write_beyond_plan,
	    .ops = pg_inj_write_beyond),
	INJ("fill-order", false, "RR-086", "the first segment of a multi-segment Write chunk is "
	    "filled ARG bytes (default 24) short, the rest goes on", .plan = pg_inj_fill_order_plan,
	    .header = pg_inj_fill_order),
	INJ("phantom-length", false, "RR-087", "an unwritten segment after a full one returns "
	    "length ARG (default 4)", .header = pg_inj_phantom_length),
	INJ("unused-nonzero", false, "RR-088 RR-164 RR-166 RR-243", "unused Write chunks return "
	    "their offered lengths, or ARG bytes per segment", .header = pg_inj_unused_nonzero),
	INJ("pad-written", false, "RR-089", "responder RDMA-Writes the XDR pad into Write chunks",
	    .plan = pg_inj_pad_written, .header = pg_inj_pad_written_check),
	INJ("pad-segment", false, "RR-090", "the first offered Write chunk ends with a 4-byte "
	    "pad segment", .plan = pg_inj_pad_segment_plan, .header = pg_inj_pad_segment),
	INJ("write-length-lie", false, "RR-091", "a returned Write chunk length ARG bytes "
	    "(default 8) short of what was written and of the result's length",
	    .header = pg_inj_write_length_lie),
	INJ("write-after-reply", false, "RR-092", "the responder RDMA-Writes into a chunk again "
	    "after its reply", .ops = pg_inj_write_after_reply),
	INJ("zero-credit", false, "RR-100 RR-101", "rdma_credit 0", .header = pg_inj_zero_credit),
	INJ("err-range", false, "RR-111", "ERR_VERS range LOW:HIGH (default 2:1)",
	    .header = pg_inj_err_range),
	INJ("resend-xid", false, "RR-116", "the call reuses the XID of the previous call, which "
	    "RDMA_ERROR completed", .prep = pg_inj_reuse_xid),
	INJ("err-code", false, "RR-117", "RDMA_ERROR error code set to ARG (default 7)",
	    .header = pg_inj_err_code),
	INJ("silent-read", false, "RR-121", "with reply=none: the responder still RDMA-Reads every "
	    "read segment of the call, then never answers", .ops = pg_inj_silent_read),
	INJ("ineligible-chunk", false, "RR-140 RR-141 RR-142 RR-143 RR-145 RR-147 RR-148",
	    "non-eligible argument number ARG (default 0: file handle, GETATTR bitmap, ACL "
	    "entries) moved into a read chunk", .plan = pg_inj_ineligible_chunk_plan,
	    .header = pg_inj_ineligible_chunk),
	INJ("ineligible-write", false, "RR-141 RR-143 RR-145 RR-147 RR-168", "non-eligible result number "
	    "ARG (default 0: first READDIR name, ACL entries) written into an extra Write chunk",
	    .plan = pg_inj_ineligible_write_plan, .header = pg_inj_ineligible_write),
	INJ("minorversion", false, "RR-150", "COMPOUND minorversion set to ARG (default 3)",
	    .plan = pg_inj_minorversion),
	INJ("data-missing", false, "RR-160 RR-163 RR-165", "eligible results without a Write chunk are "
	    "left out of the reply; ARG 1: the first one's Write chunk is offered with length 0 and "
	    "that result is left out too", .plan = pg_inj_data_missing_plan, .ops = pg_inj_data_missing_ops,
	    .header = pg_inj_data_missing),
	INJ("null-write-chunk", false, "RR-168", "NFSv4 NULL call, or COMPOUND without READ or "
	    "READLINK, offering a Write chunk",
	    .plan = pg_inj_null_write_chunk_plan, .header = pg_inj_null_write_chunk),
	INJ("extra-write-chunk", false, "RR-171", "ARG (default 1) surplus Write chunks offered",
	    .plan = pg_inj_extra_write_chunk_plan, .header = pg_inj_extra_write_chunk),
	INJ("retry-xid", false, "RR-180", "the call reuses the XID of the previous call, which "
	    "ERR_CHUNK completed (a short-Reply-chunk retry)", .prep = pg_inj_reuse_xid),
	INJ("cb-reply-chunk", false, "", "backward call offering a Reply chunk (legal)",
	    .plan = pg_inj_cb_reply_chunk_plan, .header = pg_inj_cb_reply_chunk),
	INJ("long-read-chunk", false, "RR-222", "first non-zero read chunk carries ARG bytes "
	    "(default 4) beyond roundup4 of its item", .plan = pg_inj_long_read_chunk_plan,
	    .header = pg_inj_long_read_chunk),
	INJ("no-rpc", false, "RR-006", "an RDMA_MSG reply with nothing after its transport "
	    "header", .header = pg_inj_no_rpc),
	INJ("short-err-vers", false, "RR-112", "an ERR_VERS body one word short",
	    .wire = pg_inj_short_err_vers),
	INJ("short-header", false, "RR-006 RR-113", "the call's Send cut to ARG bytes (default 20, "
	    "16..27): shorter than a minimal transport header, so its receiver silently discards it",
	    .header = pg_inj_short_header_mark, .wire = pg_inj_short_header),
	INJ("partial-read", false, "RR-067", "the responder RDMA-Reads ARG bytes (default 4) less "
	    "than the first read segment and answers normally", .ops = pg_inj_partial_read),
	INJ("reply-chunk-changed", false, "RR-093", "the returned Reply chunk's first handle "
	    "XORed with ARG (default 0xa5a500)", .header = pg_inj_reply_chunk_changed),
	INJ("empty-write-chunk", false, "RR-030", "an NFSv3 call offers a Write chunk of zero "
	    "segments", .header = pg_inj_empty_write_chunk),
	INJ("wrong-invalidate", false, "RR-215", "the reply's Send With Invalidate (invalidate=on) "
	    "names the key XOR ARG (default 0xc3c300)", .wire = pg_inj_wrong_invalidate),
	INJ("cb-long-call", false, "RR-192", "a backward call sent as a Long Call (one-segment "
	    "Position-Zero read chunk)", .plan = pg_inj_cb_long_call, .header = pg_inj_cb_long_call_check),
	INJ("cb-nfs-program", false, "RR-195", "a backward call under the NFS program (100003 version "
	    "4): the side that connected serves NFS", .plan = pg_inj_cb_nfs_program),
	INJ("rpcb-nfs4", false, "RR-201", "an rpcbind GETPORT/GETADDR (a GETATTR line with "
	    "prog=100000:V) asks for NFS version 4", .plan = pg_inj_rpcb_nfs4),
	INJ("rpcb-mount", false, "RR-203", "an rpcbind GETPORT/GETADDR (a GETATTR line with "
	    "prog=100000:V) asks for MOUNT version 3 over TCP, answered port ARG (default 0: not "
	    "offered)", .plan = pg_inj_rpcb_mount),
	INJ("garbage-args", false, "RR-114 RR-230", "the reply is RPC GARBAGE_ARGS (sent in the "
	    "reply's shape: reply=reply:N makes it RDMA_NOMSG)", .plan = pg_inj_garbage_args),
	INJ("reuse-handle", false, "RR-210", "the call's first read segment has the handle ARG "
	    "(default 0x0badf00d), the same for every call", .ops = pg_inj_reuse_handle),
	INJ("pz-interleave", false, "RR-027", "a Long Call's Position-Zero segments in two runs "
	    "around the first non-zero chunk (P=0, P=N, P=0)", .plan = pg_inj_pz_interleave_plan,
	    .header = pg_inj_pz_interleave),
	INJ("overlap-chunk", false, "RR-224", "an extra 8-byte read chunk at a Position ARG bytes "
	    "(default 8) inside the first non-zero read chunk's data", .ops = pg_inj_overlap_chunk),
	INJ("small-write-chunk", false, "RR-082", "a READ's one-segment Write chunk offered only as "
	    "long as the data it returns, shorter than the READ's count",
	    .ops = pg_inj_small_write_chunk),
	INJ("readdir-count", false, "RR-186", "an NFSv3 READDIR's count, or the maxcount of an NFSv4 "
	    "COMPOUND's last op READDIR, set to ARG (default: the reply resources the call offers, "
	    "rounded up to 4), so the largest reply it allows does not fit them",
	    .header = pg_inj_readdir_count),
	INJ("empty-chunk-used", false, "RR-163", "an NFSv4 call's one-segment Write chunk offered "
	    "with length 0; the READ data is written into it all the same",
	    .ops = pg_inj_empty_chunk_used),
	INJ("hidden-short-fill", false, "RR-086 RR-087", "the first segment of a multi-segment Write "
	    "chunk is written ARG bytes (default 24) short and the rest goes on, but the returned "
	    "lengths say the segments were filled in order", .plan = pg_inj_fill_order_plan,
	    .header = pg_inj_hidden_short_fill),
	INJ("pad-written-exact", false, "RR-089", "responder RDMA-Writes the XDR pad into a Write "
	    "chunk but returns the exact length", .plan = pg_inj_pad_written,
	    .header = pg_inj_pad_written_exact),
	INJ("long-unpadded", false, "RR-070 RR-096", "a Long Call's Position-Zero read chunk, or a "
	    "Long Reply's Reply chunk, carries the message without the XDR pad of its last item",
	    .plan = pg_inj_long_unpadded_plan, .header = pg_inj_long_unpadded),
	INJ("pad-inline", false, "RR-063 RR-221", "the XDR pad of the first reduced item is left "
	    "inline where the item was (call: its first read chunk; reply: its first used Write "
	    "chunk)", .header = pg_inj_pad_inline),
	INJ("count-in-chunk", false, "RR-061", "the first reduced argument's read chunk starts 4 "
	    "bytes early and carries its count word too", .plan = pg_inj_count_in_chunk_plan,
	    .header = pg_inj_count_in_chunk),
	INJ("part-pad-read", false, "RR-062", "the first reduced argument's read chunk carries ARG "
	    "bytes (default 1) of its XDR pad, not the whole pad", .ops = pg_inj_part_pad_read),
	INJ("pad-room", false, "RR-090", "an NFSv2/v3 READ's Write chunk offers its count rounded "
	    "up to 4: room for the XDR pad", .plan = pg_inj_pad_room_plan),
	INJ("unaligned-payload", false, "RR-220", "ARG zero bytes (default 2, 1 to 3) after the end "
	    "of an RDMA_MSG's inline Payload", .header = pg_inj_unaligned_payload),
	INJ("write-late", false, "RR-086 RR-093", "the first RDMA Write into a Write chunk (or the "
	    "Reply chunk) lands ARG bytes (default 24) past the start of its segment",
	    .ops = pg_inj_write_late),
	INJ("msgp", false, "RR-130", "the call is sent as RDMA_MSGP, aligned as ARG "
	    "\"ALIGN:THRESH\" says (default 4:4096)", .prep = pg_inj_msgp),
	INJ("oversize-send", false, "RR-040 RR-041", "the call goes inline (RDMA_MSG) however long "
	    "it is: no read chunk, no Long Call", .prep = pg_inj_oversize_send),
	INJ("bad-icrc", false, "", "IB/RoCE: ICRC of the message's first Send packet XORed with "
	    "ARG", .wire = pg_inj_bad_icrc),
	INJ("rnr-nak", false, "RR-107", "no Receive posted for the message's Send: IB/RoCE an RNR NAK "
	    "of timer code ARG (default 14) and the Send again; iWARP a Terminate \"no buffer "
	    "available\"", .wire = pg_inj_rnr_nak),
	INJ("reply-too-long", false, "RR-045", "the requester refuses the RDMA_MSG reply's Send as "
	    "longer than its Receive (IB/RoCE NAK \"remote invalid request\", iWARP Terminate "
	    "\"message too long\") although the call offered a Reply chunk", .wire = pg_inj_reply_too_long),
	INJ("small-receive", false, "RR-051", "the receiver refuses the message's Send (at most 1024 "
	    "bytes) as longer than its Receive (IB/RoCE NAK \"remote invalid request\", iWARP Terminate "
	    "\"message too long\")", .wire = pg_inj_small_receive),
	INJ("bad-mpa-crc", false, "", "iWARP with CRC: MPA CRC of the message's first FPDU "
	    "XORed with ARG", .wire = pg_inj_bad_mpa_crc),
	INJ("truncate-snaplen", true, "", "frames carrying the message captured with only ARG "
	    "bytes", .capture = pg_inj_truncate_snaplen),
};

const pg_injector *pg_injector_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const pg_injector *pg_injector_at(size_t i)
{
	return i < G_N_ELEMENTS(table) ? &table[i] : NULL;
}

bool pg_known_injector(const char *name, bool *needs_arg)
{
	const pg_injector *in = pg_injector_find(name);
	if (in)
		*needs_arg = in->needs_arg;
	return in != NULL;
}
