// SPDX-License-Identifier: GPL-2.0-or-later
/* Formatting findings once, for every reporter. */
#include <glib.h>
#include <stdio.h>

#include "diag.h"

void rr_diag_vreport(const struct rr_diag_sink *sink, enum rr_rule_id id,
		     uint64_t frame, const char *fmt, va_list ap)
{
	char text[512];
	struct rr_diag d = { .id = id, .frame = frame, .text = text };

	if (!sink || !sink->fn)
		return;
	d.severity = rr_rule_get(id)->severity;
	d.frames = &d.frame;
	d.n_frames = frame ? 1 : 0;
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

void rr_diag_emit(const struct rr_diag_sink *sink, const struct rr_diag *d)
{
	if (sink && sink->fn)
		sink->fn(sink->ctx, d);
}

void rr_diag_copy(struct rr_diag *dst, const struct rr_diag *src)
{
	*dst = *src;
	dst->text = g_strdup(src->text);
	dst->frames = src->n_frames ? g_memdup2(src->frames, src->n_frames * sizeof(uint64_t)) : NULL;
}

void rr_diag_clear(struct rr_diag *d)
{
	g_free((char *)d->text);
	g_free((uint64_t *)d->frames);
	d->text = NULL;
	d->frames = NULL;
	d->n_frames = 0;
}
