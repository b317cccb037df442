// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sends put together from their packets.
 *
 * IB/RoCE: the packets of one Send carry consecutive PSNs (mod 2^24):
 * FIRST, MIDDLE..., LAST, each one PMTU but the last.  iWARP: untagged DDP
 * segments carry the MSN of their message and their offset in it, so
 * several Sends can be under way at once and pieces may come in any order.
 * A whole Send goes up through rr_xfer.done (engine.c takes it from there).
 */
#include <string.h>

#include "xfer_int.h"

#define RR_MAX_IW_SENDS 256

static void asm_free_nobudget(struct rr_send_asm *a)
{
	if (a->buf)
		g_byte_array_unref(a->buf);
	if (a->frames)
		g_array_unref(a->frames);
	if (a->cover)
		g_array_unref(a->cover);
}

static void send_asm_clear(struct rr_engine *eng, struct rr_send_asm *a)
{
	if (a->buf) {
		rr_budget_give(eng, a->buf->len);
		g_byte_array_set_size(a->buf, 0);
	}
	if (a->frames)
		g_array_set_size(a->frames, 0);
	if (a->cover)
		g_array_set_size(a->cover, 0);
	a->active = false;
	a->saw_last = false;
	a->truncated = false;
	a->cut_at = 0;
	a->invalidate = false;
}

/* Clear and free a heap-allocated (iWARP) partial Send. */
static void send_asm_free(struct rr_engine *eng, struct rr_send_asm *a)
{
	send_asm_clear(eng, a);
	asm_free_nobudget(a);
	g_free(a);
}

/* Grow a Send buffer to hold [0, end); zero-fills so cut or missing bytes keep their place. */
static bool asm_reserve(struct rr_engine *eng, struct rr_send_asm *a, uint64_t end, uint64_t frame)
{
	uint64_t have;

	if (!a->buf)
		a->buf = g_byte_array_new();
	if (!a->frames)
		a->frames = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	have = a->buf->len;
	if (end <= have)
		return true;
	if (end > eng->lim.max_send_bytes) {
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "a multi-packet Send grows past %u bytes: dropped", eng->lim.max_send_bytes);
		return false;
	}
	if (!rr_budget_take(eng, end - have, frame, "a multi-packet Send"))
		return false;
	g_byte_array_set_size(a->buf, (guint)end);
	memset(a->buf->data + have, 0, end - have);
	return true;
}

static bool asm_put(struct rr_engine *eng, struct rr_send_asm *a, uint64_t off,
		    const struct rr_event *ev)
{
	if (!asm_reserve(eng, a, off + ev->wirelen, ev->frame))
		return false;
	/* A Send is sent when its last packet is: RPC over TCP times a record the same way. */
	if (!a->frames->len || ev->ts_usec > a->ts_usec)
		a->ts_usec = ev->ts_usec;
	if (ev->caplen)
		memcpy(a->buf->data + off, ev->data, MIN(ev->caplen, ev->wirelen));
	if (ev->caplen < ev->wirelen) {
		uint64_t cut = off + ev->caplen;

		if (!a->truncated || cut < a->cut_at)
			a->cut_at = cut;
		a->truncated = true;
	}
	rr_frames_add_event(a->frames, ev);
	if (ev->kind == RR_EV_SEND_INV) {
		a->invalidate = true;
		a->inv_rkey = ev->inv_rkey;
	}
	return true;
}

/* Hand the whole Send up: its buffers move to the engine's done Send, the assembly starts afresh. */
static void asm_deliver(struct rr_engine *eng, struct rr_flow *f, struct rr_send_asm *a)
{
	struct rr_send_done *d = &eng->xfer->done;

	d->flow = f;
	d->buf = a->buf;
	d->data = a->buf->data;
	d->len = a->buf->len;
	d->frames_buf = a->frames;
	d->frames = (const uint64_t *)(void *)a->frames->data;
	d->n_frames = a->frames->len;
	d->truncated = a->truncated;
	d->captured = a->truncated ? (size_t)MIN(a->cut_at, a->buf->len) : a->buf->len;
	d->invalidate = a->invalidate;
	d->inv_rkey = a->inv_rkey;
	d->ts_usec = a->ts_usec;
	d->psn_gaps = eng->xfer->psn_gaps;
	rr_budget_give(eng, a->buf->len);
	a->buf = NULL;
	a->frames = NULL;
	send_asm_clear(eng, a);
}

/* A Send that came whole in one packet: no copy. */
static void deliver_whole(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_send_done *d = &eng->xfer->done;

	d->flow = f;
	d->data = ev->data;
	d->len = ev->wirelen;
	d->one_frame = ev->frame;
	d->frames = &d->one_frame;
	d->n_frames = 1;
	d->truncated = false;
	d->captured = ev->wirelen;
	d->invalidate = ev->kind == RR_EV_SEND_INV;
	d->inv_rkey = ev->inv_rkey;
	d->ts_usec = ev->ts_usec;
	d->psn_gaps = eng->xfer->psn_gaps;
}

void rr_xfer_ib_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_xfer_flow *x = rr_xf(f);
	struct rr_send_asm *a = &x->send;

	switch (ev->frag) {
	case RR_FRAG_ONLY:
		if (ev->caplen >= ev->wirelen && ev->n_more_frames == 0) {
			deliver_whole(eng, f, ev);
			return;
		}
		send_asm_clear(eng, a);
		if (asm_put(eng, a, 0, ev))
			asm_deliver(eng, f, a);
		else
			send_asm_clear(eng, a);
		return;
	case RR_FRAG_FIRST:
		if (a->active)
			rr_diag_report(&eng->diag, ENG_INCOMPLETE, ev->frame,
				       "a new Send starts on %s before the previous one ended: the previous one is dropped",
				       rr_conn_name(f->conn));
		send_asm_clear(eng, a);
		if (!asm_put(eng, a, 0, ev))
			return;
		a->active = true;
		a->next_psn = (ev->psn + 1) & RR_PSN_MASK;
		x->pmtu = ev->wirelen;
		return;
	default:
		break;
	}
	if (!a->active || ev->psn != a->next_psn) {
		rr_diag_report(&eng->diag, ENG_INCOMPLETE, ev->frame,
			       "Send packet PSN 0x%06x on %s does not continue a Send (expected 0x%06x): packets are missing from the capture",
			       ev->psn, rr_conn_name(f->conn), a->next_psn);
		send_asm_clear(eng, a);
		return;
	}
	if (!asm_put(eng, a, a->buf->len, ev)) {
		send_asm_clear(eng, a);
		return;
	}
	a->next_psn = (ev->psn + 1) & RR_PSN_MASK;
	if (ev->frag == RR_FRAG_LAST)
		asm_deliver(eng, f, a);
}

/* At the cap: the partial Send furthest behind the new MSN lost its last piece. */
static void drop_stalest_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	GHashTable *sends = rr_xf(f)->iw_sends;
	struct rr_send_asm *worst = NULL;
	uint32_t worst_age = 0;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, sends);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct rr_send_asm *a = v;
		uint32_t age = ev->msn - a->msn;   /* MSNs wrap at 2^32 */

		if (!worst || age > worst_age) {
			worst = a;
			worst_age = age;
		}
	}
	if (!worst)
		return;
	rr_diag_report(&eng->diag, ENG_INCOMPLETE, ev->frame,
		       "%d partial Sends on %s: MSN %u, still missing pieces, is dropped",
		       RR_MAX_IW_SENDS, rr_conn_name(f->conn), worst->msn);
	g_hash_table_remove(sends, GUINT_TO_POINTER(worst->msn));
	send_asm_free(eng, worst);
}

/* The decoder delivers each DDP segment once, so the bytes seen add up to the whole. */
static bool iw_send_whole(const struct rr_send_asm *a)
{
	uint64_t total = 0;
	guint i;

	for (i = 0; i < a->cover->len; i++)
		total += g_array_index(a->cover, struct rr_range, i).end -
			 g_array_index(a->cover, struct rr_range, i).start;
	return total >= a->buf->len;
}

void rr_xfer_iw_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_xfer_flow *x = rr_xf(f);
	struct rr_send_asm *a;

	if (!x->iw_sends)
		x->iw_sends = g_hash_table_new(g_direct_hash, g_direct_equal);
	a = g_hash_table_lookup(x->iw_sends, GUINT_TO_POINTER(ev->msn));
	if (ev->frag == RR_FRAG_ONLY && ev->offset == 0 && !a && ev->caplen >= ev->wirelen &&
	    ev->n_more_frames == 0) {
		deliver_whole(eng, f, ev);
		return;
	}
	if (!a) {
		if (g_hash_table_size(x->iw_sends) >= RR_MAX_IW_SENDS)
			drop_stalest_send(eng, f, ev);
		a = g_new0(struct rr_send_asm, 1);
		a->msn = ev->msn;
		a->cover = g_array_new(FALSE, FALSE, sizeof(struct rr_range));
		g_hash_table_insert(x->iw_sends, GUINT_TO_POINTER(ev->msn), a);
	}
	if (!asm_put(eng, a, ev->offset, ev)) {
		g_hash_table_remove(x->iw_sends, GUINT_TO_POINTER(ev->msn));
		send_asm_free(eng, a);
		return;
	}
	g_array_append_val(a->cover, ((struct rr_range){ ev->offset, ev->offset + ev->wirelen }));
	if (ev->frag == RR_FRAG_LAST || ev->frag == RR_FRAG_ONLY)
		a->saw_last = true;
	if (!a->saw_last || !iw_send_whole(a))
		return;
	g_hash_table_remove(x->iw_sends, GUINT_TO_POINTER(ev->msn));
	asm_deliver(eng, f, a);
	send_asm_free(eng, a);
}

void rr_xfer_sends_reset(struct rr_engine *eng, struct rr_xfer_flow *x)
{
	GHashTableIter it;
	gpointer v;

	send_asm_clear(eng, &x->send);
	if (x->iw_sends) {
		g_hash_table_iter_init(&it, x->iw_sends);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			g_hash_table_iter_steal(&it);
			send_asm_free(eng, v);
		}
	}
}

void rr_xfer_sends_free(struct rr_xfer_flow *x)
{
	GHashTableIter it;
	gpointer v;

	if (x->iw_sends) {
		g_hash_table_iter_init(&it, x->iw_sends);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			asm_free_nobudget(v);
			g_free(v);
		}
		g_hash_table_destroy(x->iw_sends);
	}
	asm_free_nobudget(&x->send);
}
