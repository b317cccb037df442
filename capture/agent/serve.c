// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-agent serve: the responder.  A call is decoded with the engine
 * (transport header, RPC header, the ULP walk that names its procedure or
 * ops and their counts), its read chunks are pulled with RDMA Read, the
 * answer is encoded by the generator's NFS encoders from a description of
 * the call, and its DDP-eligible results are pushed with RDMA Write into
 * the write chunks that pair with them (RFC 8267 6.4.1).  The reply chunk
 * is used only when the reply does not fit the requester's inline size.
 *
 * The file system is in memory (serve_fs.h): every file is 1 MiB of
 * synthetic data with what WRITE stored laid over it (serve_store.h), so
 * a READ after a WRITE returns what was written; LOOKUP answers a handle
 * per name (NOENT for names beginning with "missing").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include <rpcrdma/engine.h>
#include <rpcrdma/hdr.h>
#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "agent.h"
#include "common.h"
#include "payload.h"
#include "serve_inject.h"
#include "pg_buf.h"
#include "pg_nfs.h"
#include "pg_rpcrdma.h"
#include "pg_splice.h"
#include "serve_fs.h"
#include "verbs.h"

struct serve {
	struct agent_run run;
	struct sf_fs fs;          /* the files, what WRITE stored in them */
	struct vb_conn *conn;
	uint32_t peer_inline;
	unsigned calls, errors;
	bool broken;              /* the QP is in error (an injected fault) */
	struct vb_mr pull;        /* where read chunks land: registered once per connection, grown */
	struct inj_live lv;       /* the generator's injectors on our replies */
	struct serve_inj *cur;    /* the reply being answered, or NULL */
	struct serve_pending pending;   /* a broken reply waiting for the requester's next move */
	uint64_t replies;
	bool access_error;        /* an RDMA operation on the requester's memory was refused */
	bool refused;             /* the requester's RNIC refused a broken reply's Send */
	bool dup;                 /* this call has the XID of the one before (dup-xid): its
				   * reply writes where that one's did, not compared */
	uint32_t last_xid;
};

/*
 * RDMA Read size on rxe: 16 in flight cover 1 MiB (NFS WRITE at 1 MiB went
 * from 0.52 to 0.69 of ib_read_bw).  On siw one Read per segment is faster
 * (0.39 against 0.14 split): its Read responses do not overlap.
 */
#define SERVE_PULL_PIECE (64u << 10)

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent serve [-d DEV] [-p PORT] [-c CREDITS] [-w CAPTURE] [-m MANIFEST]\n"
	      "                           [-F pcap|pcapng] [--bind ADDR] [--inject NAME[=ARG][:WHEN...][,...]]\n"
	      "                           [--once] [--timeout SEC] [--force] [--overwrite]\n"
	      "In-memory NFSv3/NFSv4.1 server over RPC-over-RDMA version 1.\n", f);
}

static uint32_t grant(const struct serve *s)
{
	return s->run.credits;   /* zero-credit and grant-above change it in the header stage */
}

/* The reply's header is final: the table's header hooks, encode, the wire hooks. */
static void encode_reply(struct serve *s, pg_rdmamsg *m)
{
	if (s->cur)
		serve_inj_stage(&s->run, &s->lv, s->cur, INJ_ST_HEADER, m);
	pg_rdmamsg_encode(m);
	if (s->cur)
		serve_inj_stage(&s->run, &s->lv, s->cur, INJ_ST_WIRE, m);
}

/* The reply went out: inject lines and the reaction to wait for. */
static void reply_sent(struct serve *s, const pg_rdmamsg *m)
{
	if (s->cur)
		serve_inj_sent(&s->run, s->cur, &s->pending, m->xid, m->credit);
}


static void record(struct serve *s, const uint8_t *wire, size_t wire_len, bool reply,
		   const GByteArray *payload, bool rebuilt, uint64_t inl, uint64_t rdma)
{
	struct mf_rpc m;
	struct rr_hdr h;
	memset(&m, 0, sizeof(m));
	rr_hdr_decode(wire, wire_len, &h);
	agent_mf_from_hdr(&m, &h);
	m.xid = h.xid;
	m.reply = reply;
	m.rebuilt = rebuilt;
	if (!s->run.mf)
		return;   /* a benchmark: no manifest, nothing to hash */
	m.len = payload ? payload->len : 0;
	rr_sha256_hex(payload ? payload->data : (const uint8_t *)"", m.len, m.sha256);
	m.inline_bytes = inl;
	m.rdma_bytes = rdma;
	if (s->run.mf)
		mf_write_rpc(s->run.mf, &m);
}


static void send_error(struct serve *s, uint32_t xid, uint32_t vers, uint32_t err)
{
	pg_rdmamsg m;
	pg_rdmamsg_simple(&m, xid, RDMA_ERROR, grant(s));
	m.vers = vers;
	m.err = err;
	m.low = m.high = 1;
	encode_reply(s, &m);
	/* the engine rebuilds no message from a header of another version */
	if (agent_send(&s->run, s->conn, m.wire)) {
		/* nor one whose error code it does not know */
		record(s, m.wire->data, m.wire->len, true, NULL,
		       m.vers == RR_RPCRDMA_VERSION && (m.err == RR_ERR_VERS || m.err == RR_ERR_CHUNK), 0, 0);
		reply_sent(s, &m);
	} else if (s->cur && serve_inj_any(s->cur)) {
		/* the connection went down under an injection (iWARP tells a Write that left
		 * its segment by a Terminate, after the Write completed here): it still happened */
		reply_sent(s, &m);
	}
	pg_rdmamsg_clear(&m);
	s->errors++;
}

/* The connection's pull region, at least len bytes. */
static bool pull_room(struct serve *s, size_t len)
{
	if (s->pull.mr && s->pull.len >= len)
		return true;
	vb_dereg(&s->pull);
	return vb_reg(s->conn, &s->pull, MAX(len, (size_t)1 << 20), false, false);
}

/* Pull every read segment; chunks[] gets one entry per Position (ascending). */
static bool pull_reads(struct serve *s, const struct rr_hdr *h, pg_splice_chunk *chunks,
		       unsigned *n, GPtrArray *keep, uint64_t *pulled)
{
	char err[512];
	uint64_t total = 0;

	*n = 0;
	for (uint32_t i = 0; i < h->n_reads; i++)
		total += h->reads[i].seg.length;
	if (total > PG_MAX_PAYLOAD * 2ull || !pull_room(s, (size_t)total)) {
		agent_mf_event(&s->run, "too-large", h->xid, "read chunks of %llu bytes",
			       (unsigned long long)total);
		return false;
	}
	for (uint32_t i = 0; i < h->n_reads; i++) {
		const struct rr_read_segment *r = &h->reads[i];
		GByteArray *b;
		int st;
		if (!vb_rdma_split(s->conn, false, &s->pull, 0, r->seg.length, r->seg.handle,
				   r->seg.offset, strcmp(s->run.info.transport, "siw") ? SERVE_PULL_PIECE : 0,
				   &st, err, sizeof(err))) {
			agent_mf_event(&s->run, "rdma-read-failed", h->xid, "%s", err);
			s->broken = true;
			return false;
		}
		*pulled += r->seg.length;
		if (*n == 0 || chunks[*n - 1].position != r->position) {
			if (*n >= RR_HDR_MAX_SEGS)
				break;
			b = g_byte_array_new();
			g_ptr_array_add(keep, b);
			chunks[*n].position = r->position;
			(*n)++;
		} else {
			b = keep->pdata[keep->len - 1];
		}
		g_byte_array_append(b, s->pull.buf, r->seg.length);
		chunks[*n - 1].data = b->data;
		chunks[*n - 1].len = b->len;
	}
	return true;
}

struct elig {
	size_t pos[RR_ULP_MAX_OPS];
	uint32_t len[RR_ULP_MAX_OPS], op[RR_ULP_MAX_OPS];
	unsigned n;
};

static bool note_item(void *ctx, const struct rr_ddp_item *it)
{
	struct elig *e = ctx;
	if (e->n < RR_ULP_MAX_OPS) {
		e->pos[e->n] = it->data_pos;
		e->len[e->n] = it->length;
		e->op[e->n] = it->op;
		e->n++;
	}
	return false;
}

/* RFC 8267 4.1: a read chunk may only stand for a DDP-eligible argument. */
static bool chunks_eligible(const pg_splice_chunk *ch, unsigned n, const struct elig *e)
{
	for (unsigned i = 0; i < n; i++) {
		bool ok = ch[i].position == 0;   /* a PZRC carries the whole message */
		for (unsigned k = 0; k < e->n && !ok; k++)
			ok = e->pos[k] == ch[i].position;
		if (!ok)
			return false;
	}
	return true;
}

struct wseg_ret {
	struct rr_segment seg;
	uint32_t used;
};

/* Push len bytes into a chunk's segments in order (RFC 8166 3.4.6). */
/* The bytes a chunk's segments after segment k hold. */
static uint64_t room_after(const struct rr_hdr *h, const struct rr_write_chunk *wc, uint32_t k)
{
	uint64_t n = 0;
	for (uint32_t j = k + 1; j < wc->count; j++)
		n += rr_hdr_wseg(h, wc, j)->length;
	return n;
}

static bool push(struct serve *s, uint32_t xid, const struct rr_hdr *h,
		 const struct rr_write_chunk *wc, const uint8_t *data, uint32_t len,
		 struct wseg_ret *ret, uint64_t *pushed)
{
	struct vb_mr m;
	pg_knobs *kn = serve_inj_knobs(s->cur);
	uint32_t done = 0, over = kn ? kn->overfill : 0;
	char err[512];
	bool ok = true;

	if (kn)
		kn->overfill = 0;   /* once: the first chunk written */

	if (!vb_reg(s->conn, &m, (size_t)len + over, false, false))
		return false;
	memcpy(m.buf, data, len);
	for (uint32_t k = 0; k < wc->count && ok; k++) {
		const struct rr_segment *sg = rr_hdr_wseg(h, wc, k);
		uint32_t n = MIN(sg->length, len - done);
		uint64_t at = sg->offset;
		int st;
		ret[k].seg = *sg;
		ret[k].used = n;
		if (!n)
			continue;
		if (kn && kn->fill_short && k == 0 && wc != &h->reply && n > kn->fill_short &&
		    room_after(h, wc, 0) >= len - (n - kn->fill_short)) {
			/* fill-order: the first segment short, the rest goes on */
			n -= kn->fill_short;
			ret[k].used = n;
			kn->fill_short = 0;
			serve_inj_done(s->cur, PG_DONE_SHORT);
		}
		if (over && done == 0) {
			/* write-beyond (pg_inject_write.c): the first Write ends `over` bytes past
			 * its segment, whose returned length is that much longer than offered */
			at = sg->offset + (sg->length - n);
			ret[k].used = sg->length + over;
			n += over;
			over = 0;
		}
		if (!vb_rdma(s->conn, true, &m, done, n, sg->handle, at, &st, err, sizeof(err))) {
			agent_mf_event(&s->run, "remote-access-error", xid, "%s", err);
			s->access_error = st != -1;   /* a completion error (the QP died at this operation), not a disconnect */
			s->broken = true;
			ok = false;
			break;
		}
		done += n;
		*pushed += n;
	}
	vb_dereg(&m);
	return ok && done == len;
}

/* The operations the table's ops hooks added; a refused one breaks the connection. */
static void run_added(struct serve *s, uint32_t xid, int when)
{
	if (!serve_inj_run_ops(&s->run, s->cur, s->conn, xid, when, &s->access_error))
		s->broken = true;
}

static pg_chunk *returned_chunk(const struct wseg_ret *r, uint32_t n, bool full)
{
	pg_chunk *c = pg_chunk_new();
	for (uint32_t k = 0; k < n; k++) {
		pg_seg sg = { r[k].seg.handle, full ? r[k].seg.length : r[k].used, r[k].seg.offset };
		pg_seg offered = { r[k].seg.handle, r[k].seg.length, r[k].seg.offset };
		g_array_append_val(c->ret, sg);
		g_array_append_val(c->segs, offered);
	}
	return c;
}


static void answer(struct serve *s, const struct rr_hdr *h, const pg_rpc_pair *rp)
{
	GPtrArray *own = g_ptr_array_new_with_free_func(serve_chunk_free);
	GByteArray *red = g_byte_array_new();
	pg_rdmamsg m;
	struct wseg_ret ret[RR_HDR_MAX_SEGS];
	bool used[RR_HDR_MAX_WRITE_CHUNKS] = { false };
	const GByteArray *full = rp->reply.msg;
	size_t at = 0;
	uint64_t pushed = 0;
	unsigned moved = 0;
	size_t hdr_len;
	bool misdirected = false;
	pg_knobs *kn = serve_inj_knobs(s->cur);
	uint32_t item_len[RR_HDR_MAX_WRITE_CHUNKS] = { 0 }, sent[RR_HDR_MAX_WRITE_CHUNKS] = { 0 };

	pg_rdmamsg_simple(&m, h->xid, RDMA_MSG, grant(s));
	m.returned = true;
	/* results into the write chunks they pair with, excised from the inline stream */
	for (guint i = 0; i < rp->reply.ddp->len; i++) {
		const pg_ddp *d = &g_array_index(rp->reply.ddp, pg_ddp, i);
		int k = d->slot;
		if (k < 0 || (uint32_t)k >= h->n_write_chunks || !d->len)
			continue;
		if (used[k] || (kn && kn->reply_inline_despite_write))
			continue;   /* inline-despite-write: the result stays in the Payload */
		/* pad-written: the XDR pad goes into the chunk too */
		sent[k] = kn && kn->write_pad ? pg_round4(d->len) : d->len;
		item_len[k] = d->len;
		if (!push(s, h->xid, h, &h->writes[k], full->data + d->off, sent[k],
			  &ret[h->writes[k].first], &pushed))
			goto cannot;
		used[k] = true;
		moved++;
		g_byte_array_append(red, full->data + at, (guint)(d->off - at));
		at = d->off + pg_round4(d->len);
	}
	g_byte_array_append(red, full->data + at, (guint)(full->len - at));
	for (uint32_t k = 0; k < h->n_write_chunks; k++) {
		const struct rr_write_chunk *wc = &h->writes[k];
		bool nonzero = false;   /* unused-nonzero's header hook returns the offered lengths */
		if (!used[k])
			for (uint32_t j = 0; j < wc->count; j++) {
				ret[wc->first + j].seg = *rr_hdr_wseg(h, wc, j);
				ret[wc->first + j].used = 0;
			}
		g_ptr_array_add(own, returned_chunk(&ret[wc->first], wc->count, nonzero));
		g_ptr_array_add(m.writes, own->pdata[own->len - 1]);
		/* the header hooks compare what was written with the item */
		((pg_chunk *)own->pdata[own->len - 1])->item_len = item_len[k];
		g_byte_array_set_size(((pg_chunk *)own->pdata[own->len - 1])->data, sent[k]);
	}
	/*
	 * The reply's transport header: 4 fixed words, the read list's end,
	 * per write chunk its present and count words and 16 bytes a segment,
	 * the write list's end, the reply chunk's flag (RFC 8166 4.3).
	 */
	hdr_len = 4 * 4 + 4 + 4 + 4;
	for (uint32_t k = 0; k < h->n_write_chunks; k++)
		hdr_len += 8 + 16 * h->writes[k].count;
	if (h->has_reply)
		hdr_len += 4 + 16 * h->reply.count;   /* the Reply chunk comes back, used or not */
	/* oversize-send: inline however long, past the requester's inline size */
	if (red->len + hdr_len > s->peer_inline && !serve_inj_agent(&s->run, s->cur, "oversize-send")) {
		struct wseg_ret rr[RR_HDR_MAX_SEGS];
		if (!h->has_reply) {
			agent_mf_event(&s->run, "no-reply-chunk", h->xid,
				       "a %u-byte reply does not fit %u bytes inline and no reply chunk "
				       "was offered", red->len, s->peer_inline);
			send_error(s, h->xid, 1, RR_ERR_CHUNK);
			goto out;
		}
		if (!push(s, h->xid, h, &h->reply, red->data, red->len, rr, &pushed))
			goto cannot;
		m.proc = RDMA_NOMSG;
		m.reply = returned_chunk(rr, h->reply.count, false);
		g_ptr_array_add(own, m.reply);
	} else {
		g_byte_array_append(m.inline_payload, red->data, red->len);
		if (h->has_reply) {
			/* RFC 8166 4.3.3: an offered Reply chunk is copied into the
			 * reply even when the reply goes inline, every length zero */
			struct wseg_ret rr[RR_HDR_MAX_SEGS];

			for (uint32_t j = 0; j < h->reply.count; j++) {
				rr[j].seg = *rr_hdr_wseg(h, &h->reply, j);
				rr[j].used = 0;
			}
			m.reply = returned_chunk(rr, h->reply.count, false);
			g_ptr_array_add(own, m.reply);
		}
	}
	/* the operations the table's ops hooks add: before the reply, or after it */
	serve_inj_ops(&s->run, &s->lv, s->cur, h, m.writes);
	run_added(s, h->xid, PG_OPS_READS);
	if (s->broken) {
		/* the reply never goes: the injection still happened, its reaction is the refusal */
		if (s->cur)
			serve_inj_sent(&s->run, s->cur, &s->pending, h->xid, m.credit);
		goto out;
	}
	encode_reply(s, &m);
	/* misdirected results: the wire no longer conveys the message we meant */
	misdirected = s->cur && (inj_find(&s->run.inj, s->cur->applied, "misdirected-write") ||
				 inj_find(&s->run.inj, s->cur->applied, "orphan-reply"));
	if (agent_send(&s->run, s->conn, m.wire)) {
		record(s, m.wire->data, m.wire->len, true, full, !misdirected && m.vers == 1 && !s->dup,
		       m.inline_payload->len, pushed);
		reply_sent(s, &m);
		run_added(s, h->xid, PG_OPS_AFTER_REPLY);
	} else if (s->cur && serve_inj_any(s->cur)) {
		/* a broken reply the requester's RNIC refused (oversize-send): usually on the
		 * wire all the same (the refusal is the reaction), but a Send flushed behind an
		 * earlier error never left: the inject line says the Send failed, the capture
		 * tells which; rebuilt=no, as it may not be there */
		record(s, m.wire->data, m.wire->len, true, full, false, m.inline_payload->len, pushed);
		s->cur->send_failed = true;
		reply_sent(s, &m);
		s->refused = true;
		s->broken = true;
	}
	goto out;
cannot:
	/* an injected Write the requester refused: the injection happened, the refusal is its reaction */
	if (s->broken && s->cur)
		serve_inj_sent(&s->run, s->cur, &s->pending, h->xid, m.credit);
	/* a chunk too small for what goes in it (RFC 8166 4.5: ERR_CHUNK), unless the QP is gone */
	if (!s->broken) {
		agent_mf_event(&s->run, "chunk-too-small", h->xid,
			       "a result does not fit the chunk offered for it; ERR_CHUNK");
		send_error(s, h->xid, 1, RR_ERR_CHUNK);
	}
out:
	pg_rdmamsg_clear(&m);
	g_ptr_array_free(own, TRUE);
	g_byte_array_free(red, TRUE);
}

static void handle(struct serve *s, const struct vb_msg *msg)
{
	struct rr_hdr h;
	enum rr_hdr_status st = rr_hdr_decode(msg->data, msg->len, &h);
	pg_splice_chunk chunks[RR_HDR_MAX_SEGS];
	GPtrArray *keep = g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
	GByteArray *call = g_byte_array_new();
	struct rr_rpc_call rc;
	struct rr_ulp_info u;
	struct elig e = { .n = 0 };
	unsigned n = 0;
	uint64_t pulled = 0;
	char err[256];
	struct sf_reply *sr = NULL;
	struct serve_inj si;

	s->calls++;
	/* the requester's next move after a reply we broke */
	if (s->pending.on)
		serve_inj_react(&s->run, &s->pending, h.xid == s->pending.xid ? JD_RETRANSMIT : JD_NEXT_CALL);
	serve_inj_begin(&s->run, &s->lv, &si, ++s->replies, h.xid, NULL);
	s->dup = s->replies > 1 && h.xid == s->last_xid;
	s->last_xid = h.xid;
	s->cur = &si;
	if (st == RR_HDR_E_NOT_V1) {
		record(s, msg->data, msg->len, false, NULL, false, 0, 0);
		send_error(s, h.xid, h.vers, RR_ERR_VERS);
		goto out;
	}
	if (st != RR_HDR_OK || h.proc == RR_RDMA_MSGP ||
	    (h.proc != RR_RDMA_MSG && h.proc != RR_RDMA_NOMSG)) {
		/* not processed, so there is no payload of ours to compare */
		record(s, msg->data, msg->len, false, NULL, false, 0, 0);
		if (st == RR_HDR_OK && (h.proc == RR_RDMA_DONE || h.proc == RR_RDMA_ERROR))
			goto out;
		send_error(s, h.xid, 1, RR_ERR_CHUNK);
		goto out;
	}
	if (!pull_reads(s, &h, chunks, &n, keep, &pulled)) {
		record(s, msg->data, msg->len, false, NULL, false, 0, 0);
		if (!s->broken)
			send_error(s, h.xid, 1, RR_ERR_CHUNK);
		goto out;
	}
	if (h.proc == RR_RDMA_NOMSG) {
		/* the Position-Zero chunk is the message; other chunks go into it */
		if (!n || chunks[0].position) {
			record(s, msg->data, msg->len, false, NULL, false, 0, 0);
			send_error(s, h.xid, 1, RR_ERR_CHUNK);
			goto out;
		}
		if (!pg_splice_call(chunks[0].data, chunks[0].len, chunks + 1, n - 1, call, err, sizeof(err)))
			goto bad;
	} else if (!pg_splice_call(msg->data + h.hdr_len, msg->len - h.hdr_len, chunks, n, call, err,
			    sizeof(err))) {
		goto bad;
	}
	record(s, msg->data, msg->len, false, call, true,
	       h.proc == RR_RDMA_MSG ? msg->len - h.hdr_len : 0, pulled);
	{
		struct rr_cursor c;
		rr_cursor_init(&c, call->data, call->len);
		memset(&u, 0, sizeof(u));
		if (!rr_rpc_decode_call(&c, &rc) ||
		    rr_ulp_walk_call(&rc, &c, note_item, &e, &u) == RR_ULP_MALFORMED) {
			snprintf(err, sizeof(err), "the call does not decode");
			goto bad;
		}
	}
	if (!chunks_eligible(chunks + (h.proc == RR_RDMA_NOMSG), n - (h.proc == RR_RDMA_NOMSG), &e)) {
		/* RFC 8267 4.1 / RR-065: a chunk that is not a DDP-eligible item */
		agent_mf_event(&s->run, "ineligible-chunk", h.xid, "a read chunk is not at a DDP-eligible argument; ERR_CHUNK");
		send_error(s, h.xid, 1, RR_ERR_CHUNK);
		goto out;
	}
	sr = sf_describe(&s->fs, call->data, call->len, &rc, &u);
	if (!sr) {
		pg_rpc_pair p0;
		/* outside the subset: PROC_UNAVAIL, inline */
		memset(&p0, 0, sizeof(p0));
		p0.reply.msg = g_byte_array_new();
		p0.reply.ddp = g_array_new(FALSE, FALSE, sizeof(pg_ddp));
		pg_rpc_reply_hdr(p0.reply.msg, h.xid);
		pb_put_be32(p0.reply.msg, 20, 3);
		answer(s, &h, &p0);
		g_byte_array_free(p0.reply.msg, TRUE);
		g_array_free(p0.reply.ddp, TRUE);
		goto out;
	}
	/* the injections see the call as described (op= can pick it now) */
	serve_inj_end(&si);
	serve_inj_begin(&s->run, &s->lv, &si, s->replies, h.xid, sf_item(sr));
	/* the reply's shape, as the hooks read it: Write chunks offered or not */
	si.ex->itc.reply.chunked = h.n_write_chunks > 0;
	sf_build(sr, &si.ex->rp);
	serve_inj_stage(&s->run, &s->lv, &si, INJ_ST_PLAN, NULL);
	answer(s, &h, &si.ex->rp);
	goto out;
bad:
	agent_mf_event(&s->run, "bad-call", h.xid, "%s; answering ERR_CHUNK", err);
	send_error(s, h.xid, 1, RR_ERR_CHUNK);
out:
	s->cur = NULL;
	serve_inj_end(&si);
	sf_reply_free(sr);
	g_ptr_array_free(keep, TRUE);
	g_byte_array_free(call, TRUE);
}

/* The backward-direction entries are the proxy's: serve has no client to call back. */
static bool no_backward(const struct agent_run *r, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->inj.n; i++)
		if (inj_def_stages(r->inj.v[i].def, INJ_RESP) & INJ_ST_BACK) {
			snprintf(err, errlen, "--inject %s: serve sends no backward calls; the proxy does, "
				 "on its client leg (rpcrdma-agent proxy --inject)", r->inj.v[i].asked);
			return false;
		}
	return true;
}

int agent_cmd_serve(int argc, char **argv)
{
	struct serve s;
	struct vb_listener *l;
	struct vb_opts vo;
	uint8_t pd[8], peer[64], peer_len = 0;
	char err[512] = "";
	int bad = 0;
	bool ok = true;

	memset(&s, 0, sizeof(s));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (agent_common_opt(&s.run, argc, argv, &i, &bad)) {
			continue;
		} else if (!strcmp(a, "--once")) {
			s.run.once = true;
		} else if (!strcmp(a, "--bind") && i + 1 < argc) {
			s.run.bind = argv[++i];
		} else {
			fprintf(stderr, AGENT_NAME ": serve: unknown argument %s\n", a);
			bad = 1;
		}
	}
	if (bad) {
		usage(stderr);
		return 2;
	}
	if (!agent_inject_parse(&s.run, INJ_RESP, err, sizeof(err)) || !no_backward(&s.run, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return 2;
	}
	if (!agent_run_begin(&s.run, "serve"))
		return 1;
	if (s.run.mf)
		mf_write_run(s.run.mf, &s.run.info);
	sf_init(&s.fs, SS_DEFAULT_LIMIT);
	inj_live_init(&s.lv, NULL, 0x5e7e);
	l = vb_listen(s.run.bind, s.run.port, err, sizeof(err));
	if (!l) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		sf_free(&s.fs);
		agent_run_end(&s.run);
		return 1;
	}
	fprintf(stderr, AGENT_NAME ": serving on RDMA-CM port %u\n", s.run.port);
	agent_rfc8797(pd);
	memset(&vo, 0, sizeof(vo));
	vo.depth = s.run.credits + 2;
	vo.recv_size = AGENT_INLINE;
	vo.timeout_ms = s.run.timeout_ms;
	vo.private_data = pd;
	vo.private_len = sizeof(pd);
	for (;;) {
		s.conn = vb_accept(l, &vo, peer, &peer_len, s.run.once ? s.run.timeout_ms * 4 : 3600000,
				   err, sizeof(err));
		if (!s.conn) {
			if (!agent_stop_signal) {
				fprintf(stderr, AGENT_NAME ": accept: %s\n", err);
				ok = false;
			}
			break;
		}
		s.peer_inline = agent_peer_inline(peer, peer_len);
		fprintf(stderr, AGENT_NAME ": connection on %s; the requester receives %u bytes inline\n",
			vb_device_name(s.conn), s.peer_inline);
		s.broken = false;
		for (;;) {
			struct vb_msg msg;
			bool disc;
			/* after a broken reply, silence for --timeout is the requester's answer */
			if (!vb_recv(s.conn, &msg, s.pending.on ? s.run.timeout_ms : 3600000, &disc, err,
				     sizeof(err))) {
				if (s.pending.on && !disc && !agent_stop_signal) {
					serve_inj_react(&s.run, &s.pending, JD_TIMEOUT);
					continue;
				}
				if (!disc)
					fprintf(stderr, AGENT_NAME ": %s\n", err);
				break;
			}
			handle(&s, &msg);
			if (s.broken || agent_stop_signal)
				break;
		}
		serve_inj_react(&s.run, &s.pending, s.access_error ? JD_ACCESS_ERROR :
				s.refused ? JD_REFUSED : JD_DISCONNECT);
		s.access_error = s.refused = false;
		vb_disconnect(s.conn);
		vb_dereg(&s.pull);
		vb_free(s.conn);
		s.conn = NULL;
		if (s.run.once || agent_stop_signal)
			break;
	}
	vb_listener_free(l);
	fprintf(stderr, AGENT_NAME ": serve: %u calls, %u RDMA_ERROR replies\n", s.calls, s.errors);
	sf_free(&s.fs);
	ok &= agent_run_end(&s.run);
	if (agent_stop_signal)
		return 128 + agent_stop_signal;
	return ok ? 0 : 1;
}
