/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint.h - ulb-lint's pieces: findings out and JSON strings (lint_report.c),
 * the summary (lint_summary.c), live capture (lint_live.c).
 */
#ifndef ULB_LINT_LINT_H
#define ULB_LINT_LINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rpcrdma/engine.h"
#include "rpcrdma/session.h"

enum lint_format {
	LINT_TEXT,
	LINT_JSON,
};

/*
 * The version of the JSON Lines ulb-lint writes (docs/ulb-lint-json.md):
 * every finding's line and every --summary line carries it as "schema".
 */
#define LINT_JSON_SCHEMA 1

/* One finding, compiler style or as a JSON line. */
void lint_print_finding(FILE *out, enum lint_format fmt, const char *file, const struct rr_diag *d);
/*
 * Text output lists the first `limit` findings of each capture condition
 * (CAP-: a frame cut by the snaplen, a damaged or repeated packet, a TCP
 * gap) and counts the others, which a headers-only capture would tell once
 * per frame, burying every other finding; JSON lists every one.  The
 * statistics line and --summary count them all.
 */
#define LINT_CAP_LINES_DEFAULT 10
struct lint_repeat {
	unsigned limit;                         /* 0: list every one */
	uint64_t told[RR_RULE_COUNT];           /* findings of the rule so far */
	uint64_t first[RR_RULE_COUNT], last[RR_RULE_COUNT];   /* frames of the ones not listed */
	enum rr_severity sev[RR_RULE_COUNT];
};
/* Forget the findings counted (a new capture); the limit stays. */
void lint_repeat_reset(struct lint_repeat *r);
/* Whether finding d is listed in text (counted either way). */
bool lint_repeat_admit(struct lint_repeat *r, const struct rr_diag *d);
/* After a capture's findings: a line per condition that had some not listed, how many and where. */
void lint_repeat_tail(const struct lint_repeat *r, FILE *out, const char *file);
/* A JSON string (quoted, escaped; NULL is ""): every JSON output of ulb-lint (findings, --summary, --dump) uses it. */
void lint_json_string(FILE *out, const char *s);
/*
 * The same, in_html: also safe inside a <script> element ('<', '>' and '&'
 * escaped, so "</script>" cannot close it).  Bytes that are not UTF-8 are
 * written as U+FFFD.
 */
void lint_json_string_in(FILE *out, const char *s, bool in_html);

struct lint_summary;

struct lint_summary *lint_summary_new(void);
void lint_summary_message(struct lint_summary *s, const struct rr_message *m);
void lint_summary_finding(struct lint_summary *s, const struct rr_diag *d);
/*
 * skipped: the engine's skipped checks, by enum rr_skip_reason.  read_error:
 * why the capture was not read to its end (damaged, unreadable), or NULL.
 */
void lint_summary_print(struct lint_summary *s, FILE *out, enum lint_format fmt, const char *file,
			const uint64_t *skipped, const char *read_error);
void lint_summary_free(struct lint_summary *s);
/* What a live capture counted, for the summary (lint_summary_capture; not called for files). */
struct lint_capture {
	bool live;
	const char *iface;
	uint64_t frames, received, dropped, ifdropped;
	double seconds;
};
void lint_summary_capture(struct lint_summary *s, const struct lint_capture *c);
/* What the data shows lost, over every connection: packets by PSN gap, bytes by TCP gap. */
void lint_summary_loss(const struct lint_summary *s, uint64_t *packets, uint64_t *bytes);

/* ulb-lint -i (lint_live.c). */
struct lint_live_opts {
	const char *iface;
	const char *filter;          /* BPF, tcpdump's syntax */
	double duration, interval;   /* seconds; 0: none */
	uint64_t count;              /* frames; 0: no limit */
	unsigned buffer_mib;
	bool quiet;                  /* no "capturing on" line */
};
/*
 * Capture on o->iface into the session until SIGINT, SIGTERM, --duration or
 * --count, with --interval lines on stderr (findings: the counts by
 * severity so far).  -1 the interface could not be opened (nothing ran), 0
 * ended as asked, 1 capturing failed part way; err says why.  The session
 * is finished on 0 and 1, and cap holds libpcap's counts.
 */
int lint_live_run(const struct lint_live_opts *o, struct rr_session *s, const uint64_t *findings,
		  struct lint_summary *sum, struct lint_capture *cap, char *err, size_t errlen);

/*
 * ulb-lint --jobs N (lint_jobs.c): one capture file checked by N worker
 * processes, each on the frames of a share of its hosts (hosts that
 * exchanged frames stay together), the findings told to out->finding in
 * the order of the frames that made them, connections numbered as one
 * process numbers them.  -1: the file is not one to split (err says why;
 * nothing ran); 0 read to its end; 1 a read error part way (err); 2 a
 * worker failed (err).
 */
struct lint_jobs_out {
	void *ctx;
	void (*finding)(void *ctx, const struct rr_diag *d);
};
struct lint_jobs_totals {
	struct rr_decode_stats decode;
	struct rr_engine_stats engine;
	uint64_t skipped[RR_SKIP__COUNT];
	unsigned groups;                   /* groups of hosts split over the workers */
	uint64_t planned;                  /* frames the first pass read: the ones checked */
	uint64_t unread;                   /* frames the file grew by after the first pass: not checked */
	uint64_t unread_bytes;             /* the same of a mapped file, in bytes: those past the mapped_bytes read */
	uint64_t mapped_bytes;
	uint64_t shard_frames[64];         /* frames each worker decoded */
};
int lint_jobs_run(const char *path, unsigned jobs, const struct rr_session_opts *opts,
		  const struct lint_jobs_out *out, struct lint_jobs_totals *tot, char *err, size_t errlen);

#endif
