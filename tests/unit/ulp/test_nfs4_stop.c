// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a reply walk that fails stopped: the DDP-eligible result it broke
 * in (rr_ulp_info.stop_item), so a check can name the result and the Write
 * chunk it pairs with (RFC 8267 6.4.1).  The expected offsets and lengths
 * are those of the bytes each test writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nfs4_enc.h"

/* SEQUENCE, PUTFH, READ (data in a chunk), PUTFH, READ #2 up to its eof word. */
static size_t two_reads_head(struct rr_wbuf *w)
{
	x_res_hdr(w, 0, 5);
	x_sequence_res(w);
	x_u32(w, PUTFH);
	x_u32(w, 0);
	x_u32(w, READ);
	x_u32(w, 0);
	x_bool(w, false);
	x_len_only(w, 512);          /* READ #1: its data went to Write chunk 0 */
	x_u32(w, PUTFH);
	x_u32(w, 0);
	x_u32(w, READ);
	x_u32(w, 0);
	x_bool(w, true);
	return w->len;
}

/* READ #2's length word is there, its 300 bytes are not. */
static void test_second_read_data_missing(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x1 };
	size_t at;

	(void)state;
	rr_wbuf_init(&w, 0);
	at = two_reads_head(&w);
	x_len_only(&w, 300);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_true(out.stop_item.set);
	assert_int_equal(out.stop_item.op, READ);
	assert_int_equal(out.stop_item.ordinal, 1);
	assert_int_equal(out.stop_item.length, 300);
	assert_int_equal(out.stop_item.pos, at);
	assert_int_equal(out.stop_item.left, 4);

	/* Part of the data there: left counts the length word and what follows it. */
	x_fill(&w, 0x61, 100);
	rec = (struct rec){ .moved = 0x1 };
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_true(out.stop_item.set);
	assert_int_equal(out.stop_item.pos, at);
	assert_int_equal(out.stop_item.left, 104);
	rr_wbuf_free(&w);
}

/* The stream ends where READ #2's length word belongs. */
static void test_length_word_missing(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x1 };
	size_t at;

	(void)state;
	rr_wbuf_init(&w, 0);
	at = two_reads_head(&w);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_true(out.stop_item.set);
	assert_int_equal(out.stop_item.ordinal, 1);
	assert_int_equal(out.stop_item.length, UINT32_MAX);
	assert_int_equal(out.stop_item.pos, at);
	assert_int_equal(out.stop_item.left, 0);
	rr_wbuf_free(&w);
}

/* A READLINK whose link is missing; then a walk broken outside any item, and a good one. */
static void test_other_stops(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 3);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READLINK);
	x_u32(&w, 0);
	x_len_only(&w, 40);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_true(out.stop_item.set);
	assert_int_equal(out.stop_item.op, READLINK);
	assert_int_equal(out.stop_item.ordinal, 0);
	assert_int_equal(out.stop_item.length, 40);

	/* A GETATTR cut short: no eligible item is where the walk broke. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 3);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, GETATTR);
	x_u32(&w, 0);
	x_u32(&w, 2);                /* a bitmap of two words, one of them missing */
	x_u32(&w, 0x1a);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_false(out.stop_item.set);

	/* A whole READ: nothing stopped. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 1);
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, true);
	x_opaque(&w, "abcde", 5);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_false(out.stop_item.set);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_read_data_missing),
		cmocka_unit_test(test_length_word_missing),
		cmocka_unit_test(test_other_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
