// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw.c - the tree of one frame, from what feed.c kept for it.
 *
 * A frame may hold the end of a Send (its transport header is drawn over
 * the frame's bytes when the Send is this one packet, else over a new data
 * source), earlier packets of a Send or bytes of a message rebuilt
 * elsewhere (links), the messages rebuilt here (handed to Wireshark's own
 * RPC dissector), and the findings that name it (expert infos).  Where the
 * header's items sit comes from the engine (rr_hdr_layout); nothing here
 * knows the XDR layout.
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/exceptions.h>
#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/show_exception.h>
#include <epan/tap.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"
#include "rpcrdma/rules.h"

static dissector_handle_t rpc_handle;

#define FOR_EACH(arr, T, v) \
	for (unsigned i_##v = 0; (arr) && i_##v < wmem_array_get_count(arr); i_##v++) \
		for (T v = *(T *)wmem_array_index((arr), i_##v); v; v = NULL)

/* ---- the transport header ---- */

struct layout_ctx {
	tvbuff_t *tvb;
	proto_tree *stack[8];
};

static int span_field(enum rr_hdr_span_kind k)
{
	switch (k) {
	case RR_HS_XID: return hf_rr_xid;
	case RR_HS_VERS: return hf_rr_vers;
	case RR_HS_CREDIT: return hf_rr_credits;
	case RR_HS_PROC: return hf_rr_proc;
	case RR_HS_ALIGN: return hf_rr_align;
	case RR_HS_THRESH: return hf_rr_thresh;
	case RR_HS_ERR: return hf_rr_err;
	case RR_HS_VERS_LOW: return hf_rr_vers_low;
	case RR_HS_VERS_HIGH: return hf_rr_vers_high;
	case RR_HS_PRESENT: return hf_rr_present;
	case RR_HS_COUNT: return hf_rr_chunk_count;
	case RR_HS_POSITION: return hf_rr_position;
	case RR_HS_HANDLE: return hf_rr_seg_handle;
	case RR_HS_LENGTH: return hf_rr_seg_length;
	case RR_HS_OFFSET: return hf_rr_seg_offset;
	case RR_HS_UNDECODED: return hf_rr_undecoded;
	default: return -1;
	}
}

static const char *list_title(enum rr_hdr_list l)
{
	return l == RR_HL_READ ? "Read list" : l == RR_HL_WRITE ? "Write list" : "Reply chunk";
}

/* A chunk's role as the tree shows it: "read", "pzrc", "write[0]", "reply". */
static void role_text(char *buf, size_t n, enum rr_chunk_role role, uint32_t chunk)
{
	if (role == RR_ROLE_WRITE)
		snprintf(buf, n, "write[%u]", chunk);
	else
		snprintf(buf, n, "%s", rr_chunk_role_name(role));
}

static void layout_cb(void *vctx, const struct rr_hdr_span *sp)
{
	struct layout_ctx *c = vctx;
	unsigned d = sp->depth < 7 ? sp->depth : 6;
	proto_tree *t = c->stack[d];
	proto_item *ti;
	char role[24];
	int hf;

	if (!tvb_bytes_exist(c->tvb, (int)sp->offset, (int)sp->len))
		return;
	switch (sp->kind) {
	case RR_HS_LIST:
		hf = sp->list == RR_HL_READ ? hf_rr_reads : sp->list == RR_HL_WRITE ? hf_rr_writes : hf_rr_reply;
		ti = proto_tree_add_uint_format(t, hf, c->tvb, (int)sp->offset, (int)sp->len, (uint32_t)sp->value,
						"%s: %s", list_title(sp->list),
						sp->value ? "" : "empty");
		if (sp->value)
			proto_item_append_text(ti, "%u %s", (unsigned)sp->value,
					       sp->list == RR_HL_READ ? (sp->value == 1 ? "segment" : "segments")
					       : sp->list == RR_HL_WRITE ? (sp->value == 1 ? "chunk" : "chunks")
					       : "chunk");
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_list);
		return;
	case RR_HS_CHUNK:
		role_text(role, sizeof(role), sp->role, sp->chunk);
		ti = proto_tree_add_none_format(t, hf_rr_chunk, c->tvb, (int)sp->offset, (int)sp->len,
						"Chunk %s: %u segment%s", role, (unsigned)sp->value,
						sp->value == 1 ? "" : "s");
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_chunk);
		proto_item_set_generated(proto_tree_add_string(c->stack[d + 1], hf_rr_chunk_role, c->tvb,
							       (int)sp->offset, 0, role));
		if (sp->role == RR_ROLE_WRITE)
			proto_item_set_generated(proto_tree_add_uint(c->stack[d + 1], hf_rr_chunk_index, c->tvb,
								     (int)sp->offset, 0, sp->chunk));
		return;
	case RR_HS_SEGMENT:
		role_text(role, sizeof(role), sp->role, sp->chunk);
		ti = proto_tree_add_none_format(t, hf_rr_segment, c->tvb, (int)sp->offset, (int)sp->len,
						"Segment %u (%s): %u bytes", sp->seg, role, (unsigned)sp->value);
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_segment);
		if (sp->list == RR_HL_READ)
			proto_item_set_generated(proto_tree_add_string(c->stack[d + 1], hf_rr_chunk_role, c->tvb,
								       (int)sp->offset, 0, role));
		return;
	default:
		break;
	}
	hf = span_field(sp->kind);
	if (hf < 0)
		return;
	if (sp->kind == RR_HS_UNDECODED)
		proto_tree_add_item(t, hf, c->tvb, (int)sp->offset, (int)sp->len, ENC_NA);
	else if (sp->kind == RR_HS_OFFSET)
		proto_tree_add_uint64(t, hf, c->tvb, (int)sp->offset, (int)sp->len, sp->value);
	else if (sp->kind == RR_HS_PRESENT)
		proto_tree_add_boolean(t, hf, c->tvb, (int)sp->offset, (int)sp->len, (uint32_t)sp->value);
	else
		proto_tree_add_uint(t, hf, c->tvb, (int)sp->offset, (int)sp->len, (uint32_t)sp->value);
}

/* The Send's bytes at the frame's payload, when this one packet is the Send. */
static tvbuff_t *send_tvb(tvbuff_t *ftvb, packet_info *pinfo, const struct rrp_send *s, int poff, int plen)
{
	tvbuff_t *t;

	if (s->n_frames == 1 && poff >= 0 && plen >= (int)s->n_hdr_bytes &&
	    tvb_memeql(ftvb, poff, s->hdr_bytes, s->n_hdr_bytes) == 0)
		return tvb_new_subset_length(ftvb, poff, plen);
	t = tvb_new_child_real_data(ftvb, s->hdr_bytes, s->n_hdr_bytes, s->n_hdr_bytes);
	add_new_data_source(pinfo, t, "RPC-over-RDMA header");
	return t;
}

static void draw_send(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_send *s,
		      int poff, int plen)
{
	struct rr_hdr *h = wmem_new(pinfo->pool, struct rr_hdr);
	enum rr_hdr_status st = rr_hdr_decode(s->hdr_bytes, s->n_hdr_bytes, h);
	tvbuff_t *t = send_tvb(ftvb, pinfo, s, poff, plen);
	struct layout_ctx c = { .tvb = t };
	proto_item *ti;
	proto_tree *st_tree;
	unsigned i;

	ti = proto_tree_add_none_format(tree, hf_rr_send, t, 0, (int)MIN(s->n_hdr_bytes, tvb_captured_length(t)),
					"%s %s, XID 0x%08x, credits %u%s", rr_hdr_proc_name(s->proc),
					s->is_call ? "call" : "reply", s->xid, s->credit,
					s->rejected ? " (not rebuilt: the header does not decode)" : "");
	st_tree = proto_item_add_subtree(ti, ett_rr_send);
	if (st != RR_HDR_OK && st != RR_HDR_E_NOT_V1)
		proto_item_append_text(ti, " [%s at byte %zu]", rr_hdr_status_text(st), h->err_offset);
	c.stack[0] = st_tree;
	rr_hdr_layout(h, st, s->n_hdr_bytes, layout_cb, &c);
	proto_item_set_generated(proto_tree_add_uint(st_tree, hf_rr_send_length, t, 0, 0, s->len));
	if (s->is_call && s->outstanding)
		proto_item_set_generated(proto_tree_add_uint(st_tree, hf_rr_outstanding, t, 0, 0, s->outstanding));
	for (i = 0; s->n_frames > 1 && i < s->n_frames; i++)
		proto_item_set_generated(proto_tree_add_uint(st_tree, hf_rr_send_frame, t, 0, 0, s->frames[i]));
	col_add_fstr(pinfo->cinfo, COL_INFO, "%s %s XID 0x%08x", rr_hdr_proc_name(s->proc),
		     s->is_call ? "call" : "reply", s->xid);
}

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
}

static const struct rrp_send *send_here(const struct rrp_frame *fr, uint32_t xid)
{
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		if (s->xid == xid && s->n_frames == 1)
			return s;
	return NULL;
}

/* The message's bytes right after the header in this frame (an inline message in one packet), else a new tab. */
static tvbuff_t *message_tvb(tvbuff_t *ftvb, packet_info *pinfo, const struct rrp_frame *fr,
			     const struct rrp_msg *m, int poff, int plen)
{
	const struct rrp_send *s = send_here(fr, m->v.xid);
	tvbuff_t *t;

	if (s && poff >= 0 && m->payload_len && s->hdr_len + m->payload_len <= (uint32_t)plen &&
	    tvb_memeql(ftvb, poff + (int)s->hdr_len, m->payload, m->payload_len) == 0)
		return tvb_new_subset_length(ftvb, poff + (int)s->hdr_len, (int)m->payload_len);
	t = tvb_new_child_real_data(ftvb, m->payload, m->payload_len, m->payload_len);
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

	role_text(role, sizeof(role), s->s.role, s->s.chunk);
	ti = proto_tree_add_none_format(mtree, hf_rr_segment, at, 0, 0,
					"Segment %u (%s): %" PRIu64 " of %u bytes seen, in %u frame%s", s->s.index, role,
					s->s.bytes, s->s.length, s->n_frames, s->n_frames == 1 ? "" : "s");
	proto_item_set_generated(ti);
	t = proto_item_add_subtree(ti, ett_rr_segment);
	proto_item_set_generated(proto_tree_add_string(t, hf_rr_chunk_role, at, 0, 0, role));
	proto_item_set_generated(proto_tree_add_uint64(t, hf_rr_seg_bytes, at, 0, 0, s->s.bytes));
	for (i = 0; i < s->n_frames; i++)
		proto_item_set_generated(proto_tree_add_uint(t, hf_rr_seg_frame, at, 0, 0, s->frames[i]));
}

static void draw_message(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *rt, proto_tree *tree,
			 const struct rrp_frame *fr, const struct rrp_msg *m, int poff, int plen)
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
	proto_item_set_generated(proto_tree_add_string(mtree, hf_rr_msg_dir, at, 0, 0, is_call ? "call" : "reply"));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_xid, at, 0, 0, v->xid));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_msg_length, at, 0, 0, m->payload_len));
	proto_item_set_generated(proto_tree_add_boolean(mtree, hf_rr_msg_complete, at, 0, 0, v->complete));
	proto_item_set_generated(proto_tree_add_uint64(mtree, hf_rr_inline_bytes, at, 0, 0, v->inline_bytes));
	/* The field counts every byte moved by RDMA: DDP-eligible data and Long messages alike. */
	proto_item_set_generated(proto_tree_add_uint64(mtree, hf_rr_ddp_bytes, at, 0, 0, v->ddp_bytes + v->long_bytes));
	if (v->op[0] && strcmp(v->op, "?"))
		proto_item_set_generated(proto_tree_add_string(mtree, hf_rr_op, at, 0, 0, v->op));
	if (v->backchannel)
		proto_item_set_generated(proto_tree_add_boolean(mtree, hf_rr_backchannel, at, 0, 0, 1));
	proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_conn, at, 0, 0, v->conn_id));
	proto_item_set_generated(proto_tree_add_string(mtree, hf_rr_conn_name, at, 0, 0, m->conn_name));
	for (i = 0; i < m->n_frames; i++)
		proto_item_set_generated(proto_tree_add_uint(mtree, hf_rr_msg_frame, at, 0, 0, m->frames[i]));
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
	tap = wmem_new(pinfo->pool, struct rrp_tap_info);
	tap->msg = m;
	tap_queue_packet(rrp_tap, pinfo, tap);
	if (mt && v->has_rpc) {
		col_clear(pinfo->cinfo, COL_INFO);
		call_rpc(mt, pinfo, tree, m);
		col_set_fence(pinfo->cinfo, COL_INFO);
	}
}

/* ---- findings ---- */

static expert_field *expert_for(enum rr_severity sev)
{
	return sev == RR_SEV_ERROR ? &ei_rr_error : sev == RR_SEV_WARNING ? &ei_rr_warning : &ei_rr_note;
}

static void draw_finding(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const struct rrp_finding *f)
{
	const struct rr_rule *r = rr_rule_get(f->id);
	proto_item *ti;
	proto_tree *vt;
	unsigned i;

	ti = proto_tree_add_none_format(tree, hf_rr_violation, tvb, 0, 0, "%s (%s, %s): %s", r->code,
					rr_severity_name(f->severity), r->section, f->text);
	proto_item_set_generated(ti);
	vt = proto_item_add_subtree(ti, ett_rr_violation);
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule, tvb, 0, 0, r->code));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_name, tvb, 0, 0, r->name));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_severity, tvb, 0, 0,
						       rr_severity_name(f->severity)));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_section, tvb, 0, 0, r->section));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_text, tvb, 0, 0, f->text));
	for (i = 0; i < f->n_evidence; i++)
		proto_item_set_generated(proto_tree_add_uint(vt, hf_rr_evidence, tvb, 0, 0, f->evidence[i]));
	expert_add_info_format(pinfo, ti, expert_for(f->severity), "%s: %s", r->code, f->text);
}

/* ---- one frame ---- */

void rrp_draw(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_frame *fr,
	      int poff, int plen)
{
	proto_item *ti;
	proto_tree *rt;

	if (!rpc_handle)
		rpc_handle = find_dissector("rpc");
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
		draw_send(ftvb, pinfo, rt, s, poff, plen);
	FOR_EACH(fr->part_msgs, const struct rrp_msg *, m)
		proto_item_set_generated(proto_tree_add_uint_format(rt, hf_rr_rebuilt_in, ftvb, 0, 0, m->rebuilt_in,
					 "Bytes of the RPC %s XID 0x%08x rebuilt in frame %u",
					 m->v.dir == RR_DIR_CALL ? "call" : "reply", m->v.xid, m->rebuilt_in));
	FOR_EACH(fr->findings, const struct rrp_finding *, f)
		draw_finding(ftvb, pinfo, rt, f);
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		draw_message(ftvb, pinfo, rt, tree, fr, m, poff, plen);
}
