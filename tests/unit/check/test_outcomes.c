// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Outcomes and memory across connections, from hand-built traffic (the
 * capture generator writes one connection per capture): a call given up
 * with its connection and resent on a new one (RR-231), an XID that cycles
 * through connections unanswered (RR-119), a handle used on a connection
 * that never advertised it (RR-212, and another host's equal handle, which
 * is no such use), and nconnect - two live connections
 * whose XIDs happen to meet - which is no retry at all.
 */
#include "../engine/engine_fixture.h"

/* Connection n (RDMA-CM handshake) of client host h to server host 2: client QP 0x10+n, server QP 0x20+n. */
static void conn_up_from(uint8_t h, int n, struct rr_flow_key *c2s, struct rr_flow_key *s2c)
{
	*c2s = roce(h, 2, 0x20 + n);
	*s2c = roce(2, h, 0x10 + n);
	cm(*c2s, RR_CM_REQ, 0xa0 + n, 0, 0x10 + n, 1000 * n);
	cm(*s2c, RR_CM_REP, 0xb0 + n, 0xa0 + n, 0x20 + n, 1000 * n + 500);
}

/* Connection n of client host 1. */
static void conn_up(int n, struct rr_flow_key *c2s, struct rr_flow_key *s2c)
{
	conn_up_from(1, n, c2s, s2c);
}

static void conn_down(int n, struct rr_flow_key c2s, struct rr_flow_key s2c)
{
	cm(c2s, RR_CM_DREQ, 0xa0 + n, 0xb0 + n, 0, 0);
	cm(s2c, RR_CM_DREP, 0xb0 + n, 0xa0 + n, 0, 0);
}

static void test_retry_on_new_connection(void **state)
{
	struct rr_flow_key c1, s1, c2, s2;

	conn_up(1, &c1, &s1);
	short_call(c1, 1000, 0x77);          /* lost with its connection */
	conn_down(1, c1, s1);
	conn_up(2, &c2, &s2);
	short_call(c2, 2000, 0x77);          /* the same XID again */
	short_reply(s2, 2500, 0x77);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 1);
	assert_int_equal(got.diags[RR_119_RECONNECT_LOOP], 0);
	assert_int_equal(got.diags[RR_004_XID_DUP], 0);
}

static void test_reconnect_loop(void **state)
{
	struct rr_flow_key c, s;
	int n;

	for (n = 1; n <= 3; n++) {
		conn_up(n, &c, &s);
		short_call(c, 1000 * n, 0x88);   /* never answered */
		conn_down(n, c, s);
	}
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_119_RECONNECT_LOOP], 1);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 0);
}

/* nconnect: connection 1 carries on after XID 0x99, so 0x99 on connection 2 is another call. */
static void test_nconnect_is_no_retry(void **state)
{
	struct rr_flow_key c1, s1, c2, s2;

	conn_up(1, &c1, &s1);
	conn_up(2, &c2, &s2);
	short_call(c1, 1000, 0x99);
	short_call(c1, 1001, 0x9a);
	short_call(c2, 2000, 0x99);
	short_reply(s1, 1500, 0x99);
	short_reply(s1, 1501, 0x9a);
	short_reply(s2, 2500, 0x99);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 0);
	assert_int_equal(got.diags[RR_232_RETRY_RUN], 0);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
}

/* Client 1's connection 1 advertises handle 0xabc at 0x7000 (a READ's Write chunk), answered or not. */
static void advertise(bool answered)
{
	struct rr_flow_key c, s;

	conn_up_from(1, 1, &c, &s);
	read_call_with_write_chunk(c, 1000, 0x1000, 4096);
	if (answered)
		short_reply(s, 1500, 0x1000);
}

/* A call on connection n of client host h, then the server's Write there with handle 0xabc. */
static void write_with_the_handle(uint8_t h, int n)
{
	struct rr_flow_key c, s;
	uint8_t data[64];

	conn_up_from(h, n, &c, &s);
	short_call(c, 1000 * (uint32_t)n, 0x2000 + (uint32_t)n);
	fill(data, sizeof(data), 3);
	ib_write(s, 1000 * (uint32_t)n + 500, 0xabc, 0x7000, data, sizeof(data), 4096);
}

/* A Write on connection 2 with a handle only connection 1's call advertised. */
static void test_handle_from_another_connection(void **state)
{
	advertise(false);
	write_with_the_handle(1, 2);
	assert_int_equal(got.diags[RR_212_OTHER_CONN], 1);
}

/*
 * The same, but connection 2 is another client's: a handle is the memory
 * of the host that registered it, so client 3's handle 0xabc is not client
 * 1's, whatever its value ... while client 1's own third connection still
 * may not use it.
 */
static void test_same_handle_of_another_host(void **state)
{
	advertise(false);
	write_with_the_handle(3, 2);
	assert_int_equal(got.diags[RR_212_OTHER_CONN], 0);
	write_with_the_handle(1, 3);
	assert_int_equal(got.diags[RR_212_OTHER_CONN], 1);
}

/* Once its call is answered, a handle is no longer live: its use on another connection is no RR-212. */
static void test_answered_handle_not_live(void **state)
{
	advertise(true);
	write_with_the_handle(1, 2);
	assert_int_equal(got.diags[RR_212_OTHER_CONN], 0);
}

/* Thousands of messages: counted, not kept (the fixture keeps 32). */
static int setup_no_messages(void **state)
{
	struct rr_diag_sink sink = { on_diag, &got };

	(void)state;
	memset(&got, 0, sizeof(got));
	eng = rr_engine_new(NULL, NULL, NULL, &sink);   /* thousands of messages: counted, not kept */
	return 0;
}

/*
 * More calls outstanding in one direction than the check stage keeps
 * (8192): it forgets them all and starts over, the call that passed the
 * bound included, which it still reads to the end (the asan tier runs this
 * under AddressSanitizer).  A reply to a later call then finds its call.
 */
static void test_calls_past_the_bound(void **state)
{
	struct rr_flow_key c, s;
	uint32_t i;

	conn_up(1, &c, &s);
	for (i = 0; i < 8192 + 10; i++)
		short_call(c, 1000 + i, 0x10000 + i);
	short_reply(s, 500, 0x10000 + 8192 + 5);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_retry_on_new_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nconnect_is_no_retry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handle_from_another_connection, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_handle_of_another_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_answered_handle_not_live, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calls_past_the_bound, setup_no_messages, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
