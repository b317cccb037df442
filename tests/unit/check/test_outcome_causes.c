// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an outcome finding says, from hand-built traffic over several
 * connections (the capture generator writes one connection per capture):
 * a failed Long Call told with what the capture shows for and against each
 * cause (RR-230), a run of reconnects told once per client and server
 * (RR-233), an NFSv4.1 SEQUENCE replay named as one (RR-234).  The expected
 * numbers are those of the bytes each test builds.
 */
#include "../engine/engine_fixture.h"

static char texts[RR_RULE_COUNT][640];

static void on_text(void *ctx, const struct rr_diag *d)
{
	on_diag(ctx, d);
	snprintf(texts[d->id], sizeof(texts[d->id]), "%s", d->text);
}

static int setup_text(void **state)
{
	struct rr_diag_sink sink = { on_text, &got };

	memset(&got, 0, sizeof(got));
	memset(texts, 0, sizeof(texts));
	eng = rr_engine_new(NULL, on_msg, &got, &sink);
	return 0;
}

struct link {
	struct rr_flow_key c2s, s2c;
	uint32_t pc, ps;              /* next PSN of each side */
};

/* Connection n between hosts 1 (client) and 2 (server), through the RDMA-CM handshake. */
static struct link up(int n)
{
	struct link l = { roce(1, 2, 0x20 + n), roce(2, 1, 0x10 + n), 1000u * n, 1000u * n + 500 };

	cm(l.c2s, RR_CM_REQ, 0xa0 + n, 0, 0x10 + n, l.pc);
	cm(l.s2c, RR_CM_REP, 0xb0 + n, 0xa0 + n, 0x20 + n, l.ps);
	return l;
}

static void down(int n, const struct link *l)
{
	cm(l->c2s, RR_CM_DREQ, 0xa0 + n, 0xb0 + n, 0, 0);
	cm(l->s2c, RR_CM_DREP, 0xb0 + n, 0xa0 + n, 0, 0);
}

/* One Send of one packet at a capture time. */
static uint32_t send_at(struct rr_flow_key k, uint32_t psn, const uint8_t *d, size_t len, uint64_t ts)
{
	struct rr_event ev = ev_base(k, RR_EV_SEND, RR_FRAG_ONLY, psn, d, (uint32_t)len);

	ev.ts_usec = ts;
	feed(&ev);
	return (psn + 1) & 0xffffff;
}

/* An NFSACL v3 SETACL (RFC-less program 100227) carrying arglen bytes of arguments; returns the call's bytes. */
static size_t setacl(struct rr_wbuf *w, uint32_t xid, size_t arglen)
{
	uint8_t *acl = malloc(arglen);

	fill(acl, arglen, xid);
	rr_wbuf_init(w, 0);
	rpc_call_hdr(w, xid, 100227, 3, 2);
	rr_xdr_put_opaque(w, acl, (uint32_t)arglen);
	free(acl);
	return w->len;
}

/* The call as a Long Call whose Position-Zero read chunk has segs segments, pulled by the server. */
static size_t long_setacl(struct link *l, uint32_t xid, size_t arglen, uint32_t segs)
{
	struct rr_wbuf call;
	struct rr_hdr h;
	size_t len = setacl(&call, xid, arglen), off = 0, n;
	uint32_t i;
	uint8_t *b;

	rr_hdr_init(&h, xid, 128, RR_RDMA_NOMSG);
	for (i = 0; i < segs; i++) {
		uint32_t part = i + 1 < segs ? (uint32_t)(len / segs) : (uint32_t)(len - off);

		rr_hdr_add_read(&h, 0, 0x100 * xid + i, part, 0x10000u * (i + 1));
		off += part;
	}
	b = send_buf(&h, NULL, 0, &n);
	l->pc = ib_send(l->c2s, l->pc, b, n, 4096);
	free(b);
	for (i = 0, off = 0; i < segs; i++) {
		const struct rr_segment *r = &h.reads[i].seg;

		l->ps = ib_read(l->s2c, l->c2s, l->ps, r->handle, r->offset, call.data + off, r->length,
				4096, false);
		off += r->length;
	}
	rr_wbuf_free(&call);
	return len;
}

static size_t inline_setacl(struct link *l, uint32_t xid, size_t arglen)
{
	struct rr_wbuf call;
	struct rr_hdr h;
	size_t len = setacl(&call, xid, arglen), n;
	uint8_t *b;

	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	b = send_buf(&h, call.data, call.len, &n);
	l->pc = ib_send(l->c2s, l->pc, b, n, 4096);
	free(b);
	rr_wbuf_free(&call);
	return len;
}

/* A reply accepted with accept_stat stat (0 SUCCESS, 4 GARBAGE_ARGS), then body. */
static void reply(struct link *l, uint32_t xid, uint32_t stat, const uint8_t *body, size_t blen, uint64_t ts)
{
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rr_put_be32(&m, xid); rr_put_be32(&m, 1); rr_put_be32(&m, 0);
	rr_put_be32(&m, 0); rr_put_be32(&m, 0);
	rr_put_be32(&m, stat);
	if (blen)
		rr_put_bytes(&m, body, blen);
	rr_hdr_init(&h, xid, 32, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	l->ps = send_at(l->s2c, l->ps, b, n, ts);
	free(b);
	rr_wbuf_free(&m);
}

static const uint8_t acl_ok[4];   /* NFSACL status 0 */

/* The same server accepted another Long Call of the same shape: the shape is not named as the cause. */
static void test_same_shape_accepted(void **state)
{
	struct link l = up(1);

	assert_int_equal(long_setacl(&l, 0x10, 3000, 2), 3044);   /* frames 1-8 */
	reply(&l, 0x10, 0, acl_ok, 4, 0);
	long_setacl(&l, 0x11, 5000, 2);
	reply(&l, 0x11, 4, NULL, 0, 0);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_230_LONG_FAILED], 1);
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "GARBAGE_ARGS"));
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "succeeded with 3044 bytes as a 2-segment Long Call (frame 8): "
			       "for a limit on the arguments' size, against the chunk shape as the cause"));
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "Its shape matches a known hazard, which this argues "
			       "against: a multi-segment Position-Zero read chunk"));
	assert_null(strstr(texts[RR_230_LONG_FAILED], "Possible cause"));
	assert_null(strstr(texts[RR_230_LONG_FAILED], "Known interop hazard"));
}

/* Another procedure went through in the same shape: against the shape, and nothing about the size. */
static void test_other_call_same_shape(void **state)
{
	struct link l = up(1);

	long_setacl(&l, 0x11, 5000, 2);
	reply(&l, 0x11, 4, NULL, 0, 0);
	long_setacl(&l, 0x12, 6000, 2);
	reply(&l, 0x12, 0, acl_ok, 4, 0);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_230_LONG_FAILED], 1);
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "The same server took 1 call of the same kind "
			       "(NFSACL v3 SETACL as a 2-segment Long Call, 6044 bytes"));
	assert_null(strstr(texts[RR_230_LONG_FAILED], "Possible cause"));
}

/* Nothing in the capture argues either way: the hazard is a possibility. */
static void test_hazard_only_possible(void **state)
{
	struct link l = up(1);
	size_t len = long_setacl(&l, 0x11, 5000, 2);
	char want[64];

	reply(&l, 0x11, 4, NULL, 0, 0);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_230_LONG_FAILED], 1);
	snprintf(want, sizeof(want), "rejected its %zu bytes of arguments (GARBAGE_ARGS)", len);
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], want));
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "Possible cause (nothing in the capture argues for or "
			       "against it): a multi-segment Position-Zero read chunk"));
}

/* The same procedure succeeded with smaller arguments: told, with how it was sent. */
static void test_smaller_args_succeeded(void **state)
{
	struct link l = up(1);
	size_t small = inline_setacl(&l, 0x20, 600);
	char want[96];

	reply(&l, 0x20, 0, acl_ok, 4, 0);
	long_setacl(&l, 0x21, 5000, 2);
	reply(&l, 0x21, 4, NULL, 0, 0);
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_230_LONG_FAILED], 1);
	snprintf(want, sizeof(want), "The same procedure succeeded with %zu bytes sent inline", small);
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], want));
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "Possible cause, not shown by the capture"));
}

/* The same failure on three connections: deterministic. */
static void test_fails_on_every_connection(void **state)
{
	int n;

	for (n = 1; n <= 3; n++) {
		struct link l = up(n);

		long_setacl(&l, 0x30, 5000, 2);
		reply(&l, 0x30, 4, NULL, 0, 0);
		down(n, &l);
	}
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_230_LONG_FAILED], 1);
	assert_non_null(strstr(texts[RR_230_LONG_FAILED], "Failed alike on 3 connections"));
	assert_int_equal(got.diags[RR_233_RECONNECT_STORM], 0);   /* answered each time: no call was lost */
}

static void short_call_at(struct link *l, uint32_t xid, uint64_t ts)
{
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, xid, 100003, 3, 1);
	rr_xdr_put_opaque(&m, "FH-0123456789ABCDEF", 19);
	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	l->pc = send_at(l->c2s, l->pc, b, n, ts);
	free(b);
	rr_wbuf_free(&m);
}

/* Two GETATTRs lost with each of conns - 1 connections, one second apart, answered on the last. */
static void reconnects(int conns)
{
	int n;

	for (n = 1; n <= conns; n++) {
		struct link l = up(n);

		short_call_at(&l, 0x50, 1000000u * n);
		short_call_at(&l, 0x51, 1000000u * n + 10);
		if (n == conns) {
			reply(&l, 0x50, 0, acl_ok, 4, 1000000u * n + 100);
			reply(&l, 0x51, 0, acl_ok, 4, 1000000u * n + 110);
		}
		down(n, &l);
	}
	rr_engine_finish(eng);
}

static void test_reconnect_storm(void **state)
{
	reconnects(4);
	assert_int_equal(got.diags[RR_233_RECONNECT_STORM], 1);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 0);
	/* Re-sent at 2 s, 3 s and 4 s (+10 us): three reconnects over 2 s. */
	assert_non_null(strstr(texts[RR_233_RECONNECT_STORM], "10.0.0.1 -> 10.0.0.2: 3 reconnects in 2.0 s "
			       "(1.5 per second)"));
	assert_non_null(strstr(texts[RR_233_RECONNECT_STORM], "2 XIDs retransmitted in 6 attempts, 2 answered"));
}

/* Clean twin: two reconnects are told per call. */
static void test_two_reconnects_no_storm(void **state)
{
	reconnects(3);
	assert_int_equal(got.diags[RR_233_RECONNECT_STORM], 0);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 2);
}

/* NFSv4.1 COMPOUND { SEQUENCE(session, seqid, slot 3), PUTROOTFH } (RFC 8881 §18.46). */
static void sequence_call(struct link *l, uint32_t xid, uint32_t seqid, uint64_t ts)
{
	static const uint8_t session[16] = { 0x5e, 0x55, 0x10, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x07 };
	struct rr_wbuf m;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;

	rr_wbuf_init(&m, 0);
	rpc_call_hdr(&m, xid, 100003, 4, 1);
	rr_put_be32(&m, 0);                   /* tag */
	rr_put_be32(&m, 1);                   /* minorversion */
	rr_put_be32(&m, 2);
	rr_put_be32(&m, 53);
	rr_put_bytes(&m, session, sizeof(session));
	rr_put_be32(&m, seqid);
	rr_put_be32(&m, 3);                   /* slotid */
	rr_put_be32(&m, 3);                   /* highest_slotid */
	rr_put_be32(&m, 0);                   /* cachethis */
	rr_put_be32(&m, 24);                  /* PUTROOTFH */
	rr_hdr_init(&h, xid, 128, RR_RDMA_MSG);
	b = send_buf(&h, m.data, m.len, &n);
	l->pc = send_at(l->c2s, l->pc, b, n, ts);
	free(b);
	rr_wbuf_free(&m);
}

static void session_retry(uint32_t second_seqid)
{
	static const uint8_t res[4];      /* COMPOUND status NFS4_OK; the rest is not read */
	struct link l1 = up(1), l2;

	sequence_call(&l1, 0x70, 17, 1000000);
	down(1, &l1);
	l2 = up(2);
	sequence_call(&l2, 0x70, second_seqid, 2000000);
	reply(&l2, 0x70, 0, res, sizeof(res), 2000100);
	rr_engine_finish(eng);
}

static void test_session_replay(void **state)
{
	session_retry(17);
	assert_int_equal(got.diags[RR_234_SESSION_REPLAY], 1);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 0);
	assert_non_null(strstr(texts[RR_234_SESSION_REPLAY], "is a SEQUENCE replay: re-sent on a new connection "
			       "with session 5e551001000000000000000000000007, slot 3, sequence ID 17."));
}

/* Clean twin: the call re-sent under another sequence ID is no replay (RR-231 tells the retry). */
static void test_new_seqid_no_replay(void **state)
{
	session_retry(18);
	assert_int_equal(got.diags[RR_234_SESSION_REPLAY], 0);
	assert_int_equal(got.diags[RR_231_RECONNECT_RETRY], 1);
}

/* Replays inside a storm: counted in the storm's finding, not told one by one. */
static void test_replays_in_storm(void **state)
{
	static const uint8_t res[4];
	int n;

	for (n = 1; n <= 4; n++) {
		struct link l = up(n);

		sequence_call(&l, 0x71, 17, 1000000u * n);
		if (n == 4)
			reply(&l, 0x71, 0, res, sizeof(res), 1000000u * n + 100);
		down(n, &l);
	}
	rr_engine_finish(eng);
	assert_int_equal(got.diags[RR_233_RECONNECT_STORM], 1);
	assert_int_equal(got.diags[RR_234_SESSION_REPLAY], 0);
	assert_non_null(strstr(texts[RR_233_RECONNECT_STORM], "1 XID retransmitted in 3 attempts, 1 answered in the end. "
			       "3 of the re-sent calls were NFSv4.1 SEQUENCE replays"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_shape_accepted, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_other_call_same_shape, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_hazard_only_possible, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_smaller_args_succeeded, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_fails_on_every_connection, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_storm, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_two_reconnects_no_storm, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_session_replay, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_new_seqid_no_replay, setup_text, teardown),
		cmocka_unit_test_setup_teardown(test_replays_in_storm, setup_text, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
