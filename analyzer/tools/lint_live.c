// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ulb-lint -i IFACE: the run's control around the session's live source
 * (rpcrdma/live.h): SIGINT and SIGTERM end it cleanly (the end's findings
 * and the summary are still told), --duration and --count end it too, and
 * --interval prints a line on stderr every so often: frames, findings, what
 * libpcap dropped and what the data shows lost.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lint.h"
#include "rpcrdma/live.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct live_run {
	const struct lint_live_opts *o;
	struct rr_session *s;
	struct rr_live *lv;
	const uint64_t *findings;
	struct lint_summary *sum;
	double start, next_line;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void interval_line(struct live_run *r, double at)
{
	struct rr_decode_stats ds;
	struct rr_live_stats ls;
	uint64_t lost_packets = 0, lost_bytes = 0;

	rr_session_decode_stats_now(r->s, &ds);
	rr_live_stats(r->lv, &ls);
	lint_summary_loss(r->sum, &lost_packets, &lost_bytes);
	fprintf(stderr,
		"ulb-lint: %s: %.1f s: %" PRIu64 " frames, %" PRIu64 " RDMA frames; findings: %" PRIu64 " error, %"
		PRIu64 " warning, %" PRIu64 " info; dropped: %" PRIu64 " by libpcap, %" PRIu64
		" by the interface; lost in the data: %" PRIu64 " packets (PSN gaps), %" PRIu64 " bytes (TCP gaps)\n",
		r->o->iface, at - r->start, ls.frames, ds.rdma_frames, r->findings[RR_SEV_ERROR],
		r->findings[RR_SEV_WARNING], r->findings[RR_SEV_INFO], ls.dropped, ls.ifdropped, lost_packets,
		lost_bytes);
}

static bool on_tick(void *ctx)
{
	struct live_run *r = ctx;
	double t = now_s();

	if (r->o->interval > 0 && t >= r->next_line) {
		interval_line(r, t);
		r->next_line += r->o->interval;
		if (r->next_line < t)
			r->next_line = t + r->o->interval;
	}
	return !(r->o->duration > 0 && t - r->start >= r->o->duration);
}

int lint_live_run(const struct lint_live_opts *o, struct rr_session *s, const uint64_t *findings,
		  struct lint_summary *sum, struct lint_capture *cap, char *err, size_t errlen)
{
	struct rr_live_opts lo = { .iface = o->iface, .filter = o->filter, .buffer_mib = o->buffer_mib };
	struct sigaction sa, old_int, old_term;
	struct live_run r = { .o = o, .s = s, .findings = findings, .sum = sum };
	struct rr_live_ctl ctl = { .stop = &stop_requested, .max_frames = o->count, .tick_ms = 100,
				   .tick = on_tick, .ctx = &r };
	struct rr_live_stats st;
	int rc;

	r.lv = rr_live_open(&lo, err, errlen);
	if (!r.lv)
		return -1;
	if (rr_live_warning(r.lv))
		fprintf(stderr, "ulb-lint: warning: %s\n", rr_live_warning(r.lv));
	/* No SA_RESTART: the signal cuts the wait for frames short. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_requested = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* Said once the signals are ours: a script may send SIGINT as soon as it reads this. */
	if (!o->quiet)
		fprintf(stderr, "ulb-lint: capturing on %s, link type %s%s%s\n", o->iface, rr_live_linktype_name(r.lv),
			o->filter ? ", filter " : "", o->filter ? o->filter : "");
	r.start = now_s();
	r.next_line = r.start + o->interval;
	rc = rr_session_run_live(s, r.lv, &ctl, err, errlen);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	rr_live_stats(r.lv, &st);
	cap->live = true;
	cap->iface = o->iface;
	cap->frames = st.frames;
	cap->received = st.received;
	cap->dropped = st.dropped;
	cap->ifdropped = st.ifdropped;
	cap->seconds = now_s() - r.start;
	rr_live_close(r.lv);
	return rc;
}
