// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rebuilding a reply (RFC 8166 §3.4.6.1, §3.5.3): the inline part (RDMA_MSG:
 * after the header; RDMA_NOMSG: the Reply chunk cut to its returned
 * lengths), with the data of each used Write chunk put back right after the
 * length word of the DDP-eligible result it carries.  Which result that is
 * needs the ULP walk: Write chunks have no Position.
 */
#include <string.h>

#include "conn.h"
#include "frames.h"
#include "mbuf.h"
#include "rebuild.h"
#include "record.h"

struct insertion {
	size_t pos;           /* in the inline stream, just after the length word */
	uint32_t length;      /* the item's length word */
	uint32_t chunk;
	uint32_t op;
};

struct reply_ctx {
	const struct rr_hdr *rhdr;   /* the reply's header: returned lengths */
	int force_chunk;             /* second try: this chunk ... */
	unsigned force_ordinal;      /* ... holds this result, every other result is inline */
	uint64_t taken;              /* chunks already given to a result */
	GArray *ins;                 /* struct insertion */
};

/*
 * Which Write chunk holds this result's data.  RFC 8267 6.4.1: the one of its
 * ordinal.  When the results do not walk that way and one chunk was used,
 * further walks try that chunk as the data of each other result of its
 * length (all others inline), so a misdirected Write (RR-081) still
 * rebuilds and is told as such.
 */
static bool on_ddp_result(void *arg, const struct rr_ddp_item *item)
{
	struct reply_ctx *rc = arg;
	const struct rr_hdr *h = rc->rhdr;
	struct insertion in;
	uint32_t k = item->ordinal;

	if (rc->force_chunk >= 0) {
		uint64_t r = rr_chunk_length(h, &h->writes[rc->force_chunk]);

		if (item->ordinal != rc->force_ordinal ||
		    (r != item->length && r != rr_xdr_roundup(item->length)))
			return false;
		k = (uint32_t)rc->force_chunk;
	}
	if (k >= h->n_write_chunks || k >= 64 || (rc->taken >> k & 1) || !rr_chunk_length(h, &h->writes[k]))
		return false;
	rc->taken |= (uint64_t)1 << k;
	in.pos = item->data_pos;
	in.length = item->length;
	in.chunk = k;
	in.op = item->op;
	g_array_append_val(rc->ins, in);
	return true;
}

static unsigned used_chunks(const struct rr_hdr *h)
{
	unsigned n = 0;
	uint32_t k;

	for (k = 0; k < h->n_write_chunks; k++)
		n += rr_chunk_length(h, &h->writes[k]) != 0;
	return n;
}

static int first_used_chunk(const struct rr_hdr *h)
{
	uint32_t k;

	for (k = 0; k < h->n_write_chunks; k++)
		if (rr_chunk_length(h, &h->writes[k]))
			return (int)k;
	return -1;
}

/* The bytes RDMA-Written into write chunk k, as the reply's returned lengths say. */
static void append_write_chunk(struct mbuf *out, const struct rr_call *call, const struct rr_hdr *rhdr,
			       uint32_t k, uint32_t want)
{
	const struct rr_write_chunk *rc = &rhdr->writes[k];
	guint start = out->b->len;
	uint64_t have = 0;
	uint32_t i;

	for (i = 0; i < rc->count; i++)
		have += mb_seg_have(rr_call_seg(call, RR_SEG_WRITE, k, i), rr_hdr_wseg(rhdr, rc, i)->length);
	mb_reserve(out, MIN(have, (uint64_t)want));
	for (i = 0; i < rc->count && out->b->len - start < want && !out->over; i++) {
		const struct rr_seg *seg = rr_call_seg(call, RR_SEG_WRITE, k, i);
		uint64_t n = MIN(rr_hdr_wseg(rhdr, rc, i)->length, want - (out->b->len - start));

		if (!seg)
			break;
		mb_seg(out, seg, n);
	}
	if (out->b->len - start < want && mb_may_make_up(out, want - (out->b->len - start)))
		mb_zeros(out, want - (out->b->len - start));
}

/* Bytes seen landing in each segment of the call's write and reply chunks, by wseg index. */
static uint64_t *written_bytes(struct rr_engine *eng, const struct rr_call *call, const struct rr_hdr *rhdr,
			       bool gaps, bool *lost, bool *lost_in_gap, GArray **bytes_out, GArray **frames_out)
{
	const struct rr_hdr *h = call->hdr;
	uint64_t *out = rr_scratch_zeroed(&eng->scratch, sizeof(uint64_t), h->n_wsegs + 1, bytes_out);
	struct rr_seg_frames *sf = rr_scratch_zeroed(&eng->scratch, sizeof(struct rr_seg_frames), h->n_wsegs + 1,
						     frames_out);
	guint i;

	for (i = 0; i < call->segs->len; i++) {
		const struct rr_seg *sg = g_ptr_array_index(call->segs, i);
		const struct rr_write_chunk *c;

		if (sg->role == RR_SEG_READ)
			continue;
		c = sg->role == RR_SEG_REPLY ? &h->reply : &h->writes[sg->chunk];
		if (c->first + sg->index < h->n_wsegs) {
			out[c->first + sg->index] = rr_seg_covered(sg);
			sf[c->first + sg->index] = rr_seg_frames_of(sg);
		}
		*lost |= rr_seg_cut(sg);
		/* Fewer bytes seen than the reply says it returned, and packets went missing meanwhile. */
		if (!gaps)
			continue;
		if (sg->role == RR_SEG_WRITE && sg->chunk < rhdr->n_write_chunks &&
		    sg->index < rhdr->writes[sg->chunk].count &&
		    rr_seg_covered(sg) < rr_hdr_wseg(rhdr, &rhdr->writes[sg->chunk], sg->index)->length)
			*lost = *lost_in_gap = true;
		if (sg->role == RR_SEG_REPLY && rhdr->has_reply && sg->index < rhdr->reply.count &&
		    rr_seg_covered(sg) < rr_hdr_wseg(rhdr, &rhdr->reply, sg->index)->length)
			*lost = *lost_in_gap = true;
	}
	return out;
}

static uint64_t *requested_bytes(struct rr_engine *eng, const struct rr_call *call, GArray **a)
{
	uint64_t *out = rr_scratch_zeroed(&eng->scratch, sizeof(uint64_t), call->hdr->n_reads + 1, a);
	uint32_t i;

	for (i = 0; i < call->hdr->n_reads; i++) {
		const struct rr_seg *sg = rr_call_seg(call, RR_SEG_READ, i, 0);

		out[i] = sg ? rr_seg_requested(sg) : 0;
	}
	return out;
}

/* A reply's Payload, being rebuilt. */
struct reply_payload {
	struct mbuf inl;          /* RDMA_NOMSG: the Reply chunk */
	struct mbuf full;         /* the inline part with the Write chunks put back */
	const uint8_t *in;        /* the inline part: the Send's, or inl's */
	size_t in_len;
	size_t in_captured;       /* of in_len: the bytes the capture held before the first it did not */
	bool complete;
	GArray *chunk_items;      /* struct rr_ddp_place: where each Write chunk's data was put */
};

/* The inline part: RDMA_MSG after the header; RDMA_NOMSG the Reply chunk cut to its returned lengths. */
static void reply_inline(const struct rr_hdr *hdr, const struct rr_send_done *d, const struct rr_call *call,
			 struct reply_payload *rp)
{
	uint32_t i;

	if (hdr->proc == RR_RDMA_NOMSG) {
		uint64_t have = 0;

		for (i = 0; call && i < hdr->reply.count; i++)
			have += mb_seg_have(rr_call_seg(call, RR_SEG_REPLY, 0, i), rr_hdr_wseg(hdr, &hdr->reply, i)->length);
		mb_reserve(&rp->inl, have);
		for (i = 0; call && i < hdr->reply.count; i++) {
			const struct rr_seg *seg = rr_call_seg(call, RR_SEG_REPLY, 0, i);

			if (!seg) {
				rp->complete = false;
				break;
			}
			mb_seg(&rp->inl, seg, rr_hdr_wseg(hdr, &hdr->reply, i)->length);
		}
		if (!call)
			rp->complete = false;
		rp->in = mb_data(&rp->inl);
		rp->in_len = rp->inl.b->len;
		rp->in_captured = mb_whole(&rp->inl);
	} else if (rr_hdr_proc_has_payload(hdr->proc)) {
		rp->in = d->data + hdr->hdr_len;
		rp->in_len = d->len - hdr->hdr_len;
		rp->in_captured = d->captured > hdr->hdr_len ? MIN(d->captured - hdr->hdr_len, rp->in_len) : 0;
	}
}

/*
 * Where each used Write chunk's data goes in the inline part (struct
 * insertion, in stream order): after the length word of the result the
 * call's ULP walk says it carries (on_ddp_result).
 */
static GArray *find_insertions(const struct rr_hdr *hdr, const struct rr_call *call, const uint8_t *in,
			       size_t in_len)
{
	struct reply_ctx rc = { hdr, -1, 0, 0, g_array_new(FALSE, FALSE, sizeof(struct insertion)) };
	struct rr_ulp_info where;   /* this walk only finds the insertion points */
	struct rr_rpc_reply rep;
	struct rr_cursor cur;
	enum rr_ulp_result res = RR_ULP_MALFORMED;

	rr_cursor_init(&cur, in, in_len);
	if (rr_rpc_decode_reply(&cur, &rep))
		res = rr_ulp_walk_reply(&call->ulp, &rep, &cur, on_ddp_result, &rc, &where);
	if (res != RR_ULP_OK && used_chunks(hdr) == 1) {
		struct reply_ctx again = { hdr, first_used_chunk(hdr), 0, 0, NULL };

		for (again.force_ordinal = 0; again.force_ordinal < 16; again.force_ordinal++) {
			again.ins = g_array_new(FALSE, FALSE, sizeof(struct insertion));
			rr_cursor_init(&cur, in, in_len);
			if (again.force_ordinal != (unsigned)again.force_chunk &&
			    rr_rpc_decode_reply(&cur, &rep) &&
			    rr_ulp_walk_reply(&call->ulp, &rep, &cur, on_ddp_result, &again, &where) == RR_ULP_OK &&
			    again.ins->len == 1) {
				g_array_unref(rc.ins);
				rc = again;
				break;
			}
			g_array_unref(again.ins);
		}
	}
	return rc.ins;
}

/* The inline part with each Write chunk's data (and XDR pad) put in where ins says. */
static void put_write_chunks(struct reply_payload *rp, const struct rr_call *call, const struct rr_hdr *hdr,
			     const GArray *ins)
{
	uint64_t placed = 0;          /* bit k: write chunk k found its result */
	size_t ip = 0, out_pos = 0;
	uint32_t i, k;

	for (i = 0; i < ins->len; i++) {
		const struct insertion *in_i = &g_array_index(ins, struct insertion, i);
		struct rr_ddp_place p;

		if (in_i->pos < ip || in_i->pos > rp->in_len)
			continue;
		mb_slice_cut(&rp->full, rp->in, ip, in_i->pos - ip, rp->in_captured);
		ip = in_i->pos;
		out_pos = rp->full.b->len;
		append_write_chunk(&rp->full, call, hdr, in_i->chunk, in_i->length);
		/* Kept in case the whole payload cannot be walked (cut, or lying lengths). */
		p = (struct rr_ddp_place){ in_i->op, in_i->chunk, in_i->length, out_pos, (int32_t)in_i->chunk };
		g_array_append_val(rp->chunk_items, p);
		mb_zeros(&rp->full, rr_xdr_pad(in_i->length));
		if (in_i->chunk < 64)
			placed |= (uint64_t)1 << in_i->chunk;
	}
	mb_slice_cut(&rp->full, rp->in, ip, rp->in_len - ip, rp->in_captured);
	/* A non-empty chunk that found no result: the check stage says which rule that breaks. */
	for (k = 0; k < hdr->n_write_chunks; k++)
		if (!(placed >> k & 1) && rr_chunk_length(hdr, &hdr->writes[k]))
			rp->complete = false;
}

/*
 * The record's items from the whole Payload; a result whose data sits
 * where a chunk's data was put came from that chunk.  When the Payload
 * does not walk, the chunks' places are the items.
 */
static void describe_reply(struct rr_message *m, GArray *items, const GArray *chunk_items)
{
	size_t j;
	guint q;

	rr_record_describe(m, m->call_ulp, items);
	for (j = 0; j < items->len; j++) {
		struct rr_ddp_place *it = &g_array_index(items, struct rr_ddp_place, j);

		for (q = 0; q < chunk_items->len; q++)
			if (g_array_index(chunk_items, struct rr_ddp_place, q).data_pos == it->data_pos)
				it->chunk = g_array_index(chunk_items, struct rr_ddp_place, q).chunk;
	}
	if (m->ulp_result != RR_ULP_OK && chunk_items->len) {
		g_array_set_size(items, 0);
		g_array_append_vals(items, chunk_items->data, chunk_items->len);
		m->items = (const struct rr_ddp_place *)(void *)items->data;
		m->n_items = items->len;
	}
}

/*
 * A reply captured whole whose rebuilt Payload does not decode at or after
 * the place a chunk's data went (RFC 8166 §3.4.6, §4.3.2.1, §4.3.3): the
 * last Write chunk put in before the break, or the Reply chunk that holds
 * the whole Payload.  A break before any chunk data is the results' own.
 */
static void judge_reply_placement(struct rr_message *m, const GArray *chunk_items)
{
	guint q;

	if (!m->complete || m->capture_loss || m->call_capture_loss || !m->call_ulp || !m->payload_len ||
	    (m->has_rpc && m->ulp_result != RR_ULP_MALFORMED))
		return;
	for (q = 0; q < chunk_items->len; q++) {
		const struct rr_ddp_place *p = &g_array_index(chunk_items, struct rr_ddp_place, q);

		if (p->data_pos <= m->decode_stop && (!m->placement_broken || p->data_pos >= m->placement_pos)) {
			m->placement_broken = true;
			m->placement_chunk = p->chunk;
			m->placement_pos = (uint32_t)p->data_pos;
		}
	}
	if (!m->placement_broken && m->hdr->proc == RR_RDMA_NOMSG) {
		m->placement_broken = true;
		m->placement_chunk = -1;
		m->placement_pos = 0;
	}
}

void rr_rebuild_reply(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
		      const struct rr_send_done *d, struct rr_call *call)
{
	const uint64_t *frames = d->frames;
	struct reply_payload rp = { .complete = !d->truncated };
	bool cut = false, cut_in_gap = false, chunks_used = false;
	GArray *fr = rr_scratch_take(&eng->scratch, sizeof(uint64_t));
	GArray *items = rr_scratch_take(&eng->scratch, sizeof(struct rr_ddp_place));
	GArray *seg_bytes = NULL, *req_bytes = NULL, *seg_frames = NULL;
	struct rr_message m;
	uint32_t i, k;

	rp.chunk_items = rr_scratch_take(&eng->scratch, sizeof(struct rr_ddp_place));
	for (i = 0; i < d->n_frames; i++)
		rr_frames_add(fr, frames[i]);
	rr_record_init(&m, eng, f, hdr, RR_DIR_REPLY, frames[0], d->len);
	m.invalidate = d->invalidate;
	m.inv_rkey = d->inv_rkey;
	m.ts_usec = d->ts_usec;

	mb_init(&rp.inl, eng);
	mb_init(&rp.full, eng);
	reply_inline(hdr, d, call, &rp);
	for (k = 0; k < hdr->n_write_chunks; k++)
		if (rr_chunk_length(hdr, &hdr->writes[k]))
			chunks_used = true;
	if (chunks_used && call && call->has_ulp) {
		GArray *ins = find_insertions(hdr, call, rp.in, rp.in_len);

		put_write_chunks(&rp, call, hdr, ins);
		g_array_unref(ins);
		m.payload = mb_data(&rp.full);
		m.payload_len = rp.full.b->len;
		m.payload_whole = mb_whole(&rp.full);
	} else {
		if (chunks_used)
			rp.complete = false;
		m.payload = rp.in;
		m.payload_len = rp.in_len;
		m.payload_whole = rp.in_captured;
	}

	if (call) {
		rr_call_collect_frames(fr, call, false);
		m.call_ulp = call->has_ulp ? &call->ulp : NULL;
		m.backchannel = call->backchannel;
		m.call_hdr = call->hdr;
		m.call_capture_loss = call->capture_loss;
		m.call_send_frame = call->first_frame;
		m.call_ts_usec = call->ts_usec;
		m.seg_bytes = written_bytes(eng, call, hdr, d->psn_gaps != call->gaps_at_start, &cut, &cut_in_gap,
					    &seg_bytes, &seg_frames);
		/*
		 * As a call whose read chunk lost bytes is told (rr_call_flush):
		 * the capture lost packets while the Writes went, and the reply
		 * returned more than it holds.  Bytes the snaplen cut are told
		 * per frame already (CAP-TRUNC).
		 */
		if (cut_in_gap)
			rr_diag_report(&eng->diag, ENG_INCOMPLETE, frames[0],
				       "reply XID 0x%08x on %s: %s chunk data is missing from the capture (packets "
				       "were lost while it was written)", hdr->xid, rr_conn_name(f->conn),
				       hdr->proc == RR_RDMA_NOMSG ? "Reply" : "Write");
		m.seg_frames = (const struct rr_seg_frames *)(void *)seg_frames->data;
		m.call_read_bytes = requested_bytes(eng, call, &req_bytes);
	} else {
		m.backchannel = rr_flow_is_requester(f);   /* a reply from the requester answers a backward call */
	}
	m.frames = (const uint64_t *)(void *)fr->data;
	m.n_frames = fr->len;
	m.capture_loss = d->truncated || cut;
	rp.complete = rp.complete && rp.inl.complete && rp.full.complete;
	mb_done(&rp.inl, eng, hdr->xid, frames[0]);
	mb_done(&rp.full, eng, hdr->xid, frames[0]);
	m.complete = rp.complete;
	if (m.payload_len) {
		describe_reply(&m, items, rp.chunk_items);
		judge_reply_placement(&m, rp.chunk_items);
	}
	rr_record_emit(eng, &m);

	rr_scratch_give(&eng->scratch, seg_bytes);
	rr_scratch_give(&eng->scratch, seg_frames);
	rr_scratch_give(&eng->scratch, req_bytes);
	rr_scratch_give(&eng->scratch, items);
	rr_scratch_give(&eng->scratch, rp.chunk_items);
	rr_scratch_give(&eng->scratch, fr);
	mb_free(&rp.inl, eng);
	mb_free(&rp.full, eng);
}
