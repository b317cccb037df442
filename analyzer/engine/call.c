// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A call the engine keeps until its reply: its header, its inline part, its
 * Send frames and the segments it advertised (registered in the segment
 * store, which places RDMA bytes in them), in a table per flow by XID.
 */
#include "budget.h"
#include "call.h"
#include "frames.h"
#include "xfer.h"

/* A flow's calls (rr_flow.calls). */
struct rr_call_table {
	GHashTable *by_xid;       /* xid -> struct rr_call* */
};

static GHashTable *calls_of(const struct rr_flow *f)
{
	return f->calls ? f->calls->by_xid : NULL;
}

/* The segment goes in the store, under the flow the call was sent on (its sender's memory). */
static void add_seg(struct rr_engine *eng, struct rr_call *call, enum rr_seg_role role, uint32_t chunk,
		    uint32_t index, const struct rr_segment *s)
{
	struct rr_seg what = { call, call->xid, role, chunk, index, *s };

	g_ptr_array_add(call->segs, rr_seg_add(eng, call->flow, &what));
}

static void register_segments(struct rr_engine *eng, struct rr_call *call)
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

/* The call's own copy of its header: the fixed part and the used entries
 * of each list only (a struct rr_hdr is ~5 KiB of arrays, and most calls
 * carry a segment or two); entries past the counts are never read. */
static void hdr_copy(struct rr_hdr *c, const struct rr_hdr *h)
{
	uint32_t nr = MIN(h->n_reads, RR_HDR_MAX_SEGS), nw = MIN(h->n_write_chunks, RR_HDR_MAX_WRITE_CHUNKS);
	uint32_t ns = MIN(h->n_wsegs, RR_HDR_MAX_SEGS);

	memcpy(c, h, offsetof(struct rr_hdr, reads));
	memcpy(c->reads, h->reads, nr * sizeof(h->reads[0]));
	c->n_write_chunks = h->n_write_chunks;
	memcpy(c->writes, h->writes, nw * sizeof(h->writes[0]));
	c->has_reply = h->has_reply;
	c->reply = h->reply;
	c->n_wsegs = h->n_wsegs;
	memcpy(c->wsegs, h->wsegs, ns * sizeof(h->wsegs[0]));
	/* the fields after the lists, as they are: building_reply is a builder's, which a
	 * decoded header may leave unset (a copy, not a read of it as a bool) */
	memcpy(&c->hdr_len, &h->hdr_len, sizeof(*c) - offsetof(struct rr_hdr, hdr_len));
}

/*
 * A zeroed call with its header buffer and empty arrays: a spare one when
 * the engine has any (a header is ~10 KiB, too large for malloc's fast
 * paths), else a new one.
 */
static struct rr_call *call_alloc(struct rr_engine *eng)
{
	struct rr_call *call;
	const struct rr_hdr *hdr;
	GArray *frames;
	GPtrArray *segs;

	if (!eng->n_call_spares) {
		call = g_new0(struct rr_call, 1);
		call->hdr = g_malloc(sizeof(struct rr_hdr));
		call->frames = g_array_new(FALSE, FALSE, sizeof(uint64_t));
		call->segs = g_ptr_array_new();
		return call;
	}
	call = eng->call_spares[--eng->n_call_spares];
	hdr = call->hdr;
	frames = call->frames;
	segs = call->segs;
	memset(call, 0, sizeof(*call));
	call->hdr = hdr;
	call->frames = frames;
	call->segs = segs;
	return call;
}

/* Kept as a spare (its arrays emptied) while the engine has room, else freed. */
static void call_release(struct rr_engine *eng, struct rr_call *call)
{
	if (eng->n_call_spares < RR_CALL_SPARES) {
		g_array_set_size(call->frames, 0);
		g_ptr_array_set_size(call->segs, 0);
		eng->call_spares[eng->n_call_spares++] = call;
		return;
	}
	g_ptr_array_unref(call->segs);
	g_array_unref(call->frames);
	g_free((void *)call->hdr);
	g_free(call);
}

void rr_call_spares_free(struct rr_engine *eng)
{
	while (eng->n_call_spares) {
		struct rr_call *call = eng->call_spares[--eng->n_call_spares];

		g_ptr_array_unref(call->segs);
		g_array_unref(call->frames);
		g_free((void *)call->hdr);
		g_free(call);
	}
}

struct rr_call *rr_call_new(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
			    const struct rr_send_done *d)
{
	size_t inline_len = rr_hdr_proc_has_payload(hdr->proc) ? d->len - hdr->hdr_len : 0;
	struct rr_call *call;
	size_t i;

	if (!rr_budget_take(eng, sizeof(struct rr_call) + sizeof(*hdr) + inline_len, d->frames[0], "a call"))
		return NULL;
	call = call_alloc(eng);
	call->xid = hdr->xid;
	call->flow = f;
	hdr_copy((struct rr_hdr *)call->hdr, hdr);
	call->inline_len = inline_len;
	call->inline_captured = d->captured > hdr->hdr_len ? MIN(d->captured - hdr->hdr_len, inline_len) : 0;
	call->inline_buf = g_memdup2(d->data + hdr->hdr_len, inline_len);
	for (i = 0; i < d->n_frames; i++)
		rr_frames_add(call->frames, d->frames[i]);
	call->first_frame = d->frames[0];
	call->ts_usec = d->ts_usec;
	call->gaps_at_start = d->psn_gaps;
	call->send_truncated = d->truncated;
	if (!f->calls) {
		f->calls = g_new0(struct rr_call_table, 1);
		f->calls->by_xid = g_hash_table_new(g_direct_hash, g_direct_equal);
	}
	g_hash_table_insert(f->calls->by_xid, GUINT_TO_POINTER(call->xid), call);
	register_segments(eng, call);
	return call;
}

void rr_call_delivered(struct rr_call *call, bool backchannel, bool has_ulp, bool capture_loss,
		       const struct rr_ulp_info *ulp)
{
	call->backchannel = backchannel;
	call->has_ulp = has_ulp;
	call->capture_loss = capture_loss;
	call->ulp = *ulp;
	call->delivered = true;
}

void rr_call_free(struct rr_engine *eng, struct rr_call *call)
{
	guint i;

	rr_segstore_unready(eng, call);
	for (i = 0; i < call->segs->len; i++)
		rr_seg_remove(eng, g_ptr_array_index(call->segs, i));
	rr_budget_give(eng, sizeof(*call) + sizeof(*call->hdr) + call->inline_len);
	g_free((void *)call->inline_buf);
	call_release(eng, call);
}

void rr_call_drop(struct rr_engine *eng, struct rr_call *call)
{
	g_hash_table_remove(calls_of(call->flow), GUINT_TO_POINTER(call->xid));
	rr_call_free(eng, call);
}

struct rr_call *rr_call_find(struct rr_flow *f, uint32_t xid)
{
	GHashTable *t = calls_of(f);

	return t ? g_hash_table_lookup(t, GUINT_TO_POINTER(xid)) : NULL;
}

bool rr_flow_has_call(struct rr_flow *f, void *xid_ptr)
{
	GHashTable *t = calls_of(f);

	return t && g_hash_table_contains(t, xid_ptr);
}

guint rr_call_count(struct rr_flow *f)
{
	GHashTable *t = calls_of(f);

	return t ? g_hash_table_size(t) : 0;
}

struct rr_call *rr_call_oldest(struct rr_flow *f)
{
	GHashTable *t = calls_of(f);
	struct rr_call *oldest = NULL;
	GHashTableIter it;
	gpointer v;

	if (!t)
		return NULL;
	g_hash_table_iter_init(&it, t);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!oldest || ((struct rr_call *)v)->first_frame < oldest->first_frame)
			oldest = v;
	return oldest;
}

GPtrArray *rr_call_take_all(struct rr_flow *f)
{
	GHashTable *t = calls_of(f);
	GPtrArray *all = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	if (!t)
		return all;
	g_hash_table_iter_init(&it, t);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		g_hash_table_iter_steal(&it);
		g_ptr_array_add(all, v);
	}
	return all;
}

void rr_call_free_all(struct rr_engine *eng, struct rr_flow *f)
{
	GPtrArray *all = rr_call_take_all(f);
	guint i;

	for (i = 0; i < all->len; i++)
		rr_call_free(eng, g_ptr_array_index(all, i));
	g_ptr_array_unref(all);
}

void rr_call_flow_free(struct rr_flow *f)
{
	if (!f->calls)
		return;
	g_hash_table_destroy(f->calls->by_xid);
	g_free(f->calls);
	f->calls = NULL;
}

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
