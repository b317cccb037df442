/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint_html.h - ulb-lint --report FILE.html: one self-contained page per
 * capture (docs/ulb-lint-report.md).
 *
 * The report reads what the session's sinks deliver, nothing else: the
 * Sends judged RPC-over-RDMA (a call's Send opens its RPC, before any RDMA
 * Read of it), every RDMA operation's packet (which call's chunk it served),
 * the rebuilt messages (operation, credits, bytes by how they travelled)
 * and the findings.  It keeps one small record per RPC, the frames of its
 * RDMA operations as runs of consecutive frames (a bounded number per RPC),
 * and every finding; at the end it writes the page: the data as JSON, the
 * page's script and style and the charting library, all inlined.
 */
#ifndef ULB_LINT_HTML_H
#define ULB_LINT_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "rpcrdma/engine.h"

struct lint_html;

/*
 * Open path for the page before the capture input is read (a path that
 * cannot be written fails at once, not after the analysis): NULL, with a
 * sentence naming the file in err, when it cannot be, or would cost a file
 * (lint_outfile.h: the capture itself, a file that is not a page).
 */
struct lint_html *lint_html_open(const char *path, const char *input, char *err, size_t errlen);
void lint_html_send(struct lint_html *h, const struct rr_send_report *s);
void lint_html_rdma(struct lint_html *h, const struct rr_rdma_report *r);
void lint_html_message(struct lint_html *h, const struct rr_message *m);
void lint_html_finding(struct lint_html *h, const struct rr_diag *d);
/*
 * Write the page for capture (its name as shown) and close the file.
 * skipped: the engine's skipped checks by enum rr_skip_reason; read_error: why the
 * capture was not read to its end, or NULL (the page says so).  false, with
 * a sentence naming the file in err, when it could not be written.
 */
bool lint_html_write(struct lint_html *h, const char *capture, const uint64_t *skipped, const char *read_error,
		     char *err, size_t errlen);
/* Without lint_html_write(): what the path held is left as it was. */
void lint_html_free(struct lint_html *h);

#endif
