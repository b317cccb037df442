// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_msg.c - a message the engine rebuilt: its summary, its chunk
 * segments and the frames that carried them, and the message itself
 * handed to Wireshark's own RPC dissector (so NFS and every RPC statistic
 * see it as they would over TCP).
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/exceptions.h>
#include <epan/packet.h>
#include <epan/show_exception.h>
#include <epan/tap.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"

static dissector_handle_t rpc_handle;

/* ---- the rebuilt message ---- */

static void call_rpc(tvbuff_t *mt, packet_info *pinfo, proto_tree *tree, const struct rrp_msg *m)
{
	/*
	 * RPC matches a reply to its call by conversation, and Wireshark's
	 * addresses cannot say which IB flows make one connection without the
	 * CM handshake.  The engine can: name the two ends after the engine's
	 * connection for the call, restore the frame's own afterwards.
	 */
	address src = pinfo->src, dst = pinfo->dst;
	nstime_t ts = pinfo->abs_ts;
	port_type ptype = pinfo->ptype;
	uint32_t sport = pinfo->srcport, dport = pinfo->destport;
	bool use_ep = pinfo->use_conv_addr_port_endpoints;
	char *req = wmem_strdup_printf(pinfo->pool, "rpcrdma connection %u requester", m->conv_id);
	char *resp = wmem_strdup_printf(pinfo->pool, "rpcrdma connection %u responder", m->conv_id);
	bool from_requester = (m->v.dir == RR_DIR_CALL) != m->v.backchannel;
	void *elements = pinfo->conv_elements;

	set_address(&pinfo->src, AT_STRINGZ, (int)strlen(from_requester ? req : resp) + 1,
		    from_requester ? req : resp);
	set_address(&pinfo->dst, AT_STRINGZ, (int)strlen(from_requester ? resp : req) + 1,
		    from_requester ? resp : req);
	pinfo->ptype = PT_IBQP;
	pinfo->srcport = pinfo->destport = m->v.backchannel ? 2 : 1;
	pinfo->use_conv_addr_port_endpoints = FALSE;
	pinfo->conv_elements = NULL;
	/*
	 * RPC times a reply from the moment it saw the call: show it each
	 * message at the time it was sent (a call with read chunks is rebuilt
	 * at its last Read Response, long after its Send), so rpc.time and
	 * RPC's response-time statistics measure what rpcrdma.time does.
	 */
	pinfo->abs_ts.secs = (time_t)(m->v.ts_usec / 1000000u);
	pinfo->abs_ts.nsecs = (int)(m->v.ts_usec % 1000000u) * 1000;
	TRY {
		call_dissector(rpc_handle, mt, pinfo, tree);
	}
	CATCH_NONFATAL_ERRORS {
		show_exception(mt, pinfo, tree, EXCEPT_CODE, GET_MESSAGE);
	}
	ENDTRY;
	pinfo->src = src;
	pinfo->dst = dst;
	pinfo->ptype = ptype;
	pinfo->srcport = sport;
	pinfo->destport = dport;
	pinfo->use_conv_addr_port_endpoints = use_ep;
	pinfo->conv_elements = elements;
	pinfo->abs_ts = ts;
}

static const struct rrp_send *send_here(const struct rrp_frame *fr, uint32_t xid)
{
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		if (s->xid == xid && s->n_frames == 1)
			return s;
	return NULL;
}

/*
 * The message's bytes right after the header in this frame (an inline
 * message in one packet), else a new tab.  Of a message the capture did
 * not hold whole, only the bytes before the first one it lost are
 * captured bytes of the tab (the rest is its reported length): RPC and NFS
 * decode those and then say the packet was cut, instead of decoding the
 * zeros that stand for what was lost.
 */
static tvbuff_t *message_tvb(tvbuff_t *ftvb, packet_info *pinfo, const struct rrp_frame *fr,
			     const struct rrp_msg *m, int poff, int plen)
{
	const struct rrp_send *s = send_here(fr, m->v.xid);
	tvbuff_t *t;

	if (s && poff >= 0 && m->payload_len && m->payload_whole == m->payload_len &&
	    s->hdr_len + m->payload_len <= (uint32_t)plen &&
	    tvb_memeql(ftvb, poff + (int)s->hdr_len, m->payload, m->payload_len) == 0)
		return tvb_new_subset_length(ftvb, poff + (int)s->hdr_len, (int)m->payload_len);
	t = tvb_new_child_real_data(ftvb, m->payload, m->payload_whole, (gint)m->payload_len);
	add_new_data_source(pinfo, t, "Rebuilt RPC message");
	return t;
}

/* A chunk segment of the message: its role, what arrived, and in which frames. */
static void draw_segment(tvbuff_t *at, proto_tree *mtree, const struct rrp_seg *s)
{
	proto_item *ti;
	proto_tree *t;
	char role[24];
	unsigned i;

	rrp_role_text(role, sizeof(role), s->s.role, s->s.role == RR_ROLE_WRITE ? s->s.chunk : s->s.index);
	ti = proto_tree_add_none_format(mtree, hf_rr_segment, at, 0, 0,
					"Segment %u (%s): %" PRIu64 " of %u bytes seen, in %u frame%s", s->s.index, role,
					s->s.bytes, s->s.length, s->n_frames, s->n_frames == 1 ? "" : "s");
	proto_item_set_generated(ti);
	t = proto_item_add_subtree(ti, ett_rr_segment);
	proto_item_set_generated(proto_tree_add_uint(t, hf_rr_chunk_role, at, 0, 0, s->s.role));
	if (s->s.role == RR_ROLE_WRITE)
		proto_item_set_generated(proto_tree_add_uint(t, hf_rr_chunk_index, at, 0, 0, s->s.chunk));
	proto_item_set_generated(proto_tree_add_uint64(t, hf_rr_seg_bytes, at, 0, 0, s->s.bytes));
	for (i = 0; i < s->n_frames; i++)
		proto_item_set_generated(proto_tree_add_uint(t, hf_rr_seg_frame, at, 0, 0, s->frames[i]));
}

void rrp_draw_message(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *rt, proto_tree *tree,
		      const struct rrp_frame *fr, const struct rrp_msg *m, int poff, int plen, unsigned nth)
{
	const struct rr_msg_view *v = &m->v;
	bool is_call = v->dir == RR_DIR_CALL;
	tvbuff_t *mt = m->payload_len ? message_tvb(ftvb, pinfo, fr, m, poff, plen) : NULL;
	tvbuff_t *at = mt ? mt : ftvb;
	struct rrp_tap_info *tap;
	proto_item *ti;
	proto_tree *mtree;
	unsigned i;

	ti = proto_tree_add_none_format(rt, hf_rr_message, at, 0, mt ? (int)m->payload_len : 0,
					"RPC %s%s, XID 0x%08x: %u bytes rebuilt from %u frame%s%s",
					v->backchannel ? "backchannel " : "", is_call ? "call" : "reply", v->xid,
					m->payload_len, m->n_frames, m->n_frames == 1 ? "" : "s",
					v->complete ? "" : " (incomplete)");
	proto_item_set_generated(ti);
	mtree = proto_item_add_subtree(ti, ett_rr_message);
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_msg_dir, at, 0, 0, v->dir));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_xid, at, 0, 0, v->xid));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_msg_length, at, 0, 0, m->payload_len));
	proto_item_set_generated(proto_tree_add_boolean(mtree, hf_rr_msg_complete, at, 0, 0, v->complete));
	proto_item_set_generated(proto_tree_add_uint64(mtree, hf_rr_inline_bytes, at, 0, 0, v->inline_bytes));
	/* The field counts every byte moved by RDMA: DDP-eligible data and Long messages alike. */
	proto_item_set_generated(proto_tree_add_uint64(mtree, hf_rr_ddp_bytes, at, 0, 0, v->ddp_bytes + v->long_bytes));
	if (rrp_op_known(m))
		proto_item_set_generated(proto_tree_add_string(mtree, hf_rr_op, at, 0, 0, v->op));
	if (v->backchannel)
		proto_item_set_generated(proto_tree_add_boolean(mtree, hf_rr_backchannel, at, 0, 0, 1));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_conn, at, 0, 0, v->conn_id));
	proto_item_set_generated(proto_tree_add_string(mtree, hf_rr_conn_name, at, 0, 0, m->conn_name));
	rrp_draw_fragments(at, mtree, m);
	for (i = 0; i < m->n_segs; i++)
		draw_segment(at, mtree, &m->segs[i]);
	if (m->peer && is_call) {
		proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_reply_in, at, 0, 0, m->peer->rebuilt_in));
	} else if (m->peer) {
		nstime_t dt;
		uint64_t us = v->ts_usec >= v->call_ts_usec ? v->ts_usec - v->call_ts_usec : 0;

		proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_request_in, at, 0, 0, m->peer->rebuilt_in));
		dt.secs = (time_t)(us / 1000000u);
		dt.nsecs = (int)(us % 1000000u) * 1000;
		proto_item_set_generated(proto_tree_add_time(mtree, hf_rr_time, at, 0, 0, &dt));
	}
	if (!rpc_handle)
		rpc_handle = find_dissector("rpc");
	tap = wmem_new(pinfo->pool, struct rrp_tap_info);
	tap->msg = m;
	tap_queue_packet(rrp_tap, pinfo, tap);
	if (mt && v->has_rpc) {
		if (nth) {
			/* Several messages in one frame: their Info texts are joined as Wireshark joins PDUs. */
			col_append_str(pinfo->cinfo, COL_INFO, " ; ");
			col_set_fence(pinfo->cinfo, COL_INFO);
		}
		col_clear(pinfo->cinfo, COL_INFO);
		call_rpc(mt, pinfo, tree, m);
		col_set_fence(pinfo->cinfo, COL_INFO);
	}
}

