// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay's answers and conclusions (capture/agent/replay_answer.c,
 * replay_report.c): RPC replies written out by hand from RFC 5531 §9 read
 * as the outcome they are, and the conclusion for sets of tries whose
 * meaning is fixed beforehand (the argument size decides; the chunk shape
 * decides; the transport decides; nothing reproduces).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include "replay_report.h"

static GByteArray *reply(uint32_t xid, const uint32_t *w, unsigned n)
{
	GByteArray *b = g_byte_array_new();
	uint32_t all[16] = { xid, 1 };

	memcpy(all + 2, w, n * 4);
	for (unsigned i = 0; i < n + 2; i++) {
		uint8_t x[4] = { (uint8_t)(all[i] >> 24), (uint8_t)(all[i] >> 16), (uint8_t)(all[i] >> 8),
				 (uint8_t)all[i] };
		g_byte_array_append(b, x, 4);
	}
	return b;
}

static enum rp_result answer(uint32_t xid, uint32_t want_xid, const uint32_t *w, unsigned n,
			     struct rp_answer *a)
{
	GByteArray *b = reply(xid, w, n);

	memset(a, 0, sizeof(*a));
	rp_answer_rpc(b->data, b->len, want_xid, a);
	g_byte_array_free(b, TRUE);
	return a->result;
}

static void test_answers(void **state)
{
	/* MSG_ACCEPTED, verifier AUTH_NONE of length 0, then accept_stat (and results) */
	static const uint32_t garbage[] = { 0, 0, 0, 4 };
	static const uint32_t ok[] = { 0, 0, 0, 0, 0 };
	static const uint32_t acces[] = { 0, 0, 0, 0, 13 };
	static const uint32_t sys_err[] = { 0, 0, 0, 5 };
	/* MSG_DENIED, AUTH_ERROR, AUTH_BADCRED */
	static const uint32_t denied[] = { 1, 1, 1 };
	struct rp_answer a;

	(void)state;
	assert_int_equal(answer(7, 7, garbage, 4, &a), RP_GARBAGE_ARGS);
	assert_int_equal(a.accept_stat, 4);
	assert_int_equal(answer(7, 7, ok, 5, &a), RP_SUCCESS);
	assert_int_equal(answer(7, 7, acces, 5, &a), RP_NFS_ERROR);
	assert_int_equal(a.status, 13);
	assert_int_equal(answer(7, 7, sys_err, 4, &a), RP_RPC_ERROR);
	assert_int_equal(answer(7, 7, denied, 3, &a), RP_RPC_ERROR);
	assert_int_equal(answer(8, 7, ok, 5, &a), RP_BAD_REPLY);     /* another XID */
	assert_int_equal(answer(7, 7, ok, 4, &a), RP_BAD_REPLY);     /* no status word */
	assert_int_equal(answer(7, 7, ok, 1, &a), RP_BAD_REPLY);     /* cut short */
}

static void add(struct rp_report *rep, enum rp_kind k, uint32_t named, bool full, bool probe,
		enum rp_result r)
{
	struct rp_try t;

	memset(&t, 0, sizeof(t));
	t.kind = k;
	t.named = named;
	t.full = full;
	t.probe = probe;
	t.ans.result = r;
	t.ok = r == RP_SUCCESS;
	g_array_append_val(rep->tries, t);
}

static void init(struct rp_report *rep, struct rp_call *c)
{
	memset(rep, 0, sizeof(*rep));
	memset(c, 0, sizeof(*c));
	rep->call = c;
	rep->acl = true;
	rep->acl_args.named = 400;
	rep->acl_args.n_acl = 404;
	rep->tries = g_array_new(FALSE, TRUE, sizeof(struct rp_try));
}

/* What the lab's kernel did: every carrier fails at 400, 300 works on RDMA and TCP. */
static void test_size_decides(void **state)
{
	struct rp_report rep;
	struct rp_call c;

	(void)state;
	init(&rep, &c);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_PZRC, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_INLINE, 400, true, false, RP_NOT_SENT);
	add(&rep, RP_V_TCP, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_CAPTURED, 300, false, false, RP_SUCCESS);
	add(&rep, RP_V_TCP, 300, false, false, RP_SUCCESS);
	add(&rep, RP_V_CAPTURED, 340, false, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_TCP, 340, false, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_CAPTURED, 337, false, true, RP_SUCCESS);
	rep.have_works = rep.have_fails = true;
	rep.works = 337;
	rep.works_bytes = 4204;
	rep.fails = 338;
	rep.fails_bytes = 4216;
	rp_report_conclude(&rep);
	assert_string_equal(rep.conclusion,
			    "the argument size decides: 300 entries succeed over RDMA and TCP, 340 "
			    "and 400 fail over both (largest that works: 337 entries, a 4204-byte call; "
			    "smallest that fails: 338, 4216 bytes); the chunk shape does not matter: the "
			    "captured shape, a single PZRC and TCP fail alike at 400");
	g_array_free(rep.tries, TRUE);
}

static void test_other_factors(void **state)
{
	struct rp_report rep;
	struct rp_call c;

	(void)state;
	init(&rep, &c);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_PZRC, 400, true, false, RP_SUCCESS);
	add(&rep, RP_V_TCP, 400, true, false, RP_SUCCESS);
	rp_report_conclude(&rep);
	assert_non_null(strstr(rep.conclusion, "the chunk shape decides"));
	g_array_set_size(rep.tries, 0);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_PZRC, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_TCP, 400, true, false, RP_SUCCESS);
	rp_report_conclude(&rep);
	assert_non_null(strstr(rep.conclusion, "the RDMA transport decides"));
	g_array_set_size(rep.tries, 0);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_SUCCESS);
	add(&rep, RP_V_TCP, 400, true, false, RP_SUCCESS);
	rp_report_conclude(&rep);
	assert_non_null(strstr(rep.conclusion, "does not reproduce"));
	g_array_set_size(rep.tries, 0);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_NOT_SENT);
	rp_report_conclude(&rep);
	assert_non_null(strstr(rep.conclusion, "nothing was sent"));
	/* every carrier fails and no smaller size works: no factor */
	g_array_set_size(rep.tries, 0);
	add(&rep, RP_V_CAPTURED, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_TCP, 400, true, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_CAPTURED, 300, false, false, RP_GARBAGE_ARGS);
	add(&rep, RP_V_TCP, 300, false, false, RP_GARBAGE_ARGS);
	rp_report_conclude(&rep);
	assert_non_null(strstr(rep.conclusion, "no factor isolated"));
	g_array_free(rep.tries, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_size_decides),
		cmocka_unit_test(test_other_factors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
