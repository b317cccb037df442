// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ulb-lint: read a pcap/pcapng capture of RPC-over-RDMA traffic, rebuild
 * every RPC message and report what the engine and the decoders found.
 *
 *   ulb-lint [--dump] [--format text|json] [--quiet] FILE|-
 *
 * Exit status: 0 done; 1 the capture produced error-severity diagnostics
 * (not in --dump mode); 2 usage or the capture could not be read.
 */
#include <getopt.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "rpcrdma/capture.h"
#include "rpcrdma/engine.h"

struct lint {
	bool dump;
	bool quiet;
	enum dump_format fmt;
	struct rr_engine *eng;
	uint64_t diags[3];     /* by severity */
	FILE *out;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ulb-lint [--dump] [--format text|json] [--quiet] FILE|-\n"
		"  Rebuilds every RPC-over-RDMA message in a pcap or pcapng capture\n"
		"  (RoCEv1/v2, iWARP, InfiniBand, ERF from ibdump; '-' reads stdin).\n"
		"  --dump           one record per rebuilt RPC message\n"
		"  --format FMT     text (default) or json (JSON Lines)\n"
		"  --quiet          with --dump: do not print diagnostics on stderr\n");
}

static void on_diag(void *ctx, const struct rr_diag *d)
{
	struct lint *l = ctx;
	const struct rr_rule *r = rr_rule_get(d->id);
	FILE *f = l->dump ? stderr : l->out;

	l->diags[d->severity]++;
	if (l->dump && l->quiet)
		return;
	fprintf(f, "frame %" PRIu64 ": %s %s [%s]: %s\n", d->frame, rr_severity_name(d->severity),
		r->code, r->section, d->text);
}

static void on_message(void *ctx, const struct rr_message *m)
{
	struct lint *l = ctx;

	if (l->dump)
		dump_message(l->out, l->fmt, m);
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	rr_engine_feed(((struct lint *)ctx)->eng, ev);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lint l = { .fmt = DUMP_TEXT, .out = stdout };
	struct rr_diag_sink sink = { on_diag, &l };
	struct rr_decode_opts dopts = { 0 };
	struct rr_decode_stats stats = { 0 };
	const struct rr_engine_stats *es;
	struct rr_capture *cap;
	char err[512];
	int c, rc;

	while ((c = getopt_long(argc, argv, "df:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			l.dump = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				l.fmt = DUMP_JSON;
			else if (!strcmp(optarg, "text"))
				l.fmt = DUMP_TEXT;
			else {
				fprintf(stderr, "ulb-lint: --format takes text or json, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'q':
			l.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	cap = rr_capture_open(argv[optind], err, sizeof(err));
	if (!cap) {
		fprintf(stderr, "ulb-lint: %s\n", err);
		return 2;
	}
	l.eng = rr_engine_new(NULL, on_message, &l, &sink);
	if (l.dump)
		dump_header(l.out, l.fmt);
	rc = rr_capture_run(cap, &dopts, on_event, &l, &sink, &stats, err, sizeof(err));
	rr_engine_finish(l.eng);
	es = rr_engine_stats(l.eng);
	if (!l.dump || !l.quiet)
		fprintf(l.dump ? stderr : l.out,
			"ulb-lint: %" PRIu64 " frames, %" PRIu64 " RDMA frames, %" PRIu64 " connections, %" PRIu64
			" calls, %" PRIu64 " replies (%" PRIu64 " incomplete); diagnostics: %" PRIu64
			" error, %" PRIu64 " warning, %" PRIu64 " info\n",
			stats.frames, stats.rdma_frames, es->connections, es->calls, es->replies,
			es->incomplete, l.diags[RR_SEV_ERROR], l.diags[RR_SEV_WARNING], l.diags[RR_SEV_INFO]);
	rr_engine_free(l.eng);
	rr_capture_close(cap);
	if (rc != 0) {
		fprintf(stderr, "ulb-lint: %s\n", err);
		return 2;
	}
	if (fflush(l.out) != 0) {
		perror("ulb-lint: writing the output");
		return 2;
	}
	return !l.dump && l.diags[RR_SEV_ERROR] ? 1 : 0;
}
