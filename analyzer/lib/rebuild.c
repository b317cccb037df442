// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rebuilding the RPC message Payload stream (digest 2.3, 2.4).
 *
 * Calls: the inline part (RDMA_MSG: after the header; RDMA_NOMSG: the
 * Position-Zero read chunk) with each non-zero-Position read chunk put in
 * at its Position, XDR pad restored.  Positions are offsets in the full
 * stream.
 *
 * Replies: the inline part (RDMA_MSG: after the header; RDMA_NOMSG: the
 * Reply chunk cut to its returned lengths), with the data of each non-empty
 * Write chunk put back right after the length word of the DDP-eligible
 * result it carries.  Which result that is needs the ULP walkers (ulp.h):
 * write chunks have no Position.
 *
 * The result is the message as TCP would carry it, without the record mark.
 */
#include <string.h>

#include "engine_int.h"

/* Is this Send RPC-over-RDMA at all?  Plain verbs traffic (rping, perftest) is not. */
enum verdict { NOT_RPCRDMA, REJECTED, ACCEPTED };

static enum verdict judge(struct rr_engine *eng, struct rr_flow *f, const uint8_t *data, size_t len,
			  enum rr_hdr_status st, const struct rr_hdr *hdr, uint64_t frame, bool truncated,
			  uint32_t *msg_type)
{
	bool known = f->conn->carried_rpcrdma;
	struct rr_cursor cur;
	uint32_t xid, mt;

	if (len < 16)
		return NOT_RPCRDMA;
	if (st == RR_HDR_E_NOT_V1) {
		if (known || (hdr->vers >= 2 && hdr->vers <= 8 && hdr->proc <= RR_RDMA_ERROR)) {
			rr_diag_report(&eng->diag, ENG_NOT_V1, frame,
				       "transport header version %u (XID 0x%08x, credits %u, type %u): only the fixed part is decoded",
				       hdr->vers, hdr->xid, hdr->credit, hdr->proc);
			return REJECTED;
		}
		return NOT_RPCRDMA;
	}
	if (st == RR_HDR_E_PROC) {
		if (!known)
			return NOT_RPCRDMA;
		rr_diag_report(&eng->diag, RR_005_PROC, frame,
			       "message type %u at offset 12 of XID 0x%08x is not defined", hdr->proc, hdr->xid);
		return REJECTED;
	}
	if (st != RR_HDR_OK) {
		if (truncated && st == RR_HDR_E_SHORT)
			return REJECTED;   /* the capture cut it; the decoder said so */
		rr_diag_report(&eng->diag, rr_hdr_status_rule(st), frame,
			       "transport header of XID 0x%08x at offset %zu: %s", hdr->xid,
			       hdr->err_offset, rr_hdr_status_text(st));
		return REJECTED;
	}
	if (!rr_hdr_proc_has_payload(hdr->proc))
		return ACCEPTED;
	rr_cursor_init(&cur, data, len);
	rr_skip(&cur, hdr->hdr_len);
	if (!rr_rpc_peek(&cur, &xid, &mt)) {
		if (!known)
			return NOT_RPCRDMA;
		rr_diag_report(&eng->diag, RR_006_SHORT_HDR, frame,
			       "RDMA_MSG XID 0x%08x has no RPC message after its %zu-byte header",
			       hdr->xid, hdr->hdr_len);
		return REJECTED;
	}
	if (mt > 1) {
		if (!known)
			return NOT_RPCRDMA;
		rr_diag_report(&eng->diag, RR_008_MSG_TYPE, frame,
			       "RPC msg_type %u in XID 0x%08x is neither CALL nor REPLY", mt, hdr->xid);
		return REJECTED;
	}
	if (xid != hdr->xid) {
		if (!known)
			return NOT_RPCRDMA;
		rr_diag_report(&eng->diag, RR_002_XID, frame,
			       "rdma_xid 0x%08x differs from the RPC XID 0x%08x", hdr->xid, xid);
	}
	*msg_type = mt;
	return ACCEPTED;
}

static bool has_call_xid(struct rr_flow *cand, void *arg)
{
	return g_hash_table_contains(cand->calls, arg);
}

/* ---- calls ---- */

static struct rr_seg *call_seg(const struct rr_call *call, enum rr_seg_role role, uint32_t chunk,
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

/*
 * A message being rebuilt.  Lengths come from headers (segment lengths,
 * result length words) and may be absurd while the bytes never arrive, so
 * every growth is checked against the engine's message limit.
 */
struct mbuf {
	GByteArray *b;
	uint64_t limit;
	uint64_t made_up;     /* zeros standing for bytes that never arrived */
	bool over;
	bool complete;
};

/*
 * Bytes that never arrived are zeros in the rebuilt message, so that what
 * follows keeps its place; but a header or a result length word can claim
 * far more than was ever sent, so only this much is made up per message.
 */
#define RR_MAX_MADE_UP ((uint64_t)1 << 20)

static void mb_init(struct mbuf *m, const struct rr_engine *eng)
{
	m->b = g_byte_array_new();
	m->limit = eng->lim.max_message_bytes;
	m->made_up = 0;
	m->over = false;
	m->complete = true;
}

static uint8_t *mb_grow(struct mbuf *m, uint64_t n)
{
	guint at = m->b->len;

	if (m->over || n > m->limit - at) {
		m->over = true;
		m->complete = false;
		return NULL;
	}
	if (n == 0)
		return NULL;    /* nothing to write; data may still be NULL */
	g_byte_array_set_size(m->b, (guint)(at + n));
	return m->b->data + at;
}

static void mb_bytes(struct mbuf *m, const uint8_t *p, size_t n)
{
	uint8_t *d = mb_grow(m, n);

	if (d && n)
		memcpy(d, p, n);
}

/* n bytes of base from off; base may be NULL when n is 0. */
static void mb_slice(struct mbuf *m, const uint8_t *base, size_t off, size_t n)
{
	if (n)
		mb_bytes(m, base + off, n);
}

static void mb_zeros(struct mbuf *m, uint64_t n)
{
	uint8_t *d = mb_grow(m, n);

	if (d)
		memset(d, 0, n);
}

/* Account for n missing bytes; false (and the message is cut) past the cap. */
static bool mb_may_make_up(struct mbuf *m, uint64_t n)
{
	if (n > RR_MAX_MADE_UP - m->made_up) {
		m->over = true;
		m->complete = false;
		return false;
	}
	m->made_up += n;
	if (n)
		m->complete = false;
	return true;
}

/* The first n bytes of a segment; missing ones are zero and make it incomplete. */
static void mb_seg(struct mbuf *m, const struct rr_seg *seg, uint64_t n)
{
	uint8_t *d;

	n = MIN(n, seg ? seg->s.length : 0);
	if (!seg) {
		m->complete = false;
		return;
	}
	if (seg->covered < n && !mb_may_make_up(m, n - seg->covered))
		return;
	d = mb_grow(m, n);
	if (d && !rr_seg_read(seg, 0, d, n))
		m->complete = false;
}

static void mb_done(struct mbuf *m, struct rr_engine *eng, uint32_t xid, uint64_t frame)
{
	if (m->over)
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "XID 0x%08x: rebuilding would pass the %" G_GUINT64_FORMAT
			       "-byte message limit or make up more than %" G_GUINT64_FORMAT
			       " bytes that never arrived; the message is cut there",
			       xid, m->limit, (uint64_t)RR_MAX_MADE_UP);
}

static void collect_frames(GArray *dst, const struct rr_call *call, bool reads)
{
	guint i, j;

	for (i = 0; i < call->segs->len; i++) {
		const struct rr_seg *s = g_ptr_array_index(call->segs, i);

		if ((s->role == RR_SEG_READ) != reads)
			continue;
		for (j = 0; j < s->frames->len; j++)
			rr_frames_add(dst, g_array_index(s->frames, uint64_t, j));
	}
}

/* Decode the RPC header and describe the message with the ULP walker. */
static void describe(struct rr_message *m, const struct rr_ulp_info *callinfo)
{
	struct rr_cursor cur;

	rr_cursor_init(&cur, m->payload, m->payload_len);
	if (m->dir == RR_DIR_CALL) {
		if (!rr_rpc_decode_call(&cur, &m->call))
			return;
		m->has_rpc = true;
		m->has_ulp = rr_ulp_walk_call(&m->call, &cur, NULL, NULL, &m->ulp) !=
			     RR_ULP_UNKNOWN_PROGRAM;
		return;
	}
	if (!rr_rpc_decode_reply(&cur, &m->reply))
		return;
	m->has_rpc = true;
	if (callinfo)
		m->has_ulp = rr_ulp_walk_reply(callinfo, &m->reply, &cur, NULL, NULL, &m->ulp) !=
			     RR_ULP_UNKNOWN_PROGRAM;
}

static void message_init(struct rr_message *m, struct rr_flow *f, const struct rr_hdr *hdr,
			 enum rr_msg_dir dir)
{
	memset(m, 0, sizeof(*m));
	m->xid = hdr->xid;
	m->dir = dir;
	m->conn_id = f->conn->id;
	m->conn_name = rr_conn_name(f->conn);
	m->transport = f->key.transport;
	m->hdr = hdr;
	m->credit = hdr->credit;
	m->complete = true;
}

static void deliver_call(struct rr_engine *eng, struct rr_call *call)
{
	const struct rr_hdr *hdr = call->hdr;
	struct mbuf full, inl;
	const uint8_t *in;
	size_t in_len, ip = 0;
	bool complete = !call->send_truncated, nomsg = hdr->proc == RR_RDMA_NOMSG;
	GArray *frames, *positions;
	struct rr_message m;
	uint32_t i, k;

	mb_init(&full, eng);
	mb_init(&inl, eng);
	if (nomsg) {
		for (i = 0; i < hdr->n_reads; i++)
			if (hdr->reads[i].position == 0)
				mb_seg(&inl, call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
		in = inl.b->data;
		in_len = inl.b->len;
	} else {
		in = call->inline_buf;
		in_len = call->inline_len;
	}

	/* Chunks in ascending Position; list order within a Position. */
	positions = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (i = 0; i < hdr->n_reads; i++) {
		uint32_t p = hdr->reads[i].position, j;

		if (p == 0 && hdr->proc == RR_RDMA_NOMSG)
			continue;
		for (j = 0; j < positions->len && g_array_index(positions, uint32_t, j) < p; j++)
			;
		if (j == positions->len || g_array_index(positions, uint32_t, j) != p)
			g_array_insert_val(positions, j, p);
	}
	for (k = 0; k < positions->len; k++) {
		uint32_t pos = g_array_index(positions, uint32_t, k);
		uint64_t chunk_len = 0;
		size_t need;

		if (pos < full.b->len || pos - full.b->len > in_len - ip) {
			rr_diag_report(&eng->diag, RR_026_POS_RANGE, call->first_frame,
				       "read chunk Position %u of XID 0x%08x lies outside the Payload stream (%zu bytes rebuilt, %zu inline bytes left)",
				       pos, call->xid, (size_t)full.b->len, in_len - ip);
			complete = false;
			break;
		}
		need = pos - full.b->len;
		mb_slice(&full, in, ip, need);
		ip += need;
		for (i = 0; i < hdr->n_reads; i++) {
			if (hdr->reads[i].position != pos)
				continue;
			mb_seg(&full, call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
			chunk_len += hdr->reads[i].seg.length;
		}
		mb_zeros(&full, rr_xdr_pad(chunk_len));
		if (full.over)
			break;
	}
	mb_slice(&full, in, ip, in_len - ip);
	g_array_unref(positions);
	complete = complete && full.complete && inl.complete;
	mb_done(&full, eng, call->xid, call->first_frame);
	mb_done(&inl, eng, call->xid, call->first_frame);

	frames = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (i = 0; i < call->frames->len; i++)
		rr_frames_add(frames, g_array_index(call->frames, uint64_t, i));
	collect_frames(frames, call, true);

	message_init(&m, call->flow, hdr, RR_DIR_CALL);
	m.payload = full.b->data;
	m.payload_len = full.b->len;
	m.complete = complete;
	m.frames = (const uint64_t *)(void *)frames->data;
	m.n_frames = frames->len;
	describe(&m, NULL);
	if (m.has_rpc) {
		rr_conn_note_call(eng, call->flow, m.call.prog);
		m.conn_name = rr_conn_name(call->flow->conn);
		if (m.call.xid != hdr->xid && hdr->proc == RR_RDMA_NOMSG)
			rr_diag_report(&eng->diag, RR_002_XID, call->first_frame,
				       "rdma_xid 0x%08x differs from the XID 0x%08x at the start of the Position-Zero read chunk",
				       hdr->xid, m.call.xid);
	}
	call->backchannel = call->flow->conn->requester >= 0 &&
			    call->flow->side != call->flow->conn->requester;
	m.backchannel = call->backchannel;
	call->has_ulp = m.has_ulp;
	call->ulp = m.ulp;
	call->delivered = true;
	rr_deliver(eng, &m);

	g_array_unref(frames);
	g_byte_array_unref(full.b);
	g_byte_array_unref(inl.b);
}

void rr_call_try_complete(struct rr_engine *eng, struct rr_call *call)
{
	guint i;

	if (call->delivered)
		return;
	for (i = 0; i < call->segs->len; i++) {
		const struct rr_seg *s = g_ptr_array_index(call->segs, i);

		if (s->role == RR_SEG_READ && !rr_seg_complete(s))
			return;
	}
	deliver_call(eng, call);
}

void rr_call_flush(struct rr_engine *eng, struct rr_call *call)
{
	if (call->delivered)
		return;
	rr_diag_report(&eng->diag, ENG_INCOMPLETE, call->first_frame,
		       "call XID 0x%08x on %s: read chunk data is missing from the capture",
		       call->xid, rr_conn_name(call->flow->conn));
	deliver_call(eng, call);
}

void rr_call_free(struct rr_engine *eng, struct rr_call *call)
{
	guint i;

	if (call->ready_queued)
		g_ptr_array_remove_fast(eng->calls_ready, call);
	for (i = 0; i < call->segs->len; i++)
		rr_seg_remove(eng, g_ptr_array_index(call->segs, i));
	g_ptr_array_unref(call->segs);
	g_array_unref(call->frames);
	rr_budget_give(eng, sizeof(*call->hdr) + call->inline_len);
	g_free(call->hdr);
	g_free(call->inline_buf);
	g_free(call);
}

static void drop_call(struct rr_engine *eng, struct rr_call *call)
{
	g_hash_table_remove(call->flow->calls, GUINT_TO_POINTER(call->xid));
	rr_call_free(eng, call);
}

static void register_segments(struct rr_engine *eng, struct rr_call *call)
{
	const struct rr_hdr *h = call->hdr;
	uint32_t i, k;

	for (i = 0; i < h->n_reads; i++)
		rr_seg_add(eng, call, RR_SEG_READ, i, 0, &h->reads[i].seg);
	for (k = 0; k < h->n_write_chunks; k++)
		for (i = 0; i < h->writes[k].count; i++)
			rr_seg_add(eng, call, RR_SEG_WRITE, k, i, rr_hdr_wseg(h, &h->writes[k], i));
	if (h->has_reply)
		for (i = 0; i < h->reply.count; i++)
			rr_seg_add(eng, call, RR_SEG_REPLY, 0, i, rr_hdr_wseg(h, &h->reply, i));
}

static void start_call(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
		       const uint8_t *data, size_t len, const uint64_t *frames, size_t n_frames,
		       bool truncated)
{
	struct rr_call *call, *old;
	size_t inline_len = rr_hdr_proc_has_payload(hdr->proc) ? len - hdr->hdr_len : 0;
	size_t i;

	old = g_hash_table_lookup(f->calls, GUINT_TO_POINTER(hdr->xid));
	if (old) {
		rr_diag_report(&eng->diag, RR_004_XID_DUP, frames[0],
			       "call XID 0x%08x on %s while a call with the same XID (frame %" G_GUINT64_FORMAT ") is outstanding: the older one is dropped",
			       hdr->xid, rr_conn_name(f->conn), old->first_frame);
		rr_call_flush(eng, old);
		drop_call(eng, old);
	}
	if (g_hash_table_size(f->calls) >= eng->lim.max_calls_per_flow) {
		GHashTableIter it;
		gpointer v;

		struct rr_call *oldest = NULL;

		/* The oldest outstanding call is the one whose reply was most likely lost. */
		g_hash_table_iter_init(&it, f->calls);
		while (g_hash_table_iter_next(&it, NULL, &v))
			if (!oldest || ((struct rr_call *)v)->first_frame < oldest->first_frame)
				oldest = v;
		rr_diag_report(&eng->diag, ENG_LIMIT, frames[0],
			       "more than %u outstanding calls on %s: the oldest, XID 0x%08x (frame %" G_GUINT64_FORMAT "), is dropped",
			       eng->lim.max_calls_per_flow, rr_conn_name(f->conn), oldest->xid,
			       oldest->first_frame);
		rr_call_flush(eng, oldest);
		drop_call(eng, oldest);
	}
	if (!rr_budget_take(eng, sizeof(*hdr) + inline_len, frames[0], "a call"))
		return;
	call = g_new0(struct rr_call, 1);
	call->xid = hdr->xid;
	call->flow = f;
	call->hdr = g_memdup2(hdr, sizeof(*hdr));
	call->inline_len = inline_len;
	call->inline_buf = g_memdup2(data + hdr->hdr_len, inline_len);
	call->frames = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (i = 0; i < n_frames; i++)
		rr_frames_add(call->frames, frames[i]);
	call->first_frame = frames[0];
	call->send_truncated = truncated;
	call->segs = g_ptr_array_new();
	g_hash_table_insert(f->calls, GUINT_TO_POINTER(call->xid), call);
	register_segments(eng, call);
	rr_call_try_complete(eng, call);
}

/* ---- replies ---- */

struct insertion {
	size_t pos;           /* in the inline stream, just after the length word */
	uint32_t length;      /* the item's length word */
	uint32_t chunk;
};

struct reply_ctx {
	struct rr_engine *eng;
	const struct rr_hdr *rhdr;   /* the reply's header: returned lengths */
	uint64_t frame;
	GArray *ins;                 /* struct insertion */
};

static bool on_ddp_result(void *arg, const struct rr_ddp_item *item)
{
	struct reply_ctx *rc = arg;
	const struct rr_hdr *h = rc->rhdr;
	uint64_t returned;
	struct insertion in;

	if (item->ordinal >= h->n_write_chunks)
		return false;
	returned = rr_chunk_length(h, &h->writes[item->ordinal]);
	if (returned == 0)
		return false;
	if (returned != item->length && returned != rr_xdr_roundup(item->length))
		rr_diag_report(&rc->eng->diag, RR_091_WRITE_COUNT, rc->frame,
			       "XID 0x%08x: result length %u but Write chunk %u returned %" G_GUINT64_FORMAT " bytes",
			       h->xid, item->length, item->ordinal, returned);
	in.pos = item->data_pos;
	in.length = item->length;
	in.chunk = item->ordinal;
	g_array_append_val(rc->ins, in);
	return true;
}

/* The bytes RDMA-Written into write chunk k, as the reply's returned lengths say. */
static void append_write_chunk(struct mbuf *out, const struct rr_call *call, const struct rr_hdr *rhdr,
			       uint32_t k, uint32_t want)
{
	const struct rr_write_chunk *rc = &rhdr->writes[k];
	guint start = out->b->len;
	uint32_t i;

	for (i = 0; i < rc->count && out->b->len - start < want && !out->over; i++) {
		const struct rr_seg *seg = call_seg(call, RR_SEG_WRITE, k, i);
		uint64_t n = MIN(rr_hdr_wseg(rhdr, rc, i)->length, want - (out->b->len - start));

		if (!seg)
			break;
		mb_seg(out, seg, n);
	}
	if (out->b->len - start < want && mb_may_make_up(out, want - (out->b->len - start)))
		mb_zeros(out, want - (out->b->len - start));
}

static void deliver_reply(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
			  const uint8_t *data, size_t len, const uint64_t *frames, size_t n_frames,
			  bool truncated, struct rr_call *call)
{
	struct mbuf inl, full;
	const uint8_t *in = NULL;
	size_t in_len = 0;
	bool complete = !truncated;
	GArray *fr = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	struct rr_message m;
	uint32_t i, k;
	bool chunks_used = false;

	for (i = 0; i < n_frames; i++)
		rr_frames_add(fr, frames[i]);
	message_init(&m, f, hdr, RR_DIR_REPLY);

	mb_init(&inl, eng);
	mb_init(&full, eng);
	if (hdr->proc == RR_RDMA_NOMSG) {
		for (i = 0; call && i < hdr->reply.count; i++) {
			const struct rr_seg *seg = call_seg(call, RR_SEG_REPLY, 0, i);

			if (!seg) {
				complete = false;
				break;
			}
			mb_seg(&inl, seg, rr_hdr_wseg(hdr, &hdr->reply, i)->length);
		}
		if (!call)
			complete = false;
		in = inl.b->data;
		in_len = inl.b->len;
	} else if (rr_hdr_proc_has_payload(hdr->proc)) {
		in = data + hdr->hdr_len;
		in_len = len - hdr->hdr_len;
	}
	for (k = 0; k < hdr->n_write_chunks; k++)
		if (rr_chunk_length(hdr, &hdr->writes[k]))
			chunks_used = true;

	if (chunks_used && call && call->has_ulp) {
		struct reply_ctx rc = { eng, hdr, frames[0], g_array_new(FALSE, FALSE, sizeof(struct insertion)) };
		struct rr_ulp_info where;   /* this walk only finds the insertion points */
		struct rr_rpc_reply rep;
		struct rr_cursor cur;
		enum rr_ulp_result res = RR_ULP_MALFORMED;
		size_t ip = 0;

		rr_cursor_init(&cur, in, in_len);
		if (rr_rpc_decode_reply(&cur, &rep))
			res = rr_ulp_walk_reply(&call->ulp, &rep, &cur, on_ddp_result, &rc, &where);
		/* A reply the capture cut short cannot be walked; CAP-TRUNC said so. */
		if (res != RR_ULP_OK && complete && inl.complete)
			rr_diag_report(&eng->diag, ENG_ULP, frames[0],
				       "reply XID 0x%08x: the results could not be walked (%s), so Write chunk data may be missing",
				       hdr->xid, rr_ulp_result_name(res));
		for (i = 0; i < rc.ins->len; i++) {
			const struct insertion *in_i = &g_array_index(rc.ins, struct insertion, i);

			if (in_i->pos < ip || in_i->pos > in_len)
				continue;
			mb_slice(&full, in, ip, in_i->pos - ip);
			ip = in_i->pos;
			append_write_chunk(&full, call, hdr, in_i->chunk, in_i->length);
			mb_zeros(&full, rr_xdr_pad(in_i->length));
		}
		mb_slice(&full, in, ip, in_len - ip);
		/* Every non-empty chunk must have found its result. */
		for (k = 0; k < hdr->n_write_chunks; k++) {
			bool placed = false;

			for (i = 0; i < rc.ins->len; i++)
				placed |= g_array_index(rc.ins, struct insertion, i).chunk == k;
			if (!placed && rr_chunk_length(hdr, &hdr->writes[k]))
				complete = false;
		}
		g_array_unref(rc.ins);
		m.payload = full.b->data;
		m.payload_len = full.b->len;
	} else {
		if (chunks_used)
			complete = false;
		m.payload = in;
		m.payload_len = in_len;
	}

	if (call) {
		collect_frames(fr, call, false);
		m.call_ulp = call->has_ulp ? &call->ulp : NULL;
		m.backchannel = call->backchannel;
	} else {
		m.backchannel = f->conn->requester >= 0 && f->side == f->conn->requester;
	}
	m.frames = (const uint64_t *)(void *)fr->data;
	m.n_frames = fr->len;
	complete = complete && inl.complete && full.complete;
	mb_done(&inl, eng, hdr->xid, frames[0]);
	mb_done(&full, eng, hdr->xid, frames[0]);
	m.complete = complete;
	if (m.payload_len) {
		describe(&m, m.call_ulp);
		if (hdr->proc == RR_RDMA_NOMSG && m.has_rpc && m.reply.xid != hdr->xid)
			rr_diag_report(&eng->diag, RR_002_XID, frames[0],
				       "rdma_xid 0x%08x differs from the XID 0x%08x at the start of the Reply chunk",
				       hdr->xid, m.reply.xid);
	}
	rr_deliver(eng, &m);

	g_array_unref(fr);
	g_byte_array_unref(inl.b);
	g_byte_array_unref(full.b);
}

void rr_rebuild_send(struct rr_engine *eng, struct rr_flow *f, const uint8_t *data, size_t len,
		     const uint64_t *frames, size_t n_frames, bool truncated)
{
	struct rr_hdr *hdr = g_new(struct rr_hdr, 1);
	enum rr_hdr_status st = rr_hdr_decode(data, len, hdr);
	uint32_t msg_type = RR_RPC_CALL;
	enum verdict v = judge(eng, f, data, len, st, hdr, frames[0], truncated, &msg_type);
	bool is_call;
	struct rr_flow *peer;
	struct rr_call *call = NULL;

	if (v != ACCEPTED) {
		if (v == NOT_RPCRDMA)
			eng->stats.not_rpcrdma++;
		g_free(hdr);
		return;
	}
	f->conn->carried_rpcrdma = true;
	switch (hdr->proc) {
	case RR_RDMA_NOMSG: {
		uint32_t i;

		is_call = false;
		for (i = 0; i < hdr->n_reads; i++)
			is_call |= hdr->reads[i].position == 0;
		if (!is_call && !hdr->has_reply) {
			rr_diag_report(&eng->diag, RR_021_NOMSG_EMPTY, frames[0],
				       "RDMA_NOMSG XID 0x%08x has neither a Position-Zero read chunk nor a Reply chunk",
				       hdr->xid);
			g_free(hdr);
			return;
		}
		break;
	}
	case RR_RDMA_DONE:
		is_call = true;
		break;
	case RR_RDMA_ERROR:
		is_call = false;
		break;
	default:
		is_call = msg_type == RR_RPC_CALL;
	}
	if (len > hdr->hdr_len && !rr_hdr_proc_has_payload(hdr->proc))
		rr_diag_report(&eng->diag, RR_022_EXTRA_BYTES, frames[0],
			       "%s XID 0x%08x: %zu bytes follow the %zu-byte header",
			       rr_hdr_proc_name(hdr->proc), hdr->xid, len - hdr->hdr_len, hdr->hdr_len);

	if (is_call && hdr->proc != RR_RDMA_DONE) {
		start_call(eng, f, hdr, data, len, frames, n_frames, truncated);
		g_free(hdr);
		return;
	}
	if (hdr->proc == RR_RDMA_DONE) {
		struct rr_message m;
		GArray *fr = g_array_new(FALSE, FALSE, sizeof(uint64_t));
		size_t i;

		for (i = 0; i < n_frames; i++)
			rr_frames_add(fr, frames[i]);
		message_init(&m, f, hdr, RR_DIR_CALL);
		m.frames = (const uint64_t *)(void *)fr->data;
		m.n_frames = fr->len;
		rr_deliver(eng, &m);
		g_array_unref(fr);
		g_free(hdr);
		return;
	}

	peer = rr_conn_pair_by_evidence(eng, f, has_call_xid, GUINT_TO_POINTER(hdr->xid));
	if (peer)
		call = g_hash_table_lookup(peer->calls, GUINT_TO_POINTER(hdr->xid));
	if (!call)
		rr_diag_report(&eng->diag, RR_003_REPLY_MATCH, frames[0],
			       "reply XID 0x%08x on %s matches no outstanding call (the capture may start after it)",
			       hdr->xid, rr_conn_name(f->conn));
	else if (!call->delivered)
		rr_call_flush(eng, call);
	deliver_reply(eng, f, hdr, data, len, frames, n_frames, truncated, call);
	if (call)
		drop_call(eng, call);
	g_free(hdr);
}

/* The connection went away: deliver what its calls have, then drop them. */
void rr_rebuild_flow_reset(struct rr_engine *eng, struct rr_flow *f)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, f->calls);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		g_hash_table_iter_steal(&it);
		rr_call_flush(eng, v);
		rr_call_free(eng, v);
	}
}
