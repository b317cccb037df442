/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diag.h - diagnostics: what every layer reports, and how.
 *
 * A diagnostic names a code from the catalog in rules.h (RR-xxx rules of the
 * digest, CAP-xxx capture conditions, ENG-xxx engine limits), the frame it
 * was seen in, and a human sentence.  The catalog entry carries the
 * severity, the RFC section and the rule text, so a reporter never
 * hard-codes them.
 *
 * Layers report through a struct rr_diag_sink; a sink with fn == NULL
 * drops everything (useful in fuzzers and benchmarks).
 */
#ifndef RPCRDMA_DIAG_H
#define RPCRDMA_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include "rules.h"

struct rr_diag {
	enum rr_rule_id id;
	uint64_t frame;       /* 0 when no single frame applies */
	const char *text;     /* formatted sentence, valid during the call */
};

typedef void (*rr_diag_fn)(void *ctx, const struct rr_diag *d);

struct rr_diag_sink {
	rr_diag_fn fn;
	void *ctx;
};

#if defined(__GNUC__)
#define RR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RR_PRINTF(a, b)
#endif

void rr_diag_report(const struct rr_diag_sink *sink, enum rr_rule_id id,
		    uint64_t frame, const char *fmt, ...) RR_PRINTF(4, 5);
void rr_diag_vreport(const struct rr_diag_sink *sink, enum rr_rule_id id,
		     uint64_t frame, const char *fmt, va_list ap);

#endif
