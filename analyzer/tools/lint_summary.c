// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ulb-lint --summary: counts per rule; per connection the RPCs, the bytes
 * that went by DDP against those that went inline, credits, retries and
 * the response time of each NFS operation (median, p99); what the capture
 * lost of it (packets by PSN gap on IB/RoCE, bytes on iWARP), as the
 * engine counted it by the connection's last message.  What each message
 * counts for (its bytes, its operation, whether it is a retry) is the
 * engine's description of it (struct rr_msg_view): the plugin's statistics
 * read the same, so the two reports agree.  Memory is bounded, for a live
 * capture that runs for days: response times are a reservoir of at most
 * RESERVOIR samples per operation, grown as samples come; at most
 * MAX_CONNS connections are kept, and past it the least recently active
 * one is forgotten (its loss still counts in the totals, and the count of
 * forgotten connections is told).
 */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lint.h"

#define RESERVOIR 4096
#define MAX_CONNS 1024

struct op_times {
	char name[RR_OP_LABEL_LEN];
	uint64_t count;
	uint32_t n, room;
	uint64_t *us;
};

struct conn_sum {
	uint32_t id;
	char *name;
	uint8_t transport;
	struct rr_conn_info info;
	uint64_t calls, replies, backchannel, incomplete;
	uint64_t inline_bytes, ddp_bytes, long_bytes;
	uint32_t requested, granted_min, granted_max;
	bool have_grant;
	uint64_t retries;
	GHashTable *ops;               /* name -> struct op_times* */
	uint64_t last_active;          /* struct lint_summary.messages at its latest message */
};

struct lint_summary {
	GHashTable *conns;             /* id -> struct conn_sum* */
	struct lint_capture cap;
	uint64_t messages;
	uint64_t forgotten;            /* connections dropped at MAX_CONNS */
	uint64_t forgotten_lost_packets, forgotten_lost_bytes;
	uint64_t rule_count[RR_RULE_COUNT];
	uint64_t rule_sev[RR_RULE_COUNT];
	uint64_t rng;
};

static void op_free(gpointer p)
{
	struct op_times *t = p;

	g_free(t->us);
	g_free(t);
}

static void conn_free(gpointer p)
{
	struct conn_sum *c = p;

	g_free(c->name);
	g_hash_table_destroy(c->ops);
	g_free(c);
}

struct lint_summary *lint_summary_new(void)
{
	struct lint_summary *s = g_new0(struct lint_summary, 1);

	s->conns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, conn_free);
	s->rng = 0x9e3779b97f4a7c15ull;
	return s;
}

void lint_summary_free(struct lint_summary *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->conns);
	g_free(s);
}

/* The least recently active connection goes; what it lost stays in the totals. */
static void forget_oldest(struct lint_summary *s)
{
	GHashTableIter it;
	gpointer v;
	struct conn_sum *old = NULL;

	g_hash_table_iter_init(&it, s->conns);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!old || ((struct conn_sum *)v)->last_active < old->last_active)
			old = v;
	s->forgotten++;
	s->forgotten_lost_packets += old->info.lost_packets[0] + old->info.lost_packets[1];
	s->forgotten_lost_bytes += old->info.lost_bytes[0] + old->info.lost_bytes[1];
	g_hash_table_remove(s->conns, GUINT_TO_POINTER(old->id));
}

static struct conn_sum *conn_of(struct lint_summary *s, const struct rr_message *m)
{
	struct conn_sum *c = g_hash_table_lookup(s->conns, GUINT_TO_POINTER(m->conn_id));

	if (!c) {
		c = g_new0(struct conn_sum, 1);
		c->id = m->conn_id;
		if (g_hash_table_size(s->conns) >= MAX_CONNS)
			forget_oldest(s);
		c->ops = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, op_free);
		g_hash_table_insert(s->conns, GUINT_TO_POINTER(m->conn_id), c);
	}
	g_free(c->name);
	c->name = g_strdup(m->conn_name);
	c->transport = m->transport;
	c->info = m->conn;
	c->last_active = ++s->messages;
	return c;
}

static uint64_t rand64(struct lint_summary *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

static void add_time(struct lint_summary *s, struct conn_sum *c, const char *key, uint64_t us)
{
	struct op_times *t = g_hash_table_lookup(c->ops, key);

	if (!t) {
		t = g_new0(struct op_times, 1);
		g_strlcpy(t->name, key, sizeof(t->name));
		g_hash_table_insert(c->ops, t->name, t);
	}
	t->count++;
	if (t->n == t->room && t->room < RESERVOIR) {
		t->room = t->room ? t->room * 4 : 16;
		t->us = g_renew(uint64_t, t->us, t->room);
	}
	if (t->n < RESERVOIR)
		t->us[t->n++] = us;
	else if (rand64(s) % t->count < RESERVOIR)
		t->us[rand64(s) % RESERVOIR] = us;
}

void lint_summary_message(struct lint_summary *s, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	struct conn_sum *c = conn_of(s, m);

	c->inline_bytes += v->inline_bytes;
	c->ddp_bytes += v->ddp_bytes;
	c->long_bytes += v->long_bytes;
	if (!v->complete)
		c->incomplete++;
	if (v->backchannel)
		c->backchannel++;
	if (v->dir == RR_DIR_CALL) {
		c->calls++;
		c->requested = v->credit;
		c->retries += v->retry;
		return;
	}
	c->replies++;
	if (v->rdma_proc != RR_RDMA_ERROR && !v->backchannel && v->credit) {
		if (!c->have_grant || v->credit < c->granted_min)
			c->granted_min = v->credit;
		if (!c->have_grant || v->credit > c->granted_max)
			c->granted_max = v->credit;
		c->have_grant = true;
	}
	if (v->has_call && !v->backchannel && v->call_ts_usec && v->ts_usec >= v->call_ts_usec)
		add_time(s, c, v->op, v->ts_usec - v->call_ts_usec);
}

void lint_summary_finding(struct lint_summary *s, const struct rr_diag *d)
{
	s->rule_count[d->id]++;
	s->rule_sev[d->id] = d->severity;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(struct op_times *t, double p)
{
	size_t i;

	if (!t->n)
		return 0;
	i = (size_t)(p * (t->n - 1) + 0.5);
	return t->us[i] / 1000.0;
}

static gint by_id(gconstpointer a, gconstpointer b)
{
	return (gint)((const struct conn_sum *)a)->id - (gint)((const struct conn_sum *)b)->id;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(((const struct op_times *)a)->name, ((const struct op_times *)b)->name);
}

static const char *inline_source(enum rr_inline_source src)
{
	return src == RR_INLINE_HANDSHAKE ? "handshake" : src == RR_INLINE_CONFIG ? "configured" :
	       src == RR_INLINE_UNKNOWN ? "unknown" : "default";
}

/* By direction: the requester's first (rr_conn_info.lost_packets). */
static void print_loss_text(FILE *out, const struct conn_sum *c)
{
	const struct rr_conn_info *i = &c->info;
	const char *a = i->roles_known ? "requester" : "one side", *b = i->roles_known ? "responder" : "the other";

	if (i->lost_packets[0] || i->lost_packets[1])
		fprintf(out, "    lost by the capture: %" PRIu64 " packets (PSN gaps; %" PRIu64 " sent by the %s, %"
			PRIu64 " by %s%s)\n", i->lost_packets[0] + i->lost_packets[1], i->lost_packets[0], a,
			i->lost_packets[1], i->roles_known ? "the " : "", b);
	if (i->lost_bytes[0] || i->lost_bytes[1])
		fprintf(out, "    lost by the capture: %" PRIu64 " bytes (TCP gaps; %" PRIu64 " sent by the %s, %"
			PRIu64 " by %s%s)\n", i->lost_bytes[0] + i->lost_bytes[1], i->lost_bytes[0], a,
			i->lost_bytes[1], i->roles_known ? "the " : "", b);
	if (i->capture_cut && !i->lost_packets[0] && !i->lost_packets[1] && !i->lost_bytes[0] && !i->lost_bytes[1])
		fputs("    lost by the capture: bytes its checks rely on (how many is unknown)\n", out);
}

static void print_conn_text(FILE *out, struct conn_sum *c)
{
	uint64_t moved = c->ddp_bytes + c->long_bytes + c->inline_bytes;
	GList *ops = g_list_sort(g_hash_table_get_values(c->ops), by_name), *l;

	char assumed[64];

	snprintf(assumed, sizeof(assumed), "assumed %u: no handshake, no --inline-threshold",
		 RR_DEFAULT_INLINE_THRESHOLD);
	fprintf(out, "  connection %u: %s\n", c->id, c->name ? c->name : "?");
	fprintf(out, "    setup: %s; inline thresholds: requester %u, responder %u (%s)\n",
		c->info.handshake ? "handshake in the capture" : "no handshake (pairing inferred from traffic)",
		c->info.inline_requester, c->info.inline_responder,
		c->info.inline_source == RR_INLINE_HANDSHAKE ? "from the RFC 8797 private data" :
		c->info.inline_source == RR_INLINE_CONFIG ? "from --inline-threshold" :
		c->info.inline_source == RR_INLINE_UNKNOWN ? "unknown: the handshake's private data was cut" : assumed);
	fprintf(out, "    RPCs: %" PRIu64 " calls, %" PRIu64 " replies, %" PRIu64 " backchannel, %" PRIu64
		" incomplete, %" PRIu64 " retries (same XID again)\n", c->calls, c->replies, c->backchannel,
		c->incomplete, c->retries);
	fprintf(out, "    bytes: %" PRIu64 " by DDP (normal chunks), %" PRIu64 " inline (Sends), %" PRIu64
		" in Long messages; DDP share %.1f%%\n", c->ddp_bytes, c->inline_bytes, c->long_bytes,
		moved ? 100.0 * c->ddp_bytes / moved : 0.0);
	if (c->have_grant && c->granted_min == c->granted_max)
		fprintf(out, "    credits: requested %u, granted %u\n", c->requested, c->granted_min);
	else if (c->have_grant)
		fprintf(out, "    credits: requested %u, granted %u..%u\n", c->requested, c->granted_min,
			c->granted_max);
	print_loss_text(out, c);
	if (ops)
		fprintf(out, "    response time (ms): %-28s %8s %10s %10s\n", "operation", "count", "median", "p99");
	for (l = ops; l; l = l->next) {
		struct op_times *t = l->data;

		qsort(t->us, t->n, sizeof(uint64_t), cmp_u64);
		fprintf(out, "                        %-28s %8" PRIu64 " %10.3f %10.3f\n", t->name, t->count,
			pct(t, 0.5), pct(t, 0.99));
	}
	g_list_free(ops);
}

static void print_conn_json(FILE *out, struct conn_sum *c)
{
	GList *ops = g_list_sort(g_hash_table_get_values(c->ops), by_name), *l;

	fprintf(out, "{\"id\":%u,\"name\":", c->id);
	lint_json_string(out, c->name);
	fprintf(out, ",\"handshake\":%s,\"inline_requester\":%u,\"inline_responder\":%u,\"inline_source\":\"%s\","
		"\"calls\":%" PRIu64 ",\"replies\":%" PRIu64 ",\"backchannel\":%" PRIu64 ",\"incomplete\":%" PRIu64
		",\"retries\":%" PRIu64 ",\"ddp_bytes\":%" PRIu64 ",\"inline_bytes\":%" PRIu64 ",\"long_bytes\":%" PRIu64,
		c->info.handshake ? "true" : "false", c->info.inline_requester, c->info.inline_responder,
		inline_source(c->info.inline_source), c->calls, c->replies, c->backchannel, c->incomplete,
		c->retries, c->ddp_bytes, c->inline_bytes, c->long_bytes);
	fprintf(out, ",\"capture_cut\":%s,\"lost_packets\":[%" PRIu64 ",%" PRIu64 "],\"lost_bytes\":[%" PRIu64 ",%" PRIu64 "]",
		c->info.capture_cut ? "true" : "false", c->info.lost_packets[0], c->info.lost_packets[1],
		c->info.lost_bytes[0], c->info.lost_bytes[1]);
	if (c->have_grant)
		fprintf(out, ",\"credits_requested\":%u,\"credits_granted_min\":%u,\"credits_granted_max\":%u",
			c->requested, c->granted_min, c->granted_max);
	fputs(",\"response_ms\":{", out);
	for (l = ops; l; l = l->next) {
		struct op_times *t = l->data;

		qsort(t->us, t->n, sizeof(uint64_t), cmp_u64);
		lint_json_string(out, t->name);
		fprintf(out, ":{\"count\":%" PRIu64 ",\"median\":%.3f,\"p99\":%.3f}%s", t->count, pct(t, 0.5),
			pct(t, 0.99), l->next ? "," : "");
	}
	fputs("}}", out);
	g_list_free(ops);
}

void lint_summary_capture(struct lint_summary *s, const struct lint_capture *c)
{
	s->cap = *c;
}

void lint_summary_loss(const struct lint_summary *s, uint64_t *packets, uint64_t *bytes)
{
	GHashTableIter it;
	gpointer v;

	*packets = s->forgotten_lost_packets;
	*bytes = s->forgotten_lost_bytes;
	g_hash_table_iter_init(&it, s->conns);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const struct rr_conn_info *i = &((const struct conn_sum *)v)->info;

		*packets += i->lost_packets[0] + i->lost_packets[1];
		*bytes += i->lost_bytes[0] + i->lost_bytes[1];
	}
}

/* A live capture: what libpcap dropped before the data, and what the data shows lost. */
static void print_capture_text(const struct lint_summary *s, FILE *out)
{
	uint64_t packets, bytes;

	if (s->forgotten)
		fprintf(out, "  connections not shown: %" PRIu64 " (the least recently active, past %u at once; "
			"their findings and losses are counted)\n", s->forgotten, MAX_CONNS);
	if (!s->cap.live)
		return;
	lint_summary_loss(s, &packets, &bytes);
	fprintf(out, "  capture: live on %s for %.1f s: %" PRIu64 " frames; dropped before analysis: %" PRIu64
		" by libpcap (no room in its buffer), %" PRIu64 " by the interface; received by the filter %" PRIu64
		"\n", s->cap.iface, s->cap.seconds, s->cap.frames, s->cap.dropped, s->cap.ifdropped, s->cap.received);
	fprintf(out, "  lost in the data: %" PRIu64 " packets (PSN gaps), %" PRIu64 " bytes (TCP gaps)\n", packets,
		bytes);
}

static void print_capture_json(const struct lint_summary *s, FILE *out)
{
	uint64_t packets, bytes;

	lint_summary_loss(s, &packets, &bytes);
	fprintf(out, ",\"loss\":{\"packets\":%" PRIu64 ",\"bytes\":%" PRIu64 "},\"forgotten_connections\":%" PRIu64,
		packets, bytes, s->forgotten);
	if (!s->cap.live)
		return;
	fputs(",\"capture\":{\"interface\":", out);
	lint_json_string(out, s->cap.iface);
	fprintf(out, ",\"seconds\":%.3f,\"frames\":%" PRIu64 ",\"received\":%" PRIu64 ",\"dropped\":%" PRIu64
		",\"ifdropped\":%" PRIu64 "}", s->cap.seconds, s->cap.frames, s->cap.received, s->cap.dropped,
		s->cap.ifdropped);
}

static const char *const skip_key[RR_SKIP__COUNT] = { "not_captured", "no_threshold", "state_limit",
								    "not_understood", "undecoded" };

void lint_summary_print(struct lint_summary *s, FILE *out, enum lint_format fmt, const char *file,
			const uint64_t *skipped, const char *read_error)
{
	GList *conns = g_list_sort(g_hash_table_get_values(s->conns), by_id), *l;
	unsigned i;
	bool first = true;

	if (fmt == LINT_TEXT) {
		fprintf(out, "summary of %s\n", file);
		if (read_error)
			fprintf(out, "  not read to its end: %s\n", read_error);
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (s->rule_count[i]) {
				if (first)
					fputs("  findings by rule:\n", out);
				first = false;
				fprintf(out, "    %-18s %-36s %-8s %8" PRIu64 "\n", rr_rule_get(i)->code,
					rr_rule_get(i)->name, rr_severity_name(s->rule_sev[i]), s->rule_count[i]);
			}
		if (first)
			fputs("  findings by rule: none\n", out);
		for (i = 0; i < RR_SKIP__COUNT; i++)
			if (skipped[i])
				fprintf(out, "  checks skipped: %" PRIu64 " because %s\n", skipped[i],
					rr_skip_reason_text(i));
		print_capture_text(s, out);
		for (l = conns; l; l = l->next)
			print_conn_text(out, l->data);
		g_list_free(conns);
		return;
	}
	fputs("{\"file\":", out);
	lint_json_string(out, file);
	fprintf(out, ",\"schema\":%d,\"summary\":{\"rules\":{", LINT_JSON_SCHEMA);
	for (i = 0; i < RR_RULE_COUNT; i++)
		if (s->rule_count[i]) {
			fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",", rr_rule_get(i)->code, s->rule_count[i]);
			first = false;
		}
	fputs("},\"skipped\":{", out);
	for (i = 0; i < RR_SKIP__COUNT; i++)
		fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", skip_key[i], skipped[i]);
	fputs("},\"read_error\":", out);
	if (read_error)
		lint_json_string(out, read_error);
	else
		fputs("null", out);
	print_capture_json(s, out);
	fputs(",\"connections\":[", out);
	for (l = conns; l; l = l->next) {
		print_conn_json(out, l->data);
		if (l->next)
			fputc(',', out);
	}
	fputs("]}}\n", out);
	g_list_free(conns);
}
