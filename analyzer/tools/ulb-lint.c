// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ulb-lint: check captures of RPC-over-RDMA traffic against RFC 8166 and
 * the NFS Upper-Layer Binding (RFC 8267).  See docs/ulb-lint.1.
 *
 * Exit status: 0 no finding at or above --fail-on; 1 such findings; 2 a
 * usage error, or a capture that could not be read to its end.
 */
#include <getopt.h>
#include <glib.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"
#include "lint.h"
#include "lint_html.h"
#include "rpcrdma/session.h"

#define PROGRESS_MIN_BYTES (64u << 20)

struct lint {
	/* options */
	bool dump, quiet, summary, progress;
	bool progress_shown;         /* a progress line is on the terminal now */
	unsigned jobs;                /* --jobs: worker threads per capture file */
	enum lint_format fmt;
	enum rr_severity fail_on;
	struct rr_session_opts opts;
	struct lint_live_opts live;   /* -i: capture on live.iface instead of reading files */
	/* per file */
	const char *file;
	struct lint_summary *sum;
	uint64_t count[3];            /* findings by severity, this file */
	uint64_t total[3];            /* all files */
	uint64_t file_size, events, read_at_start;
	FILE *out;
	const char *report;          /* --report FILE.html */
	struct lint_html *html;
	struct lint_repeat repeat;    /* --cap-lines: capture conditions listed in text */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ulb-lint [options] FILE...   ('-' reads standard input)\n"
		"       ulb-lint [options] -i IFACE [FILTER EXPRESSION]\n"
		"  Checks RPC-over-RDMA captures (pcap, pcapng; RoCEv1/v2, iWARP, InfiniBand, ERF)\n"
		"  against RFC 8166 and the NFS Upper-Layer Binding, RFC 8267.\n"
		"  --format text|json        findings as FILE:FRAME: SEVERITY: RULE text [ref], or JSON Lines\n"
		"  --summary                 counts per rule; per connection RPCs, DDP and inline bytes,\n"
		"                            credits, retries, response time per NFS operation\n"
		"  --fail-on error|warning|info   exit 1 at findings of this severity or above (default error)\n"
		"  --report FILE.html        also write a self-contained HTML report of the capture (one capture)\n"
		"  -j, --jobs N              check a capture file with N threads, split by the hosts that talk\n"
		"                            to each other (findings as one thread finds them; not with --summary,\n"
		"                            --report, --dump or -i)\n");
	rr_session_print_options(f);
	fprintf(f,
		"  --list-rules              print the rule table and exit\n"
		"  --dump                    one record per rebuilt RPC message instead of findings\n"
		"  --quiet                   no statistics line (and with --dump, no findings) on stderr\n"
		"  --no-progress             no progress bar on a terminal\n"
		"  --version                 the version, and how this ulb-lint was optimised\n"
		"  --cap-lines N             text: list N findings of each capture condition (CAP-), count the\n"
		"                            rest (default 10; 0 lists every one; JSON lists every one)\n"
		"live capture (libpcap; root or CAP_NET_RAW; SIGINT or SIGTERM ends it with the end's findings):\n"
		"  -i, --interface IFACE     capture on IFACE; what follows the options is a BPF filter, as tcpdump's\n"
		"  --filter EXPR             the BPF filter as one argument instead\n"
		"  --duration S              stop after S seconds\n"
		"  --count N                 stop after N frames\n"
		"  --interval S              a line on stderr every S seconds: frames, findings, drops, loss\n"
		"  --buffer-size MIB         the kernel's capture buffer (default 64)\n");
}

static void list_rules(const struct lint *l)
{
	unsigned i;

	printf("%-18s %-36s %-8s %-8s %s\n", "rule", "name", "rfc8166", "rfc5666", "reference");
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get(i);

		if (r->kind == RR_KIND_NOCHECK)
			continue;
		printf("%-18s %-36s %-8s %-8s %s%s\n", r->code, r->name, rr_severity_name(r->sev[RR_PROFILE_RFC8166]),
		       rr_severity_name(r->sev[RR_PROFILE_RFC5666]), r->section,
		       l->opts.check.enabled[i] ? "" : "  (disabled)");
	}
	printf("\nnot checkable by a passive observer (docs/rules.md says why):");
	for (i = 0; i < RR_RULE_COUNT; i++)
		if (rr_rule_get(i)->kind == RR_KIND_NOCHECK)
			printf(" %s", rr_rule_get(i)->code);
	printf("\n");
	/* Each row of docs/rules.md carries its code as its anchor, as the --report page links it. */
	printf("each rule's documentation: %srules.md#RR-091 (its code after the #)\n", RR_REPORT_DOCS_URL);
}

/* The progress line, if one is on the terminal, erased. */
static void progress_clear(struct lint *l)
{
	if (!l->progress_shown)
		return;
	fputs("\r\033[K", stderr);
	l->progress_shown = false;
}

static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct lint *l = ctx;

	l->count[d->severity]++;
	if (l->sum)
		lint_summary_finding(l->sum, d);
	if (l->html)
		lint_html_finding(l->html, d);
	progress_clear(l);   /* on the same terminal: a finding starts on a clean line */
	if (l->dump) {
		if (!l->quiet && lint_repeat_admit(&l->repeat, d))
			lint_print_finding(stderr, LINT_TEXT, l->file, d);
		return;
	}
	if (l->fmt == LINT_JSON || lint_repeat_admit(&l->repeat, d))
		lint_print_finding(l->out, l->fmt, l->file, d);
	if (l->progress)
		fflush(l->out);   /* before the next progress line, which is written unbuffered */
}

/* After a capture's last finding: how many of each capture condition text did not list. */
static void end_findings(struct lint *l)
{
	if (l->dump && l->quiet)
		return;
	if (l->dump || l->fmt == LINT_TEXT)
		lint_repeat_tail(&l->repeat, l->dump ? stderr : l->out, l->file);
}

static void on_message(void *ctx, const struct rr_message *m)
{
	struct lint *l = ctx;

	if (l->sum)
		lint_summary_message(l->sum, m);
	if (l->html)
		lint_html_message(l->html, m);
	if (l->dump)
		dump_message(l->out, l->fmt == LINT_JSON ? DUMP_JSON : DUMP_TEXT, m);
}

static void on_send(void *ctx, const struct rr_send_report *s)
{
	lint_html_send(((struct lint *)ctx)->html, s);
}

static void on_rdma(void *ctx, const struct rr_rdma_report *r)
{
	lint_html_rdma(((struct lint *)ctx)->html, r);
}

/* Bytes this process has read so far (Linux /proc/self/io): how far into the file we are. */
static uint64_t bytes_read(void)
{
	char line[128];
	uint64_t v = 0;
	FILE *f = fopen("/proc/self/io", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "rchar: %" SCNu64, &v) == 1)
			break;
	fclose(f);
	return v;
}

static void progress(struct lint *l, uint64_t frame)
{
	uint64_t done;

	if (!l->progress || (l->events++ & 0x3ffff))
		return;
	done = bytes_read() - l->read_at_start;
	if (done > l->file_size)
		done = l->file_size;
	fprintf(stderr, "\rulb-lint: %s: %3u%% (%.1f of %.1f MiB, frame %" PRIu64 ")", l->file,
		(unsigned)(100 * done / l->file_size), done / 1048576.0, l->file_size / 1048576.0, frame);
	l->progress_shown = true;
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	progress(ctx, ev->frame);
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* The statistics line on stderr: what was read, rebuilt and found, and why checks were skipped. */
static void print_stats_of(const struct lint *l, const struct rr_decode_stats *ds, const struct rr_engine_stats *es,
			   const uint64_t *skipped, const struct lint_capture *cap, const char *tail)
{
	const char *sep = ": ";
	uint64_t all = 0;
	int i;

	for (i = 0; i < RR_SKIP__COUNT; i++)
		all += skipped[i];
	fprintf(stderr,
		"ulb-lint: %s: %" PRIu64 " frames, %" PRIu64 " RDMA frames, %" PRIu64 " connections, %" PRIu64
		" calls, %" PRIu64 " replies (%" PRIu64 " incomplete); findings: %" PRIu64 " error, %" PRIu64
		" warning, %" PRIu64 " info; %" PRIu64 " checks skipped",
		l->file, ds->frames, ds->rdma_frames, es->connections, es->calls, es->replies, es->incomplete,
		l->count[RR_SEV_ERROR], l->count[RR_SEV_WARNING], l->count[RR_SEV_INFO], all);
	for (i = 0; i < RR_SKIP__COUNT; i++) {
		if (skipped[i]) {
			fprintf(stderr, "%s%" PRIu64 " because %s", sep, skipped[i], rr_skip_reason_text(i));
			sep = "; ";
		}
	}
	if (ds->truncated)
		fprintf(stderr, "; %" PRIu64 " RDMA frames cut short by the capture (snaplen)", ds->truncated);
	if (ds->parts > 1)
		fprintf(stderr, "; the file holds %" PRIu64 " captures joined end to end, analysed one by one",
			ds->parts);
	if (cap && cap->live)
		fprintf(stderr, "; dropped before analysis: %" PRIu64 " by libpcap, %" PRIu64 " by the interface",
			cap->dropped, cap->ifdropped);
	fprintf(stderr, "%s\n", tail ? tail : "");
}

static void print_stats(const struct lint *l, const struct rr_session *s, const struct lint_capture *cap)
{
	uint64_t skipped[RR_SKIP__COUNT];
	int i;

	for (i = 0; i < RR_SKIP__COUNT; i++)
		skipped[i] = rr_session_checks_skipped(s, i);
	print_stats_of(l, rr_session_decode_stats(s), rr_session_engine_stats(s), skipped, cap, NULL);
}

/*
 * Findings reach a reader downstream as they are made: stdio buffers a
 * pipe's output by 4 KiB blocks, so `tcpdump -w - | ulb-lint - | grep`
 * showed nothing until the capture ended.  Each line is written when it is
 * complete, unless stdout is a regular file fed from files, which nobody
 * reads as it grows (docs/ulb-lint.1, STREAMING).
 */
static void line_buffer_stdout(bool live)
{
	struct stat st;

	if (live || fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
		setvbuf(stdout, NULL, _IOLBF, 0);
}

/* After a run: the summary, the statistics line, the totals; frees the run's session and summary. */
/* The end of one run: summary, report, statistics; true when the report could not be written. */
static bool end_run(struct lint *l, struct rr_session *s, const struct lint_capture *cap, const char *read_error)
{
	uint64_t skipped[RR_SKIP__COUNT];
	char err[512];
	bool failed = false;
	int i;

	for (i = 0; i < RR_SKIP__COUNT; i++)
		skipped[i] = rr_session_checks_skipped(s, i);
	end_findings(l);
	if (l->sum)
		lint_summary_print(l->sum, l->out, l->fmt, l->file, skipped, read_error);
	if (l->html && !lint_html_write(l->html, l->file, skipped, read_error, err, sizeof(err))) {
		fprintf(stderr, "ulb-lint: %s\n", err);
		failed = true;
	}
	if (!l->quiet)
		print_stats(l, s, cap);
	for (i = 0; i < 3; i++)
		l->total[i] += l->count[i];
	lint_summary_free(l->sum);
	l->sum = NULL;
	lint_html_free(l->html);
	l->html = NULL;
	rr_session_free(s);
	return failed;
}

/* The session of one run, with --report's page opened first (a bad path fails before any
 * reading) and fed the Sends and RDMA packets; NULL with a message on stderr. */
static struct rr_session *begin_run(struct lint *l, struct rr_session_sinks *sinks, const char *input)
{
	char err[512];

	if (l->report && !(l->html = lint_html_open(l->report, input, err, sizeof(err)))) {
		fprintf(stderr, "ulb-lint: %s\n", err);
		lint_summary_free(l->sum);
		l->sum = NULL;
		return NULL;
	}
	if (l->html) {
		sinks->send = on_send;
		sinks->rdma = on_rdma;
	}
	return rr_session_new(&l->opts, sinks);
}

/* A run that cannot go on: its error, and what begin_run made, freed. */
static void fail_run(struct lint *l, struct rr_session *s, const char *err)
{
	fprintf(stderr, "ulb-lint: %s\n", err);
	lint_summary_free(l->sum);
	l->sum = NULL;
	lint_html_free(l->html);
	l->html = NULL;
	rr_session_free(s);
}

/*
 * --jobs: the capture split over worker threads (lint_jobs.c).  -1 when
 * it is not one to split (said on stderr unless --quiet): the caller reads
 * it in this thread.  Otherwise as lint_file().
 */
static int lint_file_jobs(struct lint *l, const char *path)
{
	struct lint_jobs_out out = { .ctx = l, .finding = on_finding };
	struct lint_jobs_totals tot;
	char err[512], tail[1024];
	size_t n;
	int rc, i;

	if (!strcmp(path, "-") || !file_size(path)) {
		struct stat st;

		/* A file that cannot be read is the one-thread run's to report. */
		if (!l->quiet && (!strcmp(path, "-") || stat(path, &st) == 0))
			fprintf(stderr, "ulb-lint: %s: read by one thread: %s\n", l->file,
				strcmp(path, "-") && S_ISREG(st.st_mode) ? "it is empty" :
				"--jobs splits a regular file, read once to plan the split and again by the workers");
		return -1;
	}
	rc = lint_jobs_run(path, l->jobs, &l->opts, &out, &tot, err, sizeof(err));
	if (rc < 0) {
		if (!l->quiet)
			fprintf(stderr, "ulb-lint: %s: read by one thread: %s\n", l->file, err);
		return -1;
	}
	if (rc == 2) {
		fprintf(stderr, "ulb-lint: %s: %s\n", l->file, err);
		return 2;
	}
	end_findings(l);
	if (rc)
		fprintf(stderr, "ulb-lint: warning: %s\n", err);
	if (tot.unread)
		fprintf(stderr, "ulb-lint: warning: %s grew while it was read: the %" PRIu64 " frames after frame %"
			PRIu64 " were not checked (read it again, or without --jobs)\n", l->file, tot.unread,
			tot.planned);
	if (tot.unread_bytes)
		fprintf(stderr, "ulb-lint: warning: %s grew while it was read: the %" PRIu64 " bytes after byte "
			"offset %" PRIu64 " were not checked (read it again, or without --jobs)\n", l->file,
			tot.unread_bytes, tot.mapped_bytes);
	n = g_snprintf(tail, sizeof(tail), "; %u host groups split over %u threads (frames each:", tot.groups,
		       l->jobs);
	for (i = 0; i < (int)l->jobs && n < sizeof(tail); i++)
		n += g_snprintf(tail + n, sizeof(tail) - n, " %" PRIu64, tot.shard_frames[i]);
	if (n < sizeof(tail))
		g_snprintf(tail + n, sizeof(tail) - n, ")");
	if (!l->quiet)
		print_stats_of(l, &tot.decode, &tot.engine, tot.skipped, NULL, tail);
	for (i = 0; i < 3; i++)
		l->total[i] += l->count[i];
	return rc ? 2 : 0;
}

/* One capture: 0 read to its end, 2 not readable (the findings so far were printed). */
static int lint_file(struct lint *l, const char *path)
{
	struct rr_session_sinks sinks = { .ctx = l, .message = on_message, .finding = on_finding,
					  .event = on_event };
	struct rr_session *s;
	char err[1024];
	int rc;

	l->file = strcmp(path, "-") ? path : "<stdin>";
	memset(l->count, 0, sizeof(l->count));
	lint_repeat_reset(&l->repeat);
	l->file_size = file_size(path);
	l->progress = l->progress && isatty(STDERR_FILENO) && l->file_size >= PROGRESS_MIN_BYTES;
	l->read_at_start = l->progress ? bytes_read() : 0;
	if (l->jobs > 1) {
		rc = lint_file_jobs(l, path);
		if (rc >= 0)
			return rc;
	}
	l->sum = l->summary ? lint_summary_new() : NULL;
	s = begin_run(l, &sinks, path);
	if (!s)
		return 2;
	if (!rr_session_open_file(s, path, err, sizeof(err))) {
		fail_run(l, s, err);
		return 2;
	}
	if (l->dump)
		dump_header(l->out, l->fmt == LINT_JSON ? DUMP_JSON : DUMP_TEXT);
	rc = rr_session_run(s, err, sizeof(err));
	progress_clear(l);
	if (rc != 0)
		fprintf(stderr, "ulb-lint: warning: %s\n", err);
	if (end_run(l, s, NULL, rc ? err : NULL))
		rc = rc ? rc : 1;
	return rc ? 2 : 0;
}

/* -i: one run on a live interface, through the same session as a file. */
static int lint_iface(struct lint *l)
{
	struct rr_session_sinks sinks = { .ctx = l, .message = on_message, .finding = on_finding };
	struct lint_capture cap = { 0 };
	struct rr_session *s;
	char err[512];
	int rc;

	l->file = l->live.iface;
	l->live.quiet = l->quiet;
	l->progress = false;
	/* Made even without --summary: the --interval lines read its loss counts. */
	l->sum = lint_summary_new();
	s = begin_run(l, &sinks, NULL);
	if (!s)
		return 2;
	if (l->dump)
		dump_header(l->out, l->fmt == LINT_JSON ? DUMP_JSON : DUMP_TEXT);
	rc = lint_live_run(&l->live, s, l->count, l->sum, &cap, err, sizeof(err));
	if (rc < 0) {
		fail_run(l, s, err);
		return 2;
	}
	if (rc)
		fprintf(stderr, "ulb-lint: warning: %s\n", err);
	lint_summary_capture(l->sum, &cap);
	if (!l->summary) {
		lint_summary_free(l->sum);
		l->sum = NULL;
	}
	if (end_run(l, s, &cap, rc ? err : NULL))
		rc = 1;
	return rc ? 2 : 0;
}

/* The live capture's options (-i and its company); false with a message on stderr for a bad value. */
enum { OPT_FILTER = 0x4c00, OPT_DURATION, OPT_COUNT, OPT_INTERVAL, OPT_BUFFER, OPT_CAP_LINES };

static bool positive(const char *arg, double max, double *out)
{
	char *end;
	double v = g_ascii_strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > max)
		return false;
	*out = v;
	return true;
}

static bool live_option(struct lint_live_opts *o, int c, const char *arg)
{
	double v;

	switch (c) {
	case 'i':
		o->iface = arg;
		return true;
	case OPT_FILTER:
		o->filter = arg;
		return true;
	case OPT_DURATION:
	case OPT_INTERVAL:
		if (!positive(arg, 1e9, &v)) {
			fprintf(stderr, "ulb-lint: --%s takes a number of seconds above 0, not '%s'\n",
				c == OPT_DURATION ? "duration" : "interval", arg);
			return false;
		}
		*(c == OPT_DURATION ? &o->duration : &o->interval) = v;
		return true;
	case OPT_COUNT:
	case OPT_BUFFER:
		if (!positive(arg, c == OPT_COUNT ? 1e18 : 2047, &v) || v != (double)(uint64_t)v) {
			fprintf(stderr, "ulb-lint: --%s takes a whole number above 0%s, not '%s'\n",
				c == OPT_COUNT ? "count" : "buffer-size", c == OPT_COUNT ? "" : " (MiB, at most 2047)", arg);
			return false;
		}
		if (c == OPT_COUNT)
			o->count = (uint64_t)v;
		else
			o->buffer_mib = (unsigned)v;
		return true;
	}
	return false;
}

static bool is_live_option(int c)
{
	return c == 'i' || (c >= OPT_FILTER && c <= OPT_BUFFER);
}

/* -i: what follows the options is the filter, as tcpdump takes it (words joined by spaces). */
static bool live_filter(struct lint *l, int argc, char **argv, char **joined)
{
	if (optind >= argc)
		return true;
	if (l->live.filter) {
		fprintf(stderr, "ulb-lint: -i takes a filter either with --filter or after the options, not both\n");
		return false;
	}
	*joined = g_strjoinv(" ", argv + optind);
	l->live.filter = *joined;
	return true;
}

int main(int argc, char **argv)
{
	struct option opts[RR_OPT__COUNT + 19] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary", no_argument, NULL, 's' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "list-rules", no_argument, NULL, 'l' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "report", required_argument, NULL, 'R' },
		{ "interface", required_argument, NULL, 'i' },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "buffer-size", required_argument, NULL, OPT_BUFFER },
		{ "jobs", required_argument, NULL, 'j' },
		{ "cap-lines", required_argument, NULL, OPT_CAP_LINES },
		{ "version", no_argument, NULL, 'V' },
	};
	/*
	 * 64 MiB of capture buffer: frames are captured whole, so libpcap gives
	 * each a slot of up to 64 KiB, and with its 2 MiB default a quarter of
	 * a real RoCE capture replayed at 8 times its speed was dropped.
	 */
	struct lint l = { .fmt = LINT_TEXT, .out = stdout, .fail_on = RR_SEV_ERROR, .progress = true,
			  .live.buffer_mib = 64, .repeat.limit = LINT_CAP_LINES_DEFAULT };
	bool list = false;
	int c, rc = 0, i;
	char err[256], *filter = NULL;

	/*
	 * Rebuilt messages come and go by the thousand: keep freed heap for
	 * reuse instead of handing it back and faulting it in again (the live
	 * set stays a few MiB, so the peak does not grow).
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	rr_session_default_opts(&l.opts);
	rr_session_getopt_entries(&opts[18]);   /* the terminator stays zero */
	while ((c = getopt_long(argc, argv, "df:qshi:j:", opts, NULL)) != -1) {
		if (is_live_option(c)) {
			if (!live_option(&l.live, c, optarg))
				return 2;
			continue;
		}
		if (rr_session_is_option(c)) {
			if (!rr_session_set_option(&l.opts, c - RR_SESSION_OPT_BASE, optarg, err, sizeof(err))) {
				fprintf(stderr, "ulb-lint: %s\n", err);
				return 2;
			}
			continue;
		}
		switch (c) {
		case 'd':
			l.dump = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				l.fmt = LINT_JSON;
			else if (!strcmp(optarg, "text"))
				l.fmt = LINT_TEXT;
			else {
				fprintf(stderr, "ulb-lint: --format takes text or json, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'q':
			l.quiet = true;
			break;
		case 's':
			l.summary = true;
			break;
		case 'F':
			if (!strcmp(optarg, "error"))
				l.fail_on = RR_SEV_ERROR;
			else if (!strcmp(optarg, "warning"))
				l.fail_on = RR_SEV_WARNING;
			else if (!strcmp(optarg, "info"))
				l.fail_on = RR_SEV_INFO;
			else {
				fprintf(stderr, "ulb-lint: --fail-on takes error, warning or info, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'l':
			list = true;
			break;
		case 'P':
			l.progress = false;
			break;
		case 'R':
			l.report = optarg;
			break;
		case 'j': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (end == optarg || *end || n < 1 || n > 64) {
				fprintf(stderr, "ulb-lint: --jobs takes a number of threads from 1 to 64, not '%s'\n",
					optarg);
				return 2;
			}
			l.jobs = (unsigned)n;
			break;
		}
		case OPT_CAP_LINES: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (end == optarg || *end || n > 1000000) {
				fprintf(stderr, "ulb-lint: --cap-lines takes a number of lines from 0 (every one) to "
					"1000000, not '%s'\n", optarg);
				return 2;
			}
			l.repeat.limit = (unsigned)n;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			/* how it was built: bench/mix.sh prints it beside its figures */
			printf("ulb-lint %s (%s)\n", RR_VERSION, RR_BUILD_FLAVOUR);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (list) {
		list_rules(&l);
		return 0;
	}
	if (l.jobs > 1 && (l.summary || l.report || l.dump || l.live.iface)) {
		fprintf(stderr, "ulb-lint: --jobs goes with findings alone, not with %s\n",
			l.summary ? "--summary" : l.report ? "--report" : l.dump ? "--dump" : "-i");
		return 2;
	}
	line_buffer_stdout(l.live.iface != NULL);
	if (l.live.iface) {
		if (!live_filter(&l, argc, argv, &filter))
			return 2;
		rc = lint_iface(&l);
		g_free(filter);
	} else if (optind >= argc || l.live.filter || l.live.duration > 0 || l.live.interval > 0 || l.live.count) {
		if (optind < argc)
			fprintf(stderr, "ulb-lint: --filter, --duration, --count and --interval go with -i\n");
		else
			usage(stderr);
		return 2;
	}
	if (!l.live.iface && l.report && argc - optind != 1) {
		fprintf(stderr, "ulb-lint: --report writes the report of one capture, not %d\n", argc - optind);
		return 2;
	}
	for (i = l.live.iface ? argc : optind; i < argc; i++) {
		bool progress = l.progress;

		if (lint_file(&l, argv[i]))
			rc = 2;
		l.progress = progress;
	}
	if (fflush(l.out) != 0 || ferror(l.out)) {
		perror("ulb-lint: writing the output");
		return 2;
	}
	if (rc)
		return rc;
	if (l.dump)
		return 0;
	for (i = l.fail_on; i <= RR_SEV_ERROR; i++)
		if (l.total[i])
			return 1;
	return 0;
}
