// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_hdr.c - a Send's transport header (RFC 8166 §4.3), drawn from the
 * spans the engine lays out (rr_hdr_layout): nothing here knows the XDR.
 * The header is drawn over the frame's own bytes when the Send is this one
 * packet, else over a new data source holding the bytes the engine kept.
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/packet.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"

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

/* A chunk's role as labels show it: "read", "pzrc", "write[0]", "reply" (the field is the role, the index apart). */
/*
 * "write[1]", "read[2]", "reply": a write chunk by its place in the write
 * list, a read segment by its place in the read list, so that two read
 * chunks of one call are told apart in a frame's Info and tree.
 */
void rrp_role_text(char *buf, size_t n, enum rr_chunk_role role, uint32_t chunk)
{
	if (role == RR_ROLE_WRITE || role == RR_ROLE_READ || role == RR_ROLE_PZRC)
		snprintf(buf, n, "%s[%u]", rr_chunk_role_name(role), chunk);
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
		/* An empty list is shown but not a field: `rpcrdma.reply` means "has a reply chunk". */
		if (!sp->value) {
			c->stack[d + 1] = proto_tree_add_subtree_format(t, c->tvb, (int)sp->offset, (int)sp->len,
								      ett_rr_list, NULL, "%s: empty",
								      list_title(sp->list));
			return;
		}
		hf = sp->list == RR_HL_READ ? hf_rr_reads : sp->list == RR_HL_WRITE ? hf_rr_writes : hf_rr_reply;
		ti = proto_tree_add_uint_format(t, hf, c->tvb, (int)sp->offset, (int)sp->len, (uint32_t)sp->value,
						"%s: %u %s", list_title(sp->list), (unsigned)sp->value,
						sp->list == RR_HL_READ ? (sp->value == 1 ? "segment" : "segments")
						: sp->list == RR_HL_WRITE ? (sp->value == 1 ? "chunk" : "chunks")
						: "chunk");
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_list);
		return;
	case RR_HS_CHUNK:
		rrp_role_text(role, sizeof(role), sp->role, sp->chunk);
		ti = proto_tree_add_none_format(t, hf_rr_chunk, c->tvb, (int)sp->offset, (int)sp->len,
						"Chunk %s: %u segment%s", role, (unsigned)sp->value,
						sp->value == 1 ? "" : "s");
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_chunk);
		proto_item_set_generated(proto_tree_add_uint(c->stack[d + 1], hf_rr_chunk_role, c->tvb,
							     (int)sp->offset, 0, sp->role));
		if (sp->role == RR_ROLE_WRITE)
			proto_item_set_generated(proto_tree_add_uint(c->stack[d + 1], hf_rr_chunk_index, c->tvb,
								     (int)sp->offset, 0, sp->chunk));
		return;
	case RR_HS_SEGMENT:
		/* A read list entry is a segment of its own: its place in the list names it. */
		rrp_role_text(role, sizeof(role), sp->role, sp->list == RR_HL_READ ? sp->seg : sp->chunk);
		ti = proto_tree_add_none_format(t, hf_rr_segment, c->tvb, (int)sp->offset, (int)sp->len,
						"Segment %u (%s): %u bytes", sp->seg, role, (unsigned)sp->value);
		c->stack[d + 1] = proto_item_add_subtree(ti, ett_rr_segment);
		if (sp->list == RR_HL_READ)
			proto_item_set_generated(proto_tree_add_uint(c->stack[d + 1], hf_rr_chunk_role, c->tvb,
								     (int)sp->offset, 0, sp->role));
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

void rrp_draw_send(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_send *s,
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

