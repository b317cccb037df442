// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw.c - the tree of one frame, from what feed.c kept for it.
 *
 * A frame may hold the end of a Send (draw_hdr.c), earlier packets of a
 * Send or bytes of a message rebuilt elsewhere (links), the messages
 * rebuilt here (draw_msg.c), and the findings that name it
 * (draw_finding.c).
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"
#include "rpcrdma/rules.h"

/* ---- the Info column ---- */

/* A Send whose message is rebuilt in another frame says what the message is. */
static void info_for_sends(packet_info *pinfo, const struct rrp_frame *fr)
{
	FOR_EACH(fr->sends_done, const struct rrp_send *, s) {
		const struct rrp_msg *m = rrp_msg_of_send(s->first);

		if (m && m->rebuilt_in != fr->num && rrp_op_known(m))
			col_add_fstr(pinfo->cinfo, COL_INFO, "%s %s XID 0x%08x (%s, rebuilt in %u)", m->v.op,
				     s->is_call ? "call" : "reply", s->xid, rr_hdr_proc_name(s->proc),
				     m->rebuilt_in);
	}
}

/* Earlier packets of a Send say whose they are, when nothing else in the frame does. */
static void info_for_parts(packet_info *pinfo, const struct rrp_frame *fr)
{
	FOR_EACH(fr->part_sends, const struct rrp_send *, s) {
		const struct rrp_msg *m = rrp_msg_of_send(s->first);
		const char *what = rrp_op_known(m) ? m->v.op : rr_hdr_proc_name(s->proc);

		col_add_fstr(pinfo->cinfo, COL_INFO, "%s %s XID 0x%08x (packet of a Send completed in %u)", what,
			     s->is_call ? "call" : "reply", s->xid, s->last);
		return;
	}
}

/* Capture conditions mark the frame's own Info, as Wireshark's [TCP Retransmission] does. */
static void info_for_conditions(packet_info *pinfo, const struct rrp_frame *fr)
{
	FOR_EACH(fr->findings, const struct rrp_finding *, f) {
		const struct rr_rule *r = rr_rule_get(f->id);

		if (r->kind == RR_KIND_COND)
			col_prepend_fstr(pinfo->cinfo, COL_INFO, "[%s] ", r->code);
	}
}

/* The engine's connection the frame belongs to (0: none known), for the conversation filter. */
static uint32_t conn_of(const struct rrp_frame *fr)
{
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		return s->conn_id;
	FOR_EACH(fr->part_sends, const struct rrp_send *, s)
		return s->conn_id;
	FOR_EACH(fr->carries, const struct rrp_carry *, c)
		return c->conn_id;
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		return m->v.conn_id;
	FOR_EACH(fr->part_msgs, const struct rrp_msg *, m)
		return m->v.conn_id;
	return 0;
}

/* ---- one frame ---- */

void rrp_draw(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_frame *fr,
	      int poff, int plen)
{
	bool has_send = fr->sends_done && wmem_array_get_count(fr->sends_done);
	bool has_msg = fr->msgs && wmem_array_get_count(fr->msgs);
	struct rrp_frame_tap *ft;
	proto_item *ti;
	proto_tree *rt;
	unsigned nth = 0;
	bool info_set = false;

	/* Findings alone (a capture condition on an ACK, say) do not make the frame RPC-over-RDMA. */
	if (rrp_frame_claimed(fr))
		col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	ti = proto_tree_add_item(tree, proto_rpcrdma, ftvb, poff >= 0 ? poff : 0, poff >= 0 ? plen : 0, ENC_NA);
	rt = proto_item_add_subtree(ti, ett_rr);
	if (conn_of(fr))
		proto_item_set_generated(proto_tree_add_uint(rt, hf_rr_conn, ftvb, 0, 0, conn_of(fr)));
	if (fr->iwarp_tcp)
		proto_item_set_generated(proto_tree_add_none_format(rt, hf_rr_iwarp_found, ftvb, 0, 0,
					 "This TCP stream carries iWARP (MPA framing), as the engine's capture decoder found it"));
	if (!has_send && !has_msg)
		info_for_parts(pinfo, fr);
	FOR_EACH(fr->part_sends, const struct rrp_send *, s)
		proto_item_set_generated(proto_tree_add_uint_format(rt, hf_rr_send_completed_in, ftvb, 0, 0, s->last,
					 "Packet of the %s %s XID 0x%08x completed in frame %u",
					 rr_hdr_proc_name(s->proc), s->is_call ? "call" : "reply", s->xid, s->last));
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		rrp_draw_send(ftvb, pinfo, rt, s, poff, plen);
	info_for_sends(pinfo, fr);
	FOR_EACH(fr->carries, const struct rrp_carry *, c) {
		rrp_draw_carry(ftvb, pinfo, rt, c, !has_send && !has_msg && !info_set);
		info_set = true;
	}
	FOR_EACH(fr->part_msgs, const struct rrp_msg *, m)
		proto_item_set_generated(proto_tree_add_uint_format(rt, hf_rr_rebuilt_in, ftvb, 0, 0, m->rebuilt_in,
					 "Bytes of the RPC %s XID 0x%08x rebuilt in frame %u",
					 m->v.dir == RR_DIR_CALL ? "call" : "reply", m->v.xid, m->rebuilt_in));
	FOR_EACH(fr->findings, const struct rrp_finding *, f)
		rrp_draw_finding(ftvb, pinfo, rt, f);
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		rrp_draw_message(ftvb, pinfo, rt, tree, fr, m, poff, plen, nth++);
	info_for_conditions(pinfo, fr);
	ft = wmem_new(pinfo->pool, struct rrp_frame_tap);
	ft->fr = fr;
	tap_queue_packet(rrp_frame_tap, pinfo, ft);
}
