// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emit.c - the single exit of the capture decoder: events to the engine,
 * diagnostics to the sink, and the endpoint names sentences carry.
 *
 * Every layer calls down into this file and it calls none of them, so
 * data flows one way through the decoder (docs/architecture.md).
 */
#include <stdarg.h>
#include <stdio.h>

#include "emit.h"

void dec_emit(struct rr_frame_ctx *fx, struct rr_event *ev)
{
	ev->frame = fx->ev_frame ? fx->ev_frame : fx->frame;
	ev->ts_usec = fx->ts;
	ev->more_frames = fx->more_frames;
	ev->n_more_frames = fx->n_more_frames;
	fx->produced = true;
	if (fx->d->ev_fn)
		fx->d->ev_fn(fx->d->ev_ctx, ev);
}

void dec_trunc(struct rr_frame_ctx *fx, const char *fmt, ...)
{
	va_list ap;

	if (fx->trunc_reported)
		return;
	fx->trunc_reported = true;
	fx->d->stats.truncated++;
	va_start(ap, fmt);
	rr_diag_vreport(&fx->d->diag, CAP_TRUNC, fx->frame, fmt, ap);
	va_end(ap);
}

void dec_malformed(struct rr_frame_ctx *fx, const char *fmt, ...)
{
	va_list ap;

	fx->d->stats.malformed++;
	va_start(ap, fmt);
	rr_diag_vreport(&fx->d->diag, CAP_MALFORMED, fx->frame, fmt, ap);
	va_end(ap);
}

void dec_report(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rr_diag_vreport(&fx->d->diag, id, fx->frame, fmt, ap);
	va_end(ap);
}

void dec_short(struct rr_frame_ctx *fx, const char *fmt, ...)
{
	char text[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (fx->cut)
		dec_trunc(fx, "%s: payload not captured (snaplen)", text);
	else
		dec_malformed(fx, "%s: frame too short", text);
}

static void fmt_addr(char *buf, size_t len, int version, const uint8_t *a)
{
	if (version == 4) {
		snprintf(buf, len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	} else {
		size_t o = 0;

		for (int i = 0; i < 16 && o + 6 < len; i += 2)
			o += (size_t)snprintf(buf + o, len - o, "%s%x", i ? ":" : "",
					      (unsigned)(a[i] << 8 | a[i + 1]));
	}
}

void ip_fmt_endpoint(char *buf, size_t len, int version, const uint8_t *addr, uint16_t port)
{
	char a[64];

	fmt_addr(a, sizeof(a), version, addr);
	if (version == 6)
		snprintf(buf, len, "[%s]:%u", a, port);
	else
		snprintf(buf, len, "%s:%u", a, port);
}
