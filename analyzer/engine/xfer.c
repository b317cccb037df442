// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transfers: packets -> whole Sends, and RDMA Write / Read Response bytes
 * -> placements at (R_Key, VA) in the memory of the side that owns them.
 *
 * IB/RoCE: packets of one message carry consecutive PSNs (mod 2^24), and
 * only the first Write packet carries the RETH, so a later packet is placed
 * at VA + (PSN distance to the FIRST) x (payload of the FIRST): every
 * non-last packet of a message is exactly one PMTU.  A Read Response
 * answers the Read Request whose PSN range holds its PSN.  A request packet
 * whose PSN is not after the last one seen on its flow is a retransmission
 * or duplicate and is not used again.
 *
 * iWARP: DDP already says where bytes go: untagged Sends carry MSN and
 * message offset, tagged Writes and Read Responses carry STag and tagged
 * offset; Read Responses land at the Read Request's sink STag/TO, which
 * maps back to its source STag/TO.
 */
#include <string.h>

#include "engine_int.h"
#include "../check/check.h"

#define RR_MAX_IW_SENDS 256
#define RR_MAX_UNMATCHED_KEYS 64

static void note_unmatched(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey,
			   uint32_t bytes, const struct rr_event *ev, const char *what)
{
	eng->stats.rdma_unmatched += bytes;
	if (!f->conn->carried_rpcrdma)
		return;
	if (!f->unmatched_keys)
		f->unmatched_keys = g_ptr_array_new();
	if (f->unmatched_keys->len >= RR_MAX_UNMATCHED_KEYS ||
	    g_ptr_array_find(f->unmatched_keys, GUINT_TO_POINTER(rkey), NULL))
		return;
	g_ptr_array_add(f->unmatched_keys, GUINT_TO_POINTER(rkey));
	rr_diag_report(&eng->diag, ENG_UNMATCHED_RDMA, ev->frame,
		       "%s with R_Key/STag 0x%08x on %s matches no segment advertised by a call seen in the capture",
		       what, rkey, rr_conn_name(f->conn));
}

static void asm_free_nobudget(struct rr_send_asm *a)
{
	if (a->buf)
		g_byte_array_unref(a->buf);
	if (a->frames)
		g_array_unref(a->frames);
	if (a->cover)
		g_array_unref(a->cover);
}

void rr_send_asm_free(struct rr_engine *eng, struct rr_send_asm *a)
{
	rr_send_asm_clear(eng, a);
	asm_free_nobudget(a);
	g_free(a);
}

void rr_send_asm_clear(struct rr_engine *eng, struct rr_send_asm *a)
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
	if (!a->frames->len || ev->ts_usec < a->ts_usec)
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

/* Hand the whole Send up: its buffers move to eng->send_done, the assembly starts afresh. */
static void asm_deliver(struct rr_engine *eng, struct rr_flow *f, struct rr_send_asm *a)
{
	struct rr_send_done *d = &eng->send_done;

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
	rr_budget_give(eng, a->buf->len);
	a->buf = NULL;
	a->frames = NULL;
	rr_send_asm_clear(eng, a);
}

/* A Send that came whole in one packet: no copy. */
static void deliver_whole(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_send_done *d = &eng->send_done;

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
}

/*
 * How far back a retransmission can reach: a requester resends from the
 * oldest unacknowledged packet, which is within its send window.  A packet
 * further behind than this starts a new PSN sequence (a new connection on
 * the same QP numbers, or a capture that missed a jump), not a duplicate.
 */
#define RR_PSN_RETRANSMIT_WINDOW 0x10000u

/* IB: is this request-stream packet a retransmission of one already seen? */
static bool ib_duplicate(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	if (f->req_psn_valid && !rr_psn_after(f->req_last_psn, ev->psn) &&
	    rr_psn_dist(ev->psn, f->req_last_psn) < RR_PSN_RETRANSMIT_WINDOW) {
		eng->stats.dup_packets++;
		rr_diag_report(&eng->diag, CAP_DUP, ev->frame,
			       "PSN 0x%06x on %s was already seen (retransmission or duplicate)",
			       ev->psn, rr_conn_name(f->conn));
		return true;
	}
	/* A jump forward: packets between were not captured (or a Read took the PSNs). */
	if (f->req_psn_valid && rr_psn_dist(f->req_last_psn, ev->psn) > 1 && !f->last_was_read_req)
		eng->psn_gaps++;
	f->last_was_read_req = ev->kind == RR_EV_READ_REQ;
	f->req_psn_valid = true;
	f->req_last_psn = ev->psn;
	return false;
}

static void ib_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_send_asm *a = &f->send;

	switch (ev->frag) {
	case RR_FRAG_ONLY:
		if (ev->caplen >= ev->wirelen && ev->n_more_frames == 0) {
			deliver_whole(eng, f, ev);
			return;
		}
		rr_send_asm_clear(eng, a);
		if (asm_put(eng, a, 0, ev))
			asm_deliver(eng, f, a);
		else
			rr_send_asm_clear(eng, a);
		return;
	case RR_FRAG_FIRST:
		if (a->active)
			rr_diag_report(&eng->diag, ENG_INCOMPLETE, ev->frame,
				       "a new Send starts on %s before the previous one ended: the previous one is dropped",
				       rr_conn_name(f->conn));
		rr_send_asm_clear(eng, a);
		if (!asm_put(eng, a, 0, ev))
			return;
		a->active = true;
		a->next_psn = (ev->psn + 1) & RR_PSN_MASK;
		f->pmtu = ev->wirelen;
		return;
	default:
		break;
	}
	if (!a->active || ev->psn != a->next_psn) {
		rr_diag_report(&eng->diag, ENG_INCOMPLETE, ev->frame,
			       "Send packet PSN 0x%06x on %s does not continue a Send (expected 0x%06x): packets are missing from the capture",
			       ev->psn, rr_conn_name(f->conn), a->next_psn);
		rr_send_asm_clear(eng, a);
		return;
	}
	if (!asm_put(eng, a, a->buf->len, ev)) {
		rr_send_asm_clear(eng, a);
		return;
	}
	a->next_psn = (ev->psn + 1) & RR_PSN_MASK;
	if (ev->frag == RR_FRAG_LAST)
		asm_deliver(eng, f, a);
}

/* The flow whose sender owns the memory f's RDMA operations name (the other end of f). */
static struct rr_flow *memory_owner(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey)
{
	return rr_conn_pair_by_evidence(eng, f, (rr_flow_pred)rr_flow_has_rkey, GUINT_TO_POINTER(rkey));
}

/* An RDMA Write or Read Request, with the segment it hit, goes to the check stage. */
static void rdma_fact(struct rr_engine *eng, struct rr_flow *f, enum rr_rdma_op op, uint32_t rkey,
		      uint64_t va, uint64_t len, uint64_t frame, struct rr_flow *owner)
{
	struct rr_fact_rdma r = { 0 };
	struct rr_fact fact = { .kind = RR_FACT_RDMA, .rdma = &r };
	struct rr_seg_hit hit;

	rr_seg_lookup(owner, rkey, va, len, op == RR_RDMA_READ, &hit);
	if (!f->conn->carried_rpcrdma)
		return;   /* plain verbs traffic (perftest, rping) is not judged */
	r.conn_id = f->conn->id;
	r.op = op;
	r.roles_known = f->conn->requester >= 0;
	r.by_requester = rr_flow_is_requester(f);
	r.rkey = rkey;
	r.va = va;
	r.len = len;
	r.frame = frame;
	r.handle_live = hit.handle_live;
	r.inside = hit.inside;
	if (hit.seg) {
		r.xid = hit.seg->call->xid;
		r.backchannel = f->conn->requester >= 0 && hit.seg->call->flow->side != f->conn->requester;
		r.role = (uint8_t)hit.seg->role;
		r.chunk = hit.seg->chunk;
		r.index = hit.seg->index;
		r.seg_offset = hit.seg->s.offset;
		r.seg_length = hit.seg->s.length;
	}
	rr_checker_fact(eng->checker, &fact);
}

static void place_or_note(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey, uint64_t va,
			  const struct rr_event *ev, const char *what)
{
	/* Writes go into the memory of the side at the other end of f. */
	struct rr_flow *owner = memory_owner(eng, f, rkey);

	if (!owner || !rr_seg_place(eng, owner, rkey, va, ev))
		note_unmatched(eng, f, rkey, ev->wirelen, ev, what);
}

static void ib_write(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_write_asm *w = &f->write;
	uint64_t off;

	if (ev->frag == RR_FRAG_ONLY || ev->frag == RR_FRAG_FIRST) {
		if (!ev->has_reth) {
			w->active = false;
			return;
		}
		w->active = ev->frag == RR_FRAG_FIRST;
		w->first_psn = ev->psn;
		w->rkey = ev->rkey;
		w->va = ev->va;
		w->dma_len = ev->dma_len;
		w->pmtu = ev->wirelen;
		if (ev->frag == RR_FRAG_FIRST)
			f->pmtu = ev->wirelen;
		rdma_fact(eng, f, RR_RDMA_WRITE, w->rkey, w->va, w->dma_len, ev->frame,
			  memory_owner(eng, f, w->rkey));
		place_or_note(eng, f, w->rkey, w->va, ev, "RDMA Write");
		return;
	}
	if (!w->active) {
		note_unmatched(eng, f, 0, ev->wirelen, ev, "RDMA Write continuation without its first packet");
		return;
	}
	off = (uint64_t)rr_psn_dist(w->first_psn, ev->psn) * w->pmtu;
	/* Past the RETH's length: a later Write whose first packet was lost. */
	if (off + ev->wirelen > w->dma_len) {
		w->active = false;
		note_unmatched(eng, f, w->rkey, ev->wirelen, ev,
			       "RDMA Write continuation past its first packet's DMA length");
		return;
	}
	place_or_note(eng, f, w->rkey, w->va + off, ev, "RDMA Write");
	if (ev->frag == RR_FRAG_LAST)
		w->active = false;
}

static void remember_read_req(struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_read_req *r = g_new0(struct rr_read_req, 1);

	r->frame = ev->frame;
	r->psn = ev->psn;
	r->rkey = ev->rkey;
	r->va = ev->va;
	r->len = ev->dma_len;
	r->sink_stag = ev->sink_stag;
	r->sink_to = ev->sink_to;
	g_queue_push_tail(&f->read_reqs, r);
	if (g_queue_get_length(&f->read_reqs) > RR_MAX_READ_REQS)
		g_free(g_queue_pop_head(&f->read_reqs));
}

/* IB: the Read Request (on the reader's flow) whose PSN range holds psn. */
/*
 * Requests on a flow go out with increasing PSNs, so the newest one that
 * starts at or before psn (and whose response window holds it) is the one
 * it answers: searching from the newest, the first hit is the answer.
 */
static struct rr_read_req *ib_find_read_req(struct rr_flow *reader, uint32_t psn)
{
	GList *l;

	for (l = reader->read_reqs.tail; l; l = l->prev) {
		struct rr_read_req *r = l->data;
		/* A response has at most len/256 + 1 packets (smallest PMTU 256). */
		uint32_t max_pkts = r->len / 256 + 1;

		if (rr_psn_dist(r->psn, psn) < max_pkts)
			return r;
	}
	return NULL;
}

struct psn_arg {
	uint32_t psn;
};

static bool has_read_req_psn(struct rr_flow *cand, void *arg)
{
	return ib_find_read_req(cand, ((struct psn_arg *)arg)->psn) != NULL;
}

static void ib_read_resp(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct psn_arg pa = { ev->psn };
	struct rr_flow *reader = rr_conn_pair_by_evidence(eng, f, has_read_req_psn, &pa);
	struct rr_read_req *r = reader ? ib_find_read_req(reader, ev->psn) : NULL;
	uint32_t d, pmtu;

	if (!r) {
		note_unmatched(eng, f, 0, ev->wirelen, ev, "RDMA Read Response without its Read Request");
		return;
	}
	d = rr_psn_dist(r->psn, ev->psn);
	if (ev->frag == RR_FRAG_FIRST) {
		r->pmtu = ev->wirelen;
		f->pmtu = ev->wirelen;
	}
	pmtu = r->pmtu ? r->pmtu : f->pmtu;
	if (d && !pmtu) {
		note_unmatched(eng, f, r->rkey, ev->wirelen, ev,
			       "RDMA Read Response whose first packet is missing");
		return;
	}
	/* Responses come from the memory of f's own sender: f owns the segments. */
	if (!rr_seg_place(eng, f, r->rkey, r->va + (uint64_t)d * pmtu, ev))
		note_unmatched(eng, f, r->rkey, ev->wirelen, ev, "RDMA Read Response");
}

/* At the cap: the partial Send furthest behind the new MSN lost its last piece. */
static void drop_stalest_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_send_asm *worst = NULL;
	uint32_t worst_age = 0;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, f->iw_sends);
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
	g_hash_table_remove(f->iw_sends, GUINT_TO_POINTER(worst->msn));
	rr_send_asm_free(eng, worst);
}

static void iw_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_send_asm *a;

	if (!f->iw_sends)
		f->iw_sends = g_hash_table_new(g_direct_hash, g_direct_equal);
	a = g_hash_table_lookup(f->iw_sends, GUINT_TO_POINTER(ev->msn));
	uint64_t total = 0;
	guint i;

	if (ev->frag == RR_FRAG_ONLY && ev->offset == 0 && !a && ev->caplen >= ev->wirelen &&
	    ev->n_more_frames == 0) {
		deliver_whole(eng, f, ev);
		return;
	}
	if (!a) {
		if (g_hash_table_size(f->iw_sends) >= RR_MAX_IW_SENDS)
			drop_stalest_send(eng, f, ev);
		a = g_new0(struct rr_send_asm, 1);
		a->msn = ev->msn;
		a->cover = g_array_new(FALSE, FALSE, sizeof(struct rr_range));
		g_hash_table_insert(f->iw_sends, GUINT_TO_POINTER(ev->msn), a);
	}
	if (!asm_put(eng, a, ev->offset, ev)) {
		g_hash_table_remove(f->iw_sends, GUINT_TO_POINTER(ev->msn));
		rr_send_asm_free(eng, a);
		return;
	}
	g_array_append_val(a->cover, ((struct rr_range){ ev->offset, ev->offset + ev->wirelen }));
	if (ev->frag == RR_FRAG_LAST || ev->frag == RR_FRAG_ONLY)
		a->saw_last = true;
	if (!a->saw_last)
		return;
	for (i = 0; i < a->cover->len; i++)
		total += g_array_index(a->cover, struct rr_range, i).end -
			 g_array_index(a->cover, struct rr_range, i).start;
	/* The decoder delivers each DDP segment once, so bytes seen add up. */
	if (total < a->buf->len)
		return;
	g_hash_table_remove(f->iw_sends, GUINT_TO_POINTER(ev->msn));
	asm_deliver(eng, f, a);
	rr_send_asm_free(eng, a);
}

/* iWARP: the Read Request whose sink buffer holds (stag, to). */
struct sink_arg {
	uint32_t stag;
	uint64_t to;
	struct rr_read_req *found;
};

static bool has_sink(struct rr_flow *cand, void *arg)
{
	struct sink_arg *sa = arg;
	GList *l;

	for (l = cand->read_reqs.tail; l; l = l->prev) {
		struct rr_read_req *r = l->data;

		if (r->sink_stag == sa->stag && sa->to >= r->sink_to && sa->to - r->sink_to < r->len) {
			sa->found = r;
			return true;
		}
	}
	return false;
}

static void free_early(struct rr_engine *eng, struct rr_early_resp *e)
{
	rr_budget_give(eng, e->ev.caplen);
	g_free(e->data);
	g_free(e->frames);
	g_free(e);
}

/* Keep a copy of a Read Response whose request has not been seen yet. */
static bool hold_early(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_early_resp *e;

	if (g_queue_get_length(&f->early_resps) >= RR_MAX_EARLY_RESP ||
	    !rr_budget_take(eng, ev->caplen, ev->frame, "an early RDMA Read Response"))
		return false;
	e = g_new0(struct rr_early_resp, 1);
	e->ev = *ev;
	e->data = g_memdup2(ev->data, ev->caplen);
	e->frames = g_memdup2(ev->more_frames, ev->n_more_frames * sizeof(uint64_t));
	e->ev.data = e->data;
	e->ev.more_frames = e->frames;
	g_queue_push_tail(&f->early_resps, e);
	return true;
}

void rr_xfer_drop_early(struct rr_engine *eng, struct rr_flow *f)
{
	struct rr_early_resp *e;

	while ((e = g_queue_pop_head(&f->early_resps))) {
		note_unmatched(eng, f, e->ev.rkey, e->ev.wirelen, &e->ev,
			       "RDMA Read Response without its Read Request");
		free_early(eng, e);
	}
}

static void iw_place_resp(struct rr_engine *eng, struct rr_flow *f, const struct rr_read_req *r,
			  const struct rr_event *ev);

/* A Read Request arrived: place the responses that came before it. */
static void iw_replay_early(struct rr_engine *eng, struct rr_flow *reader, const struct rr_read_req *r)
{
	struct rr_flow *owner = rr_flow_peer(reader);
	GList *l, *next;

	if (!owner)
		return;
	for (l = owner->early_resps.head; l; l = next) {
		struct rr_early_resp *e = l->data;

		next = l->next;
		if (e->ev.rkey != r->sink_stag || e->ev.offset < r->sink_to ||
		    e->ev.offset - r->sink_to >= r->len)
			continue;
		g_queue_delete_link(&owner->early_resps, l);
		iw_place_resp(eng, owner, r, &e->ev);
		free_early(eng, e);
	}
}

static void iw_read_resp(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct sink_arg sa = { ev->rkey, ev->offset, NULL };
	struct rr_flow *reader = rr_conn_pair_by_evidence(eng, f, has_sink, &sa);

	if (reader && !sa.found)
		has_sink(reader, &sa);
	if (!sa.found) {
		if (!hold_early(eng, f, ev))
			note_unmatched(eng, f, ev->rkey, ev->wirelen, ev,
				       "RDMA Read Response without its Read Request");
		return;
	}
	iw_place_resp(eng, f, sa.found, ev);
}

static void iw_place_resp(struct rr_engine *eng, struct rr_flow *f, const struct rr_read_req *r,
			  const struct rr_event *ev)
{
	/* The sink buffer maps back to the source segment the request named. */
	if (!rr_seg_place(eng, f, r->rkey, r->va + (ev->offset - r->sink_to), ev))
		note_unmatched(eng, f, r->rkey, ev->wirelen, ev, "RDMA Read Response");
}

void rr_xfer_event(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	bool iwarp = f->key.transport == RR_TRANSPORT_IWARP;

	if (!iwarp && ev->kind != RR_EV_READ_RESP && ib_duplicate(eng, f, ev))
		return;
	switch (ev->kind) {
	case RR_EV_SEND:
	case RR_EV_SEND_INV:
		if (iwarp)
			iw_send(eng, f, ev);
		else
			ib_send(eng, f, ev);
		break;
	case RR_EV_WRITE:
		if (iwarp) {
			rdma_fact(eng, f, RR_RDMA_WRITE, ev->rkey, ev->offset, ev->wirelen, ev->frame,
				  memory_owner(eng, f, ev->rkey));
			place_or_note(eng, f, ev->rkey, ev->offset, ev, "RDMA Write");
		} else
			ib_write(eng, f, ev);
		break;
	case RR_EV_READ_REQ:
		rdma_fact(eng, f, RR_RDMA_READ, ev->rkey, ev->va, ev->dma_len, ev->frame,
			  memory_owner(eng, f, ev->rkey));
		remember_read_req(f, ev);
		if (iwarp)
			iw_replay_early(eng, f, g_queue_peek_tail(&f->read_reqs));
		break;
	case RR_EV_READ_RESP:
		if (iwarp)
			iw_read_resp(eng, f, ev);
		else
			ib_read_resp(eng, f, ev);
		break;
	default:
		break;
	}
}

/* The connection went away: forget partial transfers (their bytes are lost). */
void rr_xfer_flow_reset(struct rr_engine *eng, struct rr_flow *f)
{
	GHashTableIter it;
	gpointer v;

	rr_send_asm_clear(eng, &f->send);
	if (f->iw_sends) {
		g_hash_table_iter_init(&it, f->iw_sends);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			g_hash_table_iter_steal(&it);
			rr_send_asm_free(eng, v);
		}
	}
	memset(&f->write, 0, sizeof(f->write));
	while (!g_queue_is_empty(&f->read_reqs))
		g_free(g_queue_pop_head(&f->read_reqs));
	rr_xfer_drop_early(eng, f);
	f->req_psn_valid = false;
	f->closed = false;
}

/* The engine is going away: free without giving budget back. */
void rr_xfer_flow_free(struct rr_flow *f)
{
	GHashTableIter it;
	gpointer v;

	if (f->iw_sends) {
		g_hash_table_iter_init(&it, f->iw_sends);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			asm_free_nobudget(v);
			g_free(v);
		}
		g_hash_table_destroy(f->iw_sends);
	}
	asm_free_nobudget(&f->send);
	while (!g_queue_is_empty(&f->read_reqs))
		g_free(g_queue_pop_head(&f->read_reqs));
	if (f->unmatched_keys)
		g_ptr_array_unref(f->unmatched_keys);
	while (!g_queue_is_empty(&f->early_resps)) {
		struct rr_early_resp *e = g_queue_pop_head(&f->early_resps);

		g_free(e->data);
		g_free(e->frames);
		g_free(e);
	}
}
