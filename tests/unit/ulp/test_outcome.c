// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr_rpc_outcome (rpc.h) against replies spelled out word by word from
 * RFC 5531 §9's rpc_msg, reply_body, accepted_reply and rejected_reply,
 * each cut short at every length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <rpcrdma/rpc.h>

#include "xdr_enc.h"

/* xid, REPLY, MSG_ACCEPTED, verf { flavor, body<> } of vlen bytes, accept_stat */
static void accepted(struct rr_wbuf *w, uint32_t xid, uint32_t vlen, uint32_t accept_stat)
{
	x_u32(w, xid);
	x_u32(w, 1);                 /* REPLY */
	x_u32(w, 0);                 /* MSG_ACCEPTED */
	x_u32(w, vlen ? 2 : 0);      /* AUTH_SHORT with a body, else AUTH_NONE */
	x_u32(w, vlen);
	for (uint32_t i = 0; i < vlen; i++)
		rr_put_u8(w, (uint8_t)(0xa0 + i));
	rr_put_zeros(w, (4 - (vlen & 3)) & 3);
	x_u32(w, accept_stat);
}

/* xid, REPLY, MSG_DENIED, reject_stat */
static void denied(struct rr_wbuf *w, uint32_t xid, uint32_t reject_stat)
{
	x_u32(w, xid);
	x_u32(w, 1);
	x_u32(w, 1);                 /* MSG_DENIED */
	x_u32(w, reject_stat);
}

static void outcome(const struct rr_wbuf *w, struct rr_rpc_outcome *o)
{
	rr_rpc_outcome(w->data, w->len, o);
}

static void test_success_status(void **state)
{
	struct rr_wbuf w;
	struct rr_rpc_outcome o;

	(void)state;
	rr_wbuf_init(&w, 0);
	accepted(&w, 0xcafe0001, 0, 0);
	x_u32(&w, 70);               /* NFS3ERR_STALE */
	x_u32(&w, 0);                /* post_op_attr: no attributes */
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_SUCCESS);
	assert_int_equal(o.rpc.xid, 0xcafe0001);
	assert_int_equal(o.rpc.res_off, 24);
	assert_true(o.has_status);
	assert_int_equal(o.status, 70);
	rr_wbuf_free(&w);

	/* a 5-byte verifier body, padded to 8: the results start at 32 */
	rr_wbuf_init(&w, 0);
	accepted(&w, 7, 5, 0);
	x_u32(&w, 0);                /* NFS3_OK */
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_SUCCESS);
	assert_int_equal(o.rpc.res_off, 32);
	assert_int_equal(o.rpc.verf_flavor, 2);
	assert_true(o.has_status);
	assert_int_equal(o.status, 0);
	rr_wbuf_free(&w);

	/* NULL's reply: SUCCESS and no results */
	rr_wbuf_init(&w, 0);
	accepted(&w, 8, 0, 0);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_SUCCESS);
	assert_false(o.has_status);
	assert_int_equal(o.status, 0);
	rr_wbuf_free(&w);
}

static void test_accept_errors(void **state)
{
	static const uint32_t stats[] = { 1, 3, 5, 4 };   /* PROG_UNAVAIL, PROC_UNAVAIL, SYSTEM_ERR, GARBAGE_ARGS */
	struct rr_wbuf w;
	struct rr_rpc_outcome o;

	(void)state;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		rr_wbuf_init(&w, 0);
		accepted(&w, 9, 0, stats[i]);
		x_u32(&w, 5);        /* a stray word: no status after an error */
		outcome(&w, &o);
		assert_int_equal(o.kind, stats[i] == 4 ? RR_OUTCOME_GARBAGE_ARGS : RR_OUTCOME_ACCEPT_ERROR);
		assert_int_equal(o.rpc.accept_stat, stats[i]);
		assert_false(o.has_status);
		assert_int_equal(o.status, 0);
		rr_wbuf_free(&w);
	}

	/* PROG_MISMATCH carries the versions supported */
	rr_wbuf_init(&w, 0);
	accepted(&w, 10, 0, 2);
	x_u32(&w, 2);
	x_u32(&w, 3);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_ACCEPT_ERROR);
	assert_int_equal(o.rpc.accept_stat, 2);
	assert_int_equal(o.rpc.mismatch_low, 2);
	assert_int_equal(o.rpc.mismatch_high, 3);
	assert_false(o.has_status);
	rr_wbuf_free(&w);
}

static void test_denied(void **state)
{
	struct rr_wbuf w;
	struct rr_rpc_outcome o;

	(void)state;
	rr_wbuf_init(&w, 0);
	denied(&w, 11, 0);           /* RPC_MISMATCH { low, high } */
	x_u32(&w, 2);
	x_u32(&w, 2);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_DENIED);
	assert_int_equal(o.rpc.xid, 11);
	assert_int_equal(o.rpc.reject_stat, 0);
	assert_int_equal(o.rpc.mismatch_high, 2);
	assert_false(o.has_status);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	denied(&w, 12, 1);           /* AUTH_ERROR { auth_stat } */
	x_u32(&w, 2);                /* AUTH_REJECTEDCRED */
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_DENIED);
	assert_int_equal(o.rpc.reject_stat, 1);
	assert_int_equal(o.rpc.auth_stat, 2);
	assert_false(o.has_status);
	rr_wbuf_free(&w);
}

static void test_not_reply(void **state)
{
	struct rr_wbuf w;
	struct rr_rpc_outcome o;

	(void)state;
	rr_wbuf_init(&w, 0);
	denied(&w, 13, 2);           /* rejected_reply has no arm for 2 */
	x_u32(&w, 0);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_NOT_REPLY);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	x_u32(&w, 14);
	x_u32(&w, 1);
	x_u32(&w, 2);                /* reply_stat 2: no arm */
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_NOT_REPLY);
	rr_wbuf_free(&w);

	/* a call, then a msg_type that is neither */
	for (uint32_t mt = 0; mt <= 5; mt += 5) {
		rr_wbuf_init(&w, 0);
		x_u32(&w, 15);
		x_u32(&w, mt);
		x_u32(&w, 0);
		x_u32(&w, 0);
		x_u32(&w, 0);
		x_u32(&w, 0);
		x_u32(&w, 0);
		outcome(&w, &o);
		assert_int_equal(o.kind, RR_OUTCOME_NOT_REPLY);
		assert_false(o.has_status);
		rr_wbuf_free(&w);
	}

	/* a 404-byte verifier body: MAX_AUTH_BYTES is 400 */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 16);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 2);
	x_u32(&w, 404);
	rr_put_zeros(&w, 404);
	x_u32(&w, 0);
	x_u32(&w, 0);
	outcome(&w, &o);
	assert_int_equal(o.kind, RR_OUTCOME_NOT_REPLY);
	rr_wbuf_free(&w);
}

/*
 * Every prefix of a reply, with the whole reply still in memory after the
 * cut: a decoder reading past len would see a complete reply and say so.
 * Below hdr bytes there is no reply; from hdr on the header is whole, and
 * a status needs 4 more bytes.  The prefix is also copied alone to the heap
 * so that the sanitizers see any read past it.
 */
static void cut_everywhere(const struct rr_wbuf *w, size_t hdr, enum rr_rpc_outcome_kind whole)
{
	struct rr_rpc_outcome o;

	for (size_t n = 0; n <= w->len; n++) {
		uint8_t *alone = malloc(n ? n : 1);
		memcpy(alone, w->data, n);
		rr_rpc_outcome(w->data, n, &o);
		if (n < hdr) {
			assert_int_equal(o.kind, RR_OUTCOME_NOT_REPLY);
		} else {
			assert_int_equal(o.kind, whole);
			assert_int_equal(o.has_status, whole == RR_OUTCOME_SUCCESS && n >= hdr + 4);
		}
		rr_rpc_outcome(alone, n, &o);
		assert_int_equal(o.kind, n < hdr ? RR_OUTCOME_NOT_REPLY : whole);
		free(alone);
	}
}

static void test_truncated(void **state)
{
	struct rr_wbuf w;

	(void)state;
	rr_wbuf_init(&w, 0);
	accepted(&w, 17, 6, 0);      /* 12 + 8 + 8 (6 bytes and pad) + 4 */
	x_u32(&w, 2);                /* NFS3ERR_NOENT */
	cut_everywhere(&w, 32, RR_OUTCOME_SUCCESS);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	accepted(&w, 18, 0, 2);
	x_u32(&w, 3);
	x_u32(&w, 4);
	cut_everywhere(&w, 32, RR_OUTCOME_ACCEPT_ERROR);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	accepted(&w, 19, 0, 4);
	cut_everywhere(&w, 24, RR_OUTCOME_GARBAGE_ARGS);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	denied(&w, 20, 1);
	x_u32(&w, 1);                /* AUTH_BADCRED */
	cut_everywhere(&w, 20, RR_OUTCOME_DENIED);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_success_status),
		cmocka_unit_test(test_accept_errors),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_not_reply),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
