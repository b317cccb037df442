// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's own backward calls (capture/agent/proxy_back.c) without
 * verbs: when they are due, what goes on the wire, and how the client's
 * answers are judged.  The oracles are written out by hand: RPC-over-RDMA
 * headers by RFC 8166 §4.2 (xid, vers 1, credit, proc; read list, write
 * list, reply chunk), the CB_NULL call by RFC 5531 §9 and RFC 8881 §20
 * (program 0x40000000 version 1 procedure 0; NFS is 100003), and the
 * duties by RFC 8167 §5.3 and §4.1 (back_fixture.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "back_fixture.h"

static void test_not_before_the_back_channel(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	char res[8], rule[16], ans[16];

	(void)state;
	/* a reply to a call that bound nothing (no info, or a v3 call): no backward call */
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 0);
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 1);
	px_back_sent(&f->b, &f->run, 1);
	/* without WHEN, once per run: not again, nor on a new connection */
	answer_err_chunk(f, f->b.calls[0].xid);
	px_back_connection(&f->b);
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 3, 0x12, NULL, 4096), 0);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "pass");
}

static void test_long_call_on_the_wire(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];

	(void)state;
	c = one_call(f, &h);
	/* RDMA_NOMSG (1) with one read segment at Position 0 holding the whole call */
	assert_int_equal(h.proc, 1);
	assert_true(h.credit > 0);   /* RFC 8167 §4.1 via RR-101: never 0 backward */
	assert_int_equal(h.n_reads, 1);
	assert_int_equal(h.reads[0].position, 0);
	assert_int_equal(h.reads[0].seg.handle, c->chunk[0].mr->rkey);
	assert_true(h.reads[0].seg.length >= c->payload->len);
	assert_cb_null((const uint8_t *)(uintptr_t)h.reads[0].seg.offset, h.reads[0].seg.length, c->xid,
		       0x40000000, 1);
	assert_false(c->rebuilt);
	px_back_sent(&f->b, &f->run, 1);
	assert_int_equal(seen.injects, 1);
	assert_string_equal(seen.rule, "RR-192");
	assert_false(seen.reply);
	/* a client that drops it: RFC 8167 §5.3 wants ERR_CHUNK, so silence fails */
	px_back_silence(&f->b, &f->run);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
	/* the client's duty is RR-191's (RFC 8167 §5.3), not RR-192, which the server broke */
	assert_string_equal(rule, "RR-191");
	assert_string_equal(ans, "timeout");
}

static void test_reply_chunk_is_legal(void **state)
{
	struct fixture *f = setup_run("cb-reply-chunk");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];

	(void)state;
	c = one_call(f, &h);
	/* RDMA_MSG (0), the call inline, a Reply chunk offered */
	assert_int_equal(h.proc, 0);
	assert_int_equal(h.n_reads, 0);
	assert_true(h.has_reply);
	assert_cb_null(c->wire->data + h.hdr_len, c->wire->len - h.hdr_len, c->xid, 0x40000000, 1);
	assert_true(c->rebuilt);
	px_back_sent(&f->b, &f->run, 1);
	assert_int_equal(seen.injects, 0);   /* legal on purpose: no finding to expect */
	answer_reply(f, c->xid, 8);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "pass");
	assert_string_equal(ans, "reply");
}

static void test_nfs_program(void **state)
{
	struct fixture *f = setup_run("cb-nfs-program");
	struct rr_hdr h;
	const struct px_back_call *c;
	char res[8], rule[16], ans[16];

	(void)state;
	c = one_call(f, &h);
	assert_cb_null(c->wire->data + h.hdr_len, c->wire->len - h.hdr_len, c->xid, 100003, 4);
	px_back_sent(&f->b, &f->run, 1);
	assert_string_equal(seen.rule, "RR-195");
	/* a normal reply to an NFS call on the client: it served a program it must not */
	answer_reply(f, c->xid, 1);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
}

static void test_over_grant(void **state)
{
	struct fixture *f = setup_run("cb-over-grant");
	char res[8], rule[16], ans[16];
	unsigned n;

	(void)state;
	bind_back(&f->b);
	/* no backward reply yet: one call within the credit every requester has (RFC 8166
	 * §3.3.3), no inject line; its answer carries the client's grant */
	n = px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096);
	assert_int_equal(n, 1);
	px_back_sent(&f->b, &f->run, n);
	assert_int_equal(seen.injects, 0);
	answer_reply(f, f->b.calls[0].xid, 2);
	assert_false(px_back_waiting(&f->b));
	/* the next reply: the grant of 2 and one more, back to back, asking for all three */
	n = px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096);
	assert_int_equal(n, 3);
	px_back_sent(&f->b, &f->run, n);
	assert_string_equal(seen.rule, "RR-104");
	assert_int_equal(seen.xid, f->b.calls[2].xid);   /* the call beyond the grant */
	/* the two within the grant answered, the one beyond dropped: the client's choice */
	answer_reply(f, f->b.calls[0].xid, 2);
	answer_reply(f, f->b.calls[1].xid, 2);
	px_back_silence(&f->b, &f->run);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "n/a");
	assert_string_equal(rule, "RR-104");
	/* without WHEN it fired once: not again */
}

static void test_over_grant_probe_unanswered(void **state)
{
	struct fixture *f = setup_run("cb-over-grant");
	char res[8], rule[16], ans[16];

	(void)state;
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 1);
	px_back_sent(&f->b, &f->run, 1);
	/* the one call within any grant never answered: a hang the client owes an answer for */
	px_back_silence(&f->b, &f->run);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
	assert_string_equal(ans, "timeout");
}

static void test_over_grant_after_a_grant(void **state)
{
	struct fixture *f = setup_run("cb-over-grant=2:every=1");
	char res[8], rule[16], ans[16];
	unsigned n;

	(void)state;
	bind_back(&f->b);
	px_back_client_reply(&f->b, 3);
	n = px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096);
	assert_int_equal(n, 5);   /* the grant of 3, and 2 more */
	/* every call asks for all five credits: only the grant limits them (RR-104's min) */
	for (unsigned i = 0; i < n; i++) {
		struct rr_hdr h;
		assert_int_equal(rr_hdr_decode(f->b.calls[i].wire->data, f->b.calls[i].wire->len, &h),
				 RR_HDR_OK);
		assert_int_equal(h.credit, 5);
	}
	px_back_sent(&f->b, &f->run, n);
	assert_string_equal(seen.rule, "RR-104");
	/* while they wait, no second injection, though every=1 selects each reply; a later
	 * px_back_sent (the relay's, after a reply with nothing due) leaves them waiting */
	assert_int_equal(px_back_due(&f->b, &f->run, 2, 0x11, NULL, 4096), 0);
	px_back_sent(&f->b, &f->run, 0);
	assert_true(px_back_waiting(&f->b));
	assert_int_equal(seen.injects, 1);
	/* within the grant only two of three answered: the client hung on calls it owed */
	answer_reply(f, f->b.calls[0].xid, 3);
	answer_reply(f, f->b.calls[2].xid, 3);
	px_back_silence(&f->b, &f->run);
	verdict(f, res, rule, ans);
	assert_string_equal(res, "fail");
	assert_string_equal(ans, "timeout");
}

static void test_disconnect(void **state)
{
	struct fixture *f = setup_run("cb-long-call");
	char res[8], rule[16], ans[16];

	(void)state;
	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 1);
	px_back_sent(&f->b, &f->run, 1);
	/* an answer to no call of ours is not taken */
	assert_false(answer_words(f, 0x10, 1, (const uint32_t[]){ 0x10, 1, 0, 0, 0, 0 }, 6));
	verdict(f, res, rule, ans);   /* px_back_gone: the connection went down under it */
	assert_string_equal(ans, "disconnect");
	assert_string_equal(res, "fail");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_before_the_back_channel),
		cmocka_unit_test(test_long_call_on_the_wire),
		cmocka_unit_test(test_reply_chunk_is_legal),
		cmocka_unit_test(test_nfs_program),
		cmocka_unit_test(test_over_grant),
		cmocka_unit_test(test_over_grant_probe_unanswered),
		cmocka_unit_test(test_over_grant_after_a_grant),
		cmocka_unit_test(test_disconnect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
