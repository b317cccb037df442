// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine fed with events directly (no capture decoder).  Each test
 * builds a whole RPC message first (the oracle), reduces it into a
 * transport header plus chunks the way RFC 8166 says a sender does, feeds
 * the packets, and expects the engine to give the whole message back.
 */
#include "engine_fixture.h"

/* Short call and short reply, no handshake: the two directions must pair. */
static void test_short_pair(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf call, reply;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x100, 100003, 3, 1);
	rr_xdr_put_opaque(&call, "FILEHANDLE-32-BYTES-LONG-ABCDEFG", 32);
	rr_hdr_init(&h, 0x100, 128, RR_RDMA_MSG);
	b = send_buf(&h, call.data, call.len, &n);
	ib_send(c2s, 100, b, n, 4096);
	free(b);
	rr_wbuf_init(&reply, 0);
	rpc_reply_hdr(&reply, 0x100);
	rr_put_be32(&reply, 0);
	rr_put_zeros(&reply, 84);
	rr_hdr_init(&h, 0x100, 32, RR_RDMA_MSG);
	b = send_buf(&h, reply.data, reply.len, &n);
	ib_send(s2c, 500, b, n, 4096);
	free(b);

	assert_int_equal(got.n, 2);
	expect(0, 0x100, RR_DIR_CALL, call.data, call.len);
	expect(1, 0x100, RR_DIR_REPLY, reply.data, reply.len);
	assert_int_equal(got.m[0].conn, got.m[1].conn);
	assert_int_equal(got.m[0].prog, 100003);
	rr_engine_finish(eng);   /* a reply without its call is told by the end at the latest */
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	rr_wbuf_free(&call);
	rr_wbuf_free(&reply);
}

/*
 * NFSv3 READ of 3001 bytes through a Write chunk; the Writes and the Send
 * cross the 24-bit PSN wrap.  The reply comes back with the data and its
 * 3 pad bytes restored after the data length word.
 */
static void test_read_write_chunk(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	uint8_t data[3001];
	struct rr_wbuf full, inl;
	struct rr_hdr h;
	uint32_t psn;
	uint8_t *b;
	size_t n;

	fill(data, sizeof(data), 7);
	read_call_with_write_chunk(c2s, 10, 0x200, 1024);

	/* The whole reply, as TCP would carry it. */
	rr_wbuf_init(&full, 0);
	rpc_reply_hdr(&full, 0x200);
	rr_put_be32(&full, 0);                 /* NFS3_OK */
	rr_put_be32(&full, 0);                 /* no post-op attributes */
	rr_put_be32(&full, sizeof(data));      /* count */
	rr_put_be32(&full, 1);                 /* eof */
	rr_xdr_put_opaque(&full, data, sizeof(data));
	/* Reduced: the data and its pad leave the stream. */
	rr_wbuf_init(&inl, 0);
	rr_put_bytes(&inl, full.data, full.len - rr_xdr_roundup(sizeof(data)));

	psn = ib_write(s2c, 0xfffffe, 0xabc, 0x7000, data, sizeof(data), 1024);
	assert_int_equal(psn, 1);              /* 3 packets from 0xfffffe: the PSN wrapped */
	rr_hdr_init(&h, 0x200, 32, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabc, sizeof(data), 0x7000);
	b = send_buf(&h, inl.data, inl.len, &n);
	ib_send(s2c, psn, b, n, 1024);
	free(b);

	assert_int_equal(got.n, 2);
	expect(1, 0x200, RR_DIR_REPLY, full.data, full.len);
	/* Frames: 3 Write packets plus the reply Send. */
	assert_int_equal(got.m[1].n_frames, 4);
	rr_wbuf_free(&full);
	rr_wbuf_free(&inl);
}

/* Long Call: RDMA_NOMSG with a 2-segment Position-Zero read chunk, a duplicate response. */
static void test_long_call(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf call;
	struct rr_hdr h;
	uint8_t *b, big[6000];
	size_t n;

	fill(big, sizeof(big), 3);
	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x300, 100003, 4, 1);
	rr_xdr_put_opaque(&call, big, sizeof(big));
	rr_hdr_init(&h, 0x300, 128, RR_RDMA_NOMSG);
	rr_hdr_add_read(&h, 0, 0x51, 4000, 0x10000);
	rr_hdr_add_read(&h, 0, 0x52, (uint32_t)call.len - 4000, 0x20000);
	rr_hdr_set_reply_chunk(&h);
	rr_hdr_add_wseg(&h, 0x53, 65536, 0x30000);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(c2s, 0x7ffffff0, b, n, 4096);
	free(b);
	assert_int_equal(got.n, 0);            /* waits for the read chunk */

	ib_read(s2c, c2s, 0xfffffd, 0x51, 0x10000, call.data, 4000, 1024, true);
	assert_int_equal(got.n, 0);
	ib_read(s2c, c2s, 0x000002, 0x52, 0x20000, call.data + 4000, call.len - 4000, 1024, false);
	assert_int_equal(got.n, 1);
	expect(0, 0x300, RR_DIR_CALL, call.data, call.len);
	assert_int_equal(got.m[0].prog, 100003);
	rr_wbuf_free(&call);
}

/* Long Reply: RDMA_NOMSG whose Payload came in the Reply chunk, cut to the returned length. */
static void test_long_reply(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf call, reply;
	struct rr_hdr h;
	uint8_t *b, entries[5000];
	size_t n;

	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x400, 100003, 3, 16);   /* READDIR */
	rr_xdr_put_opaque(&call, "DIRFH", 5);
	rr_put_be64(&call, 0); rr_put_be64(&call, 0); rr_put_be32(&call, 32768);
	rr_hdr_init(&h, 0x400, 128, RR_RDMA_MSG);
	rr_hdr_set_reply_chunk(&h);
	rr_hdr_add_wseg(&h, 0x61, 4096, 0x1000);
	rr_hdr_add_wseg(&h, 0x62, 4096, 0x9000);
	b = send_buf(&h, call.data, call.len, &n);
	ib_send(c2s, 1, b, n, 4096);
	free(b);

	fill(entries, sizeof(entries), 11);
	rr_wbuf_init(&reply, 0);
	rpc_reply_hdr(&reply, 0x400);
	rr_put_bytes(&reply, entries, sizeof(entries));
	/* 4096 bytes into the first segment, the rest into the second. */
	ib_write(s2c, 50, 0x61, 0x1000, reply.data, 4096, 1024);
	ib_write(s2c, 54, 0x62, 0x9000, reply.data + 4096, reply.len - 4096, 1024);
	rr_hdr_init(&h, 0x400, 32, RR_RDMA_NOMSG);
	rr_hdr_set_reply_chunk(&h);
	rr_hdr_add_wseg(&h, 0x61, 4096, 0x1000);
	rr_hdr_add_wseg(&h, 0x62, (uint32_t)reply.len - 4096, 0x9000);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(s2c, 60, b, n, 4096);
	free(b);

	assert_int_equal(got.n, 2);
	expect(1, 0x400, RR_DIR_REPLY, reply.data, reply.len);
	rr_wbuf_free(&call);
	rr_wbuf_free(&reply);
}

/* Two connections between the same hosts, no handshake: replies find their calls by XID. */
static void test_two_connections(void **state)
{
	struct rr_flow_key a1 = roce(1, 2, 0x21), a2 = roce(1, 2, 0x22);
	struct rr_flow_key b1 = roce(2, 1, 0x31), b2 = roce(2, 1, 0x32);
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;
	int i;

	rr_wbuf_init(&m, 0);
	for (i = 0; i < 2; i++) {
		rr_wbuf_reset(&m);
		rpc_call_hdr(&m, 0x500 + i, 100003, 3, 0);
		rr_hdr_init(&h, 0x500 + i, 128, RR_RDMA_MSG);
		b = send_buf(&h, m.data, m.len, &n);
		ib_send(i ? a2 : a1, 1, b, n, 4096);
		free(b);
	}
	/* Replies arrive in the other order, from the other QPs. */
	for (i = 1; i >= 0; i--) {
		rr_wbuf_reset(&m);
		rpc_reply_hdr(&m, 0x500 + i);
		rr_hdr_init(&h, 0x500 + i, 32, RR_RDMA_MSG);
		b = send_buf(&h, m.data, m.len, &n);
		ib_send(i ? b2 : b1, 1, b, n, 4096);
		free(b);
	}
	assert_int_equal(got.n, 4);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	assert_int_equal(got.m[0].conn, got.m[3].conn);   /* 0x500 call and reply */
	assert_int_equal(got.m[1].conn, got.m[2].conn);   /* 0x501 */
	assert_int_not_equal(got.m[0].conn, got.m[1].conn);
	rr_wbuf_free(&m);
}

/* A retransmitted Send (same PSN) is not delivered twice. */
static void test_duplicate_send(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12);
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, 0x600, 100003, 3, 0);
	rr_hdr_init(&h, 0x600, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ib_send(c2s, 77, b, n, 4096);
	ib_send(c2s, 77, b, n, 4096);
	free(b);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.diags[CAP_DUP], 1);
	rr_wbuf_free(&m);
}

/* iWARP: a Send in two DDP segments, a Write chunk, and read via sink STag. */
static void test_iwarp(void **state)
{
	struct rr_flow_key c2s = iwarp(1, 40000, 2, 20049), s2c = iwarp(2, 20049, 1, 40000);
	uint8_t wdata[1001];
	struct rr_wbuf full, inl;
	struct rr_hdr h;
	struct rr_event ev;
	uint8_t *b;
	size_t n;

	/* NFSv3 WRITE of 1001 bytes through a read chunk at its Position (pad restored). */
	fill(wdata, sizeof(wdata), 5);
	rr_wbuf_init(&full, 0);
	rpc_call_hdr(&full, 0x700, 100003, 3, 7);
	rr_xdr_put_opaque(&full, "FH", 2);
	rr_put_be64(&full, 0); rr_put_be32(&full, 1001); rr_put_be32(&full, 2);
	rr_put_be32(&full, 1001);
	rr_wbuf_init(&inl, 0);
	rr_put_bytes(&inl, full.data, full.len);
	rr_xdr_put_fixed(&full, wdata, sizeof(wdata));
	rr_hdr_init(&h, 0x700, 128, RR_RDMA_MSG);
	rr_hdr_add_read(&h, (uint32_t)inl.len, 0x77, 1001, 0x5000);
	b = send_buf(&h, inl.data, inl.len, &n);
	ev = ev_base(c2s, RR_EV_SEND, RR_FRAG_MIDDLE, 0, b, 40);
	ev.has_offset = true; ev.msn = 1; ev.offset = 0;
	feed(&ev);
	ev = ev_base(c2s, RR_EV_SEND, RR_FRAG_LAST, 0, b + 40, (uint32_t)n - 40);
	ev.has_offset = true; ev.msn = 1; ev.offset = 40;
	feed(&ev);
	free(b);
	assert_int_equal(got.n, 0);

	ev = ev_base(s2c, RR_EV_READ_REQ, RR_FRAG_ONLY, 0, NULL, 0);
	ev.has_reth = true; ev.rkey = 0x77; ev.va = 0x5000; ev.dma_len = 1001;
	ev.sink_stag = 0x99; ev.sink_to = 0x100000;
	feed(&ev);
	ev = ev_base(c2s, RR_EV_READ_RESP, RR_FRAG_MIDDLE, 0, wdata, 600);
	ev.has_offset = true; ev.rkey = 0x99; ev.offset = 0x100000;
	feed(&ev);
	ev = ev_base(c2s, RR_EV_READ_RESP, RR_FRAG_LAST, 0, wdata + 600, 401);
	ev.has_offset = true; ev.rkey = 0x99; ev.offset = 0x100000 + 600;
	feed(&ev);
	assert_int_equal(got.n, 1);
	expect(0, 0x700, RR_DIR_CALL, full.data, full.len);
	assert_int_equal(got.m[0].n_frames, 4);   /* 2 Send segments + 2 responses */
	rr_wbuf_free(&full);
	rr_wbuf_free(&inl);
}

/* Hostile headers: a huge count, an unknown type; diagnostics, nothing delivered, no crash. */
static void test_hostile(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12);
	uint8_t b[64] = { 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,
			  0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff };
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *s;
	size_t n;

	/* First a good call so the connection is known to carry RPC-over-RDMA. */
	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, 0x800, 100003, 3, 0);
	rr_hdr_init(&h, 0x800, 128, RR_RDMA_MSG);
	s = send_buf(&h, m.data, m.len, &n);
	ib_send(c2s, 1, s, n, 4096);
	free(s);
	ib_send(c2s, 2, b, sizeof(b), 4096);
	assert_int_equal(got.diags[RR_006_SHORT_HDR], 1);
	b[15] = 9;
	ib_send(c2s, 3, b, sizeof(b), 4096);
	assert_int_equal(got.diags[RR_005_PROC], 1);
	assert_int_equal(got.n, 1);
	rr_wbuf_free(&m);
}

/*
 * A Long Call whose Position-Zero segment claims 4 GiB and never arrives:
 * the rebuild stops at the message limit instead of allocating 4 GiB.
 */
static void test_absurd_segment(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_hdr_init(&h, 0x900, 128, RR_RDMA_NOMSG);
	rr_hdr_add_read(&h, 0, 0x91, 0xffffffffu, 0);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(c2s, 1, b, n, 4096);
	free(b);
	rr_wbuf_init(&m, 0);
	rpc_reply_hdr(&m, 0x900);
	rr_hdr_init(&h, 0x900, 32, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ib_send(s2c, 1, b, n, 4096);        /* the reply forces the call out */
	free(b);
	assert_int_equal(got.n, 2);
	assert_false(got.m[0].complete);
	assert_true(got.m[0].len <= (64u << 20));
	assert_int_equal(got.diags[ENG_LIMIT], 1);
	rr_wbuf_free(&m);
}

/*
 * A segment far larger than its first room (64 KiB) gets its bytes in
 * pieces that straddle each growth: a 600 000-byte Position-Zero read
 * chunk read in 1000-byte responses comes back whole.
 */
static void test_large_read_segment(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	static uint8_t big[600000];
	struct rr_wbuf call;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	fill(big, sizeof(big), 5);
	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x500, 100003, 4, 1);
	rr_xdr_put_opaque(&call, big, sizeof(big));
	rr_hdr_init(&h, 0x500, 128, RR_RDMA_NOMSG);
	rr_hdr_add_read(&h, 0, 0x61, (uint32_t)call.len, 0x100000);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(c2s, 1, b, n, 4096);
	free(b);
	ib_read(s2c, c2s, 100, 0x61, 0x100000, call.data, call.len, 1000, false);
	assert_int_equal(got.n, 1);
	expect(0, 0x500, RR_DIR_CALL, call.data, call.len);
	rr_wbuf_free(&call);
}

/*
 * The same for a write chunk whose end is written before its start (two
 * RDMA Writes, the later half first): room for the end comes first, and
 * the start fills in below it.
 */
static void test_large_write_segment_backwards(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	static uint8_t data[300001];
	struct rr_wbuf call, full, inl;
	struct rr_hdr h;
	uint32_t psn;
	uint8_t *b;
	size_t n, half = 170000;

	fill(data, sizeof(data), 9);
	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x600, 100003, 3, 6);
	rr_xdr_put_opaque(&call, "FH-0123456789ABCDEF", 19);
	rr_put_be64(&call, 0);
	rr_put_be32(&call, sizeof(data));
	rr_hdr_init(&h, 0x600, 128, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabd, sizeof(data), 0x7000);
	b = send_buf(&h, call.data, call.len, &n);
	ib_send(c2s, 10, b, n, 4096);
	free(b);

	rr_wbuf_init(&full, 0);
	rpc_reply_hdr(&full, 0x600);
	rr_put_be32(&full, 0);                 /* NFS3_OK */
	rr_put_be32(&full, 0);                 /* no post-op attributes */
	rr_put_be32(&full, sizeof(data));      /* count */
	rr_put_be32(&full, 1);                 /* eof */
	rr_xdr_put_opaque(&full, data, sizeof(data));
	rr_wbuf_init(&inl, 0);
	rr_put_bytes(&inl, full.data, full.len - rr_xdr_roundup(sizeof(data)));

	psn = ib_write(s2c, 1, 0xabd, 0x7000 + half, data + half, sizeof(data) - half, 1000);
	psn = ib_write(s2c, psn, 0xabd, 0x7000, data, half, 1000);
	rr_hdr_init(&h, 0x600, 32, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabd, sizeof(data), 0x7000);
	b = send_buf(&h, inl.data, inl.len, &n);
	ib_send(s2c, psn, b, n, 4096);
	free(b);

	assert_int_equal(got.n, 2);
	expect(1, 0x600, RR_DIR_REPLY, full.data, full.len);
	rr_wbuf_free(&call);
	rr_wbuf_free(&full);
	rr_wbuf_free(&inl);
}

/* Plain verbs traffic (rping-like text) is not RPC-over-RDMA and is not reported. */
static void test_not_rpcrdma(void **state)
{
	static const char text[] = "rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr";

	ib_send(roce(1, 2, 0x12), 1, (const uint8_t *)text, sizeof(text), 4096);
	assert_int_equal(got.n, 0);
	assert_int_equal(rr_engine_stats(eng)->not_rpcrdma, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_short_pair, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_write_chunk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_call, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_connections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_send, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iwarp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absurd_segment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_rpcrdma, setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_read_segment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_write_segment_backwards, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
