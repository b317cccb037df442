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
 * or duplicate and is not used again, and one past the next expected PSN
 * shows lost packets (xfer_seq.c).
 *
 * iWARP: DDP already says where bytes go: untagged Sends carry MSN and
 * message offset, tagged Writes and Read Responses carry STag and tagged
 * offset; Read Responses land at the Read Request's sink STag/TO, which
 * maps back to its source STag/TO.
 */
#include <string.h>

#include "xfer_int.h"
#include "../check/check.h"

#define RR_MAX_UNMATCHED_KEYS 64

/*
 * Bytes an RDMA operation moved into no segment advertised in the capture:
 * counted and handed to the reporters; told (ENG-UNMATCHED-RDMA) once per
 * handle, unless the handle is live, when the operation runs outside its
 * segment, which RR-085 tells with the segment (told both ways, the two
 * findings contradicted each other).
 */
static void note_unmatched_as(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey, uint32_t bytes,
			      const struct rr_event *ev, const char *what, bool tell)
{
	struct rr_xfer_flow *x;

	eng->stats.rdma_unmatched += bytes;
	if (!f->conn->carried_rpcrdma)
		return;
	if (eng->rdma_fn) {
		struct rr_rdma_report r = {
			.frame = ev->frame, .more_frames = ev->more_frames, .n_more_frames = ev->n_more_frames,
			.conn_id = rr_conn_id(eng, f->conn), .handle = rkey, .len = bytes,
			.op = ev->kind == RR_EV_READ_RESP ? RR_CARRY_READ_RESP : RR_CARRY_WRITE,
		};

		eng->rdma_fn(eng->rdma_ctx, &r);
	}
	if (!tell)
		return;
	x = rr_xf(f);
	if (!x->unmatched_keys)
		x->unmatched_keys = g_ptr_array_new();
	if (x->unmatched_keys->len >= RR_MAX_UNMATCHED_KEYS ||
	    g_ptr_array_find(x->unmatched_keys, GUINT_TO_POINTER(rkey), NULL))
		return;
	g_ptr_array_add(x->unmatched_keys, GUINT_TO_POINTER(rkey));
	rr_diag_report(&eng->diag, ENG_UNMATCHED_RDMA, ev->frame,
		       "%s with R_Key/STag 0x%08x on %s matches no segment advertised by a call seen in the capture",
		       what, rkey, rr_conn_name(f->conn));
}

static void note_unmatched(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey,
			   uint32_t bytes, const struct rr_event *ev, const char *what)
{
	note_unmatched_as(eng, f, rkey, bytes, ev, what, true);
}

/* The flow whose sender owns the memory f's RDMA operations name (the other end of f). */
static struct rr_flow *memory_owner(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey)
{
	return rr_conn_pair_by_evidence(eng, f, rr_flow_has_rkey, GUINT_TO_POINTER(rkey));
}

/* A Read Request as a reporter sees it: the segment it asks of, where in it, and how much. */
static void report_read_req(struct rr_engine *eng, const struct rr_fact_rdma *f)
{
	struct rr_rdma_report r = {
		.frame = f->frame, .op = RR_CARRY_READ_REQ, .conn_id = f->conn_id, .handle = f->rkey,
		.len = f->len, .hit = f->inside && f->va >= f->seg_offset,
	};

	if (!eng->rdma_fn)
		return;
	if (r.hit) {
		r.xid = f->xid;
		r.role = rr_seg_chunk_role((enum rr_seg_role)f->role);
		r.chunk = f->chunk;
		r.seg = f->index;
		r.seg_length = f->seg_length;
		r.seg_offset = f->va - f->seg_offset;
	}
	eng->rdma_fn(eng->rdma_ctx, &r);
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
	r.conn_id = rr_conn_id(eng, f->conn);
	r.op = op;
	r.roles_known = f->conn->requester >= 0;
	r.by_requester = rr_flow_is_requester(f);
	r.conn_cut = rr_conn_is_cut(f->conn);
	r.handle_live = hit.handle_live;
	/* Asked only of a handle its own connection did not advertise (RR-212). */
	if (!hit.handle_live)
		r.memory_host = rr_flow_host(eng, f, true);
	r.rkey = rkey;
	r.va = va;
	r.len = len;
	r.frame = frame;
	r.inside = hit.inside;
	if (hit.seg) {
		r.xid = hit.seg->xid;
		/* The segment is in owner's memory: owner sent the call that advertised it. */
		r.backchannel = f->conn->requester >= 0 && owner->side != f->conn->requester;
		r.role = (uint8_t)hit.seg->role;
		r.chunk = hit.seg->chunk;
		r.index = hit.seg->index;
		r.seg_offset = hit.seg->s.offset;
		r.seg_length = hit.seg->s.length;
	}
	if (op == RR_RDMA_READ)
		report_read_req(eng, &r);
	rr_checker_fact(eng->checker, &fact);
}

static void place_or_note(struct rr_engine *eng, struct rr_flow *f, uint32_t rkey, uint64_t va,
			  const struct rr_event *ev, const char *what)
{
	/* Writes go into the memory of the side at the other end of f. */
	struct rr_flow *owner = memory_owner(eng, f, rkey);

	if (!owner || !rr_seg_place(eng, owner, rkey, va, ev))
		note_unmatched_as(eng, f, rkey, ev->wirelen, ev, what,
				  !owner || !rr_flow_has_rkey(owner, GUINT_TO_POINTER(rkey)));
}

static void ib_write(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_xfer_flow *x = rr_xf(f);
	struct rr_write_asm *w = &x->write;
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
			x->pmtu = ev->wirelen;
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
	struct rr_xfer_flow *x = rr_xf(f);
	struct rr_read_req *r = g_new0(struct rr_read_req, 1);

	r->frame = ev->frame;
	r->psn = ev->psn;
	r->rkey = ev->rkey;
	r->va = ev->va;
	r->len = ev->dma_len;
	r->sink_stag = ev->sink_stag;
	r->sink_to = ev->sink_to;
	g_queue_push_tail(&x->read_reqs, r);
	if (g_queue_get_length(&x->read_reqs) > RR_MAX_READ_REQS)
		g_free(g_queue_pop_head(&x->read_reqs));
}

/* IB: the Read Request (on the reader's flow) whose PSN range holds psn. */
/*
 * Requests on a flow go out with increasing PSNs, so the newest one that
 * starts at or before psn (and whose response window holds it) is the one
 * it answers: searching from the newest, the first hit is the answer.
 */
static struct rr_read_req *ib_find_read_req(struct rr_flow *reader, uint32_t psn)
{
	struct rr_flow *peer = rr_flow_peer(reader);
	/* Both ends of a connection use one path MTU, learnt from full-size packets either way. */
	uint32_t flow_pmtu = reader->xfer && reader->xfer->pmtu ? reader->xfer->pmtu :
			     peer && peer->xfer ? peer->xfer->pmtu : 0;
	GList *l;

	if (!reader->xfer)
		return NULL;
	for (l = reader->xfer->read_reqs.tail; l; l = l->prev) {
		struct rr_read_req *r = l->data;
		uint32_t pmtu = r->pmtu ? r->pmtu : flow_pmtu;
		/* A response has ceil(len/PMTU) packets (at least one); len/256 + 1 at most (smallest PMTU 256). */
		uint32_t max_pkts = pmtu ? (uint32_t)(((uint64_t)r->len + pmtu - 1) / pmtu) : r->len / 256 + 1;

		if (!max_pkts)
			max_pkts = 1;

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
	rr_xfer_read_resp_seq(eng, f, reader, r, ev);
	if (ev->frag == RR_FRAG_FIRST) {
		r->pmtu = ev->wirelen;
		rr_xf(f)->pmtu = ev->wirelen;
	}
	/* How many PSNs the request took is now known: the reader's stream goes on after them. */
	if (ev->frag == RR_FRAG_ONLY)
		rr_xfer_read_took(reader, r->psn, 1);
	else if (ev->frag == RR_FRAG_FIRST && ev->wirelen)   /* a FIRST packet is one PMTU */
		rr_xfer_read_took(reader, r->psn, (uint32_t)(((uint64_t)r->len + ev->wirelen - 1) / ev->wirelen));
	else if (ev->frag == RR_FRAG_LAST)
		rr_xfer_read_took(reader, r->psn, d + 1);
	pmtu = r->pmtu ? r->pmtu : rr_xf(f)->pmtu;
	if (d && !pmtu) {
		note_unmatched(eng, f, r->rkey, ev->wirelen, ev,
			       "RDMA Read Response whose first packet is missing");
		return;
	}
	/* Responses come from the memory of f's own sender: f owns the segments. */
	if (!rr_seg_place(eng, f, r->rkey, r->va + (uint64_t)d * pmtu, ev))
		note_unmatched(eng, f, r->rkey, ev->wirelen, ev, "RDMA Read Response");
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

	if (!cand->xfer)
		return false;
	for (l = cand->xfer->read_reqs.tail; l; l = l->prev) {
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
	struct rr_xfer_flow *x = rr_xf(f);
	struct rr_early_resp *e;

	if (g_queue_get_length(&x->early_resps) >= RR_MAX_EARLY_RESP ||
	    !rr_budget_take(eng, ev->caplen, ev->frame, "an early RDMA Read Response"))
		return false;
	e = g_new0(struct rr_early_resp, 1);
	e->ev = *ev;
	e->data = g_memdup2(ev->data, ev->caplen);
	e->frames = g_memdup2(ev->more_frames, ev->n_more_frames * sizeof(uint64_t));
	e->ev.data = e->data;
	e->ev.more_frames = e->frames;
	g_queue_push_tail(&x->early_resps, e);
	return true;
}

/* Report and drop Read Responses whose request never came. */
static void drop_early(struct rr_engine *eng, struct rr_flow *f, struct rr_xfer_flow *x)
{
	struct rr_early_resp *e;

	while ((e = g_queue_pop_head(&x->early_resps))) {
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
	GQueue *early;
	GList *l, *next;

	if (!owner || !owner->xfer)
		return;
	early = &owner->xfer->early_resps;
	for (l = early->head; l; l = next) {
		struct rr_early_resp *e = l->data;

		next = l->next;
		if (e->ev.rkey != r->sink_stag || e->ev.offset < r->sink_to ||
		    e->ev.offset - r->sink_to >= r->len)
			continue;
		g_queue_delete_link(early, l);
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

	if (!iwarp && ev->kind != RR_EV_READ_RESP && rr_xfer_ib_duplicate(eng, f, ev))
		return;
	switch (ev->kind) {
	case RR_EV_SEND:
	case RR_EV_SEND_INV:
		if (iwarp)
			rr_xfer_iw_send(eng, f, ev);
		else
			rr_xfer_ib_send(eng, f, ev);
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
			iw_replay_early(eng, f, g_queue_peek_tail(&rr_xf(f)->read_reqs));
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

struct rr_xfer *rr_xfer_new(void)
{
	return g_new0(struct rr_xfer, 1);
}

void rr_xfer_free(struct rr_xfer *x)
{
	g_free(x);
}

bool rr_xfer_take_send(struct rr_engine *eng, struct rr_send_done *out)
{
	struct rr_send_done *d = &eng->xfer->done;

	if (!d->flow)
		return false;
	*out = *d;
	if (out->frames == &d->one_frame)
		out->frames = &out->one_frame;
	memset(d, 0, sizeof(*d));
	return true;
}

void rr_xfer_send_release(struct rr_send_done *d)
{
	if (d->buf)
		g_byte_array_unref(d->buf);
	if (d->frames_buf)
		g_array_unref(d->frames_buf);
}

void rr_xfer_flow_reset(struct rr_engine *eng, struct rr_flow *f)
{
	struct rr_xfer_flow *x = f->xfer;

	if (!x)
		return;
	rr_xfer_tell_hole(eng, f);
	rr_xfer_sends_reset(eng, x);
	memset(&x->write, 0, sizeof(x->write));
	while (!g_queue_is_empty(&x->read_reqs))
		g_free(g_queue_pop_head(&x->read_reqs));
	drop_early(eng, f, x);
	x->req_psn_valid = false;
}

/* Without giving budget back: after a reset nothing is held, and at the engine's end it does not matter. */
void rr_xfer_flow_free(struct rr_flow *f)
{
	struct rr_xfer_flow *x = f->xfer;

	if (!x)
		return;
	rr_xfer_sends_free(x);
	while (!g_queue_is_empty(&x->read_reqs))
		g_free(g_queue_pop_head(&x->read_reqs));
	if (x->unmatched_keys)
		g_ptr_array_unref(x->unmatched_keys);
	while (!g_queue_is_empty(&x->early_resps)) {
		struct rr_early_resp *e = g_queue_pop_head(&x->early_resps);

		g_free(e->data);
		g_free(e->frames);
		g_free(e);
	}
	g_free(x);
	f->xfer = NULL;
}
