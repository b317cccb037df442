// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group J, pairing Write chunks with COMPOUND results (RR-160..RR-168),
 * and of the Write chunk's size against what the READ asks for (RR-082). */
#include "pg_inject_priv.h"

/* eligible results without a Write chunk are left out of the reply; with ARG 1
 * the call offers the first result's one-segment Write chunk with length 0 (the
 * binding's way to ask for it inline, RFC 8267 6.4.1), and that result is left
 * out as well */
bool pg_inj_data_missing_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_drop_ddp = true;
	if (pg_inj_arg(c, 0) == 1) {
		if (pg_inj_binding(c) != PG_BIND_NFS4)
			return false;
		c->plan->knobs.reply_inline_despite_write = true;
	}
	return true;
}

/* ARG 1: the chunk of the first result with data, offered empty (before the call's header is made). */
bool pg_inj_data_missing_ops(pg_inj_ctx *c)
{
	if (c->is_call || pg_inj_arg(c, 0) != 1 || !c->rp)
		return false;
	for (guint i = 0; i < c->rp->reply.ddp->len; i++) {
		const pg_ddp *d = &g_array_index(c->rp->reply.ddp, pg_ddp, i);
		pg_chunk *w;

		if (!d->len)
			continue;
		if (d->slot < 0 || (guint)d->slot >= c->plan->write_chunks->len)
			return false;
		w = c->plan->write_chunks->pdata[d->slot];
		if (w->segs->len != 1)
			return false;
		g_array_index(w->segs, pg_seg, 0).length = 0;
		return true;
	}
	return false;
}

/* The walk of the reply stops at the first result left out, so that result
 * alone says the rule (RFC 8267 6.4.1): no Write list, RR-160; no chunk paired
 * with it, RR-165; its chunk offered empty, RR-163; its chunk left unused by
 * inline-despite-write, RR-162, which that injector expects already. */
bool pg_inj_data_missing(pg_inj_ctx *c)
{
	const pg_plan *p = c->plan;

	if (!(p->done & PG_DONE_DROP) || !c->rp)
		return false;
	for (guint i = 0; i < c->rp->reply.ddp->len; i++) {
		const pg_ddp *d = &g_array_index(c->rp->reply.ddp, pg_ddp, i);
		bool paired = d->slot >= 0 && (guint)d->slot < p->write_chunks->len;
		const pg_chunk *w = paired ? p->write_chunks->pdata[d->slot] : NULL;

		if (!d->len || (paired && !p->knobs.reply_inline_despite_write))
			continue;
		if (!paired)
			pg_inj_expect(c, p->write_chunks->len ? "RR-165" : "RR-160");
		else if (w->segs->len == 1 && !g_array_index(w->segs, pg_seg, 0).length)
			pg_inj_expect(c, "RR-163");
		return true;
	}
	return false;
}

bool pg_inj_compound_without_read_class(const pg_item *it)
{
	if (it->proc != 1)
		return false;
	for (guint i = 0; i < it->ops->len; i++) {
		uint32_t op = g_array_index(it->ops, pg_nfsop, i).op;
		if (op == OP4_READ || op == OP4_READLINK)
			return false;
	}
	return true;
}

/* an NFSv4 call whose reply can hold no eligible result (NULL, or a COMPOUND without
 * READ or READLINK) offers a Write chunk all the same (RFC 8166 4.3.2) */
bool pg_inj_null_write_chunk_plan(pg_inj_ctx *c)
{
	if (c->item->nfsver == PG_V3 || c->item->kind != PG_ITEM_RPC ||
	    (c->item->proc != 0 && !pg_inj_compound_without_read_class(c->item)))
		return false;
	c->plan->knobs.extra_write_chunks = 1;
	return true;
}

bool pg_inj_null_write_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_EXTRAW))
		return false;
	pg_ex_expect(c->ex, "RR-168", PG_AT_CALL);
	return true;
}

/* an NFSv4 call offers a Write chunk of zero length (its segments' lengths
 * are 0) and the responder writes the READ data into it all the same: the
 * returned length exceeds the offered one and the Write leaves the segment */
bool pg_inj_empty_chunk_used(pg_inj_ctx *c)
{
	pg_chunk *ch = NULL;
	if (!c->is_call || pg_inj_binding(c) != PG_BIND_NFS4 || c->plan->reply.proc == RDMA_ERROR)
		return false;
	for (guint i = 0; i < c->plan->write_chunks->len && !ch; i++) {
		pg_chunk *w = c->plan->write_chunks->pdata[i];
		if (w->data->len && pg_inj_chunk_used(w) && w->segs->len == 1)
			ch = w;
	}
	if (!ch)
		return false;
	g_array_index(ch->segs, pg_seg, 0).length = 0;
	pg_ex_expect(c->ex, "RR-163", PG_AT_REPLY);
	pg_ex_expect(c->ex, "RR-085", PG_AT_REPLY);
	pg_ex_expect_write(c->ex, "RR-085", g_array_index(ch->segs, pg_seg, 0).handle);
	return true;
}

/* The requested count of the READ whose result takes Write chunk k (NFSv3: chunk 0;
 * NFSv4: the k-th READ or READLINK), or 0 when that is not a READ. */
static uint32_t read_count_of_chunk(const pg_inj_ctx *c, guint k)
{
	const pg_item *it = c->item;
	guint n = 0;

	if (pg_inj_binding(c) == PG_BIND_NFS3)
		return k == 0 && it->proc == NFS3_READ && it->ops->len ?
		       g_array_index(it->ops, pg_nfsop, 0).count : 0;
	if (pg_inj_binding(c) != PG_BIND_NFS4)
		return 0;
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		if (op->op != OP4_READ && op->op != OP4_READLINK)
			continue;
		if (n++ == k)
			return op->op == OP4_READ ? op->count : 0;
	}
	return 0;
}

/* a READ's Write chunk offered as long as the data that comes back, less than the
 * count the READ asks for: the reply fits, the offer is still too small (RFC 8166 3.5.5) */
bool pg_inj_small_write_chunk(pg_inj_ctx *c)
{
	if (!c->is_call || c->plan->reply.proc == RDMA_ERROR)
		return false;
	for (guint k = 0; k < c->plan->write_chunks->len; k++) {
		pg_chunk *w = c->plan->write_chunks->pdata[k];
		uint32_t count = read_count_of_chunk(c, k);
		if (w->segs->len != 1 || !w->data->len || !count || pg_round4(w->data->len) >= count)
			continue;
		g_array_index(w->segs, pg_seg, 0).length = pg_round4(w->data->len);
		pg_ex_expect(c->ex, "RR-082", PG_AT_CALL);
		return true;
	}
	return false;
}
