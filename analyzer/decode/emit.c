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

/* Told: counted in the statistics, handed to the sink. */
static void tell(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *text)
{
	if (id == CAP_TRUNC)
		fx->d->stats.truncated++;
	else if (id == CAP_MALFORMED)
		fx->d->stats.malformed++;
	else if (id == CAP_ICRC)
		fx->d->stats.icrc_bad++;
	rr_diag_report(&fx->d->diag, id, fx->frame, "%s", text);
}

static void frame_vcond(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, va_list ap)
{
	struct held_cond h = { .id = id };

	if (fx->rdma) {
		char text[512];

		vsnprintf(text, sizeof(text), fmt, ap);
		tell(fx, id, text);
		return;
	}
	h.text = g_strdup_vprintf(fmt, ap);
	g_array_append_val(fx->d->held, h);
}

void dec_rdma(struct rr_frame_ctx *fx)
{
	GArray *held = fx->d->held;

	if (fx->rdma)
		return;
	fx->rdma = true;
	for (guint i = 0; i < held->len; i++) {
		struct held_cond *h = &g_array_index(held, struct held_cond, i);

		tell(fx, h->id, h->text);
	}
	dec_frame_end(fx);
}

void dec_frame_end(struct rr_frame_ctx *fx)
{
	GArray *held = fx->d->held;

	if (!held->len)             /* nearly every frame: no call into glib */
		return;
	for (guint i = 0; i < held->len; i++)
		g_free(g_array_index(held, struct held_cond, i).text);
	g_array_set_size(held, 0);
}

void dec_emit(struct rr_frame_ctx *fx, struct rr_event *ev)
{
	dec_rdma(fx);
	ev->frame = fx->ev_frame ? fx->ev_frame : fx->frame;
	ev->ts_usec = fx->ev_frame ? fx->ev_ts : fx->ts;
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
	va_start(ap, fmt);
	frame_vcond(fx, CAP_TRUNC, fmt, ap);
	va_end(ap);
}

void dec_malformed(struct rr_frame_ctx *fx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	frame_vcond(fx, CAP_MALFORMED, fmt, ap);
	va_end(ap);
}

void dec_frame_cond(struct rr_frame_ctx *fx, enum rr_rule_id id, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	frame_vcond(fx, id, fmt, ap);
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
