// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report page's data: one JSON object the page's script reads
 * (analyzer/tools/report/data.js describes the fields).  RPCs go by column
 * (one array per field) so a capture of a million RPCs stays a few tens of
 * MiB and parses fast; times are microseconds since the first Send.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "lint.h"
#include "lint_html_int.h"

/* A JSON string safe inside a <script> element (lint.h). */
static void jstr(FILE *out, const char *s)
{
	lint_json_string_in(out, s, true);
}

static const struct html_rpc *rpc_at(const struct lint_html *h, guint i)
{
	return &g_array_index(h->rpcs, struct html_rpc, i);
}

struct span {
	uint64_t first, last;
	guint rpc;
};

static int by_first(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* Every RDMA run as a frame span with its RPC, by first frame. */
static struct span *spans_of(const struct lint_html *h, size_t *n)
{
	struct span *s = g_new(struct span, h->runs->len + 1);
	guint i;
	uint32_t k;

	*n = 0;
	for (i = 0; i < h->rpcs->len; i++)
		for (k = rpc_at(h, i)->first_run; k; k = g_array_index(h->runs, struct html_run, k - 1).next) {
			const struct html_run *r = &g_array_index(h->runs, struct html_run, k - 1);

			s[(*n)++] = (struct span){ r->first, r->last, i };
		}
	qsort(s, *n, sizeof(*s), by_first);
	return s;
}

static int64_t span_find(const struct span *s, size_t n, uint64_t frame)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid].first <= frame)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: the first span starting after frame; spans of one RPC rarely nest, so look a few back. */
	for (hi = lo; hi > 0 && lo - hi < 8; hi--)
		if (s[hi - 1].last >= frame)
			return s[hi - 1].rpc;
	return -1;
}

static uint64_t first_frame(const struct html_rpc *r)
{
	return r->call_frame ? r->call_frame : r->reply_frame;
}

static int by_frame(const void *a, const void *b, void *ctx)
{
	const struct html_finding *f = ctx;
	uint64_t x = f[*(const guint *)a].frame, y = f[*(const guint *)b].frame;

	return x < y ? -1 : x > y;
}

/*
 * A finding's RPC: the one whose Send is its frame, else the one whose RDMA
 * run holds it, else the latest call of its connection and XID sent at or
 * before it, else the latest RPC of its connection then (a capture condition
 * such as a duplicate packet: where the connection was at that frame).
 * Findings by frame and RPCs in wire order are walked together.
 */
void html_json_mark_findings(struct lint_html *h)
{
	struct html_finding *f = (struct html_finding *)h->findings->data;
	guint *order = g_new(guint, h->findings->len + 1), i, next = 0;
	GHashTable *latest = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	GHashTable *last_of_conn = g_hash_table_new(g_direct_hash, g_direct_equal);
	size_t n_spans;
	struct span *spans = spans_of(h, &n_spans);

	for (i = 0; i < h->findings->len; i++)
		order[i] = i;
	g_qsort_with_data(order, h->findings->len, sizeof(guint), by_frame, f);
	for (i = 0; i < h->findings->len; i++) {
		struct html_finding *x = &f[order[i]];
		guint hit = x->frame ? GPOINTER_TO_UINT(g_hash_table_lookup(h->by_frame, &x->frame)) : 0;

		for (; next < h->rpcs->len && first_frame(rpc_at(h, next)) <= x->frame; next++) {
			uint64_t *k = g_new(uint64_t, 1);

			*k = (uint64_t)rpc_at(h, next)->conn << 32 | rpc_at(h, next)->xid;
			g_hash_table_replace(latest, k, GUINT_TO_POINTER(next + 1));
			g_hash_table_replace(last_of_conn, GUINT_TO_POINTER(rpc_at(h, next)->conn),
					     GUINT_TO_POINTER(next + 1));
		}
		if (hit) {
			x->rpc = hit - 1;
		} else if (x->frame && (x->rpc = span_find(spans, n_spans, x->frame)) >= 0) {
			/* on an RDMA run of it */
		} else if (x->has_xid && x->conn) {
			uint64_t k = (uint64_t)x->conn << 32 | x->xid;

			x->rpc = (int64_t)GPOINTER_TO_UINT(g_hash_table_lookup(latest, &k)) - 1;
		}
		if (x->rpc < 0 && x->conn)
			x->rpc = (int64_t)GPOINTER_TO_UINT(g_hash_table_lookup(last_of_conn, GUINT_TO_POINTER(x->conn))) - 1;
	}
	g_hash_table_destroy(last_of_conn);
	g_hash_table_destroy(latest);
	g_free(spans);
	g_free(order);
}

static void u64_column(FILE *out, const char *name, const struct lint_html *h, size_t field)
{
	guint i;

	fprintf(out, "\"%s\":[", name);
	for (i = 0; i < h->rpcs->len; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", *(const uint64_t *)((const char *)rpc_at(h, i) + field));
	fputs("],", out);
}

static void u32_column(FILE *out, const char *name, const struct lint_html *h, size_t field)
{
	guint i;

	fprintf(out, "\"%s\":[", name);
	for (i = 0; i < h->rpcs->len; i++)
		fprintf(out, "%s%" PRIu32, i ? "," : "", *(const uint32_t *)((const char *)rpc_at(h, i) + field));
	fputs("],", out);
}

/* Times since t0 in microseconds; -1 when not seen. */
static void time_column(FILE *out, const char *name, const struct lint_html *h, bool reply)
{
	guint i;

	fprintf(out, "\"%s\":[", name);
	for (i = 0; i < h->rpcs->len; i++) {
		uint64_t t = reply ? rpc_at(h, i)->reply_ts : rpc_at(h, i)->call_ts;

		fprintf(out, "%s%" PRId64, i ? "," : "", t && t >= h->t0 ? (int64_t)(t - h->t0) : (int64_t)-1);
	}
	fputs("],", out);
}

static void rpc_columns(FILE *out, const struct lint_html *h)
{
	guint i;
	uint32_t k;

	fputs("\"rpc\":{", out);
	u32_column(out, "conn", h, G_STRUCT_OFFSET(struct html_rpc, conn));
	u32_column(out, "xid", h, G_STRUCT_OFFSET(struct html_rpc, xid));
	u32_column(out, "op", h, G_STRUCT_OFFSET(struct html_rpc, op));
	u64_column(out, "cf", h, G_STRUCT_OFFSET(struct html_rpc, call_frame));
	u64_column(out, "rf", h, G_STRUCT_OFFSET(struct html_rpc, reply_frame));
	time_column(out, "ct", h, false);
	time_column(out, "rt", h, true);
	u32_column(out, "creq", h, G_STRUCT_OFFSET(struct html_rpc, credit_req));
	u32_column(out, "cgr", h, G_STRUCT_OFFSET(struct html_rpc, credit_grant));
	u32_column(out, "out", h, G_STRUCT_OFFSET(struct html_rpc, outstanding));
	u32_column(out, "cin", h, G_STRUCT_OFFSET(struct html_rpc, call_inline));
	u32_column(out, "rin", h, G_STRUCT_OFFSET(struct html_rpc, reply_inline));
	u64_column(out, "ddp", h, G_STRUCT_OFFSET(struct html_rpc, ddp_bytes));
	u64_column(out, "lng", h, G_STRUCT_OFFSET(struct html_rpc, long_bytes));
	u32_column(out, "more", h, G_STRUCT_OFFSET(struct html_rpc, more_rdma));
	fputs("\"flags\":[", out);
	for (i = 0; i < h->rpcs->len; i++)
		fprintf(out, "%s%u", i ? "," : "", rpc_at(h, i)->flags);
	fputs("],\"proc\":[", out);
	for (i = 0; i < h->rpcs->len; i++)
		fprintf(out, "%s%u", i ? "," : "", rpc_at(h, i)->call_proc | rpc_at(h, i)->reply_proc << 3);
	/* Each RPC's runs, flat: kind, first frame, last frame, packets; repeated. */
	fputs("],\"rd\":[", out);
	for (i = 0; i < h->rpcs->len; i++) {
		const char *sep = "";

		fputs(i ? ",[" : "[", out);
		for (k = rpc_at(h, i)->first_run; k; k = g_array_index(h->runs, struct html_run, k - 1).next) {
			const struct html_run *r = &g_array_index(h->runs, struct html_run, k - 1);

			fprintf(out, "%s%u,%" PRIu64 ",%" PRIu64 ",%u", sep, r->kind, r->first, r->last, r->n);
			sep = ",";
		}
		fputc(']', out);
	}
	fputs("]}", out);
}

static gint by_id(gconstpointer a, gconstpointer b)
{
	uint32_t x = ((const struct html_conn *)a)->id, y = ((const struct html_conn *)b)->id;

	return x < y ? -1 : x > y;
}

static void conns(FILE *out, const struct lint_html *h)
{
	GList *all = g_list_sort(g_hash_table_get_values(h->conns), by_id), *l;
	static const char *const src[] = { "default", "configured", "handshake", "unknown" };

	fputs("\"conns\":[", out);
	for (l = all; l; l = l->next) {
		const struct html_conn *c = l->data;
		const struct rr_conn_info *i = &c->info;

		fprintf(out, "%s{\"id\":%u,\"name\":", l == all ? "" : ",", c->id);
		jstr(out, c->name);
		fprintf(out, ",\"transport\":%u,\"handshake\":%s,\"roles_known\":%s,\"inline_requester\":%u,"
			"\"inline_responder\":%u,\"inline_source\":\"%s\",\"calls\":%" PRIu64 ",\"replies\":%" PRIu64
			",\"backchannel\":%" PRIu64 ",\"incomplete\":%" PRIu64 ",\"retries\":%" PRIu64
			",\"inline_bytes\":%" PRIu64 ",\"ddp_bytes\":%" PRIu64 ",\"long_bytes\":%" PRIu64
			",\"rdma_unmatched\":%" PRIu64 ",\"capture_cut\":%s,\"lost_packets\":%" PRIu64
			",\"lost_bytes\":%" PRIu64 "}",
			c->transport, i->handshake ? "true" : "false", i->roles_known ? "true" : "false",
			i->inline_requester, i->inline_responder, src[i->inline_source & 3], c->calls, c->replies,
			c->backchannel, c->incomplete, c->retries, c->inline_bytes, c->ddp_bytes, c->long_bytes,
			c->rdma_unmatched, i->capture_cut ? "true" : "false", i->lost_packets[0] + i->lost_packets[1],
			i->lost_bytes[0] + i->lost_bytes[1]);
	}
	fputs("],", out);
	g_list_free(all);
}

static void findings(FILE *out, const struct lint_html *h)
{
	guint i, k;

	fputs("\"findings\":[", out);
	for (i = 0; i < h->findings->len; i++) {
		const struct html_finding *f = &g_array_index(h->findings, struct html_finding, i);

		fprintf(out, "%s{\"r\":\"%s\",\"s\":\"%s\",\"f\":%" PRIu64 ",\"c\":%u,\"x\":", i ? "," : "",
			rr_rule_get(f->id)->code, rr_severity_name(f->sev), f->frame, f->conn);
		if (f->has_xid)
			fprintf(out, "%u", f->xid);
		else
			fputs("null", out);
		fprintf(out, ",\"p\":%" PRId64 ",\"fa\":%u,\"fr\":[", f->rpc, f->all_frames);
		for (k = 0; k < f->n_frames; k++)
			fprintf(out, "%s%" PRIu64, k ? "," : "", f->frames[k]);
		fputs("],\"t\":", out);
		jstr(out, f->text);
		fputc('}', out);
	}
	fprintf(out, "],\"findings_dropped\":%" PRIu64 ",\"rule_share\":%u,", h->findings_dropped, HTML_RULE_SHARE);
}

/* The catalogue entry of every rule that fired, for the page's rule cards and links. */
static void rules(FILE *out, const struct lint_html *h)
{
	unsigned i;
	const char *sep = "";

	fputs("\"rules\":{", out);
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get(i);

		if (!h->rule_count[i])
			continue;
		fprintf(out, "%s\"%s\":{\"name\":", sep, r->code);
		jstr(out, r->name);
		fprintf(out, ",\"count\":%" PRIu64 ",\"severity\":\"%s\",\"group\":", h->rule_count[i],
			rr_severity_name(h->rule_sev[i]));
		jstr(out, r->kind == RR_KIND_COND ? "Capture conditions and engine limits" : rr_group_name(r->group));
		fputs(",\"anchor\":", out);
		jstr(out, r->code);          /* each rule's row in docs/rules.md has its code as its anchor */
		fputs(",\"section\":", out);
		jstr(out, r->section);
		fputs(",\"text\":", out);
		jstr(out, r->text);
		fputs(",\"evidence\":", out);
		jstr(out, r->evidence);
		fputc('}', out);
		sep = ",";
	}
	fputs("},", out);
}

void html_json_write(FILE *out, struct lint_html *h, const char *capture, const uint64_t *skipped)
{
	guint i;

	fputs("{\"capture\":", out);
	jstr(out, capture);
	fputs(",\"read_error\":", out);
	if (h->read_error)
		jstr(out, h->read_error);
	else
		fputs("null", out);
	fprintf(out, ",\"t0\":%" PRIu64 ",\"skipped\":[", h->t0);
	for (i = 0; i < RR_SKIP__COUNT; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", skipped[i]);
	fputs("],\"skip_reasons\":[", out);
	for (i = 0; i < RR_SKIP__COUNT; i++) {
		fputs(i ? "," : "", out);
		jstr(out, rr_skip_reason_text(i));
	}
	fputs("],", out);
	conns(out, h);
	fputs("\"ops\":[", out);
	for (i = 0; i < h->ops->len; i++) {
		fputs(i ? "," : "", out);
		jstr(out, g_ptr_array_index(h->ops, i));
	}
	fputs("],", out);
	findings(out, h);
	rules(out, h);
	rpc_columns(out, h);
	fputs("}", out);
}
