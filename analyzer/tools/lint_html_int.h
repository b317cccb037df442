/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint_html_int.h - what the report keeps of a capture (lint_html.c fills
 * it), for the writers of the page (lint_html_page.c) and of its data
 * (lint_html_json.c).
 */
#ifndef ULB_LINT_HTML_INT_H
#define ULB_LINT_HTML_INT_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "rpcrdma/engine.h"

/* RDMA runs kept per RPC; later packets of it are only counted (rpc.more_rdma). */
#define HTML_RUNS_PER_RPC 24
/* Findings kept in full; past it, only counted per rule (the page says so). */
#define HTML_MAX_FINDINGS 50000
/* Past HTML_MAX_FINDINGS, each rule still lists this many (a capture-wide flood, CAP-ICRC on every
 * frame of a sniffer that writes no ICRC, must not hide the outcome findings told at the end). */
#define HTML_RULE_SHARE 100
/* Evidence frames kept per finding. */
#define HTML_FINDING_FRAMES 16
/* Frames of other traffic (ACKs, other RPCs) a run of one RDMA operation may skip and stay one run. */
#define HTML_RUN_GAP 8

enum html_rpc_flag {
	HF_BACKCHANNEL = 1 << 0,
	HF_RETRY = 1 << 1,
	HF_CALL_INCOMPLETE = 1 << 2,
	HF_HAS_CALL = 1 << 3,
	HF_HAS_REPLY = 1 << 4,
	HF_REPLY_INCOMPLETE = 1 << 5,
	HF_CAPTURE_LOSS = 1 << 6,
};

/* The packets of one RDMA operation kind of one RPC, frames first..last (n of them). */
struct html_run {
	uint64_t first, last;
	uint32_t n;
	uint32_t next;               /* index + 1 of the RPC's next run; 0 ends */
	uint8_t kind;                /* enum rr_rdma_carry */
};

/* One RPC: its call and its reply, as far as the capture showed them. */
struct html_rpc {
	uint64_t call_frame, reply_frame;    /* first frame of each Send; 0 not seen */
	uint64_t call_ts, reply_ts;          /* microseconds; 0 not seen */
	uint32_t conn, xid;
	uint32_t op;                         /* index into lint_html.ops */
	uint32_t credit_req, credit_grant;   /* rdma_credit of the call and of the reply */
	uint32_t outstanding;                /* calls outstanding in its direction with it */
	uint32_t call_inline, reply_inline;
	uint64_t ddp_bytes, long_bytes;      /* both messages */
	uint32_t first_run, last_run;        /* index + 1 into lint_html.runs; 0 none */
	uint32_t n_runs, more_rdma;
	uint8_t flags;                       /* enum html_rpc_flag */
	uint8_t call_proc, reply_proc;       /* rdma_proc of each Send; 7 not seen */
};

/* Per connection, counted as ulb-lint --summary counts (by each message's conn_id). */
struct html_conn {
	uint32_t id;
	char *name;
	uint8_t transport;
	struct rr_conn_info info;
	uint64_t calls, replies, backchannel, incomplete, retries;
	uint64_t inline_bytes, ddp_bytes, long_bytes;
	uint64_t rdma_unmatched;             /* RDMA packets that hit no advertised segment */
};

struct html_finding {
	enum rr_rule_id id;
	enum rr_severity sev;
	uint64_t frame;
	uint32_t conn;
	bool has_xid;
	uint32_t xid;
	char *text;
	uint64_t frames[HTML_FINDING_FRAMES];
	uint32_t n_frames;                   /* kept */
	uint32_t all_frames;                 /* in the finding */
	int64_t rpc;                         /* the RPC it is marked on; -1 none (set when written) */
};

struct lint_html {
	struct lint_outfile *out;    /* the page, open from lint_html_open() to lint_html_write() */
	const char *read_error;      /* lint_html_write()'s, while it writes */
	GArray *rpcs;                /* struct html_rpc, in the order their first Send was seen */
	GArray *runs;                /* struct html_run */
	GHashTable *by_frame;        /* call Send frame -> rpc index + 1 */
	GHashTable *by_xid;          /* conn << 32 | xid -> rpc index + 1 of the latest call */
	GHashTable *conns;           /* id -> struct html_conn* */
	GHashTable *op_index;        /* name -> index + 1 */
	GPtrArray *ops;              /* names */
	GArray *findings;            /* struct html_finding */
	uint64_t rule_count[RR_RULE_COUNT];
	uint32_t rule_listed[RR_RULE_COUNT];  /* of them, in findings */
	enum rr_severity rule_sev[RR_RULE_COUNT];
	uint64_t findings_dropped;
	uint64_t t0;                 /* earliest Send time seen */
};

/* lint_html_page.c: the page, its data included. */
void html_page_write(FILE *out, struct lint_html *h, const char *capture, const uint64_t *skipped);
/* lint_html_json.c: the page's data, one JSON object (with "</" escaped for a script element). */
void html_json_write(FILE *out, struct lint_html *h, const char *capture, const uint64_t *skipped);
/* The RPC a finding is marked on (its Send frame, an RDMA run holding it, or its XID), for every finding. */
void html_json_mark_findings(struct lint_html *h);

#endif
