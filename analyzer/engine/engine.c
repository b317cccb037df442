// SPDX-License-Identifier: GPL-2.0-or-later
/* Event dispatch, limits and delivery; see engine.h for the contract. */
#include <string.h>

#include "engine_int.h"
#include "call.h"
#include "segstore.h"
#include "xfer.h"
#include "../check/check.h"

void rr_engine_default_limits(struct rr_engine_limits *lim)
{
	lim->max_calls_per_flow = 4096;
	lim->max_segment_bytes = 16u << 20;
	lim->max_buffered_bytes = 16u << 20;
	lim->max_send_bytes = 1u << 20;
	lim->max_message_bytes = 16u << 20;
	lim->max_flows = 4096;
}

static void free_flow(gpointer p);

/* Keys are canonicalised (conn.c) so padding is zero and bytes compare. */
static guint flow_key_hash(gconstpointer p)
{
	const uint8_t *b = p;
	guint32 h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(struct rr_flow_key); i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static gboolean flow_key_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(struct rr_flow_key)) == 0;
}

struct rr_engine *rr_engine_new(const struct rr_engine_limits *limits,
				rr_message_fn fn, void *ctx, const struct rr_diag_sink *diag)
{
	struct rr_engine *eng = g_new0(struct rr_engine, 1);

	if (limits)
		eng->lim = *limits;
	else
		rr_engine_default_limits(&eng->lim);
	eng->fn = fn;
	eng->ctx = ctx;
	if (diag)
		eng->diag = *diag;
	eng->flows = g_hash_table_new_full(flow_key_hash, flow_key_equal, NULL, free_flow);
	eng->by_addrs = g_hash_table_new_full(flow_key_hash, flow_key_equal, g_free,
					      (GDestroyNotify)g_ptr_array_unref);
	eng->conns = g_ptr_array_new_with_free_func((GDestroyNotify)rr_conn_free);
	eng->cm_pending = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
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
	/* The check stage forgets the connection (what outcomes need stays with them). */
	rr_checker_fact(eng->checker, &down);
}

static int by_activity(const void *a, const void *b)
{
	const struct rr_conn *x = *(struct rr_conn *const *)a, *y = *(struct rr_conn *const *)b;
	uint64_t lx = 0, ly = 0;
	int s;

	for (s = 0; s < 2; s++) {
		if (x->flow[s] && x->flow[s]->last_frame > lx)
			lx = x->flow[s]->last_frame;
		if (y->flow[s] && y->flow[s]->last_frame > ly)
			ly = y->flow[s]->last_frame;
	}
	return lx < ly ? -1 : lx > ly ? 1 : (x->id > y->id) - (x->id < y->id);
}

/*
 * The flow table is full: the least recently active connections are torn
 * down (as at a disconnect) and forgotten, until an eighth of the table is
 * free.  Connections left empty by re-pairing go too.
 */
static void forget_idle(struct rr_engine *eng)
{
	guint n = eng->conns->len, i;
	struct rr_conn **all = g_new(struct rr_conn *, n ? n : 1);
	guint target = eng->lim.max_flows - eng->lim.max_flows / 8;

	memcpy(all, eng->conns->pdata, n * sizeof(*all));
	qsort(all, n, sizeof(*all), by_activity);
	if (!eng->told_flows) {
		eng->told_flows = true;
		rr_diag_report(&eng->diag, ENG_LIMIT, eng->cur_frame,
			       "more than %u one-way flows at once: the least recently active connections "
			       "are closed and forgotten (their unanswered calls are judged as at a disconnect)",
			       eng->lim.max_flows);
	}
	for (i = 0; i < n; i++) {
		struct rr_conn *c = all[i];

		if (c->flow[0] || c->flow[1]) {
			if (g_hash_table_size(eng->flows) <= target)
				continue;
			conn_teardown(eng, c);
		}
		rr_conn_forget(eng, c);
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

	for (i = 0; i < eng->conns->len; i++)
		conn_teardown(eng, g_ptr_array_index(eng->conns, i));
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
	while (eng->conns->len)
		rr_conn_forget(eng, g_ptr_array_index(eng->conns, eng->conns->len - 1));
	g_hash_table_remove_all(eng->cm_pending);
}

void rr_engine_feed(struct rr_engine *eng, const struct rr_event *ev)
{
	struct rr_flow *f;

	eng->stats.events++;
	eng->cur_frame = ev->frame;
	if (ev->kind == RR_EV_CAPTURE_PART) {
		end_part(eng);
		return;
	}
	/* An event may make two flows (a handshake); room first. */
	if (g_hash_table_size(eng->flows) + 2 > eng->lim.max_flows && !rr_flow_find(eng, &ev->flow))
		forget_idle(eng);
	if (ev->kind == RR_EV_CM) {
		struct rr_cm_outcome cm;
		int s;

		rr_conn_handle_cm(eng, ev, &cm);
		for (s = 0; s < 2; s++)
			if (cm.restarted[s])
				rr_xfer_flow_restart(cm.restarted[s]);
		if (cm.gone)
			conn_teardown(eng, cm.gone);
		return;
	}
	if (ev->kind == RR_EV_ACK || ev->kind == RR_EV_TERMINATE)
		return;
	f = rr_flow_get(eng, &ev->flow);
	if (!f)
		return;
	f->last_frame = ev->frame;
	if (ev->after_loss)
		f->conn->capture_cut = true;
	rr_xfer_event(eng, f, ev);
	pass_up(eng);
}

void rr_engine_finish(struct rr_engine *eng)
{
	end_all(eng);
}

static void free_flow(gpointer p)
{
	rr_call_flow_free(p);
	rr_xfer_flow_free(p);
	rr_segstore_flow_free(p);
	rr_flow_free(p);
}

const struct rr_engine_stats *rr_engine_stats(const struct rr_engine *eng)
{
	return &eng->stats;
}

void rr_engine_free(struct rr_engine *eng)
{
	guint i;

	if (!eng)
		return;
	/* Calls reference segments held in flows: drop them first. */
	for (i = 0; i < eng->conns->len; i++) {
		struct rr_conn *c = g_ptr_array_index(eng->conns, i);
		int s;

		for (s = 0; c && s < 2; s++)
			if (c->flow[s] && c->flow[s]->conn == c)
				rr_call_free_all(eng, c->flow[s]);
	}
	g_hash_table_destroy(eng->flows);
	g_hash_table_destroy(eng->by_addrs);
	g_hash_table_destroy(eng->cm_pending);
	g_ptr_array_free(eng->conns, TRUE);
	rr_segstore_free(eng->segstore);
	rr_xfer_free(eng->xfer);
	rr_checker_free(eng->checker);
	g_free(eng);
}
