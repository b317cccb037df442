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
	      "                           [-F pcap|pcapng] [--bind ADDR] [--inject RULE[,RULE...]]\n"
	      "                           [--once] [--timeout SEC] [--force] [--overwrite]\n"
	      "In-memory NFSv3/NFSv4.1 server over RPC-over-RDMA version 1.\n", f);
}

static uint32_t grant(const struct serve *s)
{
	return agent_inject_has(&s->run, "RR-100") ? 0 : s->run.credits;
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
	pg_rdmamsg_encode(&m);
	/* the engine rebuilds no message from a header of another version */
	if (agent_send(&s->run, s->conn, m.wire))
		record(s, m.wire->data, m.wire->len, true, NULL, vers == RR_RPCRDMA_VERSION, 0, 0);
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
static bool push(struct serve *s, uint32_t xid, const struct rr_hdr *h,
		 const struct rr_write_chunk *wc, const uint8_t *data, uint32_t len,
		 struct wseg_ret *ret, uint64_t *pushed)
{
	struct vb_mr m;
	uint32_t done = 0;
	char err[512];
	bool ok = true;

	if (!vb_reg(s->conn, &m, len, false, false))
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
		if (agent_inject_has(&s->run, "RR-085") && done == 0 && n >= 2) {
			/* start inside the segment and run half the write past its end */
			at = sg->offset + sg->length - n / 2;
			agent_mf_inject(&s->run, "RR-085", xid, true, "RR-086,RR-087,RR-091,RR-092,RR-003",
				     "an RDMA Write runs past the end of its segment");
		}
		if (!vb_rdma(s->conn, true, &m, done, n, sg->handle, at, &st, err, sizeof(err))) {
			agent_mf_event(&s->run, "remote-access-error", xid, "%s", err);
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

static pg_chunk *returned_chunk(const struct wseg_ret *r, uint32_t n, bool full)
{
	pg_chunk *c = pg_chunk_new();
	for (uint32_t k = 0; k < n; k++) {
		pg_seg sg = { r[k].seg.handle, full ? r[k].seg.length : r[k].used, r[k].seg.offset };
		g_array_append_val(c->ret, sg);
	}
	return c;
}

static void chunk_drop(gpointer p)
{
	pg_chunk *c = p;
	g_array_free(c->segs, TRUE);
	g_array_free(c->ret, TRUE);
	g_byte_array_free(c->data, TRUE);
	g_free(c);
}

static void answer(struct serve *s, const struct rr_hdr *h, const pg_rpc_pair *rp)
{
	GPtrArray *own = g_ptr_array_new_with_free_func(chunk_drop);
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

	pg_rdmamsg_simple(&m, h->xid, RDMA_MSG, grant(s));
	m.returned = true;
	if (agent_inject_has(&s->run, "RR-100"))
		agent_mf_inject(&s->run, "RR-100", h->xid, true, "RR-101,RR-102,RR-106", "the reply grants 0 credits");
	/* results into the write chunks they pair with, excised from the inline stream */
	for (guint i = 0; i < rp->reply.ddp->len; i++) {
		const pg_ddp *d = &g_array_index(rp->reply.ddp, pg_ddp, i);
		int k = d->slot;
		if (k < 0 || (uint32_t)k >= h->n_write_chunks || !d->len)
			continue;
		if (agent_inject_has(&s->run, "RR-081") && h->n_write_chunks > 1) {
			/* results into the write chunks in reverse order */
			k = (int)h->n_write_chunks - 1 - k;
			misdirected |= k != d->slot;
		}
		if (used[k])
			continue;
		if (!push(s, h->xid, h, &h->writes[k], full->data + d->off, d->len,
			  &ret[h->writes[k].first], &pushed))
			goto cannot;
		used[k] = true;
		moved++;
		g_byte_array_append(red, full->data + at, (guint)(d->off - at));
		at = d->off + pg_round4(d->len);
	}
	g_byte_array_append(red, full->data + at, (guint)(full->len - at));
	if (misdirected)
		agent_mf_inject(&s->run, "RR-081", h->xid, true, "RR-080,RR-088,RR-091,RR-162,RR-164,RR-243",
			     "results went into the write chunks in reverse order");
	for (uint32_t k = 0; k < h->n_write_chunks; k++) {
		const struct rr_write_chunk *wc = &h->writes[k];
		bool nonzero = !used[k] && agent_inject_has(&s->run, "RR-088");
		if (!used[k])
			for (uint32_t j = 0; j < wc->count; j++) {
				ret[wc->first + j].seg = *rr_hdr_wseg(h, wc, j);
				ret[wc->first + j].used = 0;
			}
		if (nonzero)
			agent_mf_inject(&s->run, "RR-088", h->xid, true, "RR-164,RR-166,RR-243,RR-087,RR-091",
				     "an unused write chunk came back with its full lengths");
		g_ptr_array_add(own, returned_chunk(&ret[wc->first], wc->count, nonzero));
		g_ptr_array_add(m.writes, own->pdata[own->len - 1]);
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
	if (red->len + hdr_len > s->peer_inline) {
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
	pg_rdmamsg_encode(&m);
	/* misdirected results: the wire no longer conveys the message we meant */
	if (agent_send(&s->run, s->conn, m.wire))
		record(s, m.wire->data, m.wire->len, true, full, !misdirected, m.inline_payload->len,
		       pushed);
	goto out;
cannot:
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
	pg_rpc_pair rp;

	s->calls++;
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
	if (!sf_answer(&s->fs, call->data, call->len, &rc, &u, &rp)) {
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
	answer(s, &h, &rp);
	pg_rpc_pair_clear(&rp);
	goto out;
bad:
	agent_mf_event(&s->run, "bad-call", h.xid, "%s; answering ERR_CHUNK", err);
	send_error(s, h.xid, 1, RR_ERR_CHUNK);
out:
	g_ptr_array_free(keep, TRUE);
	g_byte_array_free(call, TRUE);
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
	if (*s.run.inject && !agent_inject_check(s.run.inject, "serve", err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return 2;
	}
	if (!agent_run_begin(&s.run, "serve"))
		return 1;
	if (s.run.mf)
		mf_write_run(s.run.mf, &s.run.info);
	sf_init(&s.fs, SS_DEFAULT_LIMIT);
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
			if (!vb_recv(s.conn, &msg, 3600000, &disc, err, sizeof(err))) {
				if (!disc)
					fprintf(stderr, AGENT_NAME ": %s\n", err);
				break;
			}
			handle(&s, &msg);
			if (s.broken || agent_stop_signal)
				break;
		}
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
