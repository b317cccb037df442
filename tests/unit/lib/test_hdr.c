// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The transport header codec against byte examples worked by hand from the
 * XDR of RFC 8166 §4.1.2 (and the shapes of §4.7), typed in byte by byte,
 * plus round trips and every way a header can be broken.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hdr.h"

/* (i) NFSv3 WRITE call, RDMA_MSG, one read chunk of one segment: 52-byte header. */
static const uint8_t ex_write_call[] = {
	0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x8c, 0xab, 0xcd, 0x00, 0x01, 0x00, 0x00, 0x80, 0x00,
	0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	/* Payload: the RPC call starts with the XID. */
	0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x00,
};

/* (ii) READ reply, one write chunk of one segment, 4093 bytes returned. */
static const uint8_t ex_read_reply[] = {
	0x0a, 0x0b, 0x0c, 0x0d, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,                         /* read list empty */
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, /* write list: chunk, N=1 */
	0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x0f, 0xfd, /* H, 4093 */
	0x00, 0x00, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xe0, /* O */
	0x00, 0x00, 0x00, 0x00,                         /* end of write list */
	0x00, 0x00, 0x00, 0x00,                         /* no reply chunk */
};

/* (iii) Long call: RDMA_NOMSG, PZRC of 2 segments, 1-segment reply chunk: 96 bytes. */
static const uint8_t ex_long_call[] = {
	0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x00, 0x00, 0x01, 0x00, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x00, 0x00, 0x02, 0x00, 0x00, 0x02, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,                         /* end of read list (0x40) */
	0x00, 0x00, 0x00, 0x00,                         /* write list (0x44) */
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, /* reply chunk present, N=1 (0x48) */
	0xb0, 0x00, 0x00, 0x03, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00,
};

/* (iv) RDMA_ERROR. */
static const uint8_t ex_err_vers[] = {
	0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
};
static const uint8_t ex_err_chunk[] = {
	0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x02,
};

static struct rr_hdr h;

static void reencodes_to(const uint8_t *bytes, size_t len)
{
	struct rr_wbuf w;

	rr_wbuf_init(&w, 0);
	assert_true(rr_hdr_encode(&h, &w));
	assert_int_equal(w.len, len);
	assert_memory_equal(w.data, bytes, len);
	rr_wbuf_free(&w);
}

static void test_write_call(void **state)
{
	assert_int_equal(rr_hdr_decode(ex_write_call, sizeof(ex_write_call), &h), RR_HDR_OK);
	assert_int_equal(h.xid, 0x12345678);
	assert_int_equal(h.vers, 1);
	assert_int_equal(h.credit, 128);
	assert_int_equal(h.proc, RR_RDMA_MSG);
	assert_int_equal(h.n_reads, 1);
	assert_int_equal(h.reads[0].position, 140);
	assert_int_equal(h.reads[0].seg.handle, 0xabcd0001);
	assert_int_equal(h.reads[0].seg.length, 32768);
	assert_true(h.reads[0].seg.offset == 0x00007f1234567000ull);
	assert_int_equal(h.n_write_chunks, 0);
	assert_false(h.has_reply);
	assert_int_equal(h.hdr_len, 52);
	reencodes_to(ex_write_call, 52);
}

static void test_read_reply(void **state)
{
	assert_int_equal(rr_hdr_decode(ex_read_reply, sizeof(ex_read_reply), &h), RR_HDR_OK);
	assert_int_equal(h.n_reads, 0);
	assert_int_equal(h.n_write_chunks, 1);
	assert_int_equal(h.writes[0].count, 1);
	assert_int_equal(rr_hdr_wseg(&h, &h.writes[0], 0)->handle, 0x11223344);
	assert_int_equal(rr_hdr_wseg(&h, &h.writes[0], 0)->length, 4093);
	assert_true(rr_hdr_wseg(&h, &h.writes[0], 0)->offset == 0xdeadbee0ull);
	assert_true(rr_chunk_length(&h, &h.writes[0]) == 4093);
	assert_int_equal(h.hdr_len, 0x34);
	reencodes_to(ex_read_reply, sizeof(ex_read_reply));
}

static void test_long_call(void **state)
{
	assert_int_equal(rr_hdr_decode(ex_long_call, sizeof(ex_long_call), &h), RR_HDR_OK);
	assert_int_equal(h.proc, RR_RDMA_NOMSG);
	assert_int_equal(h.n_reads, 2);
	assert_int_equal(h.reads[0].position, 0);
	assert_int_equal(h.reads[1].position, 0);
	assert_int_equal(h.reads[1].seg.length, 0x200);
	assert_true(h.has_reply);
	assert_int_equal(h.reply.count, 1);
	assert_int_equal(rr_hdr_wseg(&h, &h.reply, 0)->handle, 0xb0000003);
	assert_int_equal(h.hdr_len, 96);
	reencodes_to(ex_long_call, 96);
}

static void test_errors(void **state)
{
	assert_int_equal(rr_hdr_decode(ex_err_vers, sizeof(ex_err_vers), &h), RR_HDR_OK);
	assert_int_equal(h.proc, RR_RDMA_ERROR);
	assert_int_equal(h.err, RR_ERR_VERS);
	assert_int_equal(h.vers_low, 1);
	assert_int_equal(h.vers_high, 1);
	assert_int_equal(h.hdr_len, 28);
	reencodes_to(ex_err_vers, 28);

	assert_int_equal(rr_hdr_decode(ex_err_chunk, sizeof(ex_err_chunk), &h), RR_HDR_OK);
	assert_int_equal(h.err, RR_ERR_CHUNK);
	assert_int_equal(h.hdr_len, 20);
	reencodes_to(ex_err_chunk, 20);
}

/* Digest 1.3 table: lengths of the small headers. */
static void test_lengths(void **state)
{
	struct rr_wbuf w;

	rr_wbuf_init(&w, 0);
	rr_hdr_init(&h, 1, 1, RR_RDMA_MSG);
	assert_true(rr_hdr_encode(&h, &w));
	assert_int_equal(w.len, 28);
	rr_wbuf_reset(&w);
	rr_hdr_init(&h, 1, 1, RR_RDMA_MSGP);
	h.align = 1024;
	h.thresh = 4096;
	assert_true(rr_hdr_encode(&h, &w));
	assert_int_equal(w.len, 36);
	assert_int_equal(rr_hdr_decode(w.data, w.len, &h), RR_HDR_OK);
	assert_int_equal(h.align, 1024);
	assert_int_equal(h.thresh, 4096);
	assert_int_equal(h.hdr_len, 36);
	rr_wbuf_reset(&w);
	rr_hdr_init(&h, 1, 1, RR_RDMA_DONE);
	assert_true(rr_hdr_encode(&h, &w));
	assert_int_equal(w.len, 16);
	assert_int_equal(rr_hdr_decode(w.data, w.len, &h), RR_HDR_OK);
	assert_int_equal(h.hdr_len, 16);
	rr_wbuf_free(&w);
}

/* Every proper prefix of a valid header is short, never OK, never a crash. */
static void test_every_prefix_is_short(void **state)
{
	static const struct { const uint8_t *b; size_t n; } ex[] = {
		{ ex_write_call, 52 }, { ex_read_reply, sizeof(ex_read_reply) },
		{ ex_long_call, sizeof(ex_long_call) }, { ex_err_vers, 28 }, { ex_err_chunk, 20 },
	};
	size_t i, n;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++)
		for (n = 0; n < ex[i].n; n++)
			assert_int_equal(rr_hdr_decode(ex[i].b, n, &h), RR_HDR_E_SHORT);
}

static void test_bad_bool_and_proc(void **state)
{
	uint8_t b[sizeof(ex_write_call)];

	memcpy(b, ex_write_call, sizeof(b));
	b[0x13] = 2;                                /* read-list discriminator */
	assert_int_equal(rr_hdr_decode(b, sizeof(b), &h), RR_HDR_E_BOOL);
	assert_int_equal(h.err_offset, 0x10);
	assert_int_equal(rr_hdr_status_rule(RR_HDR_E_BOOL), RR_020_XDR_BOOL);

	memcpy(b, ex_write_call, sizeof(b));
	b[0x2f] = 7;                                /* write-list discriminator */
	assert_int_equal(rr_hdr_decode(b, sizeof(b), &h), RR_HDR_E_BOOL);
	assert_int_equal(h.err_offset, 0x2c);

	memcpy(b, ex_write_call, sizeof(b));
	b[0x0f] = 5;
	assert_int_equal(rr_hdr_decode(b, sizeof(b), &h), RR_HDR_E_PROC);
	assert_int_equal(rr_hdr_status_rule(RR_HDR_E_PROC), RR_005_PROC);

	memcpy(b, ex_err_chunk, 20);
	b[0x13] = 3;
	assert_int_equal(rr_hdr_decode(b, 20, &h), RR_HDR_E_ERRCODE);
}

static void test_not_v1(void **state)
{
	uint8_t b[sizeof(ex_err_vers)];

	memcpy(b, ex_write_call, 16);
	b[7] = 2;
	assert_int_equal(rr_hdr_decode(b, 16, &h), RR_HDR_E_NOT_V1);
	assert_int_equal(h.xid, 0x12345678);
	assert_int_equal(h.vers, 2);
	assert_int_equal(h.credit, 128);

	/* ERR_VERS is fixed for all versions: its range still decodes. */
	memcpy(b, ex_err_vers, sizeof(b));
	b[7] = 3;
	b[0x17] = 2;
	b[0x1b] = 3;
	assert_int_equal(rr_hdr_decode(b, sizeof(b), &h), RR_HDR_E_NOT_V1);
	assert_int_equal(h.err, RR_ERR_VERS);
	assert_int_equal(h.vers_low, 2);
	assert_int_equal(h.vers_high, 3);
}

/* A segment count of 2^32-1 must be judged against the bytes present, not allocated. */
static void test_absurd_counts(void **state)
{
	uint8_t b[64] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0,
			  0, 0, 0, 0,               /* read list empty */
			  0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff };
	struct rr_wbuf w;
	int i;

	assert_int_equal(rr_hdr_decode(b, sizeof(b), &h), RR_HDR_E_SHORT);
	assert_int_equal(h.err_offset, 24);

	/* 257 read segments: more than the engine holds. */
	rr_wbuf_init(&w, 0);
	rr_put_be32(&w, 9); rr_put_be32(&w, 1); rr_put_be32(&w, 1); rr_put_be32(&w, 0);
	for (i = 0; i < RR_HDR_MAX_SEGS + 1; i++) {
		rr_put_be32(&w, 1); rr_put_be32(&w, 0); rr_put_be32(&w, 1); rr_put_be32(&w, 4);
		rr_put_be64(&w, 0);
	}
	rr_put_be32(&w, 0); rr_put_be32(&w, 0); rr_put_be32(&w, 0);
	assert_int_equal(rr_hdr_decode(w.data, w.len, &h), RR_HDR_E_LIMIT);
	rr_wbuf_free(&w);
}

/* Headers built with the builders survive encode -> decode -> encode unchanged. */
static uint32_t rnd(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}
#define RND() rnd(&seed)

static void test_round_trip(void **state)
{
	static struct rr_hdr a, b;
	uint32_t seed = 12345;
	int iter;

	for (iter = 0; iter < 500; iter++) {
		struct rr_wbuf w1, w2;
		int n, k, s;

		rr_hdr_init(&a, RND(), RND() & 0xff, RND() % 3);
		if (a.proc == RR_RDMA_MSGP) {
			a.align = RND();
			a.thresh = RND();
		}
		for (n = RND() % 5; n > 0; n--)
			assert_true(rr_hdr_add_read(&a, (RND() % 64) * 4, RND(), RND(), (uint64_t)RND() << 20));
		for (k = RND() % 4; k > 0; k--) {
			assert_true(rr_hdr_add_write_chunk(&a));
			for (s = RND() % 4; s > 0; s--)
				assert_true(rr_hdr_add_wseg(&a, RND(), RND(), RND()));
		}
		if (RND() & 1) {
			assert_true(rr_hdr_set_reply_chunk(&a));
			for (s = 1 + RND() % 3; s > 0; s--)
				assert_true(rr_hdr_add_wseg(&a, RND(), RND(), RND()));
		}
		rr_wbuf_init(&w1, 0);
		rr_wbuf_init(&w2, 0);
		assert_true(rr_hdr_encode(&a, &w1));
		assert_int_equal(rr_hdr_decode(w1.data, w1.len, &b), RR_HDR_OK);
		assert_int_equal(b.hdr_len, w1.len);
		assert_int_equal(b.n_reads, a.n_reads);
		assert_int_equal(b.n_write_chunks, a.n_write_chunks);
		assert_int_equal(b.has_reply, a.has_reply);
		assert_int_equal(b.n_wsegs, a.n_wsegs);
		for (k = 0; k < (int)a.n_reads; k++) {
			assert_int_equal(b.reads[k].position, a.reads[k].position);
			assert_int_equal(b.reads[k].seg.handle, a.reads[k].seg.handle);
			assert_int_equal(b.reads[k].seg.length, a.reads[k].seg.length);
			assert_true(b.reads[k].seg.offset == a.reads[k].seg.offset);
		}
		for (k = 0; k < (int)a.n_wsegs; k++) {
			assert_int_equal(b.wsegs[k].handle, a.wsegs[k].handle);
			assert_int_equal(b.wsegs[k].length, a.wsegs[k].length);
			assert_true(b.wsegs[k].offset == a.wsegs[k].offset);
		}
		assert_true(rr_hdr_encode(&b, &w2));
		assert_int_equal(w1.len, w2.len);
		assert_memory_equal(w1.data, w2.data, w1.len);
		/* Header length from the XDR of RFC 8166 §4.1.2: 16 fixed bytes, then the lists. */
		{
			size_t want = 16 + (a.proc == RR_RDMA_MSGP ? 8 : 0) + 4 + 24 * a.n_reads + 4 +
				      (a.has_reply ? 8 + 16 * a.reply.count : 4);
			for (k = 0; k < (int)a.n_write_chunks; k++)
				want += 8 + 16 * a.writes[k].count;
			assert_int_equal(w1.len, want);
		}
		rr_wbuf_free(&w1);
		rr_wbuf_free(&w2);
	}
}


/*
 * rr_hdr_layout against the hand-typed examples: every leaf span's bytes
 * hold its value, leaves tile the header from 0 to hdr_len, groups span
 * exactly their items, and named places sit where the XDR of RFC 8166 §4.1.2 puts them.
 */
struct layout_seen {
	const uint8_t *buf;
	size_t next;                  /* where the next leaf must start */
	size_t n_leaves, n_groups;
	size_t handle_at[8];          /* offset of each RR_HS_HANDLE, in order */
	size_t n_handles;
	size_t reply_list_at;
	bool ok;
};

static bool is_group(enum rr_hdr_span_kind k)
{
	return k == RR_HS_LIST || k == RR_HS_CHUNK || k == RR_HS_SEGMENT;
}

static void layout_cb(void *ctx, const struct rr_hdr_span *sp)
{
	struct layout_seen *ls = ctx;
	uint64_t v = 0;
	size_t i;

	if (sp->offset != ls->next)
		ls->ok = false;
	if (is_group(sp->kind)) {
		ls->n_groups++;
		if (sp->kind == RR_HS_LIST && sp->list == RR_HL_REPLY)
			ls->reply_list_at = sp->offset;
		return;
	}
	ls->n_leaves++;
	for (i = 0; i < sp->len && sp->kind != RR_HS_UNDECODED; i++)
		v = v << 8 | ls->buf[sp->offset + i];
	if (sp->kind != RR_HS_UNDECODED && v != sp->value)
		ls->ok = false;
	if (sp->kind == RR_HS_HANDLE && ls->n_handles < 8)
		ls->handle_at[ls->n_handles++] = sp->offset;
	ls->next = sp->offset + sp->len;
}

static struct layout_seen walk_example(const uint8_t *buf, size_t len, struct rr_hdr *hd)
{
	struct layout_seen ls = { .buf = buf, .ok = true };
	enum rr_hdr_status st = rr_hdr_decode(buf, len, hd);

	rr_hdr_layout(hd, st, len, layout_cb, &ls);
	return ls;
}

static void test_layout(void **state)
{
	struct rr_hdr *hd = malloc(sizeof(*hd));
	struct layout_seen ls;

	(void)state;
	ls = walk_example(ex_write_call, sizeof(ex_write_call), hd);
	assert_true(ls.ok);
	assert_int_equal(ls.next, 52);                 /* 16 fixed bytes + the lists worked out above */
	assert_int_equal(ls.n_handles, 1);
	assert_int_equal(ls.handle_at[0], 24);         /* 0xabcd0001 */
	assert_int_equal(ls.reply_list_at, 48);

	ls = walk_example(ex_read_reply, sizeof(ex_read_reply), hd);
	assert_true(ls.ok);
	assert_int_equal(ls.next, sizeof(ex_read_reply));
	assert_int_equal(ls.n_handles, 1);
	assert_int_equal(ls.handle_at[0], 28);         /* 0x11223344 */

	ls = walk_example(ex_long_call, sizeof(ex_long_call), hd);
	assert_true(ls.ok);
	assert_int_equal(ls.next, 96);
	assert_int_equal(ls.n_handles, 3);
	assert_int_equal(ls.handle_at[0], 24);
	assert_int_equal(ls.handle_at[1], 48);
	assert_int_equal(ls.handle_at[2], 80);         /* 0xb0000003 in the reply chunk */
	assert_int_equal(ls.reply_list_at, 0x48);

	/* A broken header: its fixed words, then the rest as undecoded. */
	{
		uint8_t bad[sizeof(ex_write_call)];

		memcpy(bad, ex_write_call, sizeof(bad));
		bad[19] = 7;                           /* read list flag neither 0 nor 1 */
		ls = walk_example(bad, sizeof(bad), hd);
		assert_true(ls.ok);
		assert_int_equal(ls.n_leaves, 5);
		assert_int_equal(ls.next, sizeof(bad));
	}
	free(hd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_call),
		cmocka_unit_test(test_read_reply),
		cmocka_unit_test(test_long_call),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_every_prefix_is_short),
		cmocka_unit_test(test_bad_bool_and_proc),
		cmocka_unit_test(test_not_v1),
		cmocka_unit_test(test_absurd_counts),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
