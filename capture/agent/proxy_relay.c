// SPDX-License-Identifier: GPL-2.0-or-later
/* One relayed message: a forward call, its reply, a backward message (proxy.h). */
#include "proxy.h"

#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/engine.h>
#include <rpcrdma/rpc.h>

#include "payload.h"
#include "pg_rpcrdma.h"
#include "pg_splice.h"
#include "proxy_map.h"

/* RDMA Read size toward the client: as serve.c (rxe pipelines pieces, siw does not). */
#define PX_PULL_PIECE (64u << 10)

/* One line of a leg's manifest (serve.c's record, for either leg). */
static void record(struct px_leg *leg, const uint8_t *wire, size_t len, bool reply,
		   const GByteArray *payload, bool rebuilt, uint64_t inl, uint64_t rdma)
{
	struct mf_rpc m;
	struct rr_hdr h;

	if (!leg->run.mf)
		return;
	memset(&m, 0, sizeof(m));
	rr_hdr_decode(wire, len, &h);
	agent_mf_from_hdr(&m, &h);
	m.xid = h.xid;
	m.reply = reply;
	m.rebuilt = rebuilt;
	m.len = payload ? payload->len : 0;
	rr_sha256_hex(payload ? payload->data : (const uint8_t *)"", m.len, m.sha256);
	m.inline_bytes = inl;
	m.rdma_bytes = rdma;
	mf_write_rpc(leg->run.mf, &m);
}

static bool send_wire(struct proxy *p, struct px_leg *leg, const GByteArray *wire)
{
	if (agent_send(&leg->run, leg->conn, wire))
		return true;
	p->broken = true;
	return false;
}

static void buf_free(struct px_buf *b)
{
	vb_dereg(&b->on_cl);
	vb_dereg(&b->on_sv);
	g_free(b->data);
	memset(b, 0, sizeof(*b));
}

/* len bytes registered on both legs: the server may write (remote_write) or read them. */
static bool buf_new(struct proxy *p, struct px_buf *b, uint64_t len, bool remote_write)
{
	memset(b, 0, sizeof(*b));
	if (len > PG_MAX_PAYLOAD * 2ull)
		return false;
	b->len = (size_t)len;
	b->data = g_malloc0(b->len ? b->len : 1);
	if (vb_reg_buf(p->cl.conn, &b->on_cl, b->data, b->len, false, false) &&
	    vb_reg_buf(p->sv.conn, &b->on_sv, b->data, b->len, remote_write, !remote_write))
		return true;
	buf_free(b);
	return false;
}

void px_call_free(gpointer call)
{
	struct px_call *c = call;

	for (unsigned i = 0; i < c->n_rd; i++)
		buf_free(&c->rd[i]);
	for (unsigned i = 0; i < c->n_wr; i++)
		buf_free(&c->wr[i]);
	buf_free(&c->rp);
	if (c->payload)
		g_byte_array_free(c->payload, TRUE);
	if (c->wire)
		g_byte_array_free(c->wire, TRUE);
	px_broken_free(c->broken);
	g_free(c);
}

/* An RDMA_ERROR of version 1 toward a leg (err: RR_ERR_VERS or RR_ERR_CHUNK). */
static void send_error(struct proxy *p, struct px_leg *leg, uint32_t xid, uint32_t err,
		       uint32_t credit)
{
	pg_rdmamsg m;

	pg_rdmamsg_simple(&m, xid, RDMA_ERROR, credit);
	m.err = err;
	m.low = m.high = 1;
	pg_rdmamsg_encode(&m);
	if (send_wire(p, leg, m.wire))
		record(leg, m.wire->data, m.wire->len, true, NULL, true, 0, 0);
	pg_rdmamsg_clear(&m);
	p->n_errors++;
}

/* The client's read chunks pulled into buffers the server may read; their Payload spliced. */
static bool pull_reads(struct proxy *p, struct px_call *c, const struct vb_msg *msg)
{
	struct px_rchunk rc[PX_MAX_READ_CHUNKS];
	pg_splice_chunk sp[PX_MAX_READ_CHUNKS];
	bool ok, siw = !strcmp(p->cl.run.info.transport, "siw");
	const struct rr_hdr *h = &c->ch;
	unsigned n = px_read_chunks(h, rc, PX_MAX_READ_CHUNKS, &ok);
	char err[512];

	if (!ok) {
		agent_mf_event(&p->cl.run, "too-many-chunks", h->xid, "more than %u read chunks",
			       PX_MAX_READ_CHUNKS);
		return false;
	}
	for (unsigned i = 0; i < n; i++) {
		struct px_buf *b = &c->rd[c->n_rd];
		uint64_t off = 0;
		if (!buf_new(p, b, rc[i].length, false)) {
			agent_mf_event(&p->cl.run, "no-memory", h->xid, "cannot register a read chunk "
				       "of %llu bytes", (unsigned long long)rc[i].length);
			return false;
		}
		c->n_rd++;
		for (uint32_t k = rc[i].first; k < rc[i].first + rc[i].count; k++) {
			const struct rr_segment *s = &h->reads[k].seg;
			int st;
			if (s->length && !vb_rdma_split(p->cl.conn, false, &b->on_cl, (size_t)off, s->length,
							s->handle, s->offset, siw ? 0 : PX_PULL_PIECE, &st,
							err, sizeof(err))) {
				agent_mf_event(&p->cl.run, "rdma-read-failed", h->xid, "%s", err);
				p->broken = true;
				return false;
			}
			off += s->length;
		}
		c->rdma_bytes += rc[i].length;
		sp[i] = (pg_splice_chunk){ rc[i].position, b->data, (uint32_t)b->len };
	}
	/* the Payload, as the engine rebuilds it: a Long Call's Position-Zero chunk is the message */
	c->payload = g_byte_array_new();
	if (h->proc == RR_RDMA_NOMSG) {
		if (!n || sp[0].position)
			return false;
		ok = pg_splice_call(sp[0].data, sp[0].len, sp + 1, n - 1, c->payload, err, sizeof(err));
	} else {
		c->inline_bytes = msg->len - h->hdr_len;
		ok = pg_splice_call(msg->data + h->hdr_len, msg->len - h->hdr_len, sp, n, c->payload, err,
				    sizeof(err));
	}
	if (!ok)
		agent_mf_event(&p->cl.run, "bad-call", h->xid, "%s", err);
	return ok;
}

/* The call toward the server: the proxy's own chunks, one segment each, the client's sizes. */
static bool build_call(struct proxy *p, struct px_call *c, const struct vb_msg *msg)
{
	const struct rr_hdr *h = &c->ch;
	GPtrArray *own = px_chunks_new();
	struct px_rchunk rc[PX_MAX_READ_CHUNKS];
	pg_rdmamsg m;
	bool ok = true;

	pg_rdmamsg_simple(&m, h->xid, h->proc, p->cl.run.credits);
	px_read_chunks(h, rc, PX_MAX_READ_CHUNKS, &ok);
	for (unsigned i = 0; i < c->n_rd; i++) {
		g_ptr_array_add(own, px_offer(rc[i].position, c->rd[i].on_sv.mr->rkey, (uint32_t)c->rd[i].len,
					      (uint64_t)(uintptr_t)c->rd[i].data));
		g_ptr_array_add(m.reads, own->pdata[own->len - 1]);
	}
	for (uint32_t k = 0; k < h->n_write_chunks && ok; k++) {
		ok = buf_new(p, &c->wr[k], rr_chunk_length(h, &h->writes[k]), true);
		if (!ok)
			break;
		c->n_wr++;
		g_ptr_array_add(own, px_offer(0, c->wr[k].on_sv.mr->rkey, (uint32_t)c->wr[k].len,
					      (uint64_t)(uintptr_t)c->wr[k].data));
		g_ptr_array_add(m.writes, own->pdata[own->len - 1]);
	}
	if (ok && h->has_reply) {
		ok = buf_new(p, &c->rp, rr_chunk_length(h, &h->reply), true);
		if (ok)
			m.reply = px_offer(0, c->rp.on_sv.mr->rkey, (uint32_t)c->rp.len,
					   (uint64_t)(uintptr_t)c->rp.data);
		if (ok)
			g_ptr_array_add(own, m.reply);
	}
	if (h->proc == RR_RDMA_MSG)
		g_byte_array_append(m.inline_payload, msg->data + h->hdr_len, msg->len - (guint)h->hdr_len);
	pg_rdmamsg_encode(&m);
	c->wire = g_byte_array_new();
	g_byte_array_append(c->wire, m.wire->data, m.wire->len);
	if (c->wire->len > p->sv.peer_inline)
		agent_mf_event(&p->sv.run, "inline-exceeded", h->xid, "a %u-byte call; the server "
			       "receives %u bytes inline", c->wire->len, p->sv.peer_inline);
	c->sv_xid = c->xid;
	/* --inject-server: the broken twin, from the message the clean Send was encoded from */
	if (ok && p->sv.run.inj.n)
		c->broken = px_sinj_break(&p->sinj, &p->sv.run.inj, h->xid, c->payload,
					  c->info_ok ? &c->info : NULL, &m);
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
	return ok;
}

static void forward_call(struct proxy *p, const struct vb_msg *msg, const struct rr_hdr *h)
{
	struct px_call *c = g_new0(struct px_call, 1);
	struct rr_rpc_call rc;

	c->xid = h->xid;
	c->ch = *h;
	p->n_calls++;
	px_inj_call(&p->inj, &p->cl.run, h->xid);
	if (!pull_reads(p, c, msg)) {
		record(&p->cl, msg->data, msg->len, false, NULL, false, 0, 0);
		if (!p->broken)
			send_error(p, &p->cl, h->xid, RR_ERR_CHUNK, p->cl.run.credits);
		px_call_free(c);
		return;
	}
	record(&p->cl, msg->data, msg->len, false, c->payload, true, c->inline_bytes, c->rdma_bytes);
	c->info_ok = pl_describe_call(c->payload->data, c->payload->len, &rc, &c->info);
	if (!build_call(p, c, msg)) {
		agent_mf_event(&p->cl.run, "no-memory", h->xid, "cannot register the write or reply "
			       "chunks offered");
		send_error(p, &p->cl, h->xid, RR_ERR_CHUNK, p->cl.run.credits);
		px_call_free(c);
		return;
	}
	if (g_hash_table_contains(p->calls, GUINT_TO_POINTER(c->xid)))
		agent_mf_event(&p->cl.run, "xid-reused", c->xid, "a call with the XID of one outstanding");
	g_queue_push_tail(p->waiting, c);
	px_pump(p);
}

/* A broken call, alone at the server: its rpc and inject lines; its reaction is awaited. */
static void send_broken(struct proxy *p, struct px_call *c)
{
	struct px_broken *b = c->broken;

	b->t0 = g_get_monotonic_time();
	p->pending = c;
	if (!send_wire(p, &p->sv, b->wire)) {
		/* a Send that failed never reached the wire: the connection is gone */
		px_pending_gone(p);
		return;
	}
	record(&p->sv, b->wire->data, b->wire->len, false, c->payload, b->rebuilt,
	       c->ch.proc == RR_RDMA_MSG ? c->inline_bytes : 0, c->rdma_bytes);
	req_inj_record(&p->sv.run, &b->ri, b->xid);
}

void px_pump(struct proxy *p)
{
	uint32_t limit = MIN(p->server_grant, p->cl.run.credits);

	while (!p->broken && !p->pending && !g_queue_is_empty(p->waiting) &&
	       g_hash_table_size(p->calls) < MAX(limit, 1u)) {
		struct px_call *c = g_queue_peek_head(p->waiting);
		/* a broken call goes alone, so that what the server does next is its reaction */
		if (c->broken && g_hash_table_size(p->calls))
			return;
		g_queue_pop_head(p->waiting);
		if (c->broken) {
			send_broken(p, c);
			return;
		}
		if (!send_wire(p, &p->sv, c->wire)) {
			px_call_free(c);
			return;
		}
		record(&p->sv, c->wire->data, c->wire->len, false, c->payload, true,
		       c->ch.proc == RR_RDMA_MSG ? c->inline_bytes : 0, c->rdma_bytes);
		/* a later call with this XID replaces the entry: the server answers the last */
		g_hash_table_replace(p->calls, GUINT_TO_POINTER(c->sv_xid), c);
	}
}

/* The pending broken call again, unbroken, under a fresh XID (its RPC message's too). */
static void resend_clean(struct proxy *p, struct px_call *c)
{
	uint32_t old = c->sv_xid;

	px_broken_free(c->broken);
	c->broken = NULL;
	c->sv_xid = px_sinj_fresh_xid(&p->sinj, p->calls, c->xid);
	/* a Long Call's RPC message is its Position-Zero chunk, the first pulled (pull_reads) */
	px_sinj_rexid(c->wire, c->ch.proc == RR_RDMA_NOMSG && c->n_rd ? c->rd[0].data : NULL,
		      c->ch.proc == RR_RDMA_NOMSG && c->n_rd ? c->rd[0].len : 0, c->payload, c->sv_xid);
	agent_mf_event(&p->sv.run, "resent", c->sv_xid, "the client's call 0x%08x again, unbroken "
		       "(the broken one was 0x%08x)", c->xid, old);
	g_queue_push_head(p->waiting, c);
}

void px_pending_silence(struct proxy *p)
{
	struct px_call *c = p->pending;

	if (!c)
		return;
	p->pending = NULL;
	agent_mf_event(&p->sv.run, "timeout", c->broken->xid, "no answer to the broken call");
	px_sinj_react(&p->sv.run, c->broken, JD_TIMEOUT, 0);
	resend_clean(p, c);
	px_pump(p);
}

void px_pending_gone(struct proxy *p)
{
	struct px_call *c = p->pending;

	if (!c)
		return;
	p->pending = NULL;
	px_sinj_react(&p->sv.run, c->broken, JD_DISCONNECT, 0);
	/* the server leg is gone: the client's retransmission after its reconnect is the retry */
	px_call_free(c);
}

/* n bytes of src (registered on the client leg at off) into the client's chunk wc, in order. */
static bool push(struct proxy *p, uint32_t xid, const struct rr_hdr *h, const struct rr_write_chunk *wc,
		 struct vb_mr *src, size_t off, uint64_t n)
{
	char err[512];

	for (uint32_t j = 0; j < wc->count && n; j++) {
		const struct rr_segment *s = rr_hdr_wseg(h, wc, j);
		uint32_t k = (uint32_t)MIN((uint64_t)s->length, n);
		int st;
		if (k && !vb_rdma(p->cl.conn, true, src, off, k, s->handle, s->offset, &st, err, sizeof(err))) {
			agent_mf_event(&p->cl.run, "rdma-write-failed", xid, "%s", err);
			p->broken = true;
			return false;
		}
		off += k;
		n -= k;
	}
	return n == 0;
}

/* The reply's Payload (engine.h's), for both manifests: inline or Reply chunk, results in place. */
static GByteArray *reply_payload(struct proxy *p, const struct px_call *c, const uint8_t *base,
				 size_t base_len, const uint64_t *wused)
{
	struct pl_chunk w[RR_HDR_MAX_WRITE_CHUNKS];
	GByteArray *out = g_byte_array_new();
	char err[256];

	for (unsigned k = 0; k < c->n_wr; k++)
		w[k] = (struct pl_chunk){ c->wr[k].data, (uint32_t)wused[k] };
	if (!pl_reply(c->info_ok ? &c->info : NULL, base, base_len, w, c->n_wr, out, err, sizeof(err)))
		agent_mf_event(&p->sv.run, "bad-reply", c->xid, "%s", err);
	return out;
}

/* The bytes the Reply chunk returns: what the requester takes its reply from. */
static uint64_t returned_len(const pg_chunk *c)
{
	uint64_t n = 0;

	for (guint i = 0; c && c->ret && i < c->ret->len; i++)
		n += g_array_index(c->ret, pg_seg, i).length;
	return n;
}

/* The reply toward the client: inline when it fits, else in the client's Reply chunk. */
static void answer_client(struct proxy *p, struct px_call *c, const uint8_t *base, size_t base_len,
			  const uint64_t *wused, const GByteArray *payload, uint64_t pushed)
{
	const struct rr_hdr *h = &c->ch;
	GPtrArray *own = px_chunks_new();
	GByteArray *cut = NULL;
	uint64_t rused = 0;
	pg_rdmamsg m;

	pg_rdmamsg_simple(&m, h->xid, RDMA_MSG, p->cl.run.credits);
	if (base_len + px_reply_hdr_len(h) > p->cl.peer_inline &&
	    !px_inj_agent(&p->inj, &p->cl.run, "oversize-send")) {
		struct vb_mr tmp;
		bool ok;
		if (!h->has_reply || base_len > rr_chunk_length(h, &h->reply)) {
			agent_mf_event(&p->cl.run, "no-reply-chunk", h->xid, "a %zu-byte reply does not fit "
				       "%u bytes inline nor the reply chunk offered", base_len, p->cl.peer_inline);
			send_error(p, &p->cl, h->xid, RR_ERR_CHUNK, p->cl.run.credits);
			goto out;
		}
		if (!vb_reg(p->cl.conn, &tmp, base_len, false, false)) {
			p->broken = true;
			goto out;
		}
		memcpy(tmp.buf, base, base_len);
		ok = push(p, h->xid, h, &h->reply, &tmp, 0, base_len);
		vb_dereg(&tmp);
		if (!ok)
			goto out;
		m.proc = RDMA_NOMSG;
		rused = base_len;
		pushed += base_len;
	} else {
		g_byte_array_append(m.inline_payload, base, (guint)base_len);
	}
	px_returned_chunks(&m, h, wused, rused, own);
	px_inj_header(&p->inj, &p->cl.run, &m);
	/* a Reply chunk returned shorter than what was written into it (reply-chunk-cut):
	 * the client rebuilds the reply from the returned length, and so does the engine */
	if (m.proc == RDMA_NOMSG && returned_len(m.reply) < rused)
		payload = cut = reply_payload(p, c, base, returned_len(m.reply), wused);
	pg_rdmamsg_encode(&m);
	px_inj_wire(&p->inj, &p->cl.run, &m);
	if (send_wire(p, &p->cl, m.wire)) {
		record(&p->cl, m.wire->data, m.wire->len, true, payload, px_inj_conveys(&p->inj, &p->cl.run, &m),
		       m.inline_payload->len, pushed);
		px_inj_sent(&p->inj, &p->cl.run, &m);
	} else if (px_inj_failed_send(&p->inj)) {
		/* a broken reply whose Send failed (oversize-send: the client's RNIC refused it, or
		 * it was flushed behind an earlier error): it may be on the wire or not, which the
		 * capture tells; the inject line says sent=failed, the rpc line rebuilt=no */
		record(&p->cl, m.wire->data, m.wire->len, true, payload, false, m.inline_payload->len, pushed);
		px_inj_sent(&p->inj, &p->cl.run, &m);
	}
	p->n_replies++;
out:
	if (cut)
		g_byte_array_free(cut, TRUE);
	px_inj_end(&p->inj);
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
}

/* After the reply to c: the backward calls --inject makes the proxy send now (proxy_back.h). */
static void send_backward(struct proxy *p, const struct px_call *c, const GByteArray *reply)
{
	const struct rr_ulp_info *info = c->info_ok ? &c->info : NULL;
	const GByteArray *wires[PXB_MAX_CALLS];
	unsigned n, sent = 0;

	px_back_replied(&p->back, info, reply->data, reply->len);
	n = px_back_due(&p->back, &p->cl.run, p->inj.replies, c->xid, info, p->cl.peer_inline);
	if (!n)
		return;
	/* one burst, so that the calls are all outstanding at once on the wire (a client
	 * answering the first before the last went would see no more than its grant) */
	for (unsigned i = 0; i < n; i++)
		wires[i] = p->back.calls[i].wire;
	if (agent_send_batch(&p->cl.run, p->cl.conn, wires, n))
		sent = n;
	else
		p->broken = true;
	for (unsigned i = 0; i < sent; i++) {
		const struct px_back_call *bc = &p->back.calls[i];
		record(&p->cl, bc->wire->data, bc->wire->len, false, bc->payload, bc->rebuilt,
		       bc->rebuilt ? bc->payload->len : 0, 0);
		p->n_back++;
	}
	px_back_sent(&p->back, &p->cl.run, sent);
}

/* The client's answer to a backward call of the proxy's own: recorded, taken, not relayed. */
static bool backward_answer(struct proxy *p, const struct vb_msg *msg, const struct rr_hdr *h,
			    enum rr_hdr_status st)
{
	GByteArray *payload = NULL;
	bool inl = st == RR_HDR_OK && h->proc == RR_RDMA_MSG;

	if (!px_back_owns(&p->back, msg->data, msg->len))
		return false;
	if (inl) {
		payload = g_byte_array_new();
		g_byte_array_append(payload, msg->data + h->hdr_len, msg->len - (guint)h->hdr_len);
	}
	/* an RDMA_ERROR conveys no RPC message; a Long Reply's is in our Reply chunk */
	record(&p->cl, msg->data, msg->len, true, payload, inl || h->proc == RR_RDMA_ERROR,
	       payload ? payload->len : 0, 0);
	p->n_back++;
	px_back_answer(&p->back, &p->cl.run, msg->data, msg->len);
	if (payload)
		g_byte_array_free(payload, TRUE);
	return true;
}

static void forward_reply(struct proxy *p, const struct vb_msg *msg, const struct rr_hdr *sh)
{
	struct px_call *c = g_hash_table_lookup(p->calls, GUINT_TO_POINTER(sh->xid));
	uint64_t wused[RR_HDR_MAX_WRITE_CHUNKS] = { 0 }, pushed = 0, rused;
	const uint8_t *base;
	size_t base_len;
	GByteArray *payload, *planned, *fixed = NULL;

	if (!c) {
		record(&p->sv, msg->data, msg->len, true, NULL, false, 0, 0);
		agent_mf_event(&p->sv.run, "unknown-xid", sh->xid, "a reply to no outstanding call; dropped");
		return;
	}
	g_hash_table_steal(p->calls, GUINT_TO_POINTER(sh->xid));
	p->server_grant = sh->credit;
	if (sh->proc == RR_RDMA_ERROR) {
		record(&p->sv, msg->data, msg->len, true, NULL, true, 0, 0);
		agent_mf_event(&p->sv.run, "err-chunk", sh->xid, "RDMA_ERROR %u from the server; relayed",
			       sh->err);
		send_error(p, &p->cl, sh->xid, sh->err, p->cl.run.credits);
		goto out;
	}
	for (unsigned k = 0; k < c->n_wr; k++) {
		wused[k] = px_returned(sh, k);
		if (wused[k] > c->wr[k].len || !push(p, c->xid, &c->ch, &c->ch.writes[k], &c->wr[k].on_cl, 0,
						     wused[k])) {
			agent_mf_event(&p->sv.run, "chunk-overrun", c->xid, "write chunk %u: %llu bytes "
				       "returned", k, (unsigned long long)wused[k]);
			if (!p->broken)
				send_error(p, &p->cl, c->xid, RR_ERR_CHUNK, p->cl.run.credits);
			goto out;
		}
		pushed += wused[k];
	}
	rused = px_returned_reply(sh);
	if (sh->proc == RR_RDMA_NOMSG && rused <= c->rp.len) {
		base = c->rp.data;
		base_len = (size_t)rused;
	} else {
		base = msg->data + sh->hdr_len;
		base_len = msg->len - sh->hdr_len;
	}
	payload = reply_payload(p, c, base, base_len, wused);
	record(&p->sv, msg->data, msg->len, true, payload, true,
	       sh->proc == RR_RDMA_MSG ? base_len : 0, pushed + (sh->proc == RR_RDMA_NOMSG ? rused : 0));
	/* a call resent under a fresh XID: the client's XID back into the reply */
	if (c->sv_xid != c->xid && base_len >= 4) {
		fixed = g_byte_array_new_take(g_memdup2(base, base_len), base_len);
		px_put_xid(fixed->data, c->xid);
		base = fixed->data;
		g_byte_array_free(payload, TRUE);
		payload = reply_payload(p, c, base, base_len, wused);
	}
	/* --inject: the reply's RPC message as the client gets it (answer_client ends it) */
	px_inj_begin(&p->inj, &p->cl.run, c->xid, c->info_ok ? &c->info : NULL);
	planned = px_inj_plan(&p->inj, &p->cl.run, base, base_len);
	if (planned) {
		g_byte_array_free(payload, TRUE);
		base = planned->data;
		base_len = planned->len;
		payload = reply_payload(p, c, base, base_len, wused);
	}
	answer_client(p, c, base, base_len, wused, payload, pushed);
	send_backward(p, c, payload);
	g_byte_array_free(payload, TRUE);
	if (planned)
		g_byte_array_free(planned, TRUE);
	if (fixed)
		g_byte_array_free(fixed, TRUE);
out:
	px_call_free(c);
	px_pump(p);
}

/* A backward-direction message (RFC 8167), inline only: re-encoded as it came. */
static void relay_backward(struct proxy *p, struct px_leg *from, struct px_leg *to,
			   const struct vb_msg *msg, const struct rr_hdr *h, bool reply)
{
	GByteArray *payload = g_byte_array_new();
	pg_rdmamsg m;

	g_byte_array_append(payload, msg->data + h->hdr_len, msg->len - (guint)h->hdr_len);
	if (h->n_reads || h->n_write_chunks || h->has_reply) {
		record(from, msg->data, msg->len, reply, NULL, false, 0, 0);
		agent_mf_event(&from->run, "backward-chunks", h->xid, "a backward-direction message "
			       "with chunks; dropped");
		g_byte_array_free(payload, TRUE);
		return;
	}
	record(from, msg->data, msg->len, reply, payload, true, payload->len, 0);
	if (reply && from == &p->cl)
		px_back_client_reply(&p->back, h->credit);   /* the client's backward grant */
	else if (!reply)
		px_back_server_call(&p->back);
	pg_rdmamsg_simple(&m, h->xid, RDMA_MSG, h->credit);
	g_byte_array_append(m.inline_payload, payload->data, payload->len);
	pg_rdmamsg_encode(&m);
	if (send_wire(p, to, m.wire))
		record(to, m.wire->data, m.wire->len, reply, payload, true, payload->len, 0);
	p->n_back++;
	pg_rdmamsg_clear(&m);
	g_byte_array_free(payload, TRUE);
}

/* CALL or REPLY: the RPC message type of an inline message (-1: none). */
static int msg_type(const struct vb_msg *msg, const struct rr_hdr *h)
{
	struct rr_cursor cur;
	uint32_t xid, type;

	if (h->proc != RR_RDMA_MSG)
		return -1;
	rr_cursor_init(&cur, msg->data + h->hdr_len, msg->len - h->hdr_len);
	return rr_rpc_peek(&cur, &xid, &type) ? (int)type : -1;
}

void px_from_client(struct proxy *p, const struct vb_msg *msg)
{
	struct rr_hdr h;
	enum rr_hdr_status st = rr_hdr_decode(msg->data, msg->len, &h);

	if ((st == RR_HDR_OK || st == RR_HDR_E_NOT_V1) && backward_answer(p, msg, &h, st)) {
		return;
	} else if (st == RR_HDR_E_NOT_V1) {
		record(&p->cl, msg->data, msg->len, false, NULL, false, 0, 0);
		agent_mf_event(&p->cl.run, "err-vers", h.xid, "a call of version %u; ERR_VERS", h.vers);
		send_error(p, &p->cl, h.xid, RR_ERR_VERS, p->cl.run.credits);
	} else if (st != RR_HDR_OK || (h.proc != RR_RDMA_MSG && h.proc != RR_RDMA_NOMSG)) {
		record(&p->cl, msg->data, msg->len, false, NULL, false, 0, 0);
		agent_mf_event(&p->cl.run, "not-relayed", h.xid, "%s from the client",
			       st == RR_HDR_OK ? rr_hdr_proc_name(h.proc) : rr_hdr_status_text(st));
	} else if (msg_type(msg, &h) == 1) {
		relay_backward(p, &p->cl, &p->sv, msg, &h, true);
	} else {
		forward_call(p, msg, &h);
	}
}

/* The server's answer to the pending broken call: its reaction; relayed
 * to the client when it is the call's answer, else the call goes again. */
static void reaction(struct proxy *p, const struct vb_msg *msg, const struct rr_hdr *h,
		     enum rr_hdr_status st)
{
	struct px_call *c = p->pending;
	const uint8_t *rpc = NULL;
	size_t rpc_len = 0;
	uint32_t credit;
	enum jd_answer a;

	if (st == RR_HDR_OK && h->proc == RR_RDMA_MSG) {
		rpc = msg->data + h->hdr_len;
		rpc_len = msg->len - h->hdr_len;
	} else if (st == RR_HDR_OK && h->proc == RR_RDMA_NOMSG && px_returned_reply(h) <= c->rp.len) {
		rpc = c->rp.data;
		rpc_len = (size_t)px_returned_reply(h);
	}
	a = px_sinj_classify(msg->data, msg->len, rpc, rpc_len, &credit);
	p->pending = NULL;
	px_sinj_react(&p->sv.run, c->broken, a, credit);
	if (px_sinj_relays(a)) {
		/* the reply is the call's, whatever XID its header carries */
		g_hash_table_replace(p->calls, GUINT_TO_POINTER(h->xid), c);
		forward_reply(p, msg, h);
		return;
	}
	record(&p->sv, msg->data, msg->len, true, NULL, false, 0, 0);
	agent_mf_event(&p->sv.run, "reaction", h->xid, "%s to the broken call; not relayed",
		       jd_answer_text(a));
	if (st == RR_HDR_OK)
		p->server_grant = h->credit;
	resend_clean(p, c);
	px_pump(p);
}

void px_from_server(struct proxy *p, const struct vb_msg *msg)
{
	struct rr_hdr h;
	enum rr_hdr_status st = rr_hdr_decode(msg->data, msg->len, &h);

	if (p->pending && (st != RR_HDR_OK || msg_type(msg, &h) != 0)) {
		reaction(p, msg, &h, st);
	} else if (st != RR_HDR_OK) {
		record(&p->sv, msg->data, msg->len, true, NULL, false, 0, 0);
		agent_mf_event(&p->sv.run, "bad-reply", h.xid, "from the server: %s; dropped",
			       rr_hdr_status_text(st));
	} else if (msg_type(msg, &h) == 0) {
		relay_backward(p, &p->sv, &p->cl, msg, &h, false);
	} else {
		forward_reply(p, msg, &h);
	}
}
