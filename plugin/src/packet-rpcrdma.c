// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * packet-rpcrdma.c - RPC-over-RDMA version 1 (RFC 8166) with the NFS
 * upper-layer binding checks (RFC 8267): registration and entry points.
 *
 * Entry points, all thin:
 *  - heuristics on infiniband.payload, iwarp_ddp_rdmap, tcp (iWARP found
 *    without the MPA exchange, which Wireshark cannot see) and
 *    infiniband.mad.cm.private; a Decode As entry on tcp.port.  They feed
 *    the frame to the engine (feed.c) and claim the payload when the engine
 *    says the frame is RPC-over-RDMA, so Wireshark shows no "Data" for it;
 *    they remember where the payload sits in the frame.
 *  - a postdissector, called for every frame after all other dissectors:
 *    it feeds frames no heuristic saw (RDMA Writes and Read Responses
 *    Wireshark shows as data, ACKs) and draws the frame (draw.c).
 * Which entry runs first does not matter: feed.c feeds a frame once.
 */
#include "ws_compat.h"

#include <epan/decode_as.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/tap.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"
#include "rpcrdma/rfc8797.h"

static dissector_handle_t rrp_handle, rrp_post_handle;

/* The CM private data's fields: only the heuristic that draws it uses them. */
static int hf_cm_magic = -1, hf_cm_version = -1, hf_cm_flags = -1, hf_cm_flag_inv = -1, hf_cm_send = -1,
	   hf_cm_recv = -1;
static int ett_rr_cm = -1;

static const value_string proc_vals[] = {
	{ RR_RDMA_MSG, "RDMA_MSG" },
	{ RR_RDMA_NOMSG, "RDMA_NOMSG" },
	{ RR_RDMA_MSGP, "RDMA_MSGP" },
	{ RR_RDMA_DONE, "RDMA_DONE" },
	{ RR_RDMA_ERROR, "RDMA_ERROR" },
	{ 0, NULL },
};

static const value_string err_vals[] = {
	{ RR_ERR_VERS, "ERR_VERS" },
	{ RR_ERR_CHUNK, "ERR_CHUNK" },
	{ 0, NULL },
};

static const value_string role_vals[] = {
	{ RR_ROLE_READ, "read" },
	{ RR_ROLE_PZRC, "pzrc" },
	{ RR_ROLE_WRITE, "write" },
	{ RR_ROLE_REPLY, "reply" },
	{ 0, NULL },
};

static const value_string dir_vals[] = {
	{ RR_DIR_CALL, "call" },
	{ RR_DIR_REPLY, "reply" },
	{ 0, NULL },
};

static const value_string sev_vals[] = {
	{ RR_SEV_INFO, "info" },
	{ RR_SEV_WARNING, "warning" },
	{ RR_SEV_ERROR, "error" },
	{ 0, NULL },
};

static const enum_val_t profile_vals[] = {
	{ "rfc8166", "RFC 8166 / RFC 8267 (current)", RR_PROFILE_RFC8166 },
	{ "rfc5666", "RFC 5666 (legacy severities)", RR_PROFILE_RFC5666 },
	{ NULL, NULL, 0 },
};

/*
 * A frame is drawn once per pass, by the first of the plugin's entry points
 * that claims it: a heuristic, inside the lower layer's dissection, so the
 * layers drawn (rpcrdma, rpc, nfs) are in frame.protocols, which Wireshark
 * fills before postdissectors run; else the postdissector.
 */
static bool drawn(packet_info *pinfo)
{
	return p_get_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0) != NULL;
}

static void draw_once(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_frame *fr, int poff,
		      int plen)
{
	if (drawn(pinfo))
		return;
	p_add_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0, GINT_TO_POINTER(1));
	rrp_draw(ftvb, pinfo, tree, fr, poff, plen);
}

/* The payload starts with an RPC-over-RDMA version 1 header, as the engine's decoder reads it. */
static bool starts_with_header(tvbuff_t *tvb, packet_info *pinfo)
{
	struct rr_hdr *h = wmem_new(pinfo->pool, struct rr_hdr);
	unsigned len = tvb_captured_length(tvb);

	return len && rr_hdr_decode(tvb_get_ptr(tvb, 0, (int)len), len, h) == RR_HDR_OK;
}

/*
 * The claim every heuristic makes: the engine said this frame is
 * RPC-over-RDMA, and the frame is drawn there.  tcp: the payload is a TCP
 * segment's (where the Send sits in it is not known), else an RDMA payload
 * the lower layer delimited.  On InfiniBand and iWARP also a frame the
 * engine reported a finding on (a duplicate packet it set aside), and one
 * whose payload is a transport header the engine has not placed yet (iWARP
 * bytes it holds until TCP's order is restored): the built-in rpcordma
 * heuristics come after ours in the list, but Wireshark moves a heuristic
 * that accepts a frame to the front, so a frame of RPC-over-RDMA traffic
 * left to the built-in would hand it every later frame, and RPC would see
 * each message twice.
 */
static bool claim(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, bool tcp)
{
	const struct rrp_frame *fr;

	if (rrp_prefs.builtin)
		return false;
	rrp_feed(pinfo);
	fr = rrp_frame_get(pinfo->num);
	if (!rrp_frame_claimed(fr) && (tcp || !((fr && fr->findings) || starts_with_header(tvb, pinfo))))
		return false;
	if (fr)
		draw_once(tvb_get_ds_tvb(tvb), pinfo, tree, fr, tcp ? -1 : tvb_raw_offset(tvb),
			  tcp ? 0 : (int)tvb_captured_length(tvb));
	return true;
}

static rrp_bool heur_ib(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)data;
	return claim(tvb, pinfo, tree, false);
}

static rrp_bool heur_tcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)data;
	return claim(tvb, pinfo, tree, true);
}

/*
 * RFC 8797 in the CM private data Wireshark's InfiniBand dissector hands
 * over: the engine finds it (the same search the pairing uses), the
 * heuristic draws it.
 */
static rrp_bool heur_cm(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	struct rr_rfc8797 m;
	proto_item *ti;
	proto_tree *t;
	int o;

	(void)data;
	if (rrp_prefs.builtin)
		return false;
	rrp_feed(pinfo);
	if (!rr_rfc8797_find(tvb_get_ptr(tvb, 0, -1), tvb_captured_length(tvb), &m))
		return false;
	o = (int)m.offset;
	ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, o, 8, ENC_NA);
	proto_item_append_text(ti, ": RFC 8797 CM private message, send %u, receive %u bytes%s", m.send_size,
			       m.recv_size, (m.flags & RR_RFC8797_F_SND_W_INV_OK) ? ", Send With Invalidate OK" : "");
	t = proto_item_add_subtree(ti, ett_rr_cm);
	proto_tree_add_item(t, hf_cm_magic, tvb, o, 4, ENC_BIG_ENDIAN);
	proto_tree_add_item(t, hf_cm_version, tvb, o + 4, 1, ENC_BIG_ENDIAN);
	proto_tree_add_item(t, hf_cm_flags, tvb, o + 5, 1, ENC_BIG_ENDIAN);
	proto_tree_add_item(t, hf_cm_flag_inv, tvb, o + 5, 1, ENC_BIG_ENDIAN);
	proto_tree_add_uint_format_value(t, hf_cm_send, tvb, o + 6, 1, m.send_size, "%u bytes (%u)", m.send_size,
					 m.send_raw);
	proto_tree_add_uint_format_value(t, hf_cm_recv, tvb, o + 7, 1, m.recv_size, "%u bytes (%u)", m.recv_size,
					 m.recv_raw);
	col_append_str(pinfo->cinfo, COL_INFO, " [RPC-over-RDMA CM private data]");
	return true;
}

/*
 * Decode As (tcp.port): the user says this port carries iWARP.  The port
 * goes to the capture decoder (init_file), which then looks for the MPA
 * framing on that port only; the frames are claimed whatever the engine
 * finds, so no other dissector takes the port's bytes.
 */
static int dissect_decode_as(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	const struct rrp_frame *fr;

	(void)data;
	if (rrp_prefs.builtin)
		return 0;
	rrp_feed(pinfo);
	fr = rrp_frame_get(pinfo->num);
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	if (fr)
		draw_once(tvb_get_ds_tvb(tvb), pinfo, tree, fr, -1, 0);
	return (int)tvb_captured_length(tvb);
}

/* The heuristics' names, as Enabled Protocols and --disable-heuristic know them (registered in rrp_handoff). */
#define HEUR_IB "rpcrdma_tk_infiniband"
#define HEUR_IWARP "rpcrdma_tk_iwarp"
#define HEUR_TCP "rpcrdma_tk_tcp"

static bool heuristic_enabled(const char *short_name)
{
	heur_dtbl_entry_t *e = find_heur_dissector_by_unique_short_name(short_name);

	return !e || e->enabled;
}

/*
 * Each heuristic is the plugin's way in on one lower layer, and the user
 * turns it off in Analyze > Enabled Protocols (or tshark
 * --disable-heuristic): the postdissector then leaves that layer's frames
 * alone too, and the built-in rpcordma dissector has them.  The engine is
 * still fed them, so the other layers' traffic is rebuilt as before.
 */
static bool layer_enabled(packet_info *pinfo)
{
	if (proto_is_frame_protocol(pinfo->layers, "infiniband"))
		return heuristic_enabled(HEUR_IB);
	if (proto_is_frame_protocol(pinfo->layers, "iwarp_ddp_rdmap"))
		return heuristic_enabled(HEUR_IWARP);
	return heuristic_enabled(HEUR_TCP);
}

static int dissect_post(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	const struct rrp_frame *fr;

	(void)data;
	if (rrp_prefs.builtin || drawn(pinfo))
		return 0;
	rrp_feed(pinfo);
	if (!layer_enabled(pinfo))
		return 0;
	fr = rrp_frame_get(pinfo->num);
	if (!fr || !(rrp_frame_claimed(fr) || fr->findings))
		return 0;
	draw_once(tvb, pinfo, tree, fr, -1, 0);
	return (int)tvb_captured_length(tvb);
}

/* The first TCP port Decode As gave to this dissector (0: none). */
static void decode_as_port_of(const gchar *table, ftenum_t type, gpointer key, gpointer value, gpointer user)
{
	unsigned *port = user;

	(void)table;
	(void)type;
	if (!*port && dtbl_entry_get_handle((dtbl_entry_t *)value) == rrp_handle)
		*port = GPOINTER_TO_UINT(key);
}

static void init_file(void)
{
	unsigned port = 0;

	dissector_table_foreach("tcp.port", decode_as_port_of, &port);
	rrp_feed_init(port);
}

static void cleanup_file(void)
{
	rrp_feed_cleanup();
}

#define HF(id, name, abbrev, type, disp, strings, blurb) \
	{ &(id), { name, abbrev, type, disp, strings, 0x0, blurb, HFILL } }

/* The header fields and subtrees the tree shows (docs/plugin.md lists them). */
static void register_fields(void)
{
	static hf_register_info hf[] = {
		HF(hf_rr_xid, "XID", "rpcrdma.xid", FT_UINT32, BASE_HEX, NULL, "Transaction ID (mirrors the RPC XID)"),
		HF(hf_rr_vers, "RPC-over-RDMA version", "rpcrdma.vers", FT_UINT32, BASE_DEC, NULL,
		   "Version of the transport header (1)"),
		HF(hf_rr_credits, "Credits", "rpcrdma.credits", FT_UINT32, BASE_DEC, NULL,
		   "Credits requested (calls) or granted (replies)"),
		HF(hf_rr_proc, "Message type", "rpcrdma.proc", FT_UINT32, BASE_DEC, VALS(proc_vals),
		   "The transport header's procedure (rdma_proc)"),
		HF(hf_rr_align, "RDMA_MSGP alignment", "rpcrdma.align", FT_UINT32, BASE_DEC, NULL,
		   "Alignment of the padded RPC message in an RDMA_MSGP"),
		HF(hf_rr_thresh, "RDMA_MSGP threshold", "rpcrdma.thresh", FT_UINT32, BASE_DEC, NULL,
		   "Smallest data item an RDMA_MSGP pads"),
		HF(hf_rr_err, "RDMA_ERROR code", "rpcrdma.err", FT_UINT32, BASE_DEC, VALS(err_vals),
		   "Why the responder refused the call"),
		HF(hf_rr_vers_low, "Lowest version supported", "rpcrdma.vers_low", FT_UINT32, BASE_DEC, NULL,
		   "ERR_VERS: the lowest RPC-over-RDMA version the responder supports"),
		HF(hf_rr_vers_high, "Highest version supported", "rpcrdma.vers_high", FT_UINT32, BASE_DEC, NULL,
		   "ERR_VERS: the highest RPC-over-RDMA version the responder supports"),
		HF(hf_rr_undecoded, "Undecoded header bytes", "rpcrdma.undecoded", FT_BYTES, BASE_NONE, NULL,
		   "Bytes after the point where the header stopped decoding"),
		HF(hf_rr_reads, "Read list", "rpcrdma.reads", FT_UINT32, BASE_DEC, NULL,
		   "Read segments of the header's read list (only when the list is not empty)"),
		HF(hf_rr_writes, "Write list", "rpcrdma.writes", FT_UINT32, BASE_DEC, NULL,
		   "Write chunks of the header's write list (only when the list is not empty)"),
		HF(hf_rr_reply, "Reply chunk", "rpcrdma.reply", FT_UINT32, BASE_DEC, NULL,
		   "The header carries a reply chunk (value: 1; absent when it carries none)"),
		HF(hf_rr_present, "Item follows", "rpcrdma.present", FT_BOOLEAN, BASE_NONE, NULL,
		   "XDR optional-data flag of a list"),
		HF(hf_rr_chunk, "Chunk", "rpcrdma.chunk", FT_NONE, BASE_NONE, NULL,
		   "A write chunk or the reply chunk"),
		HF(hf_rr_chunk_role, "Chunk role", "rpcrdma.chunk.role", FT_UINT32, BASE_DEC, VALS(role_vals),
		   "read, pzrc (Position-Zero read chunk), write or reply"),
		HF(hf_rr_chunk_index, "Write chunk index", "rpcrdma.chunk.index", FT_UINT32, BASE_DEC, NULL,
		   "A write chunk's place in the write list, from 0"),
		HF(hf_rr_chunk_count, "Segments in chunk", "rpcrdma.chunk.count", FT_UINT32, BASE_DEC, NULL,
		   "How many segments the chunk has"),
		HF(hf_rr_segment, "Segment", "rpcrdma.segment", FT_NONE, BASE_NONE, NULL,
		   "A chunk segment: handle, length and offset of memory to move by RDMA"),
		HF(hf_rr_seg_handle, "Segment handle", "rpcrdma.segment.handle", FT_UINT32, BASE_HEX, NULL,
		   "R_Key or STag"),
		HF(hf_rr_seg_length, "Segment length", "rpcrdma.segment.length", FT_UINT32, BASE_DEC, NULL,
		   "Bytes of the segment"),
		HF(hf_rr_seg_offset, "Segment offset", "rpcrdma.segment.offset", FT_UINT64, BASE_HEX, NULL,
		   "Virtual address or tagged offset"),
		HF(hf_rr_position, "Read chunk position", "rpcrdma.chunk.read.position", FT_UINT32, BASE_DEC, NULL,
		   "Where a read chunk's data belongs in the RPC message"),
		HF(hf_rr_seg_bytes, "Segment bytes seen", "rpcrdma.segment.bytes", FT_UINT64, BASE_DEC, NULL,
		   "Bytes of the segment the capture saw land (Write) or pulled (Read)"),
		HF(hf_rr_seg_frame, "Segment carried in frame", "rpcrdma.segment.frame", FT_FRAMENUM, BASE_NONE, NULL,
		   "A frame that carried bytes of this segment"),
		HF(hf_rr_send, "Send", "rpcrdma.send", FT_NONE, BASE_NONE, NULL,
		   "An RDMA Send: the transport header and what travelled inline"),
		HF(hf_rr_send_frame, "Send packet", "rpcrdma.send.frame", FT_FRAMENUM, BASE_NONE, NULL,
		   "A packet of this multi-packet Send"),
		HF(hf_rr_send_completed_in, "Send completed in", "rpcrdma.send.completed_in", FT_FRAMENUM, BASE_NONE,
		   NULL, "On an earlier packet of a Send: the frame that completes it"),
		HF(hf_rr_send_length, "Send length", "rpcrdma.send.length", FT_UINT32, BASE_DEC, NULL,
		   "Bytes of the Send: header and inline part"),
		HF(hf_rr_outstanding, "Calls outstanding", "rpcrdma.credits.outstanding", FT_UINT32, BASE_DEC, NULL,
		   "Calls outstanding in this direction with this one"),
		HF(hf_rr_message, "Rebuilt RPC message", "rpcrdma.message", FT_NONE, BASE_NONE, NULL,
		   "An RPC message the engine rebuilt from its Send and chunks"),
		HF(hf_rr_msg_dir, "Direction", "rpcrdma.message.dir", FT_UINT32, BASE_DEC, VALS(dir_vals),
		   "call or reply"),
		HF(hf_rr_msg_length, "Rebuilt length", "rpcrdma.message.length", FT_UINT32, BASE_DEC, NULL,
		   "Bytes of the RPC message as TCP would carry it"),
		HF(hf_rr_msg_complete, "Message complete", "rpcrdma.message.complete", FT_BOOLEAN, BASE_NONE, NULL,
		   "Every byte of every chunk was in the capture"),
		HF(hf_rr_msg_fragments, "Message fragments", "rpcrdma.message.fragments", FT_NONE, BASE_NONE, NULL,
		   "The frames that carried bytes of this message"),
		HF(hf_rr_msg_frame, "Message carried in frame", "rpcrdma.message.frame", FT_FRAMENUM, BASE_NONE, NULL,
		   "A frame that carried bytes of this message (a fragment)"),
		HF(hf_rr_msg_fragment_count, "Message fragment count", "rpcrdma.message.fragment.count", FT_UINT32,
		   BASE_DEC, NULL, "How many frames carried bytes of this message"),
		HF(hf_rr_rebuilt_in, "Rebuilt in", "rpcrdma.rebuilt_in", FT_FRAMENUM, BASE_NONE, NULL,
		   "The frame where the message this frame carried bytes of was rebuilt"),
		HF(hf_rr_ddp_bytes, "DDP bytes", "rpcrdma.message.ddp_bytes", FT_UINT64, BASE_DEC, NULL,
		   "Bytes moved by RDMA Read or Write (chunks)"),
		HF(hf_rr_inline_bytes, "Inline bytes", "rpcrdma.message.inline_bytes", FT_UINT64, BASE_DEC, NULL,
		   "Bytes of the message in the Send, after the header"),
		HF(hf_rr_reply_in, "Reply in", "rpcrdma.reply_in", FT_FRAMENUM, BASE_NONE,
		   FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), "The frame where this call's reply was rebuilt"),
		HF(hf_rr_request_in, "Request in", "rpcrdma.request_in", FT_FRAMENUM, BASE_NONE,
		   FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), "The frame where this reply's call was rebuilt"),
		HF(hf_rr_time, "Response time", "rpcrdma.time", FT_RELATIVE_TIME, BASE_NONE, NULL,
		   "From the call's first packet to the reply's"),
		HF(hf_rr_conn, "Connection", "rpcrdma.conn", FT_UINT32, BASE_DEC, NULL, "The engine's connection number"),
		HF(hf_rr_conn_name, "Connection name", "rpcrdma.conn.name", FT_STRING, BASE_NONE, NULL,
		   "The connection's transport and endpoints"),
		HF(hf_rr_backchannel, "Backchannel", "rpcrdma.backchannel", FT_BOOLEAN, BASE_NONE, NULL,
		   "Sent in the backward direction (server to client calls)"),
		HF(hf_rr_op, "Operation", "rpcrdma.op", FT_STRING, BASE_NONE, NULL,
		   "The upper-layer operation: NFSv3 READ, NFSv4.1 READ (a COMPOUND's first op that is not a preamble)"),
		HF(hf_rr_finding, "Finding", "rpcrdma.finding", FT_NONE, BASE_NONE, NULL,
		   "A finding of the rule engine (as ulb-lint reports it), of any kind and severity"),
		HF(hf_rr_violation, "Rule violation", "rpcrdma.violation", FT_NONE, BASE_NONE, NULL,
		   "A finding that a rule of the binding is broken (an error or a warning)"),
		HF(hf_rr_rule, "Rule", "rpcrdma.rule", FT_STRING, BASE_NONE, NULL, "RR-xxx, CAP-xxx or ENG-xxx"),
		HF(hf_rr_rule_name, "Rule name", "rpcrdma.rule.name", FT_STRING, BASE_NONE, NULL,
		   "The rule's short name"),
		HF(hf_rr_rule_severity, "Severity", "rpcrdma.rule.severity", FT_UINT32, BASE_DEC, VALS(sev_vals),
		   "The finding's severity in the active profile"),
		HF(hf_rr_rule_section, "RFC section", "rpcrdma.rule.section", FT_STRING, BASE_NONE, NULL,
		   "Where the rule is written"),
		HF(hf_rr_rule_text, "Finding text", "rpcrdma.rule.text", FT_STRING, BASE_NONE, NULL,
		   "The finding's whole text, as ulb-lint prints it (the tree shows it sentence by sentence)"),
		HF(hf_rr_rule_detail, "Finding detail", "rpcrdma.rule.detail", FT_STRING, BASE_NONE, NULL,
		   "A sentence of the finding's text after the first"),
		HF(hf_rr_evidence, "Evidence", "rpcrdma.evidence", FT_FRAMENUM, BASE_NONE, NULL,
		   "A frame that is evidence of the finding"),
		HF(hf_cm_magic, "CM private data magic", "rpcrdma.cm.magic", FT_UINT32, BASE_HEX, NULL,
		   "RFC 8797: 0xf6ab0e18"),
		HF(hf_cm_version, "CM private data version", "rpcrdma.cm.version", FT_UINT8, BASE_DEC, NULL,
		   "RFC 8797 private message format version"),
		HF(hf_cm_flags, "CM private data flags", "rpcrdma.cm.flags", FT_UINT8, BASE_HEX, NULL,
		   "RFC 8797 flags"),
		{ &hf_cm_flag_inv, { "Send With Invalidate OK", "rpcrdma.cm.flags.send_inv", FT_BOOLEAN, 8, NULL,
				     RR_RFC8797_F_SND_W_INV_OK, "The sender accepts Send With Invalidate", HFILL } },
		HF(hf_cm_send, "Send size", "rpcrdma.cm.send_size", FT_UINT32, BASE_DEC, NULL,
		   "Largest Send this side sends"),
		HF(hf_cm_recv, "Receive size", "rpcrdma.cm.recv_size", FT_UINT32, BASE_DEC, NULL,
		   "Largest Send this side can receive (its inline threshold)"),
		HF(hf_rr_iwarp_found, "iWARP stream", "rpcrdma.iwarp_found", FT_NONE, BASE_NONE, NULL,
		   "This TCP stream carries iWARP (MPA framing), as the engine's decoder found it"),
	};
	static int *ett[] = {
		&ett_rr, &ett_rr_send, &ett_rr_list, &ett_rr_chunk, &ett_rr_segment, &ett_rr_message,
		&ett_rr_violation, &ett_rr_fragments, &ett_rr_cm,
	};

	proto_register_field_array(proto_rpcrdma, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
}

/* The preferences; rrp_handoff applies them when they change. */
static void register_prefs(void)
{
	module_t *mod = prefs_register_protocol(proto_rpcrdma, rrp_handoff);

	prefs_register_bool_preference(mod, "builtin", "Use Wireshark's built-in dissector instead",
		"Give RPC-over-RDMA back to Wireshark's built-in rpcordma dissector: this plugin then claims "
		"nothing, and the built-in heuristics (which run after this plugin's) see every frame",
		&rrp_prefs.builtin);
	prefs_register_bool_preference(mod, "checks", "Check the RFC 8166 / RFC 8267 rules",
		"Run the rule engine's checks and show findings as expert infos", &rrp_prefs.checks);
	prefs_register_enum_preference(mod, "profile", "Rule profile",
		"Severities as RFC 8166 sets them, or as RFC 5666 did", (int *)&rrp_prefs.profile, profile_vals, FALSE);
	prefs_register_uint_preference(mod, "inline_threshold", "Inline threshold",
		"Bytes a peer can receive in a Send, when the capture has no RFC 8797 handshake "
		"(0: the RFC 8166 default of 1024)", 10, &rrp_prefs.inline_threshold);
	prefs_register_uint_preference(mod, "iwarp_port", "iWARP TCP port",
		"TCP port that marks iWARP when the MPA exchange is not in the capture (0: any TCP stream "
		"whose bytes frame as MPA)", 10, &rrp_prefs.iwarp_port);
}

void rrp_register(void)
{
	proto_rpcrdma = proto_register_protocol("RPC-over-RDMA v1 (rpcrdma-toolkit)", "RPC-over-RDMA", "rpcrdma");
	register_fields();
	rrp_register_carry_fields(proto_rpcrdma);
	rrp_expert_register(proto_rpcrdma);
	register_prefs();
	register_init_routine(init_file);
	register_cleanup_routine(cleanup_file);
	rrp_tap = register_tap("rpcrdma");
	rrp_frame_tap = register_tap("rpcrdma.frame");
	rrp_handle = register_dissector("rpcrdma", dissect_decode_as, proto_rpcrdma);
	rrp_post_handle = create_dissector_handle(dissect_post, proto_rpcrdma);
}

/*
 * Heuristics of one table are tried newest first (heur_dissector_add
 * prepends), and a plugin registers after every built-in dissector: ours
 * run before the built-in rpcordma heuristics, and as long as ours accept
 * every frame of RPC-over-RDMA traffic (claim()), the built-in never sees
 * one.  The built-in's own enabled state is left alone: Enabled Protocols
 * saves it in the user's profile, where it would outlive this plugin.
 * With the "builtin" preference ours claim nothing and the built-in decodes.
 */
void rrp_handoff(void)
{
	static bool done;

	if (!done) {
		heur_dissector_add("infiniband.payload", heur_ib, "RPC-over-RDMA (rpcrdma-toolkit) on InfiniBand",
				   HEUR_IB, proto_rpcrdma, HEURISTIC_ENABLE);
		heur_dissector_add("iwarp_ddp_rdmap", heur_ib, "RPC-over-RDMA (rpcrdma-toolkit) on iWARP",
				   HEUR_IWARP, proto_rpcrdma, HEURISTIC_ENABLE);
		heur_dissector_add("tcp", heur_tcp, "iWARP without the MPA exchange (rpcrdma-toolkit)",
				   HEUR_TCP, proto_rpcrdma, HEURISTIC_ENABLE);
		heur_dissector_add("infiniband.mad.cm.private", heur_cm,
				   "RPC-over-RDMA CM private data (rpcrdma-toolkit)", "rpcrdma_tk_cm",
				   proto_rpcrdma, HEURISTIC_ENABLE);
		dissector_add_for_decode_as("tcp.port", rrp_handle);
		register_postdissector(rrp_post_handle);
		done = true;
	}
}
