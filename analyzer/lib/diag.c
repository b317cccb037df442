// SPDX-License-Identifier: GPL-2.0-or-later
/* Formatting diagnostics once, for every reporter. */
#include <stdio.h>

#include "diag.h"

void rr_diag_vreport(const struct rr_diag_sink *sink, enum rr_rule_id id,
		     uint64_t frame, const char *fmt, va_list ap)
{
	char text[512];
	struct rr_diag d = { .id = id, .frame = frame, .text = text };

	if (!sink || !sink->fn)
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	sink->fn(sink->ctx, &d);
}

void rr_diag_report(const struct rr_diag_sink *sink, enum rr_rule_id id,
		    uint64_t frame, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rr_diag_vreport(sink, id, frame, fmt, ap);
	va_end(ap);
}
