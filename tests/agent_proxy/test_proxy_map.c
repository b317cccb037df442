// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's chunk arithmetic against RFC 8166 headers written out word
 * by word: a call's read chunks grouped by Position (3.4.5), a Write chunk
 * filled in segment order and returned with the lengths written (3.4.6),
 * an unused Reply chunk returned with every length zero (4.3.3), and the
 * proxy's own one-segment chunks in a call toward the server.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proxy_map.h"

/* XDR words into bytes; a 64-bit offset is two words (hi, lo). */
static size_t words(uint8_t *out, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[4 * i] = (uint8_t)(w[i] >> 24);
		out[4 * i + 1] = (uint8_t)(w[i] >> 16);
		out[4 * i + 2] = (uint8_t)(w[i] >> 8);
		out[4 * i + 3] = (uint8_t)w[i];
	}
	return 4 * n;
}

/* A call: RDMA_MSG, no read chunk, one Write chunk of two 4096-byte
 * segments, a Reply chunk of one 8192-byte segment, 8 bytes inline. */
static const uint32_t call_words[] = {
	0x11223344, 1, 32, 0,
	0,                                   /* read list ends */
	1, 2, 0xA1, 4096, 0, 0x1000, 0xA2, 4096, 0, 0x9000,
	0,                                   /* write list ends */
	1, 1, 0xB1, 8192, 0, 0x20000,        /* reply chunk */
	0x41424344, 0x45464748,
};

static void decode_call(struct rr_hdr *h)
{
	uint8_t b[sizeof(call_words)];
	size_t n = words(b, call_words, G_N_ELEMENTS(call_words));
	assert_int_equal(rr_hdr_decode(b, n, h), RR_HDR_OK);
}

static void test_write_lengths(void **state)
{
	/* 6000 bytes written: the first segment full, 1904 in the second; the
	 * Reply chunk unused comes back with its length zero */
	static const uint32_t want_words[] = {
		0x11223344, 1, 32, 0,
		0,
		1, 2, 0xA1, 4096, 0, 0x1000, 0xA2, 1904, 0, 0x9000,
		0,
		1, 1, 0xB1, 0, 0, 0x20000,
		0x72657300,
	};
	uint8_t want[sizeof(want_words)];
	size_t n = words(want, want_words, G_N_ELEMENTS(want_words));
	struct rr_hdr h;
	uint64_t used[1] = { 6000 };
	GPtrArray *own = px_chunks_new();
	pg_rdmamsg m;

	(void)state;
	decode_call(&h);
	pg_rdmamsg_simple(&m, h.xid, RDMA_MSG, 32);
	assert_true(px_returned_chunks(&m, &h, used, 0, own));
	g_byte_array_append(m.inline_payload, (const guint8 *)"res", 4);
	pg_rdmamsg_encode(&m);
	assert_int_equal(m.wire->len, n);
	assert_memory_equal(m.wire->data, want, n);
	/* the header's length as px_reply_hdr_len() foresees it: all but the 4 payload bytes */
	assert_int_equal(px_reply_hdr_len(&h), n - 4);
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
}

static void test_reply_chunk_used(void **state)
{
	/* a Long Reply of 300 bytes in the Reply chunk, the Write chunk unused */
	static const uint32_t want_words[] = {
		0x11223344, 1, 32, 1,
		0,
		1, 2, 0xA1, 0, 0, 0x1000, 0xA2, 0, 0, 0x9000,
		0,
		1, 1, 0xB1, 300, 0, 0x20000,
	};
	uint8_t want[sizeof(want_words)];
	size_t n = words(want, want_words, G_N_ELEMENTS(want_words));
	struct rr_hdr h;
	uint64_t used[1] = { 0 };
	GPtrArray *own = px_chunks_new();
	pg_rdmamsg m;

	(void)state;
	decode_call(&h);
	pg_rdmamsg_simple(&m, h.xid, RDMA_NOMSG, 32);
	assert_true(px_returned_chunks(&m, &h, used, 300, own));
	pg_rdmamsg_encode(&m);
	assert_int_equal(m.wire->len, n);
	assert_memory_equal(m.wire->data, want, n);
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
}

static void test_overfill(void **state)
{
	struct rr_hdr h;
	uint64_t used[1] = { 8193 };   /* one byte more than the two segments hold */
	GPtrArray *own = px_chunks_new();
	pg_rdmamsg m;

	(void)state;
	decode_call(&h);
	pg_rdmamsg_simple(&m, h.xid, RDMA_MSG, 32);
	assert_false(px_returned_chunks(&m, &h, used, 0, own));
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
}

static void test_read_chunks_and_offer(void **state)
{
	/* a Long Call: two segments at Position 0, one at 132 (a WRITE's data) */
	static const uint32_t in_words[] = {
		7, 1, 16, 1,
		1, 0, 0xC1, 1024, 0, 0x100,
		1, 0, 0xC2, 100, 0, 0x900,
		1, 132, 0xC3, 5000, 0, 0x4000,
		0, 0, 0,
	};
	/* toward the server: one segment a chunk, the proxy's own handles */
	static const uint32_t out_words[] = {
		7, 1, 32, 1,
		1, 0, 0xD1, 1124, 0, 0x7000,
		1, 132, 0xD2, 5000, 0x1, 0x0,
		0, 0, 0,
	};
	uint8_t in[sizeof(in_words)], want[sizeof(out_words)];
	size_t n_in = words(in, in_words, G_N_ELEMENTS(in_words));
	size_t n = words(want, out_words, G_N_ELEMENTS(out_words));
	struct px_rchunk rc[4];
	struct rr_hdr h;
	GPtrArray *own = px_chunks_new();
	pg_rdmamsg m;
	bool ok;
	unsigned k;

	(void)state;
	assert_int_equal(rr_hdr_decode(in, n_in, &h), RR_HDR_OK);
	k = px_read_chunks(&h, rc, 4, &ok);
	assert_true(ok);
	assert_int_equal(k, 2);
	assert_int_equal(rc[0].position, 0);
	assert_int_equal(rc[0].count, 2);
	assert_int_equal(rc[0].length, 1124);
	assert_int_equal(rc[1].position, 132);
	assert_int_equal(rc[1].first, 2);
	assert_int_equal(rc[1].length, 5000);
	assert_int_equal(px_read_chunks(&h, rc, 1, &ok), 1);
	assert_false(ok);

	pg_rdmamsg_simple(&m, h.xid, RDMA_NOMSG, 32);
	g_ptr_array_add(own, px_offer(0, 0xD1, 1124, 0x7000));
	g_ptr_array_add(m.reads, own->pdata[0]);
	g_ptr_array_add(own, px_offer(132, 0xD2, 5000, 0x100000000ull));
	g_ptr_array_add(m.reads, own->pdata[1]);
	pg_rdmamsg_encode(&m);
	assert_int_equal(m.wire->len, n);
	assert_memory_equal(m.wire->data, want, n);
	pg_rdmamsg_clear(&m);
	px_chunks_free(own);
}

static void test_returned(void **state)
{
	/* a server's reply: write list of two chunks (3000 in one segment; 0),
	 * a Reply chunk of 2 segments with 200 + 100 bytes */
	static const uint32_t w[] = {
		9, 1, 64, 1,
		0,
		1, 1, 0xE1, 3000, 0, 0x10,
		1, 1, 0xE2, 0, 0, 0x20,
		0,
		1, 2, 0xE3, 200, 0, 0x30, 0xE4, 100, 0, 0x40,
	};
	uint8_t b[sizeof(w)];
	size_t n = words(b, w, G_N_ELEMENTS(w));
	struct rr_hdr h;

	(void)state;
	assert_int_equal(rr_hdr_decode(b, n, &h), RR_HDR_OK);
	assert_int_equal(px_returned(&h, 0), 3000);
	assert_int_equal(px_returned(&h, 1), 0);
	assert_int_equal(px_returned(&h, 2), 0);   /* not in the list */
	assert_int_equal(px_returned_reply(&h), 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_lengths),
		cmocka_unit_test(test_reply_chunk_used),
		cmocka_unit_test(test_overfill),
		cmocka_unit_test(test_read_chunks_and_offer),
		cmocka_unit_test(test_returned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
