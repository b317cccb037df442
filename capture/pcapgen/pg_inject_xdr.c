// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group P, XDR alignment of chunks (RR-222, RR-224). */
#include "pg_inject_priv.h"

#include <string.h>

/* read chunk longer than roundup4 of the item */
bool pg_inj_long_read_chunk_plan(pg_inj_ctx *c)
{
	if (!c->is_call)
		return false;
	c->plan->knobs.read_extra = pg_inj_arg(c, 4);
	return c->plan->knobs.read_extra != 0;
}

bool pg_inj_long_read_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_EXTRA))
		return false;
	pg_inj_expect(c, "RR-222");
	return true;
}

/* a second read chunk whose Position lies inside the data of the first
 * non-zero read chunk; it carries the same bytes as the part of the first
 * chunk it overlaps (another handle onto them), and the responder reads it */
bool pg_inj_overlap_chunk(pg_inj_ctx *c)
{
	uint32_t d = pg_round4(pg_inj_arg(c, 8)), n;
	pg_chunk *ch = NULL, *b;
	const pg_seg *s0;
	pg_seg s;
	pg_op op = { 0 };
	guint at0 = 0;
	if (!c->is_call || c->plan->reply.proc == RDMA_ERROR || c->item->reply.none)
		return false;
	for (guint i = 0; i < c->plan->call.reads->len && !ch; i++)
		if (((pg_chunk *)c->plan->call.reads->pdata[i])->position) {
			ch = c->plan->call.reads->pdata[i];
			at0 = i;
		}
	if (!ch || !ch->segs->len || !d)
		return false;
	s0 = &g_array_index(ch->segs, pg_seg, 0);
	if (s0->length < d + 8)
		return false;
	n = MIN(8u, s0->length - d);
	b = pg_chunk_new();
	b->position = ch->position + d;
	s.handle = s0->handle ^ 0x00e1e100u;
	s.offset = s0->offset + d;
	s.length = n;
	g_array_append_val(b->segs, s);
	g_byte_array_append(b->data, ch->data->data + d, n);
	b->item_len = n;
	g_ptr_array_add(c->plan->extra_chunks, b);
	g_ptr_array_insert(c->plan->call.reads, (gint)at0 + 1, b);
	op.kind = PG_OP_READ;
	op.len = n;
	op.data = b->data->data;
	op.rkey = s.handle;
	op.va = s.offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_READS, &op, NULL);
	pg_inj_expect(c, "RR-224");
	/* the extra chunk reduces no eligible item, and the call has read
	 * chunks at two non-zero Positions (the binding's rules, another
	 * document's view of the same chunk); a normal answer processed it */
	switch (pg_inj_binding(c)) {
	case PG_BIND_NFS3: pg_inj_expect(c, "RR-141"); pg_inj_expect(c, "RR-142"); break;
	case PG_BIND_NFS4: pg_inj_expect(c, "RR-143"); break; /* RR-170 comes from the sequence check */
	case PG_BIND_ACL: pg_inj_expect(c, "RR-145"); break;
	case PG_BIND_CB: pg_inj_expect(c, "RR-147"); pg_inj_expect(c, "RR-191"); break;
	default: pg_inj_expect(c, "RR-140"); break;
	}
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	return true;
}

/* The sender leaves the XDR pad of the first reduced item whose length is
 * not a multiple of 4 in the Payload stream, where the item was
 * (RFC 8166 §3.4.4.4): after the call's first read chunk, or after the
 * reply's first used Write chunk's item. Only the first chunk: no earlier
 * chunk moved inline bytes, so its place in the inline stream is known. */
bool pg_inj_pad_inline(pg_inj_ctx *c)
{
	const pg_chunk *ch = NULL;
	size_t at;
	uint32_t pad;
	if (c->msg->proc != RDMA_MSG)
		return false;
	if (c->is_call) {
		for (guint i = 0; i < c->msg->reads->len && !ch; i++)
			if (((const pg_chunk *)c->msg->reads->pdata[i])->position)
				ch = c->msg->reads->pdata[i];
		if (!ch || ch != c->msg->reads->pdata[0])
			return false;
		at = ch->position;
	} else {
		for (guint i = 0; i < c->msg->writes->len && !ch; i++)
			if (pg_inj_chunk_used(c->msg->writes->pdata[i]))
				ch = c->msg->writes->pdata[i];
		if (!ch || ch->data_off < 0)
			return false;
		for (guint i = 0; i < c->msg->writes->len; i++) {
			const pg_chunk *o = c->msg->writes->pdata[i];
			if (o != ch && pg_inj_chunk_used(o) && o->data_off >= 0 && o->data_off < ch->data_off)
				return false;
		}
		at = (size_t)ch->data_off;
	}
	pad = pg_round4(ch->item_len) - ch->item_len;
	if (!pad || at > c->msg->inline_payload->len)
		return false;
	g_byte_array_set_size(c->msg->inline_payload, c->msg->inline_payload->len + pad);
	memmove(c->msg->inline_payload->data + at + pad, c->msg->inline_payload->data + at,
		c->msg->inline_payload->len - pad - at);
	memset(c->msg->inline_payload->data + at, 0, pad);
	pg_inj_expect(c, c->is_call ? "RR-063" : "RR-221");
	return true;
}

/* ARG zero bytes (default 2, 1 to 3) after the end of an RDMA_MSG's inline
 * Payload: the Send carries a stream that is not a whole number of XDR
 * words (RFC 8166 §3.4.4.4, §3.4.5: objects start on 4-byte boundaries) */
bool pg_inj_unaligned_payload(pg_inj_ctx *c)
{
	uint32_t n = pg_inj_arg(c, 2);
	if (c->msg->proc != RDMA_MSG || !n || n > 3 || c->msg->inline_payload->len % 4)
		return false;
	g_byte_array_set_size(c->msg->inline_payload, c->msg->inline_payload->len + n);
	memset(c->msg->inline_payload->data + c->msg->inline_payload->len - n, 0, n);
	pg_inj_expect(c, "RR-220");
	return true;
}
