// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A call the engine keeps until its reply: its header, its inline part, its
 * Send frames and the segments it advertised (registered in the segment
 * store, which places RDMA bytes in them).
 */
#include "call.h"

struct rr_seg *rr_call_seg(const struct rr_call *call, enum rr_seg_role role, uint32_t chunk,
			       uint32_t index)
{
	guint i;

	for (i = 0; i < call->segs->len; i++) {
		struct rr_seg *s = g_ptr_array_index(call->segs, i);

		if (s->role == role && s->chunk == chunk && s->index == index)
			return s;
	}
	return NULL;
}

void rr_call_collect_frames(GArray *dst, const struct rr_call *call, bool reads)
{
	guint i, j;

	for (i = 0; i < call->segs->len; i++) {
		const struct rr_seg *s = g_ptr_array_index(call->segs, i);
		struct rr_seg_frames sf;

		if ((s->role == RR_SEG_READ) != reads)
			continue;
		sf = rr_seg_frames_of(s);
		for (j = 0; j < sf.n_frames; j++)
			rr_frames_add(dst, sf.frames[j]);
	}
}

/* The segment goes in the store, under the flow the call was sent on (its sender's memory). */
static void add_seg(struct rr_engine *eng, struct rr_call *call, enum rr_seg_role role, uint32_t chunk,
		    uint32_t index, const struct rr_segment *s)
{
	struct rr_seg what = { call, call->xid, role, chunk, index, *s };

	g_ptr_array_add(call->segs, rr_seg_add(eng, call->flow, &what));
}

void rr_call_register_segments(struct rr_engine *eng, struct rr_call *call)
{
	const struct rr_hdr *h = call->hdr;
	uint32_t i, k;

	for (i = 0; i < h->n_reads; i++)
		add_seg(eng, call, RR_SEG_READ, i, 0, &h->reads[i].seg);
	for (k = 0; k < h->n_write_chunks; k++)
		for (i = 0; i < h->writes[k].count; i++)
			add_seg(eng, call, RR_SEG_WRITE, k, i, rr_hdr_wseg(h, &h->writes[k], i));
	if (h->has_reply)
		for (i = 0; i < h->reply.count; i++)
			add_seg(eng, call, RR_SEG_REPLY, 0, i, rr_hdr_wseg(h, &h->reply, i));
}

void rr_call_free(struct rr_engine *eng, struct rr_call *call)
{
	guint i;

	rr_segstore_unready(eng, call);
	for (i = 0; i < call->segs->len; i++)
		rr_seg_remove(eng, g_ptr_array_index(call->segs, i));
	g_ptr_array_unref(call->segs);
	g_array_unref(call->frames);
	rr_budget_give(eng, sizeof(*call) + sizeof(*call->hdr) + call->inline_len);
	g_free(call->hdr);
	g_free(call->inline_buf);
	g_free(call);
}

void rr_call_drop(struct rr_engine *eng, struct rr_call *call)
{
	g_hash_table_remove(call->flow->calls, GUINT_TO_POINTER(call->xid));
	rr_call_free(eng, call);
}
