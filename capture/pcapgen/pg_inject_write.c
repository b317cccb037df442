// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group E, the Write list and the Reply chunk (RR-080..RR-093). */
#include "pg_inject_priv.h"

static const pg_chunk *first_used_write(const pg_plan *p)
{
	for (guint i = 0; i < p->write_chunks->len; i++) {
		const pg_chunk *ch = p->write_chunks->pdata[i];
		if (ch->data->len && pg_inj_chunk_used(ch))
			return ch;
	}
	if (p->reply_chunk && p->reply_chunk->data->len && pg_inj_chunk_used(p->reply_chunk))
		return p->reply_chunk;
	return NULL;
}

/* an RDMA Write into a chunk after the reply's Send */
bool pg_inj_write_after_reply(pg_inj_ctx *c)
{
	const pg_chunk *ch = first_used_write(c->plan);
	const pg_seg *s;
	pg_op op = { 0 };
	if (!ch || c->plan->reply.proc == RDMA_ERROR)
		return false;
	s = &g_array_index(ch->ret, pg_seg, 0);
	op.kind = PG_OP_WRITE;
	op.len = MIN(s->length, 64u);
	op.data = ch->data->data;
	op.rkey = s->handle;
	op.va = s->offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_AFTER_REPLY, &op, "RR-092");
	return true;
}

/* the returned Reply chunk does not copy the offered handle */
bool pg_inj_reply_chunk_changed(pg_inj_ctx *c)
{
	pg_chunk *ch = c->msg->reply;
	if (c->is_call || !ch || !c->msg->returned || !ch->ret->len)
		return false;
	g_array_index(ch->ret, pg_seg, 0).handle ^= pg_inj_arg(c, 0x00a5a500u);
	pg_inj_expect(c, "RR-093");
	return true;
}

/* responder changes the segment count of a returned Write chunk (8166 3.5.6) */
bool pg_inj_segcount_changed(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (c->is_call || !c->msg->writes->len)
		return false;
	ch = c->msg->writes->pdata[0];
	if (ch->ret->len > 1) {
		g_array_set_size(ch->ret, ch->ret->len - 1);
	} else {
		pg_seg s = g_array_index(ch->segs, pg_seg, 0);
		s.length = 0;
		s.offset += 4096;
		g_array_append_val(ch->ret, s);
	}
	pg_inj_expect(c, "RR-083");
	return true;
}

/* responder writes the XDR pad into a Write chunk (RFC 8166 §3.4.6.2) */
bool pg_inj_pad_written(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.write_pad = true;
	return true;
}

bool pg_inj_pad_written_check(pg_inj_ctx *c)
{
	/* only a data item whose length is not a multiple of 4 has a pad, and
	 * only a chunk with room for it receives it */
	for (guint i = 0; i < c->msg->writes->len; i++) {
		const pg_chunk *ch = c->msg->writes->pdata[i];
		uint32_t sent = 0;
		for (guint k = 0; k < ch->ret->len; k++)
			sent += g_array_index(ch->ret, pg_seg, k).length;
		if (ch->data->len > ch->item_len && sent > ch->item_len) {
			/* a Write chunk that returns the XDR pad too is told
			 * once, as RR-089's warning (RFC 8166 §3.4.6.2), not
			 * also as RR-091 */
			pg_inj_expect(c, "RR-089");
			return true;
		}
	}
	return false;
}

/* data returned inline although the requester offered a Write chunk
 * (RFC 8166 3.6, RFC 8267 5) */
bool pg_inj_inline_despite_write(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_inline_despite_write = true;
	return true;
}

bool pg_inj_inline_despite_write_check(pg_inj_ctx *c)
{
	if (!c->msg->writes->len || !c->rp || !c->rp->reply.ddp->len)
		return false;
	pg_inj_expect(c, pg_inj_binding(c) == PG_BIND_NFS4 ? "RR-162" : "RR-080");
	return true;
}

/* the second eligible result goes into the first result's Write chunk and
 * the first result comes back inline */
bool pg_inj_misdirected_write(pg_inj_ctx *c)
{
	GArray *d = c->rp->reply.ddp;
	pg_ddp *a = NULL, *b = NULL;
	if (c->is_call || !c->item->reply.chunked)
		return false;
	for (guint i = 0; i < d->len; i++) {
		pg_ddp *x = &g_array_index(d, pg_ddp, i);
		if (x->slot < 0)
			continue;
		if (!a)
			a = x;
		else if (!b)
			b = x;
	}
	if (!a || !b || a->slot != 0)
		return false;
	b->slot = a->slot;
	a->slot = -1;
	return true;
}

static uint32_t first_ddp_len(const pg_inj_ctx *c)
{
	return g_array_index(c->rp->reply.ddp, pg_ddp, 0).len;
}

bool pg_inj_misdirected_write_check(pg_inj_ctx *c)
{
	for (guint i = 0; i < c->msg->writes->len; i++) {
		const pg_chunk *ch = c->msg->writes->pdata[i];
		if (ch->data->len) {
			pg_inj_expect(c, "RR-081");
			/* the first result's data is inline although its chunk is not empty */
			pg_inj_expect(c, pg_inj_binding(c) == PG_BIND_NFS4 ? "RR-162" : "RR-080");
			/* unless both results have the same length, the chunk's length
			 * is not the first result's length word either */
			if (c->rp->reply.ddp->len && ch->item_len != first_ddp_len(c))
				pg_inj_expect(c, "RR-091");
			return true;
		}
	}
	return false;
}

/* the returned Write chunk does not copy the offered handle */
bool pg_inj_handle_changed(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (c->is_call || !c->msg->writes->len)
		return false;
	ch = c->msg->writes->pdata[0];
	if (!ch->ret->len)
		return false;
	g_array_index(ch->ret, pg_seg, 0).handle ^= pg_inj_arg(c, 0x00a5a500u);
	pg_inj_expect(c, "RR-084");
	return true;
}

/* the first segment gets more bytes than its length */
bool pg_inj_write_beyond_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.overfill = pg_round4(pg_inj_arg(c, 16));
	return c->plan->knobs.overfill != 0;
}

bool pg_inj_write_beyond(pg_inj_ctx *c)
{
	const pg_chunk *ch = first_used_write(c->plan);
	if (!(c->plan->done & PG_DONE_OVER) || !ch)
		return false;
	/* the returned length is larger than the offered one (reply) and the
	 * Write leaves the segment (the operation) */
	pg_ex_expect(c->ex, "RR-085", PG_AT_REPLY);
	pg_ex_expect_write(c->ex, "RR-085", g_array_index(ch->segs, pg_seg, 0).handle);
	return true;
}

/* data in the second segment while the first is not full */
bool pg_inj_fill_order_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.fill_short = pg_round4(pg_inj_arg(c, 24));
	return c->plan->knobs.fill_short != 0;
}

bool pg_inj_fill_order(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_SHORT))
		return false;
	pg_inj_expect(c, "RR-086");
	return true;
}

/* a non-zero returned length for a segment nothing was written to */
bool pg_inj_phantom_length(pg_inj_ctx *c)
{
	uint32_t n = pg_inj_arg(c, 4);
	if (c->is_call || !n)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		for (guint k = 1; k < ch->ret->len; k++) {
			pg_seg *prev = &g_array_index(ch->ret, pg_seg, k - 1);
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			if (prev->length && !s->length &&
			    prev->length == g_array_index(ch->segs, pg_seg, k - 1).length) {
				s->length = MIN(n, g_array_index(ch->segs, pg_seg, k).length);
				pg_inj_expect(c, "RR-087");
				/* the returned lengths no longer add up to the length word */
				pg_inj_expect(c, "RR-091");
				return true;
			}
		}
	}
	return false;
}

/* unused Write chunks come back with the offered lengths (DIMPL 3.8, what
 * one server does), or with ARG bytes per segment */
bool pg_inj_unused_nonzero(pg_inj_ctx *c)
{
	bool any = false, as_offered = true;
	uint32_t n = pg_inj_arg(c, 0);
	if (c->is_call || c->msg->proc == RDMA_ERROR)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		int state = PG_SLOT_NOT_RUN;
		if (pg_inj_chunk_used(ch) || ch->data->len)
			continue;
		g_array_set_size(ch->ret, 0);
		g_array_append_vals(ch->ret, ch->segs->data, ch->segs->len);
		for (guint k = 0; n && k < ch->ret->len; k++) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			as_offered &= MIN(n, s->length) == s->length;
			s->length = MIN(n, s->length);
		}
		/* the hazard of DIMPL 3.8: exactly the offered chunk comes back */
		if (as_offered)
			pg_inj_expect(c, "RR-243");
		if (c->rp && i < c->rp->slot_state->len)
			state = g_array_index(c->rp->slot_state, int, i);
		if (pg_inj_binding(c) != PG_BIND_NFS4)
			pg_inj_expect(c, "RR-088");
		else
			pg_inj_expect(c, state == PG_SLOT_FAILED ? "RR-164" : "RR-166");
		any = true;
	}
	return any;
}

/* the requester adds a 4-byte pad segment to the Write chunk */
bool pg_inj_pad_segment_plan(pg_inj_ctx *c)
{
	c->plan->knobs.write_pad_seg = true;
	return true;
}

bool pg_inj_pad_segment(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_PADSEG))
		return false;
	pg_ex_expect(c->ex, "RR-090", PG_AT_CALL);
	return true;
}

/* the returned length of the data is not the result's length word */
bool pg_inj_write_length_lie(pg_inj_ctx *c)
{
	uint32_t d = pg_inj_arg(c, 8);
	if (c->is_call || !d)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		for (guint k = ch->ret->len; k-- > 0;) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			if (s->length > d) {
				s->length -= d;
				pg_inj_expect(c, "RR-091");
				return true;
			}
		}
	}
	return false;
}

/* The returned lengths say the chunk was filled in segment order, but the
 * Writes left the first segment short and went on into the next one. */
bool pg_inj_hidden_short_fill(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_SHORT))
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		uint32_t total = 0;
		if (ch->ret->len < 2 || !ch->segs->len ||
		    g_array_index(ch->ret, pg_seg, 0).length >= g_array_index(ch->segs, pg_seg, 0).length)
			continue;
		for (guint k = 0; k < ch->ret->len; k++)
			total += g_array_index(ch->ret, pg_seg, k).length;
		for (guint k = 0; k < ch->ret->len; k++) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			s->length = MIN(g_array_index(ch->segs, pg_seg, k).length, total);
			total -= s->length;
		}
		/* data in the second segment while the first did not get all its
		 * bytes; the first returns more than was written into it */
		pg_inj_expect(c, "RR-086");
		pg_inj_expect(c, "RR-087");
		return true;
	}
	return false;
}

/* The responder RDMA-Writes the XDR pad but returns the exact length. */
bool pg_inj_pad_written_exact(pg_inj_ctx *c)
{
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		uint32_t sent = 0;
		for (guint k = 0; k < ch->ret->len; k++)
			sent += g_array_index(ch->ret, pg_seg, k).length;
		if (ch->data->len <= ch->item_len || sent <= ch->item_len)
			continue;
		for (guint k = ch->ret->len; k-- > 0 && sent > ch->item_len;) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			uint32_t cut = MIN(s->length, sent - ch->item_len);
			s->length -= cut;
			sent -= cut;
		}
		pg_inj_expect(c, "RR-089");
		return true;
	}
	return false;
}

/* The XDR pad of the last data item of an RPC message, when the message
 * ends with that item (its pad bytes are the message's last bytes). */
static uint32_t trailing_pad(const pg_rpcmsg *r)
{
	for (guint i = 0; i < r->ddp->len; i++) {
		const pg_ddp *d = &g_array_index(r->ddp, pg_ddp, i);
		if (d->off + pg_round4(d->len) == r->msg->len && pg_round4(d->len) > d->len)
			return pg_round4(d->len) - d->len;
	}
	return 0;
}

/* A Long message sent without the XDR pad of its last item: the requester's
 * Position-Zero read chunk or the responder's Reply chunk is that much
 * short of a multiple of 4 (RFC 8166 §3.5.3). */
bool pg_inj_long_unpadded_plan(pg_inj_ctx *c)
{
	pg_rpcmsg *r;
	uint32_t pad;
	if (!c->rp || !(c->is_call ? c->item->call.long_segs : c->item->reply.long_segs) ||
	    (!c->is_call && c->item->reply.error))
		return false;
	r = c->is_call ? &c->rp->call : &c->rp->reply;
	pad = trailing_pad(r);
	if (!pad)
		return false;
	g_byte_array_set_size(r->msg, r->msg->len - pad);
	return true;
}

bool pg_inj_long_unpadded(pg_inj_ctx *c)
{
	uint64_t len = 0;
	if (c->is_call) {
		for (guint i = 0; i < c->msg->reads->len; i++) {
			const pg_chunk *ch = c->msg->reads->pdata[i];
			for (guint k = 0; !ch->position && k < ch->segs->len; k++)
				len += g_array_index(ch->segs, pg_seg, k).length;
		}
	} else if (c->msg->reply && c->msg->proc == RDMA_NOMSG) {
		for (guint k = 0; k < c->msg->reply->ret->len; k++)
			len += g_array_index(c->msg->reply->ret, pg_seg, k).length;
	}
	if (!(len % 4))
		return false;
	pg_inj_expect(c, c->is_call ? "RR-070" : "RR-096");
	return true;
}

/* The responder's first RDMA Write into a Write chunk (or, without one,
 * into the Reply chunk) lands ARG bytes (default 24) past the start of its
 * segment; the returned length is the bytes written (only where the
 * segment has that much room to spare). */
bool pg_inj_write_late(pg_inj_ctx *c)
{
	uint32_t d = pg_round4(pg_inj_arg(c, 24));
	pg_op *op = pg_ex_op(c->ex, PG_OPS_WRITES, 0);
	if (c->is_call || !op || !d)
		return false;
	for (guint i = 0; i <= c->plan->write_chunks->len; i++) {
		const pg_chunk *ch = i < c->plan->write_chunks->len ? c->plan->write_chunks->pdata[i] :
				     c->plan->reply_chunk;
		const pg_seg *s;
		if (!ch || !ch->segs->len || !pg_inj_chunk_used(ch))
			continue;
		s = &g_array_index(ch->segs, pg_seg, 0);
		if (op->rkey != s->handle || op->va != s->offset || op->len + d > s->length)
			return false;
		op->va += d;
		/* a Write chunk's filling is RR-086, the Reply chunk's RR-093 */
		pg_ex_expect(c->ex, ch == c->plan->reply_chunk ? "RR-093" : "RR-086", PG_AT_REPLY);
		return true;
	}
	return false;
}

/* the requester offers the first Write chunk for its count rounded up to 4:
 * room for the XDR pad (RFC 8166 §3.4.6.2); only for a READ, whose count
 * bounds the result an observer sees (NFSv2/v3 READ here) */
bool pg_inj_pad_room_plan(pg_inj_ctx *c)
{
	uint32_t *max;
	if (!c->is_call || !c->rp || !c->rp->slots->len || pg_inj_binding(c) != PG_BIND_NFS3 ||
	    c->rp->procedure != NFS3_READ)
		return false;
	max = &g_array_index(c->rp->slots, uint32_t, 0);
	if (*max % 4 == 0)
		return false;
	*max = pg_round4(*max);
	pg_ex_expect(c->ex, "RR-090", PG_AT_CALL);
	return true;
}
