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

/* ---- one frame ---- */

void rrp_draw(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_frame *fr,
	      int poff, int plen)
{
	struct rrp_frame_tap *ft;
	proto_item *ti;
	proto_tree *rt;

	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	ti = proto_tree_add_item(tree, proto_rpcrdma, ftvb, poff >= 0 ? poff : 0, poff >= 0 ? plen : 0, ENC_NA);
	rt = proto_item_add_subtree(ti, ett_rr);
	if (fr->iwarp_tcp)
		proto_item_set_generated(proto_tree_add_none_format(rt, hf_rr_iwarp_found, ftvb, 0, 0,
					 "This TCP stream carries iWARP (MPA framing), as the engine's capture decoder found it"));
	FOR_EACH(fr->part_sends, const struct rrp_send *, s)
		proto_item_set_generated(proto_tree_add_uint_format(rt, hf_rr_send_completed_in, ftvb, 0, 0, s->last,
					 "Packet of the %s %s XID 0x%08x completed in frame %u",
					 rr_hdr_proc_name(s->proc), s->is_call ? "call" : "reply", s->xid, s->last));
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		rrp_draw_send(ftvb, pinfo, rt, s, poff, plen);
	FOR_EACH(fr->part_msgs, const struct rrp_msg *, m)
		proto_item_set_generated(proto_tree_add_uint_format(rt, hf_rr_rebuilt_in, ftvb, 0, 0, m->rebuilt_in,
					 "Bytes of the RPC %s XID 0x%08x rebuilt in frame %u",
					 m->v.dir == RR_DIR_CALL ? "call" : "reply", m->v.xid, m->rebuilt_in));
	FOR_EACH(fr->findings, const struct rrp_finding *, f)
		rrp_draw_finding(ftvb, pinfo, rt, f);
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		rrp_draw_message(ftvb, pinfo, rt, tree, fr, m, poff, plen);
	ft = wmem_new(pinfo->pool, struct rrp_frame_tap);
	ft->fr = fr;
	tap_queue_packet(rrp_frame_tap, pinfo, ft);
}
