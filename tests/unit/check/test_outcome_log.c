// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The outcome rules' log of calls (check/ck_outcome_log.c) at its bound:
 * CK_NOTES_MAX attempts, the oldest forgotten first.  The model is the
 * list of calls fed here: which are remembered, in which order, and which
 * count as a retry of an attempt still remembered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "ck_outcome.h"

static struct rr_checker *ck;
static struct rr_hdr hdr;     /* an inline RDMA_MSG call: no chunks */

/* A forward call, XID xid, on connection conn of requester host 1, in frame frame. */
static void call(uint32_t conn, uint32_t xid, uint64_t frame)
{
	struct rr_message m = { 0 };
	struct rr_fact f = { .kind = RR_FACT_MSG, .msg = &m };

	m.dir = RR_DIR_CALL;
	m.xid = xid;
	m.conn_id = conn;
	m.conn.requester_hash = 1;
	m.conn_name = conn == 1 ? "rocev2 10.0.0.1 qp 0x11 <-> 10.0.0.2 qp 0x12" :
				  "rocev2 10.0.0.1 qp 0x21 <-> 10.0.0.2 qp 0x22";
	m.send_frame = frame;
	m.hdr = &hdr;
	ck_outlog_feed(ck, &f);
}

static uint64_t key(uint32_t xid)
{
	struct rr_conn_info c = { .requester_hash = 1 };

	return ck_episode_key(&c, xid);
}

static int setup(void **state)
{
	(void)state;
	ck = rr_checker_new(NULL);
	memset(&hdr, 0, sizeof(hdr));
	hdr.proc = RR_RDMA_MSG;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rr_checker_free(ck);
	return 0;
}

static void test_ring_forgets_oldest(void **state)
{
	const uint32_t extra = 1500;      /* past one block of the ring */
	const struct ck_note *const *all;
	const struct ck_outlog *log;
	size_t n;

	(void)state;
	for (uint32_t i = 0; i < CK_NOTES_MAX + extra; i++)
		call(1, 0x1000 + i, 10 + (uint64_t)i);
	log = ck_outlog(ck);
	all = ck_outlog_notes(log, &n);
	assert_int_equal(n, CK_NOTES_MAX);
	/* Oldest first: the first `extra` calls are gone, the rest in the order sent. */
	for (size_t i = 0; i < n; i += 997)
		assert_int_equal(all[i]->frame, 10 + extra + i);
	assert_int_equal(all[n - 1]->frame, 10 + CK_NOTES_MAX + extra - 1);
	assert_null(ck_outlog_note(log, key(0x1000)));
	assert_null(ck_outlog_note(log, key(0x1000 + extra - 1)));
	assert_int_equal(ck_outlog_note(log, key(0x1000 + extra))->frame, 10 + extra);
	/*
	 * The oldest remembered XID again on connection 2: a retry of an
	 * attempt that was never answered, judged before that attempt, the
	 * oldest note, makes room for this one.
	 */
	call(2, 0x1000 + extra, 900000);
	all = ck_outlog_notes(log, &n);
	assert_int_equal(n, CK_NOTES_MAX);
	assert_int_equal(all[0]->frame, 10 + extra + 1);
	{
		const struct ck_note *r = ck_outlog_note(log, key(0x1000 + extra));

		assert_int_equal(r->frame, 900000);
		assert_true(r->retry);
		assert_true(r->lost);
	}
	/* A forgotten XID again is a first attempt as far as the log knows. */
	call(2, 0x1000, 900001);
	assert_false(ck_outlog_note(log, key(0x1000))->retry);
	all = ck_outlog_notes(log, &n);
	assert_int_equal(n, CK_NOTES_MAX);
	assert_int_equal(all[n - 1]->frame, 900001);
	assert_int_equal(all[n - 2]->frame, 900000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ring_forgets_oldest, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
