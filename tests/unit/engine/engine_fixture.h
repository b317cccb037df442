/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_fixture.h - feeding the engine hand-built events in unit tests:
 * flows, IB/iWARP packets, RPC messages, and what the engine delivered.
 */
#ifndef RR_TEST_ENGINE_FIXTURE_H
#define RR_TEST_ENGINE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "wbuf.h"

#define MAX_GOT 32

struct got {
	int n;
	struct {
		uint32_t xid;
		int dir;
		uint32_t conn;
		uint8_t *payload;
		size_t len;
		bool complete;
		bool backchannel;
		uint64_t frames[64];
		size_t n_frames;
		uint32_t prog, proc;
	} m[MAX_GOT];
	int diags[RR_RULE_COUNT];
};

static inline void on_msg(void *ctx, const struct rr_message *msg)
{
	struct got *g = ctx;
	size_t i;

	assert_true(g->n < MAX_GOT);
	g->m[g->n].xid = msg->xid;
	g->m[g->n].dir = msg->dir;
	g->m[g->n].conn = msg->conn_id;
	g->m[g->n].payload = malloc(msg->payload_len + 1);
	memcpy(g->m[g->n].payload, msg->payload ? msg->payload : (const uint8_t *)"", msg->payload_len);
	g->m[g->n].len = msg->payload_len;
	g->m[g->n].complete = msg->complete;
	g->m[g->n].backchannel = msg->backchannel;
	g->m[g->n].n_frames = msg->n_frames;
	for (i = 0; i < msg->n_frames && i < 64; i++)
		g->m[g->n].frames[i] = msg->frames[i];
	if (msg->has_rpc && msg->dir == RR_DIR_CALL) {
		g->m[g->n].prog = msg->call.prog;
		g->m[g->n].proc = msg->call.proc;
	}
	g->n++;
}

static inline void on_diag(void *ctx, const struct rr_diag *d)
{
	((struct got *)ctx)->diags[d->id]++;
	if (getenv("TEST_DIAG"))
		fprintf(stderr, "diag %s frame %lu: %s\n", rr_rule_get(d->id)->code, (unsigned long)d->frame, d->text);
}

static struct got got;
static struct rr_engine *eng;

static inline int setup(void **state)
{
	struct rr_diag_sink sink = { on_diag, &got };

	memset(&got, 0, sizeof(got));
	eng = rr_engine_new(NULL, on_msg, &got, &sink);
	return 0;
}

static inline int teardown(void **state)
{
	int i;

	rr_engine_free(eng);
	for (i = 0; i < got.n; i++)
		free(got.m[i].payload);
	return 0;
}

/* ---- events ---- */

static inline struct rr_flow_key roce(uint8_t src, uint8_t dst, uint32_t qp)
{
	struct rr_flow_key k;

	memset(&k, 0, sizeof(k));
	k.transport = RR_TRANSPORT_ROCEV2;
	k.src.family = k.dst.family = RR_ADDR_IPV4;
	k.src.bytes[0] = k.dst.bytes[0] = 10;
	k.src.bytes[3] = src;
	k.dst.bytes[3] = dst;
	k.dst_qp = qp;
	return k;
}

static inline struct rr_flow_key iwarp(uint8_t src, uint16_t sport, uint8_t dst, uint16_t dport)
{
	struct rr_flow_key k = roce(src, dst, 0);

	k.transport = RR_TRANSPORT_IWARP;
	k.src.port = sport;
	k.dst.port = dport;
	return k;
}

static uint64_t frame_no;

static inline void feed(struct rr_event *ev)
{
	ev->frame = ++frame_no;
	rr_engine_feed(eng, ev);
}

static inline struct rr_event ev_base(struct rr_flow_key k, uint8_t kind, uint8_t frag, uint32_t psn,
			       const uint8_t *data, uint32_t len)
{
	struct rr_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.frag = frag;
	ev.flow = k;
	ev.psn = psn & 0xffffff;
	ev.data = data;
	ev.caplen = ev.wirelen = len;
	return ev;
}

/* An IB Send split into PMTU packets; returns the next PSN. */
static inline uint32_t ib_send(struct rr_flow_key k, uint32_t psn, const uint8_t *d, size_t len, uint32_t pmtu)
{
	size_t off = 0;

	do {
		size_t n = len - off > pmtu ? pmtu : len - off;
		uint8_t frag = len <= pmtu ? RR_FRAG_ONLY : off == 0 ? RR_FRAG_FIRST :
			       off + n == len ? RR_FRAG_LAST : RR_FRAG_MIDDLE;
		struct rr_event ev = ev_base(k, RR_EV_SEND, frag, psn++, d + off, (uint32_t)n);

		feed(&ev);
		off += n;
	} while (off < len);
	return psn & 0xffffff;
}

static inline uint32_t ib_write(struct rr_flow_key k, uint32_t psn, uint32_t rkey, uint64_t va,
			 const uint8_t *d, size_t len, uint32_t pmtu)
{
	size_t off = 0;

	do {
		size_t n = len - off > pmtu ? pmtu : len - off;
		uint8_t frag = len <= pmtu ? RR_FRAG_ONLY : off == 0 ? RR_FRAG_FIRST :
			       off + n == len ? RR_FRAG_LAST : RR_FRAG_MIDDLE;
		struct rr_event ev = ev_base(k, RR_EV_WRITE, frag, psn++, d + off, (uint32_t)n);

		if (off == 0) {
			ev.has_reth = true;
			ev.rkey = rkey;
			ev.va = va;
			ev.dma_len = (uint32_t)len;
		}
		feed(&ev);
		off += n;
	} while (off < len);
	return psn & 0xffffff;
}

/* Read Request on the reader's flow, responses on the owner's flow; returns next reader PSN. */
static inline uint32_t ib_read(struct rr_flow_key reader, struct rr_flow_key owner, uint32_t psn,
			uint32_t rkey, uint64_t va, const uint8_t *d, size_t len, uint32_t pmtu,
			bool dup_middle)
{
	struct rr_event ev = ev_base(reader, RR_EV_READ_REQ, RR_FRAG_ONLY, psn, NULL, 0);
	size_t off = 0;
	uint32_t p = psn;

	ev.has_reth = true;
	ev.rkey = rkey;
	ev.va = va;
	ev.dma_len = (uint32_t)len;
	feed(&ev);
	do {
		size_t n = len - off > pmtu ? pmtu : len - off;
		uint8_t frag = len <= pmtu ? RR_FRAG_ONLY : off == 0 ? RR_FRAG_FIRST :
			       off + n == len ? RR_FRAG_LAST : RR_FRAG_MIDDLE;
		struct rr_event r = ev_base(owner, RR_EV_READ_RESP, frag, p++, d + off, (uint32_t)n);

		feed(&r);
		if (dup_middle && frag == RR_FRAG_MIDDLE)
			feed(&r);
		off += n;
	} while (off < len);
	return p & 0xffffff;
}

/* ---- RPC messages (RFC 5531, RFC 1813) ---- */

static inline void rpc_call_hdr(struct rr_wbuf *w, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc)
{
	rr_put_be32(w, xid); rr_put_be32(w, 0); rr_put_be32(w, 2);
	rr_put_be32(w, prog); rr_put_be32(w, vers); rr_put_be32(w, proc);
	rr_put_be32(w, 0); rr_put_be32(w, 0);   /* AUTH_NONE cred */
	rr_put_be32(w, 0); rr_put_be32(w, 0);   /* verf */
}

static inline void rpc_reply_hdr(struct rr_wbuf *w, uint32_t xid)
{
	rr_put_be32(w, xid); rr_put_be32(w, 1); rr_put_be32(w, 0);
	rr_put_be32(w, 0); rr_put_be32(w, 0);   /* verf */
	rr_put_be32(w, 0);                      /* SUCCESS */
}

static inline void fill(uint8_t *d, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		d[i] = (uint8_t)(seed >> 16);
	}
}

static uint8_t *send_buf(const struct rr_hdr *h, const uint8_t *payload, size_t plen, size_t *len)
{
	struct rr_wbuf w;

	rr_wbuf_init(&w, 0);
	assert_true(rr_hdr_encode(h, &w));
	rr_put_bytes(&w, payload, plen);
	return rr_wbuf_steal(&w, len);
}

static inline void expect(int i, uint32_t xid, int dir, const uint8_t *payload, size_t len)
{
	assert_true(i < got.n);
	assert_int_equal(got.m[i].xid, xid);
	assert_int_equal(got.m[i].dir, dir);
	assert_int_equal(got.m[i].len, len);
	assert_memory_equal(got.m[i].payload, payload, len);
	assert_true(got.m[i].complete);
}

/* One-packet RPC messages with an empty transport header: the smallest traffic. */
static inline void short_call(struct rr_flow_key k, uint32_t psn, uint32_t xid)
{
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, xid, 100003, 3, 0);
	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ib_send(k, psn, b, n, 4096);
	free(b);
	rr_wbuf_free(&m);
}

/* A short RDMA_MSG reply granting `credits`. */
static inline void reply_granting(struct rr_flow_key k, uint32_t psn, uint32_t xid, uint32_t credits)
{
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_reply_hdr(&m, xid);
	rr_hdr_init(&h, xid, credits, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ib_send(k, psn, b, n, 4096);
	free(b);
	rr_wbuf_free(&m);
}

static inline void short_reply(struct rr_flow_key k, uint32_t psn, uint32_t xid)
{
	reply_granting(k, psn, xid, 32);
}

/* An NFSv3 READ of up to 8192 bytes offering one Write chunk (R_Key 0xabc at VA 0x7000). */
static inline void read_call_with_write_chunk(struct rr_flow_key k, uint32_t psn, uint32_t xid,
					      uint32_t pmtu)
{
	struct rr_wbuf call;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, xid, 100003, 3, 6);
	rr_xdr_put_opaque(&call, "FH-0123456789ABCDEF", 19);
	rr_put_be64(&call, 0);
	rr_put_be32(&call, 8192);
	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabc, 8192, 0x7000);
	b = send_buf(&h, call.data, call.len, &n);
	ib_send(k, psn, b, n, pmtu);
	free(b);
	rr_wbuf_free(&call);
}

/* An IB CM message (to QP1) between the hosts of flow k. */
static inline void cm(struct rr_flow_key k, uint8_t kind, uint32_t local_id, uint32_t remote_id,
		      uint32_t qpn, uint32_t start_psn)
{
	struct rr_event ev = ev_base(k, RR_EV_CM, RR_FRAG_ONLY, 0, NULL, 0);

	ev.flow.dst_qp = 1;
	ev.cm.kind = kind;
	ev.cm.local_comm_id = local_id;
	ev.cm.remote_comm_id = remote_id;
	ev.cm.local_qpn = qpn;
	ev.cm.start_psn = start_psn;
	feed(&ev);
}

#endif
