// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the walker does not know (an NFSv4 op number no RFC allots here):
 * ENG-ULP tells it once per connection and item, and the checks it stops
 * are counted as "not understood by the walker", never as bytes the
 * capture lost.  An op the walker knows, cut short, stays a decoding
 * failure told per message.
 */
#include "engine_fixture.h"

/* An NFSv4.1 COMPOUND call: SEQUENCE-less, PUTROOTFH then op `op` with no arguments. */
static void v4_call(struct rr_flow_key k, uint32_t psn, uint32_t xid, uint32_t op)
{
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, xid, 100003, 4, 1);
	rr_put_be32(&m, 0);      /* tag<> */
	rr_put_be32(&m, 1);      /* minorversion */
	rr_put_be32(&m, 2);      /* argarray<> */
	rr_put_be32(&m, 24);     /* PUTROOTFH */
	rr_put_be32(&m, op);
	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ib_send(k, psn, b, n, 4096);
	free(b);
	rr_wbuf_free(&m);
}

static void test_told_once_per_connection(void **state)
{
	struct rr_flow_key a = roce(1, 2, 0x12), b = roce(3, 2, 0x34);

	(void)state;
	v4_call(a, 1, 0x100, 99);
	v4_call(a, 2, 0x101, 99);
	v4_call(a, 3, 0x102, 99);
	v4_call(a, 4, 0x103, 98);
	v4_call(b, 1, 0x200, 99);
	rr_engine_finish(eng);
	assert_int_equal(got.n, 5);
	/* 99 and 98 on the first connection, 99 on the second */
	assert_int_equal(got.diags[ENG_ULP], 3);
	assert_true(rr_engine_checks_skipped_for(eng, RR_SKIP_NOT_UNDERSTOOD) > 0);
	assert_int_equal(rr_engine_checks_skipped_for(eng, RR_SKIP_NOT_CAPTURED), 0);
}

/* A known op whose arguments run out (READ with no stateid) is told each time. */
static void test_malformed_each_time(void **state)
{
	struct rr_flow_key a = roce(1, 2, 0x12);

	(void)state;
	v4_call(a, 1, 0x300, 25);
	v4_call(a, 2, 0x301, 25);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[ENG_ULP], 2);
	assert_int_equal(rr_engine_checks_skipped_for(eng, RR_SKIP_NOT_CAPTURED), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_told_once_per_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed_each_time, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
