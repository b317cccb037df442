// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rebuilding the RPC message Payload stream (RFC 8166 §3.4.5, §3.5.3).
 *
 * Calls: the inline part (RDMA_MSG: after the header; RDMA_NOMSG: the
 * Position-Zero read chunk) with each non-zero-Position read chunk put in
 * at its Position, XDR pad restored.  Positions are offsets in the full
 * stream.
 *
 * Replies: rebuild_reply.c.
 *
 * The result is the message as TCP would carry it, without the record mark.
 */
#include <string.h>

#include "conn.h"
#include "frames.h"
#include "mbuf.h"
#include "rebuild.h"
#include "record.h"
#include "../check/check.h"

/*
 * Is this Send RPC-over-RDMA at all?  Plain verbs traffic (rping, perftest)
 * is not.  This is the only decision the rebuild makes about a Send's
 * header: whether it is correct is the check stage's business.  A Send on
 * a connection known to carry RPC-over-RDMA that cannot be rebuilt is
 * REJECTED (the check stage still sees it); one on an unknown connection
 * that does not look like RPC-over-RDMA is NOT_RPCRDMA.
 */
enum verdict { NOT_RPCRDMA, REJECTED, ACCEPTED };

struct peek {
	bool words;               /* 8 bytes of Payload were there */
	bool is_rpc;              /* ... and they are an RPC header with this XID */
	uint32_t xid, msg_type;
};

static enum verdict judge(struct rr_engine *eng, struct rr_flow *f, const uint8_t *data, size_t len,
			  enum rr_hdr_status st, const struct rr_hdr *hdr, uint64_t frame, struct peek *pk)
{
	bool known = f->conn->carried_rpcrdma;
	struct rr_cursor cur;

	memset(pk, 0, sizeof(*pk));
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
	if (st == RR_HDR_E_PROC)
		return known ? REJECTED : NOT_RPCRDMA;
	if (st != RR_HDR_OK)
		return known ? REJECTED : NOT_RPCRDMA;
	if (!rr_hdr_proc_has_payload(hdr->proc))
		return ACCEPTED;
	rr_cursor_init(&cur, data, len);
	rr_skip(&cur, hdr->hdr_len);
	pk->words = rr_rpc_peek(&cur, &pk->xid, &pk->msg_type) || (rr_cursor_left(&cur) >= 8);
	pk->is_rpc = pk->words && pk->msg_type <= 1;
	if (pk->is_rpc && pk->xid == hdr->xid)
		return ACCEPTED;
	if (known)
		return pk->is_rpc ? ACCEPTED : REJECTED;
	/*
	 * Unknown connection: a whole v1 header whose Payload starts with the
	 * header's XID (a bad msg_type) or with a record mark and then the XID
	 * is RPC-over-RDMA gone wrong, not someone else's verbs traffic.
	 */
	if (pk->words && (pk->xid == hdr->xid ||
			  (rr_cursor_left(&cur) >= 8 && (pk->xid & 0x80000000u) && pk->msg_type == hdr->xid)))
		return REJECTED;
	return NOT_RPCRDMA;
}

/* ---- calls ---- */

/* A call's Payload, being rebuilt. */
struct call_payload {
	struct mbuf full;         /* the Payload */
	struct mbuf inl;          /* RDMA_NOMSG: the Position-Zero read chunk */
	bool complete;
	bool bad_position;        /* a read chunk's Position is outside the stream */
	bool bad_overlaps;        /* ... before the bytes already there */
	uint32_t bad_pos;
};

/* The Positions of the read chunks put in the stream, ascending, each once. */
static GArray *read_positions(const struct rr_hdr *hdr)
{
	GArray *positions = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	uint32_t i;

	for (i = 0; i < hdr->n_reads; i++) {
		uint32_t p = hdr->reads[i].position, q;

		if (p == 0 && hdr->proc == RR_RDMA_NOMSG)
			continue;
		for (q = 0; q < positions->len && g_array_index(positions, uint32_t, q) < p; q++)
			;
		if (q == positions->len || g_array_index(positions, uint32_t, q) != p)
			g_array_insert_val(positions, q, p);
	}
	return positions;
}

/*
 * The inline stream in with each read chunk at its Position (list order
 * within a Position) and its XDR pad.  Returns how much of in was used.
 */
static size_t insert_read_chunks(const struct rr_call *call, const uint8_t *in, size_t in_len,
				 size_t in_captured, struct call_payload *cp)
{
	const struct rr_hdr *hdr = call->hdr;
	GArray *positions;
	size_t ip = 0;
	uint32_t i, k;

	if (!hdr->n_reads)
		return 0;               /* most calls: nothing to put in, and no list to make */
	positions = read_positions(hdr);
	for (k = 0; k < positions->len; k++) {
		uint32_t pos = g_array_index(positions, uint32_t, k);
		uint64_t chunk_len = 0, have = 0;
		size_t need;

		if (pos < cp->full.b->len || pos - cp->full.b->len > in_len - ip) {
			/* The check stage tells RR-026 from RR-224. */
			cp->bad_position = true;
			cp->bad_pos = pos;
			cp->bad_overlaps = pos < cp->full.b->len;
			cp->complete = false;
			break;
		}
		need = pos - cp->full.b->len;
		for (i = 0; i < hdr->n_reads; i++)
			if (hdr->reads[i].position == pos)
				have += mb_seg_have(rr_call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
		/* The chunk's bytes and the rest of the inline part: one growth. */
		mb_reserve(&cp->full, need + have + (in_len - ip - need));
		mb_slice_cut(&cp->full, in, ip, need, in_captured);
		ip += need;
		for (i = 0; i < hdr->n_reads; i++) {
			if (hdr->reads[i].position != pos)
				continue;
			mb_seg(&cp->full, rr_call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
			chunk_len += hdr->reads[i].seg.length;
		}
		mb_zeros(&cp->full, rr_xdr_pad(chunk_len));
		if (cp->full.over)
			break;
	}
	g_array_unref(positions);
	return ip;
}

/* The inline part (RDMA_MSG: after the header; RDMA_NOMSG: the Position-Zero read chunk) with the read chunks in. */
static void rebuild_call_payload(struct rr_engine *eng, const struct rr_call *call, struct call_payload *cp)
{
	const struct rr_hdr *hdr = call->hdr;
	const uint8_t *in;
	size_t in_len, in_captured, ip;
	uint32_t i;

	memset(cp, 0, sizeof(*cp));
	cp->complete = !call->send_truncated;
	mb_init(&cp->full, eng);
	mb_init(&cp->inl, eng);
	if (hdr->proc == RR_RDMA_NOMSG) {
		uint64_t have = 0;

		for (i = 0; i < hdr->n_reads; i++)
			if (hdr->reads[i].position == 0)
				have += mb_seg_have(rr_call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
		mb_reserve(&cp->inl, have);
		for (i = 0; i < hdr->n_reads; i++)
			if (hdr->reads[i].position == 0)
				mb_seg(&cp->inl, rr_call_seg(call, RR_SEG_READ, i, 0), hdr->reads[i].seg.length);
		in = mb_data(&cp->inl);
		in_len = cp->inl.b->len;
		in_captured = mb_whole(&cp->inl);
	} else {
		in = call->inline_buf;
		in_len = call->inline_len;
		in_captured = call->inline_captured;
	}
	ip = insert_read_chunks(call, in, in_len, in_captured, cp);
	mb_slice_cut(&cp->full, in, ip, in_len - ip, in_captured);
	cp->complete = cp->complete && cp->full.complete && cp->inl.complete;
	mb_done(&cp->full, eng, call->xid, call->first_frame);
	mb_done(&cp->inl, eng, call->xid, call->first_frame);
}

/*
 * What the record says of each read segment: bytes seen landing and their
 * frames (in scratch arrays the caller gives back), and whether the capture
 * lost bytes the responder asked for.
 */
static void describe_read_segments(struct rr_engine *eng, const struct rr_call *call, struct rr_message *m,
				   GArray **bytes_out, GArray **frames_out)
{
	const struct rr_hdr *hdr = call->hdr;
	uint64_t *seg_bytes = rr_scratch_zeroed(&eng->scratch, sizeof(uint64_t), hdr->n_reads + 1, bytes_out);
	struct rr_seg_frames *seg_frames = rr_scratch_zeroed(&eng->scratch, sizeof(struct rr_seg_frames),
							     hdr->n_reads + 1, frames_out);
	uint32_t i;

	for (i = 0; i < hdr->n_reads; i++) {
		const struct rr_seg *sg = rr_call_seg(call, RR_SEG_READ, i, 0);

		seg_bytes[i] = sg ? rr_seg_covered(sg) : 0;
		if (sg)
			seg_frames[i] = rr_seg_frames_of(sg);
		m->capture_loss |= sg && (rr_seg_cut(sg) || (rr_seg_covered(sg) < sg->s.length &&
							     rr_seg_requested(sg) > rr_seg_covered(sg)));
	}
	m->seg_bytes = seg_bytes;
	m->seg_frames = seg_frames;
}

/* Which read chunk carries each eligible argument: the one at its data's Position. */
static void assign_read_chunks(GArray *items, const struct rr_hdr *hdr)
{
	uint32_t i;
	size_t j;

	for (j = 0; j < items->len; j++) {
		struct rr_ddp_place *it = &g_array_index(items, struct rr_ddp_place, j);

		for (i = 0; i < hdr->n_reads && it->chunk < 0; i++)
			if (hdr->reads[i].position && hdr->reads[i].position == it->data_pos)
				it->chunk = (int32_t)i;
	}
}

/* Where the RPC call header of the inline part alone ends (it never holds chunk data), or 0. */
static size_t inline_rpc_header_end(const struct rr_call *call, const struct call_payload *cp)
{
	struct rr_cursor cur;
	struct rr_rpc_call rc;

	if (call->hdr->proc == RR_RDMA_NOMSG)
		rr_cursor_init(&cur, mb_data(&cp->inl), cp->inl.b->len);
	else
		rr_cursor_init(&cur, call->inline_buf, call->inline_len);
	return rr_rpc_decode_call(&cur, &rc) ? cur.pos : 0;
}

/*
 * Does Position pos split an XDR item of the arguments?  The stream before
 * pos is what the requester sent inline (and earlier chunks): walked alone,
 * it runs out inside an item that started before pos (its start in *start),
 * whatever the chunk holds, captured or not.  Only a known program's walk
 * that ran out of bytes says so.  A walk stopping at the word just before
 * pos may have stopped at a counted item's length word, whose data is
 * where a chunk belongs (RFC 8166 §3.4.4.1): not a split, whether or not
 * that item is eligible (RR-141 and kin tell).
 */
static bool splits_item(const struct rr_message *m, uint32_t pos, size_t *start)
{
	struct rr_cursor cur;
	struct rr_rpc_call rc;
	struct rr_ulp_info u;

	if (pos > m->payload_len)
		return false;
	rr_cursor_init(&cur, m->payload, pos);
	if (!rr_rpc_decode_call(&cur, &rc) ||
	    rr_ulp_walk_call(&rc, &cur, NULL, NULL, &u) != RR_ULP_MALFORMED || cur.pos + 4 >= pos)
		return false;
	/* Arguments wrapped by RPCSEC_GSS integrity or privacy are one opaque body: RR-152's. */
	if (u.is_gss && (u.gss_service == 2 || u.gss_service == 3))
		return false;
	*start = cur.pos;
	return true;
}

/*
 * A read chunk whose Position is not an XDR item boundary of the call
 * (RFC 8166 §3.4.5, §4.3.1.1): inside the RPC call header, which is never
 * reduced, or inside an argument; or, every byte captured, the rebuilt
 * call stops decoding at or after the chunk.  A break before every chunk is
 * the arguments' own (ENG-ULP).
 */
static void judge_call_placement(const struct rr_call *call, const struct call_payload *cp, struct rr_message *m)
{
	const struct rr_hdr *hdr = call->hdr;
	size_t hdr_end = 0, start;
	bool have_hdr_end = false;
	int late = -1;
	uint32_t i;

	if (m->capture_loss || m->has_bad_position || !m->payload_len)
		return;
	for (i = 0; i < hdr->n_reads; i++) {
		uint32_t p = hdr->reads[i].position;

		if (!p || (i && hdr->reads[i - 1].position == p))
			continue;
		/* Decoded once, for the first chunk with a Position: most calls have none. */
		if (!have_hdr_end) {
			hdr_end = inline_rpc_header_end(call, cp);
			have_hdr_end = true;
		}
		if ((hdr_end && p < hdr_end) || (m->has_rpc && splits_item(m, p, &start))) {
			m->placement_broken = true;
			m->placement_in_rpc_header = hdr_end && p < hdr_end;
			m->placement_splits = !m->placement_in_rpc_header;
			m->placement_chunk = (int)i;
			m->placement_pos = p;
			m->placement_item = m->placement_in_rpc_header ? hdr_end : start;
			/* What a walk made of the rebuilt stream is not the requester's call. */
			m->has_rpc = m->has_rpc && !m->placement_in_rpc_header;
			m->has_ulp = m->has_ulp && m->has_rpc;
			if (m->has_ulp)
				m->ulp_result = RR_ULP_MALFORMED;
			m->n_items = 0;
			return;
		}
		if (p <= m->decode_stop && (late < 0 || p > hdr->reads[late].position))
			late = (int)i;
	}
	if (late < 0 || !m->complete || (m->has_rpc && m->ulp_result != RR_ULP_MALFORMED))
		return;
	m->placement_broken = true;
	m->placement_chunk = late;
	m->placement_pos = hdr->reads[late].position;
	m->placement_item = m->decode_stop;
}

static void deliver_call(struct rr_engine *eng, struct rr_call *call)
{
	const struct rr_hdr *hdr = call->hdr;
	struct call_payload cp;
	GArray *frames, *items;
	GArray *seg_bytes, *seg_frames;
	struct rr_message m;
	uint32_t i;

	rebuild_call_payload(eng, call, &cp);
	frames = rr_scratch_take(&eng->scratch, sizeof(uint64_t));
	for (i = 0; i < call->frames->len; i++)
		rr_frames_add(frames, g_array_index(call->frames, uint64_t, i));
	rr_call_collect_frames(frames, call, true);

	rr_record_init(&m, eng, call->flow, hdr, RR_DIR_CALL, call->first_frame,
		       hdr->hdr_len + call->inline_len);
	m.ts_usec = call->ts_usec;
	m.payload = mb_data(&cp.full);
	m.payload_len = cp.full.b->len;
	m.payload_whole = mb_whole(&cp.full);
	m.complete = cp.complete;
	/* Lost by the capture: cut frames, or bytes the responder asked for that never showed. */
	m.capture_loss = call->send_truncated;
	m.frames = (const uint64_t *)(void *)frames->data;
	m.n_frames = frames->len;
	m.has_bad_position = cp.bad_position;
	m.bad_position = cp.bad_pos;
	m.bad_position_overlaps = cp.bad_overlaps;
	describe_read_segments(eng, call, &m, &seg_bytes, &seg_frames);
	items = rr_scratch_take(&eng->scratch, sizeof(struct rr_ddp_place));
	rr_record_describe(&m, NULL, items);
	judge_call_placement(call, &cp, &m);
	assign_read_chunks(items, hdr);
	if (m.has_rpc) {
		rr_conn_note_call(eng, call->flow, m.call.prog);
		m.conn_name = rr_conn_name(call->flow->conn);
		rr_conn_info_fill(eng, call->flow->conn, &m.conn);
	}
	m.backchannel = call->flow->conn->requester >= 0 && call->flow->side != call->flow->conn->requester;
	rr_call_delivered(call, m.backchannel, m.has_ulp, m.capture_loss, &m.ulp);
	rr_record_emit(eng, &m);

	rr_scratch_give(&eng->scratch, items);
	rr_scratch_give(&eng->scratch, seg_bytes);
	rr_scratch_give(&eng->scratch, seg_frames);
	rr_scratch_give(&eng->scratch, frames);
	mb_free(&cp.full, eng);
	mb_free(&cp.inl, eng);
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
	guint i;
	bool lost = false;

	if (call->delivered)
		return;
	/* Bytes the responder asked for and the capture never showed; not those it never asked for. */
	for (i = 0; i < call->segs->len; i++) {
		const struct rr_seg *sg = g_ptr_array_index(call->segs, i);

		lost |= sg->role == RR_SEG_READ && rr_seg_covered(sg) < sg->s.length &&
			(rr_seg_requested(sg) > rr_seg_covered(sg) || rr_seg_cut(sg));
	}
	if (lost)
		rr_diag_report(&eng->diag, ENG_INCOMPLETE, call->first_frame,
			       "call XID 0x%08x on %s: read chunk data is missing from the capture",
			       call->xid, rr_conn_name(call->flow->conn));
	deliver_call(eng, call);
}




static void start_call(struct rr_engine *eng, struct rr_flow *f, const struct rr_hdr *hdr,
		       const struct rr_send_done *d)
{
	struct rr_call *call, *old;

	/* A second call with an outstanding XID (RR-004, the check stage's): the older one goes. */
	old = rr_call_find(f, hdr->xid);
	if (old) {
		rr_call_flush(eng, old);
		rr_call_drop(eng, old);
	}
	if (rr_call_count(f) >= eng->lim.max_calls_per_flow) {
		/* The oldest outstanding call is the one whose reply was most likely lost. */
		struct rr_call *oldest = rr_call_oldest(f);

		rr_diag_report(&eng->diag, ENG_LIMIT, d->frames[0],
			       "more than %u outstanding calls on %s: the oldest, XID 0x%08x (frame %" G_GUINT64_FORMAT "), is dropped",
			       eng->lim.max_calls_per_flow, rr_conn_name(f->conn), oldest->xid,
			       oldest->first_frame);
		rr_call_flush(eng, oldest);
		rr_call_drop(eng, oldest);
	}
	call = rr_call_new(eng, f, hdr, d);
	if (call)
		rr_call_try_complete(eng, call);
}

/* Which of a Send's messages is a call; for refused headers, a guess from the roles. */
static bool classify_call(const struct rr_flow *f, const struct rr_hdr *hdr, enum rr_hdr_status st,
			  enum verdict v, const struct peek *pk)
{
	uint32_t i;

	if (v == REJECTED) {
		struct rr_flow *peer = rr_flow_proved_peer(f);

		/* Another version's fixed fields still decode (xid and proc keep
		 * their place in every version): its RDMA_ERROR answers, whoever
		 * sends it, and so does one of this version that answers a call
		 * the peer has outstanding. */
		if (hdr->proc == RR_RDMA_ERROR &&
		    (st == RR_HDR_E_NOT_V1 || (peer && rr_flow_has_call(peer, GUINT_TO_POINTER(hdr->xid)))))
			return false;
		/* Another version hides the RPC msg_type: the XID tells a reply to a
		 * call the peer has outstanding from a call of either side. */
		if (st == RR_HDR_E_NOT_V1 && peer && f->conn->requester >= 0)
			return !rr_flow_has_call(peer, GUINT_TO_POINTER(hdr->xid));
		if (f->conn->requester >= 0)
			return f->side == f->conn->requester;
		return !(pk->words && pk->msg_type == RR_RPC_REPLY);
	}
	switch (hdr->proc) {
	case RR_RDMA_NOMSG:
		for (i = 0; i < hdr->n_reads; i++)
			if (hdr->reads[i].position == 0)
				return true;
		if (hdr->has_reply)
			return false;
		/* No chunk at all (RR-021): a reply if it answers a call the peer
		 * has outstanding (the client answering a backward call too), else
		 * a call of its sender, forward or backward. */
		{
			struct rr_flow *peer = rr_flow_proved_peer(f);

			if (peer && rr_flow_has_call(peer, GUINT_TO_POINTER(hdr->xid)))
				return false;
			return true;
		}
	case RR_RDMA_DONE:
		return true;
	case RR_RDMA_ERROR:
		return false;
	default:
		return pk->msg_type == RR_RPC_CALL;
	}
}

/* Every Send judged RPC-over-RDMA goes to the check stage in wire order. */
static void send_fact(struct rr_engine *eng, struct rr_flow *f, const struct rr_send_done *d,
		      const struct rr_hdr *hdr, enum rr_hdr_status st, bool is_call, const struct peek *pk,
		      bool rejected)
{
	struct rr_fact_send s = { 0 };
	struct rr_fact fact = { .kind = RR_FACT_SEND, .send = &s };

	s.conn_id = rr_conn_id(eng, f->conn);
	s.roles_known = f->conn->requester >= 0;
	s.from_requester = rr_flow_is_requester(f);
	s.hdr = hdr;
	s.status = st;
	s.is_call = is_call;
	s.rejected = rejected;
	s.frame = d->frames[0];
	s.frames = d->frames;
	s.n_frames = d->n_frames;
	s.data = d->data;
	s.len = d->len;
	s.truncated = d->truncated;
	s.captured = d->captured;
	s.has_rpc = pk->is_rpc;
	s.rpc_xid = pk->xid;
	s.rpc_msg_type = pk->words ? pk->msg_type : 0;
	rr_conn_info_fill(eng, f->conn, &s.conn);
	/* Numbered only when the check stage keeps its handles: most Sends advertise none. */
	if (st == RR_HDR_OK && is_call && (hdr->n_reads || hdr->n_wsegs))
		s.sender_host = rr_flow_host(eng, f, false);
	rr_checker_fact(eng->checker, &fact);
	if (eng->send_fn) {
		struct rr_send_report r = {
			.frame = s.frame, .frames = s.frames, .n_frames = s.n_frames,
			.conn_id = s.conn_id, .hdr = hdr, .status = st, .is_call = is_call,
			.rejected = rejected, .data = s.data, .len = s.len, .captured = s.captured,
			.outstanding = is_call ? rr_checker_last_outstanding(eng->checker) : 0,
		};

		eng->send_fn(eng->send_ctx, &r);
	}
}

/* The header of the Send being judged: one buffer, as a Send is judged to the end before the next. */
static struct rr_hdr *send_hdr(struct rr_engine *eng)
{
	if (!eng->send_hdr)
		eng->send_hdr = g_new(struct rr_hdr, 1);
	return eng->send_hdr;
}

void rr_rebuild_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_send_done *d)
{
	struct rr_hdr *hdr = send_hdr(eng);
	/* Only captured bytes are evidence: what the snaplen cut is not zeros. */
	enum rr_hdr_status st = rr_hdr_decode(d->data, d->captured, hdr);
	struct peek pk;
	enum verdict v = judge(eng, f, d->data, d->captured, st, hdr, d->frames[0], &pk);
	bool is_call;
	struct rr_flow *peer;
	struct rr_call *call = NULL;

	/* A header cut short hides chunks and XIDs later messages depend on. */
	if (d->truncated && (st != RR_HDR_OK || d->captured < hdr->hdr_len + RR_RPC_HEAD_LEN))
		rr_conn_mark_cut(f->conn);

	if (v == NOT_RPCRDMA) {
		eng->stats.not_rpcrdma++;
		return;
	}
	if (v == ACCEPTED)
		rr_conn_mark_rpcrdma(f->conn);
	is_call = classify_call(f, hdr, st, v, &pk);
	if (v == ACCEPTED && is_call && hdr->proc != RR_RDMA_DONE && f->conn->requester < 0) {
		/* Learn the roles now, so the check stage counts this Send in the right direction. */
		uint32_t prog = RR_NFS_PROGRAM;

		if (rr_hdr_proc_has_payload(hdr->proc) && d->len >= hdr->hdr_len + 16) {
			const uint8_t *p = d->data + hdr->hdr_len + 12;

			prog = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		}
		rr_conn_note_call(eng, f, prog);
	}
	send_fact(eng, f, d, hdr, st, is_call, &pk, v == REJECTED);
	if (v == REJECTED || (hdr->proc == RR_RDMA_NOMSG && !is_call && !hdr->has_reply)) {
		return;
	}
	if (is_call && hdr->proc != RR_RDMA_DONE) {
		start_call(eng, f, hdr, d);
		return;
	}
	if (hdr->proc == RR_RDMA_DONE) {
		struct rr_message m;

		rr_record_init(&m, eng, f, hdr, RR_DIR_CALL, d->frames[0], d->len);
		m.frames = d->frames;
		m.n_frames = d->n_frames;
		rr_record_emit(eng, &m);
		return;
	}

	peer = rr_conn_pair_by_evidence(eng, f, rr_flow_has_call, GUINT_TO_POINTER(hdr->xid));
	if (peer)
		call = rr_call_find(peer, hdr->xid);
	if (call && !call->delivered)
		rr_call_flush(eng, call);
	rr_rebuild_reply(eng, f, hdr, d, call);
	if (call)
		rr_call_drop(eng, call);
}

/* The connection went away: deliver what its calls have, then drop them. */
void rr_rebuild_flow_reset(struct rr_engine *eng, struct rr_flow *f)
{
	GPtrArray *calls = rr_call_take_all(f);
	guint i;

	for (i = 0; i < calls->len; i++) {
		rr_call_flush(eng, g_ptr_array_index(calls, i));
		rr_call_free(eng, g_ptr_array_index(calls, i));
	}
	g_ptr_array_unref(calls);
}
