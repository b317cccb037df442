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
#include "rpcrdma/capture.h"

#define PROGRESS_MIN_BYTES (64u << 20)

struct lint {
	/* options */
	bool dump, quiet, summary, progress;
	enum lint_format fmt;
	enum rr_severity fail_on;
	struct rr_check_opts check;
	/* per file */
	const char *file;
	struct rr_engine *eng;
	struct lint_summary *sum;
	uint64_t count[3];            /* findings by severity, this file */
	uint64_t total[3];            /* all files */
	uint64_t file_size, events, read_at_start;
	FILE *out;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ulb-lint [options] FILE...   ('-' reads standard input)\n"
		"  Checks RPC-over-RDMA captures (pcap, pcapng; RoCEv1/v2, iWARP, InfiniBand, ERF)\n"
		"  against RFC 8166 and the NFS Upper-Layer Binding, RFC 8267.\n"
		"  --format text|json        findings as FILE:FRAME: SEVERITY: RULE text [ref], or JSON Lines\n"
		"  --summary                 counts per rule; per connection RPCs, DDP and inline bytes,\n"
		"                            credits, retries, response time per NFS operation\n"
		"  --profile rfc8166|rfc5666 severities of RFC 8166 (default) or the legacy RFC 5666 ones\n"
		"  --enable RULE[,RULE]      run only these rules (codes or names; repeatable)\n"
		"  --disable RULE[,RULE]     do not run or report these\n"
		"  --fail-on error|warning|info   exit 1 at findings of this severity or above (default error)\n"
		"  --inline-threshold N      inline threshold of both peers when the handshake is not captured\n"
		"  --credit-slack N          calls beyond the credit grant forgiven (merged captures; default 0)\n"
		"  --list-rules              print the rule table and exit\n"
		"  --dump                    one record per rebuilt RPC message instead of findings\n"
		"  --quiet                   no statistics line (and with --dump, no findings) on stderr\n"
		"  --no-progress             no progress bar on a terminal\n");
}

static bool parse_rules(const char *arg, bool on, struct rr_check_opts *o, bool *first_enable)
{
	gchar **parts = g_strsplit(arg, ",", -1);
	bool ok = true;
	unsigned i;

	if (on && *first_enable) {
		/* The first --enable narrows to what it names. */
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (rr_rule_get(i)->kind == RR_KIND_RULE)
				o->enabled[i] = false;
		*first_enable = false;
	}
	for (i = 0; parts[i]; i++) {
		enum rr_rule_id id;

		if (!*parts[i])
			continue;
		id = rr_rule_find(parts[i]);
		if (id == RR_RULE_COUNT) {
			fprintf(stderr, "ulb-lint: unknown rule '%s' (see --list-rules)\n", parts[i]);
			ok = false;
			continue;
		}
		o->enabled[id] = on;
	}
	g_strfreev(parts);
	return ok;
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
		       l->check.enabled[i] ? "" : "  (disabled)");
	}
	printf("\nnot checkable by a passive observer (docs/rules.md says why):");
	for (i = 0; i < RR_RULE_COUNT; i++)
		if (rr_rule_get(i)->kind == RR_KIND_NOCHECK)
			printf(" %s", rr_rule_get(i)->code);
	printf("\n");
}

static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct lint *l = ctx;

	if (!l->check.enabled[d->id] || d->severity == RR_SEV_OFF)
		return;
	l->count[d->severity]++;
	if (l->sum)
		lint_summary_finding(l->sum, d);
	if (l->dump) {
		if (!l->quiet)
			lint_print_finding(stderr, LINT_TEXT, l->file, d);
		return;
	}
	lint_print_finding(l->out, l->fmt, l->file, d);
}

static void on_message(void *ctx, const struct rr_message *m)
{
	struct lint *l = ctx;

	if (l->sum)
		lint_summary_message(l->sum, m);
	if (l->dump)
		dump_message(l->out, l->fmt == LINT_JSON ? DUMP_JSON : DUMP_TEXT, m);
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
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	struct lint *l = ctx;

	rr_engine_feed(l->eng, ev);
	progress(l, ev->frame);
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* One capture: 0 read to its end, 2 not readable (the findings so far were printed). */
static int lint_file(struct lint *l, const char *path)
{
	struct rr_diag_sink sink = { on_finding, l };
	struct rr_decode_opts dopts = { 0 };
	struct rr_decode_stats stats = { 0 };
	const struct rr_engine_stats *es;
	struct rr_capture *cap;
	char err[512];
	int rc, i;
	uint64_t skipped[RR_SKIP__COUNT];
	const char *sep;

	l->file = strcmp(path, "-") ? path : "<stdin>";
	memset(l->count, 0, sizeof(l->count));
	cap = rr_capture_open(path, err, sizeof(err));
	if (!cap) {
		fprintf(stderr, "ulb-lint: %s\n", err);
		return 2;
	}
	l->file_size = file_size(path);
	l->progress = l->progress && isatty(STDERR_FILENO) && l->file_size >= PROGRESS_MIN_BYTES;
	l->read_at_start = l->progress ? bytes_read() : 0;
	l->eng = rr_engine_new(NULL, on_message, l, &sink);
	rr_engine_set_check_opts(l->eng, &l->check);
	l->sum = l->summary ? lint_summary_new() : NULL;
	if (l->dump)
		dump_header(l->out, l->fmt == LINT_JSON ? DUMP_JSON : DUMP_TEXT);
	rc = rr_capture_run(cap, &dopts, on_event, l, &sink, &stats, err, sizeof(err));
	rr_engine_finish(l->eng);
	if (l->progress)
		fprintf(stderr, "\r\033[K");
	if (rc != 0)
		fprintf(stderr, "ulb-lint: warning: %s\n", err);
	for (i = 0; i < RR_SKIP__COUNT; i++)
		skipped[i] = rr_engine_checks_skipped_for(l->eng, i);
	if (l->sum)
		lint_summary_print(l->sum, l->out, l->fmt, l->file, skipped);
	es = rr_engine_stats(l->eng);
	if (!l->quiet) {
		fprintf(stderr,
			"ulb-lint: %s: %" PRIu64 " frames, %" PRIu64 " RDMA frames, %" PRIu64 " connections, %" PRIu64
			" calls, %" PRIu64 " replies (%" PRIu64 " incomplete); findings: %" PRIu64 " error, %" PRIu64
			" warning, %" PRIu64 " info; %" PRIu64 " checks skipped",
			l->file, stats.frames, stats.rdma_frames, es->connections, es->calls, es->replies,
			es->incomplete, l->count[RR_SEV_ERROR], l->count[RR_SEV_WARNING], l->count[RR_SEV_INFO],
			rr_engine_checks_skipped(l->eng));
		for (i = 0, sep = ": "; i < RR_SKIP__COUNT; i++)
			if (skipped[i]) {
				fprintf(stderr, "%s%" PRIu64 " because %s", sep, skipped[i], rr_skip_reason_text(i));
				sep = "; ";
			}
		if (stats.parts > 1)
			fprintf(stderr, "; the file holds %" PRIu64 " captures joined end to end, analysed one by one",
				stats.parts);
		fputc('\n', stderr);
	}
	for (i = 0; i < 3; i++)
		l->total[i] += l->count[i];
	lint_summary_free(l->sum);
	l->sum = NULL;
	rr_engine_free(l->eng);
	rr_capture_close(cap);
	return rc ? 2 : 0;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > 0xffffffffu)
		return false;
	*out = (uint32_t)v;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary", no_argument, NULL, 's' },
		{ "profile", required_argument, NULL, 'p' },
		{ "enable", required_argument, NULL, 'e' },
		{ "disable", required_argument, NULL, 'x' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "inline-threshold", required_argument, NULL, 'i' },
		{ "credit-slack", required_argument, NULL, 'c' },
		{ "list-rules", no_argument, NULL, 'l' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lint l = { .fmt = LINT_TEXT, .out = stdout, .fail_on = RR_SEV_ERROR, .progress = true };
	bool list = false, first_enable = true;
	int c, rc = 0, i;

	/*
	 * Rebuilt messages come and go by the thousand: keep freed heap for
	 * reuse instead of handing it back and faulting it in again (the live
	 * set stays a few MiB, so the peak does not grow).
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	rr_check_default_opts(&l.check);
	while ((c = getopt_long(argc, argv, "df:qsh", opts, NULL)) != -1) {
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
		case 'p':
			if (!rr_profile_parse(optarg, &l.check.profile)) {
				fprintf(stderr, "ulb-lint: --profile takes rfc8166 or rfc5666, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'e':
		case 'x':
			if (!parse_rules(optarg, c == 'e', &l.check, &first_enable))
				return 2;
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
		case 'i':
			if (!parse_u32(optarg, &l.check.inline_threshold) || l.check.inline_threshold < 1024) {
				fprintf(stderr, "ulb-lint: --inline-threshold takes a byte count of at least 1024, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			if (!parse_u32(optarg, &l.check.credit_slack)) {
				fprintf(stderr, "ulb-lint: --credit-slack takes a number, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'l':
			list = true;
			break;
		case 'P':
			l.progress = false;
			break;
		case 'h':
			usage(stdout);
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
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		bool progress = l.progress;

		if (lint_file(&l, argv[i]))
			rc = 2;
		l.progress = progress;
	}
	if (fflush(l.out) != 0) {
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
