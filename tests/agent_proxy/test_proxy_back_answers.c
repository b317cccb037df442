// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's own backward calls (capture/agent/proxy_back.c): which of
 * the client's messages answer them, what the grant is learned from, when
 * the back channel counts as bound, and the verdicts of the edge cases.
 * Oracles: RFC 5531 §9 (a reply is msg_type 1), RFC 8167 §2.4.1 and §4.1
 * (the two directions' XIDs are apart; a credit whose direction cannot be
 * told is ignored), RFC 8166 §3.3.1 (no call without a credit), RFC 8881
 * §18.36.3 and §18.34.3 (the server's csr_flags and bctsr_dir bind the back
 * channel), the duties of capture/agent/judge.c (back_fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "back_fixture.h"

/* A forward CALL of the client's that carries the XID of a waiting backward call is no
 * answer to it: it goes on to the server. */
static void test_forward_call_is_no_answer(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];
	/* xid, CALL, rpcvers 2, NFS 100003 v4 proc 0, AUTH_NONE credential and verifier */
	uint32_t call[] = { 0, 0, 2, 100003, 4, 0, 0, 0, 0, 0 };

	(void)state;
	c = one_call(f, &h);
	px_back_sent(&f->b, &f->run, 1);
	call[0] = c->xid;
	assert_false(answer_words(f, c->xid, 32, call, G_N_ELEMENTS(call)));
	assert_true(px_back_waiting(&f->b));
	verdict(f, res, rule, ans);
	assert_string_equal(ans, "disconnect");
}

/* An RDMA_MSG with no RPC message is no backward reply: its credit is no grant, and the
 * probe is still waiting. */
static void test_no_grant_from_undirected(void **state)
{
	struct fixture *f = setup_run("cb-over-grant");
	char res[8], rule[16], ans[16];

	(void)state;
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 1);   /* the probe */
	px_back_sent(&f->b, &f->run, 1);
	assert_false(answer_words(f, f->b.calls[0].xid, 7, (const uint32_t[]){ 0 }, 0));
	assert_false(f->b.have_grant);
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 0);
	verdict(f, res, rule, ans);
}

/* A probe the client never answers is judged once (a call within any grant owed an
 * answer) and not sent again: without WHEN an entry fires once per run. */
static void test_probe_timeout_fires_once(void **state)
{
	struct fixture *f = setup_run("cb-over-grant");
	char res[8], rule[16], ans[16];

	(void)state;
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 1);
	px_back_sent(&f->b, &f->run, 1);
	px_back_silence(&f->b, &f->run);
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 0);
	assert_int_equal(verdict(f, res, rule, ans), 1);
	assert_string_equal(res, "fail");
	assert_string_equal(ans, "timeout");
}

/* A probe answered RDMA_ERROR (no grant in it) is the reaction, once. */
static void test_probe_error_is_a_reaction(void **state)
{
	struct fixture *f = setup_run("cb-over-grant");
	char res[8], rule[16], ans[16];
	unsigned probes = 0;

	(void)state;
	bind_back(&f->b);
	for (unsigned k = 1; k <= 3; k++) {
		if (px_back_due(&f->b, &f->run, k, 0x10 + k, NULL, 4096) != 1)
			break;
		probes++;
		px_back_sent(&f->b, &f->run, 1);
		answer_err_chunk(f, f->b.calls[0].xid);
	}
	assert_int_equal(probes, 1);
	assert_int_equal(verdict(f, res, rule, ans), 1);
	assert_string_equal(ans, "err-chunk");
	assert_string_equal(res, "n/a");
}

/* A grant of 0 lets no call go (RFC 8166 §3.3.1); a grant the proxy cannot exceed in one
 * burst sends nothing either, and neither claims RR-104 on the wire. */
static void test_grant_none_or_too_big(void **state)
{
	static const uint32_t grants[] = { 0, 64 };

	(void)state;
	for (size_t g = 0; g < G_N_ELEMENTS(grants); g++) {
		struct fixture *f = setup_run("cb-over-grant");
		char res[8], rule[16], ans[16];

		bind_back(&f->b);
		px_back_client_reply(&f->b, grants[g]);
		assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 0);
		assert_int_equal(seen.injects, 0);
		assert_string_equal(seen.event, "backward-not-sent");
		assert_int_equal(verdict(f, res, rule, ans), 0);
	}
}

/* The back channel is bound by the server's answer: a CREATE_SESSION reply without
 * CONN_BACK_CHAN in csr_flags binds nothing, whatever the call asked; a DESTROY_SESSION
 * unbinds it. */
static void test_bound_by_the_server(void **state)
{
	struct fixture *f = setup_run("cb-long-call:every=1");
	static struct rr_ulp_info destroy;
	char res[8], rule[16], ans[16];

	(void)state;
	bind_with(&f->b, 0);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 0);
	bind_with(&f->b, 0x2);
	assert_true(f->b.ready);
	destroy.prog = 100003, destroy.vers = 4, destroy.proc = 1, destroy.minorversion = 1;
	destroy.n_ops = 1, destroy.ops[0] = 44;   /* OP_DESTROY_SESSION */
	px_back_replied(&f->b, &destroy, (const uint8_t *)"", 0);
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 0);
	assert_int_equal(verdict(f, res, rule, ans), 0);
}

/* While a backward call of the server's waits at the client, its credit is the server's:
 * the proxy sends nothing until the client answered it. */
static void test_server_calls_hold_the_credit(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	char res[8], rule[16], ans[16];

	(void)state;
	bind_back(&f->b);
	px_back_server_call(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 0);
	px_back_client_reply(&f->b, 16);
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 1);
	px_back_sent(&f->b, &f->run, 1);
	px_back_silence(&f->b, &f->run);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
}

/* An answer that comes after --timeout is still the proxy's: taken (not relayed to the
 * server), not judged again; the call's Reply chunk stays registered until then. */
static void test_late_answer_still_ours(void **state)
{
	struct fixture *f = setup_run("cb-reply-chunk");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];

	(void)state;
	c = one_call(f, &h);
	px_back_sent(&f->b, &f->run, 1);
	px_back_silence(&f->b, &f->run);
	assert_int_not_equal(regs, deregs);
	answer_reply(f, c->xid, 16);
	assert_int_equal(verdict(f, res, rule, ans), 1);
	assert_string_equal(ans, "timeout");
}

/* CB_NULL under program 100003 owes PROG_UNAVAIL (RFC 5531 §9): the call is inline with no
 * chunk, so ERR_CHUNK (RFC 8166 §4.5) is no answer to it. */
static void test_nfs_program_err_chunk(void **state)
{
	struct fixture *f = setup_run("cb-nfs-program");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];

	(void)state;
	c = one_call(f, &h);
	assert_int_equal(h.n_reads + h.n_write_chunks + h.has_reply, 0);
	px_back_sent(&f->b, &f->run, 1);
	answer_err_chunk(f, c->xid);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
	assert_string_equal(rule, "RR-195");
}

/* The relay ending on the server's side is no reaction of the client's. */
static void test_server_side_end_is_no_reaction(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	struct rr_hdr h;
	char res[8], rule[16], ans[16];

	(void)state;
	one_call(f, &h);
	px_back_sent(&f->b, &f->run, 1);
	px_back_gone(&f->b, &f->run, false);
	assert_string_equal(seen.event, "no-reaction");
	assert_int_equal(verdict(f, res, rule, ans), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward_call_is_no_answer),
		cmocka_unit_test(test_no_grant_from_undirected),
		cmocka_unit_test(test_probe_timeout_fires_once),
		cmocka_unit_test(test_probe_error_is_a_reaction),
		cmocka_unit_test(test_grant_none_or_too_big),
		cmocka_unit_test(test_bound_by_the_server),
		cmocka_unit_test(test_server_calls_hold_the_credit),
		cmocka_unit_test(test_late_answer_still_ours),
		cmocka_unit_test(test_nfs_program_err_chunk),
		cmocka_unit_test(test_server_side_end_is_no_reaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
