// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_carry.c - what an RDMA operation's packet carried: a Write or Read
 * Response placing bytes in a chunk segment (RFC 8166 §3.4.5, §3.4.6), or a
 * Read Request asking for them, as the engine placed it (struct
 * rrp_carry).  Each gets a subtree with the chunk, the segment, the offset
 * in it and the RPC operation it serves, and a line in the Info column.
 * The XID goes in as rpcrdma.xid, so filtering on a call's XID finds the
 * frames that carried its data too.
 */
#include "ws_compat.h"

#include <inttypes.h>

#include <epan/packet.h>

#include "fields.h"
#include "rpcrdma_plugin.h"

static int hf_rdma = -1, hf_rdma_op = -1, hf_rdma_handle = -1, hf_rdma_len = -1, hf_rdma_hit = -1;
static int hf_rdma_role = -1, hf_rdma_chunk = -1;
static int hf_rdma_seg = -1, hf_rdma_seg_off = -1, hf_rdma_seg_len = -1, hf_rdma_call_in = -1;
static int ett_rdma = -1;

static const value_string op_vals[] = {
	{ RR_CARRY_WRITE, "RDMA Write" },
	{ RR_CARRY_READ_REQ, "RDMA Read Request" },
	{ RR_CARRY_READ_RESP, "RDMA Read Response" },
	{ 0, NULL },
};

static const value_string role_vals[] = {
	{ RR_ROLE_READ, "read chunk" },
	{ RR_ROLE_PZRC, "Position-Zero read chunk" },
	{ RR_ROLE_WRITE, "write chunk" },
	{ RR_ROLE_REPLY, "reply chunk" },
	{ 0, NULL },
};

const char *rrp_carry_op_name(enum rr_rdma_carry op)
{
	return val_to_str_const(op, op_vals, "RDMA");
}

#define HF(id, name, abbrev, type, disp, strings, blurb) \
	{ &(id), { name, abbrev, type, disp, strings, 0x0, blurb, HFILL } }

void rrp_register_carry_fields(int proto)
{
	static hf_register_info hf[] = {
		HF(hf_rdma, "RDMA operation", "rpcrdma.rdma", FT_NONE, BASE_NONE, NULL,
		   "An RDMA Write, Read Request or Read Response that moved chunk bytes"),
		HF(hf_rdma_op, "RDMA operation type", "rpcrdma.rdma.op", FT_UINT32, BASE_DEC, VALS(op_vals),
		   "Which RDMA operation this packet belongs to"),
		HF(hf_rdma_handle, "RDMA handle", "rpcrdma.rdma.handle", FT_UINT32, BASE_HEX, NULL,
		   "The R_Key or STag the operation named"),
		HF(hf_rdma_len, "RDMA bytes", "rpcrdma.rdma.length", FT_UINT64, BASE_DEC, NULL,
		   "Bytes this packet carried into the segment (a Read Request: bytes it asked for)"),
		HF(hf_rdma_hit, "Matches an advertised segment", "rpcrdma.rdma.matched", FT_BOOLEAN, BASE_NONE, NULL,
		   "The operation's range lies in a chunk segment a call in the capture advertised"),
		HF(hf_rdma_role, "RDMA target chunk", "rpcrdma.rdma.chunk", FT_UINT32, BASE_DEC, VALS(role_vals),
		   "The kind of chunk whose segment the operation moved bytes of"),
		HF(hf_rdma_chunk, "RDMA target chunk index", "rpcrdma.rdma.chunk_index", FT_UINT32, BASE_DEC, NULL,
		   "Write chunks: the chunk's index in the call's write list; read chunks: the segment's index "
		   "in the read list"),
		HF(hf_rdma_seg, "RDMA target segment", "rpcrdma.rdma.segment", FT_UINT32, BASE_DEC, NULL,
		   "The segment's index inside its chunk"),
		HF(hf_rdma_seg_off, "Offset in segment", "rpcrdma.rdma.segment_offset", FT_UINT64, BASE_DEC, NULL,
		   "Where this packet's bytes start, counted from the segment's first byte"),
		HF(hf_rdma_seg_len, "Segment length advertised", "rpcrdma.rdma.segment_length", FT_UINT32, BASE_DEC,
		   NULL, "The length the call's header gave the segment"),
		HF(hf_rdma_call_in, "Call rebuilt in", "rpcrdma.rdma.call_in", FT_FRAMENUM, BASE_NONE, NULL,
		   "The frame where the call that advertised the segment was rebuilt"),
	};
	static int *ett[] = { &ett_rdma };

	proto_register_field_array(proto, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
}

/*
 * The call that advertised the segment: known when the operation came,
 * or (a Read Request comes before its call is rebuilt) by its XID on a
 * later visit.
 */
static const struct rrp_msg *call_of(const struct rrp_carry *c)
{
	const struct rrp_msg *call;

	if (!c->hit)
		return NULL;
	if (c->call)
		return c->call;
	call = rrp_call_of_xid(c->xid);
	return call && call->v.conn_id == c->conn_id ? call : NULL;
}

/* "NFSv3 READ reply XID 0x30aab4aa", or "call XID 0x30aab4aa" when the call is not known. */
static const char *whose(packet_info *pinfo, const struct rrp_carry *c, const struct rrp_msg *call)
{
	const char *dir = c->role == RR_ROLE_READ || c->role == RR_ROLE_PZRC ? "call" : "reply";

	if (rrp_op_known(call))
		return wmem_strdup_printf(pinfo->pool, "%s %s XID 0x%08x", call->v.op, dir, c->xid);
	return wmem_strdup_printf(pinfo->pool, "%s XID 0x%08x", dir, c->xid);
}

void rrp_draw_carry(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *rt, const struct rrp_carry *c, bool set_info)
{
	const char *op = rrp_carry_op_name(c->op);
	const struct rrp_msg *call = call_of(c);
	const char *owner = c->hit ? whose(pinfo, c, call) : NULL;
	proto_item *ti;
	proto_tree *t;
	char role[24];

	rrp_role_text(role, sizeof(role), c->role, c->chunk);
	if (c->hit)
		ti = proto_tree_add_none_format(rt, hf_rdma, ftvb, 0, 0,
						"%s: %" PRIu64 " bytes, %s segment %u at offset %" PRIu64 " of %u, %s",
						op, c->len, role, c->seg, c->seg_offset, c->seg_length, owner);
	else
		ti = proto_tree_add_none_format(rt, hf_rdma, ftvb, 0, 0,
						"%s: %" PRIu64 " bytes, handle 0x%08x: no segment advertised in the "
						"capture holds them", op, c->len, c->handle);
	proto_item_set_generated(ti);
	t = proto_item_add_subtree(ti, ett_rdma);
	proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_op, ftvb, 0, 0, c->op));
	proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_handle, ftvb, 0, 0, c->handle));
	proto_item_set_generated(proto_tree_add_uint64(t, hf_rdma_len, ftvb, 0, 0, c->len));
	proto_item_set_generated(proto_tree_add_boolean(t, hf_rdma_hit, ftvb, 0, 0, c->hit));
	if (c->hit) {
		proto_item_set_generated(proto_tree_add_uint(t, hf_rr_xid, ftvb, 0, 0, c->xid));
		proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_role, ftvb, 0, 0, c->role));
		proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_chunk, ftvb, 0, 0, c->chunk));
		proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_seg, ftvb, 0, 0, c->seg));
		proto_item_set_generated(proto_tree_add_uint64(t, hf_rdma_seg_off, ftvb, 0, 0, c->seg_offset));
		proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_seg_len, ftvb, 0, 0, c->seg_length));
		if (call) {
			if (rrp_op_known(call))
				proto_item_set_generated(proto_tree_add_string(t, hf_rr_op, ftvb, 0, 0, call->v.op));
			proto_item_set_generated(proto_tree_add_uint(t, hf_rdma_call_in, ftvb, 0, 0, call->rebuilt_in));
		}
	}
	if (!set_info)
		return;
	if (c->last_frame != pinfo->num)
		col_add_fstr(pinfo->cinfo, COL_INFO, "Segment of an %s completed in %u: ", op, c->last_frame);
	else
		col_clear(pinfo->cinfo, COL_INFO);
	if (c->hit)
		col_append_fstr(pinfo->cinfo, COL_INFO, "%s %" PRIu64 " B %s seg %u @%" PRIu64 ", %s", op, c->len,
				role, c->seg, c->seg_offset, owner);
	else
		col_append_fstr(pinfo->cinfo, COL_INFO, "%s %" PRIu64 " B, handle 0x%08x (no advertised segment)", op,
				c->len, c->handle);
}
