// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group D, read chunks and the responder's RDMA Reads (RR-062..RR-069). */
#include "pg_inject_priv.h"

#include <string.h>

/* read chunk shorter than the count left inline */
bool pg_inj_short_read_chunk_plan(pg_inj_ctx *c)
{
	if (!c->is_call)
		return false;
	c->plan->knobs.read_trim = pg_round4(pg_inj_arg(c, 4));
	return c->plan->knobs.read_trim != 0;
}

bool pg_inj_short_read_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_TRIM))
		return false;
	pg_inj_expect(c, "RR-062");
	return true;
}

static const pg_seg *first_read_seg(const pg_plan *p)
{
	for (guint i = 0; i < p->read_chunks->len; i++) {
		const pg_chunk *ch = p->read_chunks->pdata[i];
		if (ch->segs->len && g_array_index(ch->segs, pg_seg, 0).length)
			return &g_array_index(ch->segs, pg_seg, 0);
	}
	return NULL;
}

/* an RDMA Read of 16 bytes just past the end of a read segment */
bool pg_inj_extra_read(pg_inj_ctx *c)
{
	const pg_seg *s = first_read_seg(c->plan);
	pg_op op = { 0 };
	if (!s || c->plan->reply.proc == RDMA_ERROR)
		return false;
	op.kind = PG_OP_READ;
	op.len = 16;
	op.data = pg_ex_scratch(c->ex, op.len);
	op.rkey = s->handle;
	op.va = s->offset + s->length;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_READS, &op, "RR-066");
	return true;
}

/* the first read segment read again after the reply */
bool pg_inj_read_after_reply(pg_inj_ctx *c)
{
	const pg_seg *s = first_read_seg(c->plan);
	pg_op op = { 0 };
	uint8_t *d;
	if (!s || c->plan->reply.proc == RDMA_ERROR)
		return false;
	op.kind = PG_OP_READ;
	op.len = MIN(s->length, 64u);
	d = pg_ex_scratch(c->ex, op.len);
	for (guint i = 0; i < c->plan->read_chunks->len; i++) {
		const pg_chunk *ch = c->plan->read_chunks->pdata[i];
		if (ch->segs->len && &g_array_index(ch->segs, pg_seg, 0) == s) {
			uint32_t n = MIN(op.len, ch->data->len);
			memcpy(d, ch->data->data, n);
		}
	}
	op.data = d;
	op.rkey = s->handle;
	op.va = s->offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_AFTER_REPLY, &op, "RR-068");
	return true;
}

/* the responder pulls D bytes less than the first read segment and still
 * answers normally */
bool pg_inj_partial_read(pg_inj_ctx *c)
{
	uint32_t d = pg_round4(pg_inj_arg(c, 4));
	pg_op *op = NULL;
	if (!c->is_call || c->plan->reply.proc == RDMA_ERROR || !d)
		return false;
	for (guint i = 0; (op = pg_ex_op(c->ex, PG_OPS_READS, i)); i++)
		if (op->kind == PG_OP_READ && op->len > d)
			break;
	if (!op)
		return false;
	op->len -= d;
	pg_ex_flag(c->ex, PG_EXF_CALL_OFF_WIRE, true);
	pg_ex_expect(c->ex, "RR-067", PG_AT_REPLY);
	return true;
}

/* a reply carrying a Read list (the RFC 5666 Read-Read model) */
bool pg_inj_reply_read_list_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_read_chunk = true;
	return true;
}

bool pg_inj_reply_read_list(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_RREAD))
		return false;
	pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
	pg_inj_expect(c, "RR-069");
	return true;
}

/* The requester moves the count word of the first reduced item into its
 * read chunk along with the data (RFC 8166 §3.4.4.1 keeps it inline): the
 * item, as the reduction sees it, starts 4 bytes earlier and is 4 longer. */
bool pg_inj_count_in_chunk_plan(pg_inj_ctx *c)
{
	pg_ddp *d;
	if (!c->is_call || !c->rp || !c->rp->call.ddp->len || !c->item->call.chunked ||
	    !c->item->call.n || !c->item->call.nseg[0] || c->item->call.long_segs)
		return false;
	d = &g_array_index(c->rp->call.ddp, pg_ddp, 0);
	if (d->off < 4)
		return false;
	d->off -= 4;
	d->len += 4;
	return true;
}

bool pg_inj_count_in_chunk(pg_inj_ctx *c)
{
	bool nfs4 = pg_inj_binding(c) == PG_BIND_NFS4;
	if (!c->msg->reads->len || !((const pg_chunk *)c->msg->reads->pdata[0])->position ||
	    (!nfs4 && pg_inj_binding(c) != PG_BIND_NFS3))
		return false;
	/* the count word is not an eligible item: the chunk is also at none
	 * (RR-141/RR-143), and a normal answer processed it (RR-065, audit) */
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	pg_inj_expect(c, "RR-061");
	pg_inj_expect(c, nfs4 ? "RR-143" : "RR-141");
	return true;
}

/* The first reduced argument's read chunk carries ARG bytes (default 1) of
 * its XDR pad, not the whole pad (RFC 8166 §3.4.5.2: the item alone, or the
 * item and its whole pad): its last segment grows by ARG zero bytes, and so
 * does the RDMA Read that ends there. */
bool pg_inj_part_pad_read(pg_inj_ctx *c)
{
	uint32_t k = pg_inj_arg(c, 1), total = 0;
	pg_chunk *ch = NULL;
	pg_seg *s;
	pg_op *op;
	uint8_t *d;
	if (!c->is_call || !c->plan)
		return false;
	for (guint i = 0; i < c->plan->read_chunks->len && !ch; i++)
		if (((pg_chunk *)c->plan->read_chunks->pdata[i])->position)
			ch = c->plan->read_chunks->pdata[i];
	if (!ch || !ch->segs->len || !k || k >= pg_round4(ch->item_len) - ch->item_len)
		return false;
	for (guint i = 0; i < ch->segs->len; i++)
		total += g_array_index(ch->segs, pg_seg, i).length;
	if (total != ch->item_len)
		return false;
	s = &g_array_index(ch->segs, pg_seg, ch->segs->len - 1);
	for (guint i = 0; (op = pg_ex_op(c->ex, PG_OPS_READS, i)); i++)
		if (op->kind == PG_OP_READ && op->rkey == s->handle && op->va + op->len == s->offset + s->length)
			break;
	if (!op)
		return false;
	d = pg_ex_scratch(c->ex, op->len + k);
	memcpy(d, op->data, op->len);
	memset(d + op->len, 0, k);
	op->data = d;
	op->len += k;
	s->length += k;
	pg_ex_flag(c->ex, PG_EXF_PART_PAD, true);
	pg_inj_expect(c, "RR-062");
	return true;
}
