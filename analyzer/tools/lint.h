/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lint.h - ulb-lint's pieces: findings out and JSON strings (lint_report.c), the summary (lint_summary.c). */
#ifndef ULB_LINT_LINT_H
#define ULB_LINT_LINT_H

#include <stdio.h>

#include "rpcrdma/engine.h"

enum lint_format {
	LINT_TEXT,
	LINT_JSON,
};

/* One finding, compiler style or as a JSON line. */
void lint_print_finding(FILE *out, enum lint_format fmt, const char *file, const struct rr_diag *d);
/* A JSON string (quoted, escaped; NULL is ""): every JSON output of ulb-lint (findings, --summary, --dump) uses it. */
void lint_json_string(FILE *out, const char *s);

struct lint_summary;

struct lint_summary *lint_summary_new(void);
void lint_summary_message(struct lint_summary *s, const struct rr_message *m);
void lint_summary_finding(struct lint_summary *s, const struct rr_diag *d);
/* skipped: the engine's skipped checks, by enum rr_skip_reason. */
void lint_summary_print(struct lint_summary *s, FILE *out, enum lint_format fmt, const char *file,
			const uint64_t *skipped);
void lint_summary_free(struct lint_summary *s);

#endif
