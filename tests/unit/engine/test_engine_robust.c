// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine against traffic that goes wrong: reused QP numbers, several
 * connections between the same hosts, lost replies and lost pieces, and
 * headers that claim far more than was sent.  Each case was first seen
 * failing in a review (reproducers fed the engine these very events).
 */
#include "engine_fixture.h"

static void use_limits(const struct rr_engine_limits *lim)
{
	struct rr_diag_sink sink = { on_diag, &got };

	rr_engine_free(eng);
	eng = rr_engine_new(lim, on_msg, &got, &sink);
}

/*
 * NFS nconnect=2, capture started mid-stream: the first server->client flow
 * seen is paired at first sight with the wrong client->server flow.  The
 * replies' XIDs prove the right pairs; only the pre-capture reply is
 * unmatched, and as an answer to a call sent before the capture (within the
 * credits granted) it is counted as not captured, not told (RR-003).
 */
static void test_nconnect_repairs(void **state)
{
	struct rr_flow_key a1 = roce(1, 2, 0x21), b1 = roce(2, 1, 0x31);
	struct rr_flow_key a2 = roce(1, 2, 0x22), b2 = roce(2, 1, 0x32);

	short_call(a1, 10, 0x1001);
	short_reply(b2, 20, 0x0999);         /* answers a call made before the capture */
	short_call(a2, 30, 0x2001);
	short_reply(b1, 40, 0x1001);
	short_reply(b2, 21, 0x2001);
	/* A reply without its call is told once the capture cannot have lost the call: here, at its end. */
	rr_engine_finish(eng);
	assert_int_equal(got.n, 5);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	assert_true(rr_engine_checks_skipped_for(eng, RR_SKIP_NOT_CAPTURED) >= 1);
	assert_int_equal(got.m[0].conn, got.m[3].conn);    /* 0x1001 call and reply */
	assert_int_equal(got.m[2].conn, got.m[4].conn);    /* 0x2001 */
	assert_int_not_equal(got.m[3].conn, got.m[4].conn);
}

/*
 * Without the handshake, no more replies can answer calls sent before the
 * capture than the credits granted (3 here, RFC 8166 §3.3.1): of five
 * unmatched replies the last two are told (RR-003), the three before not.
 */
static void test_unmatched_past_credits(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x41), s2c = roce(2, 1, 0x51);
	uint32_t i;

	short_call(c2s, 10, 0x1001);
	reply_granting(s2c, 20, 0x1001, 3);
	for (i = 0; i < 5; i++)
		reply_granting(s2c, 21 + i, 0x5000 + i, 3);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 2);
}

/* A new connection on the same QP numbers starts new PSNs: nothing is a "duplicate". */
static void test_psn_restart(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	int i;

	for (i = 0; i < 3; i++) {
		short_call(c2s, 0x900000 + i, 0x100 + i);
		short_reply(s2c, 0x400000 + i, 0x100 + i);
	}
	/* No DREQ captured; the client reconnects with the same QPNs. */
	for (i = 0; i < 3; i++) {
		short_call(c2s, 0x000100 + i, 0x200 + i);
		short_reply(s2c, 0x300000 + i, 0x200 + i);
	}
	assert_int_equal(got.n, 12);
	assert_int_equal(got.diags[CAP_DUP], 0);
}

/* The RDMA-CM handshake wins over a pairing from an earlier connection. */
static void test_cm_qpn_reuse(void **state)
{
	struct rr_flow_key c2s_1 = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11), c2s_2 = roce(1, 2, 0x13);

	cm(c2s_1, RR_CM_REQ, 0xa1, 0, 0x11, 100);
	cm(s2c, RR_CM_REP, 0xb1, 0xa1, 0x12, 500);
	short_call(c2s_1, 100, 0x100);
	short_reply(s2c, 500, 0x100);
	cm(c2s_1, RR_CM_DREQ, 0xa1, 0xb1, 0, 0);
	cm(s2c, RR_CM_DREP, 0xb1, 0xa1, 0, 0);
	/* Connection 2 reuses client QP 0x11 with a new server QP 0x13. */
	cm(c2s_2, RR_CM_REQ, 0xa2, 0, 0x11, 1000);
	cm(s2c, RR_CM_REP, 0xb2, 0xa2, 0x13, 2000);
	short_call(c2s_2, 1000, 0x200);
	short_reply(s2c, 2000, 0x200);
	rr_engine_finish(eng);
	assert_int_equal(got.n, 4);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	assert_int_equal(got.m[2].conn, got.m[3].conn);
	assert_int_not_equal(got.m[0].conn, got.m[2].conn);
}

/* At the outstanding-call limit the oldest call goes, not a live one. */
static void test_evict_oldest(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_engine_limits lim;

	rr_engine_default_limits(&lim);
	lim.max_calls_per_flow = 4;
	use_limits(&lim);
	short_call(c2s, 1, 0x1000);          /* replies lost */
	short_call(c2s, 2, 0x3000);
	short_call(c2s, 3, 0x40);
	short_call(c2s, 4, 0x2000);
	short_call(c2s, 5, 0x5);             /* over the limit */
	short_reply(s2c, 100, 0x2000);
	short_reply(s2c, 101, 0x5);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	assert_int_equal(got.diags[ENG_LIMIT], 1);
}

/*
 * More connections than the flow table holds, one after the other: the
 * least recently active are forgotten to make room (told once), and every
 * connection's call and reply still meet.
 */
static void test_flow_table_forgets_idle(void **state)
{
	struct rr_engine_limits lim;
	uint32_t i;

	rr_engine_default_limits(&lim);
	lim.max_flows = 8;
	use_limits(&lim);
	for (i = 0; i < 14; i++) {
		struct rr_flow_key c2s = roce(1, 2, 0x100 + 2 * i), s2c = roce(2, 1, 0x101 + 2 * i);

		short_call(c2s, 1, 0x5000 + i);
		short_reply(s2c, 1, 0x5000 + i);
	}
	assert_int_equal(got.n, 28);
	for (i = 0; i < 14; i++) {
		assert_int_equal(got.m[2 * i].xid, 0x5000 + i);
		assert_int_equal(got.m[2 * i + 1].xid, 0x5000 + i);
		assert_int_equal(got.m[2 * i].conn, got.m[2 * i + 1].conn);
	}
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_003_REPLY_MATCH], 0);
	assert_int_equal(got.diags[ENG_LIMIT], 1);
}

/* Partial iWARP Sends that lost their last piece give way to new ones (and are freed). */
static void test_iwarp_stale_sends(void **state)
{
	struct rr_flow_key c2s = iwarp(1, 40000, 2, 20049);
	static uint8_t junk[512];
	struct rr_event ev;
	struct rr_wbuf m;
	struct rr_hdr h;
	uint32_t msn;
	uint8_t *b;
	size_t n;

	for (msn = 1; msn <= 300; msn++) {
		ev = ev_base(c2s, RR_EV_SEND, RR_FRAG_MIDDLE, 0, junk, sizeof(junk));
		ev.has_offset = true;
		ev.msn = msn;
		feed(&ev);
	}
	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, 0x77, 100003, 3, 0);
	rr_hdr_init(&h, 0x77, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	ev = ev_base(c2s, RR_EV_SEND, RR_FRAG_MIDDLE, 0, b, 20);
	ev.has_offset = true;
	ev.msn = 10000;
	feed(&ev);
	ev = ev_base(c2s, RR_EV_SEND, RR_FRAG_LAST, 0, b + 20, (uint32_t)n - 20);
	ev.has_offset = true;
	ev.msn = 10000;
	ev.offset = 20;
	feed(&ev);
	free(b);
	rr_wbuf_free(&m);
	assert_int_equal(got.n, 1);
	expect(0, 0x77, RR_DIR_CALL, got.m[0].payload, got.m[0].len);
	/* The engine is freed with 256 partial Sends held: LeakSanitizer watches. */
}

/*
 * A READ reply whose Write chunk carried 1 byte but whose data length word
 * claims 64 MiB: the engine makes up at most 1 MiB of missing bytes, and the
 * message is cut and incomplete, never a 64 MiB allocation.
 */
static void test_claimed_length_not_made_up(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf rep;
	struct rr_hdr h;
	uint8_t one = 0x55, *b;
	size_t n;

	read_call_with_write_chunk(c2s, 10, 0x1000, 4096);
	ib_write(s2c, 100, 0xabc, 0x7000, &one, 1, 4096);
	rr_wbuf_init(&rep, 0);
	rpc_reply_hdr(&rep, 0x1000);
	rr_put_be32(&rep, 0);                /* NFS3_OK */
	rr_put_be32(&rep, 0);                /* no attributes */
	rr_put_be32(&rep, 1);                /* count */
	rr_put_be32(&rep, 1);                /* eof */
	rr_put_be32(&rep, (64u << 20) - 200);   /* data length word */
	rr_hdr_init(&h, 0x1000, 32, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabc, 1, 0x7000);
	b = send_buf(&h, rep.data, rep.len, &n);
	ib_send(s2c, 101, b, n, 4096);
	free(b);
	assert_int_equal(got.n, 2);
	assert_false(got.m[1].complete);
	assert_true(got.m[1].len < (2u << 20));
	assert_int_equal(got.diags[RR_091_WRITE_COUNT], 1);
	assert_int_equal(got.diags[ENG_LIMIT], 1);
	rr_wbuf_free(&rep);
}

/*
 * A Write whose middle and last packets were lost, then packets of a later
 * Write whose first packet was lost: they lie past the first Write's RETH
 * length and must not be placed as if they continued it.
 */
static void test_write_continuation_bound(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	static uint8_t a[1024], bb[1024];
	struct rr_event ev;

	read_call_with_write_chunk(c2s, 10, 0x300, 4096);
	ev = ev_base(s2c, RR_EV_WRITE, RR_FRAG_FIRST, 100, a, sizeof(a));
	ev.has_reth = true;
	ev.rkey = 0xabc;
	ev.va = 0x7000;
	ev.dma_len = 3072;
	feed(&ev);                                   /* PSNs 101 and 102 are lost */
	ev = ev_base(s2c, RR_EV_WRITE, RR_FRAG_MIDDLE, 104, bb, sizeof(bb));
	feed(&ev);                                   /* a later Write, its FIRST (103) lost */
	assert_int_equal(got.diags[ENG_UNMATCHED_RDMA], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unmatched_past_credits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nconnect_repairs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_psn_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cm_qpn_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evict_oldest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iwarp_stale_sends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flow_table_forgets_idle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_claimed_length_not_made_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_continuation_bound, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
