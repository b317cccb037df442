// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session (analyzer/session): the shared options, the finding filter,
 * and the two ways in (a whole file, frames one by one) giving the same
 * results.  The capture is a real Linux NFSv3 capture over rxe
 * (sample-pcaps/real/nfs3-rxe.pcap); the frame-by-frame path reads it with
 * libpcap directly, independently of the session's own reader.
 */
#include <getopt.h>
#include <glib.h>
#include <pcap/pcap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "rpcrdma/session.h"

static const char *capture_path;

/* ---- options ---- */

static bool set(struct rr_session_opts *o, enum rr_session_option w, const char *v)
{
	char err[256];

	return rr_session_set_option(o, w, v, err, sizeof(err));
}

static void test_defaults(void **state)
{
	struct rr_session_opts o;
	unsigned i;

	(void)state;
	rr_session_default_opts(&o);
	assert_int_equal(o.check.profile, RR_PROFILE_RFC8166);
	assert_int_equal(o.check.inline_threshold, 0);
	assert_int_equal(o.check.credit_slack, 0);
	for (i = 0; i < RR_RULE_COUNT; i++)
		assert_true(o.check.enabled[i]);
}

static void test_inline_threshold(void **state)
{
	struct rr_session_opts o;

	(void)state;
	rr_session_default_opts(&o);
	assert_true(set(&o, RR_OPT_INLINE_THRESHOLD, "4096"));
	assert_int_equal(o.check.inline_threshold, 4096);
	assert_true(set(&o, RR_OPT_INLINE_THRESHOLD, "0x1000"));
	assert_int_equal(o.check.inline_threshold, 4096);
	assert_true(set(&o, RR_OPT_INLINE_THRESHOLD, "1024"));
	assert_int_equal(o.check.inline_threshold, 1024);
	/* A leading zero is decimal, not octal. */
	assert_true(set(&o, RR_OPT_INLINE_THRESHOLD, "02048"));
	assert_int_equal(o.check.inline_threshold, 2048);
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "1023"));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "0x3ff"));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "-4096"));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "4096x"));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, ""));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "0x"));
	assert_false(set(&o, RR_OPT_INLINE_THRESHOLD, "4294967296"));
	assert_int_equal(o.check.inline_threshold, 2048);
}

static void test_credit_slack_and_profile(void **state)
{
	struct rr_session_opts o;
	char err[256];

	(void)state;
	rr_session_default_opts(&o);
	assert_true(set(&o, RR_OPT_CREDIT_SLACK, "0x10"));
	assert_int_equal(o.check.credit_slack, 16);
	assert_true(set(&o, RR_OPT_CREDIT_SLACK, "0"));
	assert_int_equal(o.check.credit_slack, 0);
	assert_false(set(&o, RR_OPT_CREDIT_SLACK, "three"));
	assert_true(set(&o, RR_OPT_PROFILE, "rfc5666"));
	assert_int_equal(o.check.profile, RR_PROFILE_RFC5666);
	assert_false(rr_session_set_option(&o, RR_OPT_PROFILE, "rfc9999", err, sizeof(err)));
	assert_non_null(strstr(err, "rfc9999"));
}

static void test_enable_disable(void **state)
{
	struct rr_session_opts o;
	enum rr_rule_id a = rr_rule_find("RR-029"), b = rr_rule_find("RR-241"), c = rr_rule_find("RR-240");
	enum rr_rule_id cond = rr_rule_find("CAP-TRUNC");
	char err[256];

	(void)state;
	assert_true(a != RR_RULE_COUNT && b != RR_RULE_COUNT && c != RR_RULE_COUNT && cond != RR_RULE_COUNT);
	rr_session_default_opts(&o);
	assert_true(set(&o, RR_OPT_ENABLE, "RR-029"));
	assert_true(o.check.enabled[a]);
	assert_false(o.check.enabled[b]);
	assert_true(o.check.enabled[cond]);         /* conditions are not rules: never narrowed */
	assert_true(set(&o, RR_OPT_ENABLE, "RR-241,"));   /* a second --enable adds */
	assert_true(o.check.enabled[a] && o.check.enabled[b]);
	assert_false(o.check.enabled[c]);
	assert_true(set(&o, RR_OPT_DISABLE, "RR-029"));
	assert_false(o.check.enabled[a]);
	assert_false(rr_session_set_option(&o, RR_OPT_DISABLE, "RR-241,no-such-rule", err, sizeof(err)));
	assert_non_null(strstr(err, "no-such-rule"));
	assert_false(o.check.enabled[b]);           /* the known names of the list still apply */
}

static void test_getopt_entries(void **state)
{
	struct option opts[RR_OPT__COUNT + 2] = { { "quiet", no_argument, NULL, 'q' } };
	char *argv[] = { "tool", "-q", "--inline-threshold", "8192", "--disable=RR-029", "file", NULL };
	struct rr_session_opts o;
	char err[256];
	int c, shared = 0;

	(void)state;
	rr_session_default_opts(&o);
	rr_session_getopt_entries(&opts[1]);
	assert_null(opts[RR_OPT__COUNT + 1].name);
	optind = 0;
	while ((c = getopt_long(6, argv, "q", opts, NULL)) != -1) {
		if (rr_session_is_option(c)) {
			assert_true(rr_session_set_option(&o, c - RR_SESSION_OPT_BASE, optarg, err, sizeof(err)));
			shared++;
		} else {
			assert_int_equal(c, 'q');
		}
	}
	assert_int_equal(shared, 2);
	assert_int_equal(o.check.inline_threshold, 8192);
	assert_false(o.check.enabled[rr_rule_find("RR-029")]);
	assert_string_equal(argv[optind], "file");
}

/* ---- the two ways in ---- */

struct seen {
	uint64_t messages, calls, findings, rule_hits, send_reports;
	enum rr_rule_id rule;
	uint64_t last_frame;
	bool out_of_order;
};

static void on_message(void *ctx, const struct rr_message *m)
{
	struct seen *s = ctx;

	s->messages++;
	s->calls += m->dir == RR_DIR_CALL;
}

static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct seen *s = ctx;

	s->findings++;
	s->rule_hits += d->id == s->rule;
}

static void on_send(void *ctx, const struct rr_send_report *r)
{
	struct seen *s = ctx;

	s->send_reports++;
	s->out_of_order |= r->frame < s->last_frame;
	s->last_frame = r->frame;
}

static struct seen run_file(const struct rr_session_opts *o)
{
	struct seen s = { .rule = rr_rule_find("RR-029") };
	struct rr_session_sinks sinks = { .ctx = &s, .message = on_message, .send = on_send, .finding = on_finding };
	struct rr_session *ses = rr_session_new(o, &sinks);
	char err[512];

	assert_int_equal(rr_session_run_file(ses, capture_path, err, sizeof(err)), 0);
	assert_true(rr_session_finished(ses));
	assert_int_equal(rr_session_engine_stats(ses)->messages, s.messages);
	rr_session_free(ses);
	return s;
}

static void test_filter(void **state)
{
	struct rr_session_opts o;
	struct seen all, without;

	(void)state;
	rr_session_default_opts(&o);
	all = run_file(&o);
	assert_true(all.rule_hits > 0);               /* the capture has RR-029 findings */
	assert_true(set(&o, RR_OPT_DISABLE, "RR-029"));
	without = run_file(&o);
	assert_int_equal(without.rule_hits, 0);
	assert_int_equal(without.findings, all.findings - all.rule_hits);
	assert_int_equal(without.messages, all.messages);
	assert_false(all.out_of_order);
}

static void test_frames_equal_file(void **state)
{
	struct rr_session_opts o;
	struct seen by_file, by_frame = { .rule = rr_rule_find("RR-029") };
	struct rr_session_sinks sinks = { .ctx = &by_frame, .message = on_message, .send = on_send, .finding = on_finding };
	struct rr_session *ses;
	char perr[PCAP_ERRBUF_SIZE], err[256];
	struct pcap_pkthdr *h;
	const u_char *pkt;
	pcap_t *p;
	uint64_t n = 0;

	(void)state;
	rr_session_default_opts(&o);
	by_file = run_file(&o);
	ses = rr_session_new(&o, &sinks);
	p = pcap_open_offline(capture_path, perr);
	assert_non_null(p);
	while (pcap_next_ex(p, &h, &pkt) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
		const struct rr_frame_report *rep =
			rr_session_feed_frame(ses, pcap_datalink(p), ++n, ts, pkt, h->caplen, h->len);

		assert_non_null(rep);
		assert_int_equal(rep->frame, n);
	}
	pcap_close(p);
	/* A link type the decoder does not read is refused, not guessed. */
	assert_null(rr_session_feed_frame(ses, 12345, n + 1, 0, (const uint8_t *)"x", 1, 1));
	rr_session_finish(ses);
	rr_session_finish(ses);      /* once only */
	assert_int_equal(rr_session_decode_stats(ses)->frames, n);
	assert_null(rr_session_feed_frame(ses, pcap_datalink_name_to_val("EN10MB"), n + 1, 0,
					  (const uint8_t *)"x", 1, 1));
	assert_false(rr_session_open_file(ses, capture_path, err, sizeof(err)));
	rr_session_free(ses);
	assert_int_equal(by_frame.messages, by_file.messages);
	assert_int_equal(by_frame.calls, by_file.calls);
	assert_int_equal(by_frame.findings, by_file.findings);
	assert_int_equal(by_frame.rule_hits, by_file.rule_hits);
	assert_int_equal(by_frame.send_reports, by_file.send_reports);
}

/* ---- a finish that is not the end (a live capture redrawn while it runs) ---- */

/* What the sinks heard, as comparable records; `mark` is where the last finish began. */
struct heard {
	GArray *items;   /* uint64_t: kind << 60 | key */
	guint mark;
	unsigned reopens;
};

static void heard_add(struct heard *h, uint64_t kind, uint64_t key)
{
	uint64_t v = kind << 60 | (key & ((UINT64_C(1) << 60) - 1));

	g_array_append_val(h->items, v);
}

static void heard_message(void *ctx, const struct rr_message *m)
{
	heard_add(ctx, 1, (uint64_t)m->xid << 24 | (m->n_frames ? m->frames[m->n_frames - 1] : 0) << 1 |
				  (m->dir == RR_DIR_CALL));
}

static void heard_finding(void *ctx, const struct rr_diag *d)
{
	heard_add(ctx, 2, (uint64_t)d->id << 32 | d->frame);
}

static void heard_send(void *ctx, const struct rr_send_report *r)
{
	heard_add(ctx, 3, r->frame);
}

static void heard_rdma(void *ctx, const struct rr_rdma_report *r)
{
	heard_add(ctx, 4, r->frame << 8 | (uint64_t)r->op << 4 | r->hit);
}

static void heard_reopen(void *ctx)
{
	struct heard *h = ctx;

	g_array_set_size(h->items, h->mark);
	h->reopens++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Feed the capture frame by frame, finishing every `every` frames as a
 * viewer would when it redraws; returns what was heard at the real end.
 */
static struct heard feed_finishing(uint64_t every, size_t keep_max)
{
	struct heard h = { .items = g_array_new(FALSE, FALSE, sizeof(uint64_t)) };
	struct rr_session_sinks sinks = { .ctx = &h, .message = heard_message, .send = heard_send,
					  .finding = heard_finding, .rdma = heard_rdma, .reopen = heard_reopen };
	struct rr_session *ses = rr_session_new(NULL, &sinks);
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *pkt;
	pcap_t *p = pcap_open_offline(capture_path, perr);
	uint64_t n = 0;

	assert_non_null(p);
	if (keep_max)
		rr_session_keep_frames(ses, keep_max);
	assert_int_equal(rr_session_can_reopen(ses), keep_max != 0);
	while (pcap_next_ex(p, &ph, &pkt) == 1) {
		uint64_t ts = (uint64_t)ph->ts.tv_sec * 1000000u + (uint64_t)ph->ts.tv_usec;

		if (rr_session_takes_frames(ses))
			rr_session_feed_frame(ses, pcap_datalink(p), ++n, ts, pkt, ph->caplen, ph->len);
		if (every && n % every == 0 && !rr_session_finished(ses)) {
			h.mark = h.items->len;
			rr_session_finish(ses);
		}
	}
	pcap_close(p);
	/* Past the bound nothing a finish told could be taken back. */
	assert_int_equal(rr_session_can_reopen(ses), keep_max > 4096);
	h.mark = h.items->len;
	rr_session_finish(ses);
	assert_int_equal(rr_session_reopens(ses), h.reopens);
	rr_session_free(ses);
	g_array_sort(h.items, cmp_u64);
	return h;
}

static void test_reopen_after_finish(void **state)
{
	struct heard whole = feed_finishing(0, 0), live = feed_finishing(97, 1u << 30), small;

	(void)state;
	/* A finish every 97 frames, then more frames: at the end, the same as one run to the end. */
	assert_true(live.reopens > 10);
	assert_true(whole.items->len > 1000);
	assert_int_equal(live.items->len, whole.items->len);
	assert_memory_equal(live.items->data, whole.items->data, whole.items->len * sizeof(uint64_t));
	/* Past the memory bound the first finish is final: the frames after it are not taken. */
	small = feed_finishing(97, 4096);       /* the bound is passed before the first finish */
	assert_int_equal(small.reopens, 0);
	assert_true(small.items->len < whole.items->len);
	g_array_free(whole.items, TRUE);
	g_array_free(live.items, TRUE);
	g_array_free(small.items, TRUE);
}

static void test_unreadable(void **state)
{
	struct rr_session *ses = rr_session_new(NULL, NULL);
	char err[512];

	(void)state;
	assert_int_equal(rr_session_run_file(ses, "/nonexistent/capture.pcap", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/capture.pcap"));
	assert_false(rr_session_finished(ses));
	rr_session_free(ses);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_inline_threshold),
		cmocka_unit_test(test_credit_slack_and_profile),
		cmocka_unit_test(test_enable_disable),
		cmocka_unit_test(test_getopt_entries),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_frames_equal_file),
		cmocka_unit_test(test_reopen_after_finish),
		cmocka_unit_test(test_unreadable),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s CAPTURE\n", argv[0]);
		return 2;
	}
	capture_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
