// SPDX-License-Identifier: GPL-2.0-or-later
/* Event dispatch, limits and delivery; see engine.h for the contract. */
#include <stddef.h>
#include <string.h>

#include "budget.h"
#include "call.h"
#include "conn.h"
#include "rebuild.h"
#include "recent.h"
#include "rnr.h"
#include "scratch.h"
#include "segstore.h"
#include "xfer.h"
#include "../check/check.h"

/* The engine as engine.c alone sees it: the modules' view, and the dispatch state. */
struct dispatch {
	struct rr_engine eng;
	uint64_t cur_frame;       /* the event being fed */
	bool told_flows;          /* ENG-LIMIT about forgotten connections said */
};

static struct dispatch *dispatch_of(struct rr_engine *eng)
{
	return (struct dispatch *)((char *)eng - offsetof(struct dispatch, eng));
}

void rr_engine_default_limits(struct rr_engine_limits *lim)
{
	lim->max_calls_per_flow = 4096;
	lim->max_segment_bytes = 16u << 20;
	lim->max_buffered_bytes = 16u << 20;
	lim->max_send_bytes = 1u << 20;
	lim->max_message_bytes = 16u << 20;
	lim->max_flows = 4096;
}

struct rr_engine *rr_engine_new(const struct rr_engine_limits *limits,
				rr_message_fn fn, void *ctx, const struct rr_diag_sink *diag)
{
	struct dispatch *d = g_new0(struct dispatch, 1);
	struct rr_engine *eng = &d->eng;

	if (limits)
		eng->lim = *limits;
	else
		rr_engine_default_limits(&eng->lim);
	eng->fn = fn;
	eng->ctx = ctx;
	if (diag)
		eng->diag = *diag;
	eng->budget = rr_budget_new();
	eng->conns = rr_conn_table_new();
	eng->segstore = rr_segstore_new();
	eng->xfer = rr_xfer_new();
	rr_check_default_opts(&eng->check_opts);
	eng->checker = rr_checker_new(&eng->diag);
	return eng;
}

void rr_engine_set_send_fn(struct rr_engine *eng, rr_send_fn fn, void *ctx)
{
	eng->send_fn = fn;
	eng->send_ctx = ctx;
}

void rr_engine_set_rdma_fn(struct rr_engine *eng, rr_rdma_fn fn, void *ctx)
{
	eng->rdma_fn = fn;
	eng->rdma_ctx = ctx;
}

void rr_engine_set_check_opts(struct rr_engine *eng, const struct rr_check_opts *o)
{
	eng->check_opts = *o;
	rr_checker_set_opts(eng->checker, o);
}

uint64_t rr_engine_checks_skipped(const struct rr_engine *eng)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < RR_SKIP__COUNT; i++)
		n += rr_checker_skipped(eng->checker, i);
	return n;
}

uint64_t rr_engine_checks_skipped_for(const struct rr_engine *eng, enum rr_skip_reason why)
{
	return rr_checker_skipped(eng->checker, why);
}

const char *rr_skip_reason_text(enum rr_skip_reason why)
{
	switch (why) {
	case RR_SKIP_NOT_CAPTURED:
		return "their bytes were not captured (snaplen, lost packets)";
	case RR_SKIP_NO_THRESHOLD:
		return "the inline threshold is unknown";
	case RR_SKIP_STATE_LIMIT:
		return "their state was dropped at a memory bound";
	case RR_SKIP_NOT_UNDERSTOOD:
		return "their message was not understood by the walker (ENG-ULP)";
	case RR_SKIP_UNDECODED:
		return "their message was captured whole but its chunks do not rebuild it or its RPC header does not decode";
	default:
		return "?";
	}
}

/* Calls first on both sides (their replies may have placed data), then transfers. */
static void conn_teardown(struct rr_engine *eng, struct rr_conn *c)
{
	struct rr_fact down = { .kind = RR_FACT_CONN_DOWN, .conn_id = c->id };
	int s;

	for (s = 0; s < 2; s++)
		if (c->flow[s])
			rr_rebuild_flow_reset(eng, c->flow[s]);
	for (s = 0; s < 2; s++)
		if (c->flow[s])
			rr_xfer_flow_reset(eng, c->flow[s]);
	rr_conn_reopen(c);
	/*
	 * The check stage forgets the connection (what outcomes need stays with
	 * them); one never numbered was never named to it.
	 */
	if (c->id)
		rr_checker_fact(eng->checker, &down);
}

/* Each module frees its own state of the flows; then conn.c forgets the flows and the connection. */
static void conn_forget(struct rr_engine *eng, struct rr_conn *c)
{
	int s;

	for (s = 0; s < 2; s++) {
		struct rr_flow *f = c->flow[s];

		if (!f || f->conn != c)
			continue;
		rr_call_flow_free(f);
		rr_xfer_flow_free(f);
		rr_segstore_flow_free(f);
	}
	rr_conn_forget(eng, c);
}

static int by_activity(const void *a, const void *b)
{
	const struct rr_conn *x = *(struct rr_conn *const *)a, *y = *(struct rr_conn *const *)b;
	uint64_t lx = rr_conn_last_frame(x), ly = rr_conn_last_frame(y);

	return lx < ly ? -1 : lx > ly ? 1 : rr_conn_older(x, y) ? -1 : rr_conn_older(y, x);
}

/*
 * The flow table is full: the least recently active connections are torn
 * down (as at a disconnect) and forgotten, until an eighth of the table is
 * free.  Connections left empty by re-pairing go too.
 */
static void forget_idle(struct rr_engine *eng)
{
	struct dispatch *d = dispatch_of(eng);
	guint n = rr_conn_count(eng), i;
	struct rr_conn **all = g_new(struct rr_conn *, n ? n : 1);
	guint target = eng->lim.max_flows - eng->lim.max_flows / 8;

	for (i = 0; i < n; i++)
		all[i] = rr_conn_nth(eng, i);
	qsort(all, n, sizeof(*all), by_activity);
	if (!d->told_flows) {
		d->told_flows = true;
		rr_diag_report(&eng->diag, ENG_LIMIT, d->cur_frame,
			       "more than %u one-way flows at once: the least recently active connections "
			       "are closed and forgotten (their unanswered calls are judged as at a disconnect)",
			       eng->lim.max_flows);
	}
	for (i = 0; i < n; i++) {
		struct rr_conn *c = all[i];

		if (c->flow[0] || c->flow[1]) {
			if (rr_flow_count(eng) <= target)
				continue;
			conn_teardown(eng, c);
		}
		conn_forget(eng, c);
	}
	g_free(all);
}

/* What the transfer layer produced for this event goes to the rebuild. */
static void pass_up(struct rr_engine *eng)
{
	struct rr_send_done d;
	struct rr_call *call;

	if (rr_xfer_take_send(eng, &d)) {
		rr_rebuild_send(eng, d.flow, &d);
		rr_xfer_send_release(&d);
	}
	while ((call = rr_segstore_take_ready(eng)))
		rr_call_try_complete(eng, call);
}

static void end_all(struct rr_engine *eng)
{
	struct rr_fact end = { .kind = RR_FACT_END };
	guint i;

	for (i = 0; i < rr_conn_count(eng); i++)
		conn_teardown(eng, rr_conn_nth(eng, i));
	rr_checker_fact(eng->checker, &end);
}

/*
 * A joined capture's next part: the previous part ends as a capture does
 * (its outcomes are told), and its connections are forgotten so that
 * repeated XIDs and QP numbers start afresh.  Connection ids go on.
 */
static void end_part(struct rr_engine *eng)
{
	end_all(eng);
	while (rr_conn_count(eng))
		conn_forget(eng, rr_conn_nth(eng, rr_conn_count(eng) - 1));
	rr_conn_forget_handshakes(eng);
}

static void handle_cm(struct rr_engine *eng, const struct rr_event *ev)
{
	struct rr_cm_outcome cm;
	int s;

	if (ev->cm.kind == RR_CM_REQ)
		rr_xfer_cm_req(eng, ev);
	rr_conn_handle_cm(eng, ev, &cm);
	for (s = 0; s < 2; s++)
		if (cm.restarted[s])
			rr_xfer_flow_restart(eng, cm.restarted[s], ev);
	if (cm.gone)
		conn_teardown(eng, cm.gone);
}

void rr_engine_feed(struct rr_engine *eng, const struct rr_event *ev)
{
	struct rr_flow *f;

	eng->stats.events++;
	dispatch_of(eng)->cur_frame = ev->frame;
	if (ev->kind == RR_EV_CAPTURE_PART) {
		end_part(eng);
		return;
	}
	/* Findings held for a loss to show are bounded in capture time: their bound may have passed. */
	rr_checker_clock(eng->checker, ev->ts_usec);
	/* An event may make two flows (a handshake); room first. */
	if (rr_flow_count(eng) + 2 > eng->lim.max_flows && !rr_flow_find(eng, &ev->flow))
		forget_idle(eng);
	if (ev->kind == RR_EV_CM) {
		handle_cm(eng, ev);
		return;
	}
	if (ev->kind == RR_EV_ACK || ev->kind == RR_EV_TERMINATE) {
		rr_rnr_event(eng, ev);
		if (ev->kind == RR_EV_ACK)
			rr_xfer_ack(eng, ev);
		return;
	}
	f = rr_flow_get(eng, &ev->flow, ev->frame);
	if (!f)
		return;
	rr_flow_touch(f, ev->frame);
	if (ev->after_loss || ev->lost_bytes)
		rr_conn_note_loss(f, 0, ev->lost_bytes);
	rr_xfer_event(eng, f, ev);
	pass_up(eng);
}

void rr_engine_clock(struct rr_engine *eng, uint64_t ts_usec)
{
	rr_checker_clock(eng->checker, ts_usec);
}

void rr_engine_finish(struct rr_engine *eng)
{
	end_all(eng);
}

const struct rr_engine_stats *rr_engine_stats(const struct rr_engine *eng)
{
	return &eng->stats;
}

void rr_engine_free(struct rr_engine *eng)
{
	guint i;
	int s;

	if (!eng)
		return;
	/* Calls reference segments held in flows: drop them first. */
	for (i = 0; i < rr_conn_count(eng); i++) {
		struct rr_conn *c = rr_conn_nth(eng, i);

		for (s = 0; c && s < 2; s++)
			if (c->flow[s] && c->flow[s]->conn == c)
				rr_call_free_all(eng, c->flow[s]);
	}
	for (i = 0; i < rr_conn_count(eng); i++) {
		struct rr_conn *c = rr_conn_nth(eng, i);

		for (s = 0; c && s < 2; s++) {
			if (!c->flow[s] || c->flow[s]->conn != c)
				continue;
			rr_call_flow_free(c->flow[s]);
			rr_xfer_flow_free(c->flow[s]);
			rr_segstore_flow_free(c->flow[s]);
		}
	}
	rr_conn_table_free(eng->conns);
	rr_segstore_free(eng->segstore);
	rr_xfer_free(eng->xfer);
	rr_budget_free(eng->budget);
	rr_recent_free(eng->recent);
	if (eng->ulp_unknown)
		g_hash_table_destroy(eng->ulp_unknown);
	rr_checker_free(eng->checker);
	rr_scratch_clear(&eng->scratch);
	rr_call_spares_free(eng);
	g_free(eng->send_hdr);
	g_free(dispatch_of(eng));
}
