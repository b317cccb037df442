// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - statistics over the rebuilt messages draw.c taps (one tap
 * record per message, as the engine described it):
 *  - `tshark -z rpcrdma,stat[,FILTER]`: a text report;
 *  - a statistics tree, Statistics > RPC-over-RDMA in the GUI (and
 *    `tshark -z rpcrdma,tree`).
 * What a message counts for (its bytes inline, by DDP and in Long
 * messages, its chunks, its operation, whether it retries a call) is the
 * engine's description of it (struct rr_msg_view), which ulb-lint --summary
 * reads too: the two reports agree.  Both outputs here go through one
 * tally of each message (struct tally), so they count the same things.
 */
#include "ws_compat.h"

#include <stdio.h>
#include <string.h>

#include <epan/stat_tap_ui.h>
#include <epan/stats_tree.h>
#include <epan/tap.h>

#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"

enum chunk_kind { CK_INLINE, CK_READ, CK_PZRC, CK_WRITE, CK_REPLY, CK__N };
static const char *const chunk_name[CK__N] = {
	"inline only", "read chunk", "Position-Zero read chunk", "write chunk", "reply chunk",
};

#define N_SIZES 7
static const char *const size_range[N_SIZES] = {
	"0-1023", "1024-4095", "4096-16383", "16384-65535", "65536-262143", "262144-1048575", "1048576-",
};
static const uint32_t size_floor[N_SIZES] = { 0, 1024, 4096, 16384, 65536, 262144, 1048576 };

/* What one message adds to the reports. */
struct tally {
	char type[64];                /* "RDMA_MSG call" */
	bool is_call;
	bool chunk[CK__N];            /* calls: what the call used */
	bool has_rtt;
	uint64_t rtt_us;
};

static void tally_of(const struct rrp_msg *m, struct tally *t)
{
	const struct rr_msg_view *v = &m->v;

	memset(t, 0, sizeof(*t));
	t->is_call = v->dir == RR_DIR_CALL;
	snprintf(t->type, sizeof(t->type), "%s %s%s", rr_hdr_proc_name(v->rdma_proc),
		 v->backchannel ? "backchannel " : "", t->is_call ? "call" : "reply");
	if (t->is_call) {
		t->chunk[CK_INLINE] = !v->n_read_segs && !v->n_pzrc_segs && !v->n_write_chunks && !v->reply_chunk;
		t->chunk[CK_READ] = v->n_read_segs > 0;
		t->chunk[CK_PZRC] = v->n_pzrc_segs > 0;
		t->chunk[CK_WRITE] = v->n_write_chunks > 0;
		t->chunk[CK_REPLY] = v->reply_chunk;
	}
	if (!t->is_call && m->peer) {
		t->has_rtt = true;
		t->rtt_us = v->ts_usec >= v->call_ts_usec ? v->ts_usec - v->call_ts_usec : 0;
	}
}

static unsigned size_bucket(uint32_t len)
{
	unsigned i = N_SIZES - 1;

	while (i && len < size_floor[i])
		i--;
	return i;
}

/* ---- tshark -z rpcrdma,stat ---- */

struct bytes {
	uint64_t inl, ddp, lng;       /* inline, by DDP, in Long messages */
};

struct op_counts {
	uint64_t calls, replies, chunk[CK__N];
	struct bytes bytes;
	uint64_t rtt_n, rtt_sum, rtt_min, rtt_max;
};

/* By the engine's connection number, named as its latest message names it (as ulb-lint --summary). */
struct conn_counts {
	uint32_t id;
	char *name;
	uint32_t granted, requested, peak;
	uint64_t calls, replies, backchannel, incomplete, retries;
	struct bytes bytes;
};

struct report {
	GHashTable *types;    /* type -> uint64 count */
	GHashTable *ops;      /* op -> struct op_counts */
	GHashTable *conns;    /* connection number -> struct conn_counts */
	uint64_t sizes[N_SIZES];
	struct bytes bytes;
	uint64_t messages;
};

static void report_reset(void *p)
{
	struct report *r = p;

	g_hash_table_remove_all(r->types);
	g_hash_table_remove_all(r->ops);
	g_hash_table_remove_all(r->conns);
	memset(r->sizes, 0, sizeof(r->sizes));
	memset(&r->bytes, 0, sizeof(r->bytes));
	r->messages = 0;
}

static void conn_free(gpointer p)
{
	struct conn_counts *cc = p;

	g_free(cc->name);
	g_free(cc);
}

static struct conn_counts *conn_entry(GHashTable *h, const struct rrp_msg *m)
{
	struct conn_counts *cc = g_hash_table_lookup(h, GUINT_TO_POINTER(m->v.conn_id));

	if (!cc) {
		cc = g_new0(struct conn_counts, 1);
		cc->id = m->v.conn_id;
		g_hash_table_insert(h, GUINT_TO_POINTER(cc->id), cc);
	}
	g_free(cc->name);
	cc->name = g_strdup(m->conn_name);
	return cc;
}

static void add_bytes(struct bytes *b, const struct rr_msg_view *v)
{
	b->inl += v->inline_bytes;
	b->ddp += v->ddp_bytes;
	b->lng += v->long_bytes;
}

static void *entry(GHashTable *h, const char *key, size_t size)
{
	void *v = g_hash_table_lookup(h, key);

	if (!v) {
		v = g_malloc0(size);
		g_hash_table_insert(h, g_strdup(key), v);
	}
	return v;
}

static tap_packet_status report_packet(void *p, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				       tap_flags_t flags)
{
	struct report *r = p;
	const struct rrp_msg *m = ((const struct rrp_tap_info *)data)->msg;
	const struct rr_msg_view *v = &m->v;
	struct tally t;
	struct op_counts *oc;
	struct conn_counts *cc;
	unsigned i;

	(void)pinfo;
	(void)edt;
	(void)flags;
	tally_of(m, &t);
	(*(uint64_t *)entry(r->types, t.type, sizeof(uint64_t)))++;
	oc = entry(r->ops, v->op, sizeof(*oc));
	cc = conn_entry(r->conns, m);
	r->messages++;
	add_bytes(&r->bytes, v);
	add_bytes(&oc->bytes, v);
	add_bytes(&cc->bytes, v);
	cc->backchannel += v->backchannel;
	cc->incomplete += !v->complete;
	if (t.is_call) {
		oc->calls++;
		cc->calls++;
		cc->retries += v->retry;
		cc->requested = v->credit;
		if (m->outstanding > cc->peak)
			cc->peak = m->outstanding;
		for (i = 0; i < CK__N; i++)
			oc->chunk[i] += t.chunk[i];
	} else {
		oc->replies++;
		cc->replies++;
		cc->granted = v->credit;
	}
	for (i = 0; i < m->n_seg_lens; i++)
		r->sizes[size_bucket(m->seg_lens[i])]++;
	if (t.has_rtt) {
		if (!oc->rtt_n || t.rtt_us < oc->rtt_min)
			oc->rtt_min = t.rtt_us;
		if (t.rtt_us > oc->rtt_max)
			oc->rtt_max = t.rtt_us;
		oc->rtt_n++;
		oc->rtt_sum += t.rtt_us;
	}
	return TAP_PACKET_REDRAW;
}

static GList *sorted_keys(GHashTable *h)
{
	return g_list_sort(g_hash_table_get_keys(h), (GCompareFunc)g_strcmp0);
}

static void print_bytes(const char *what, const struct bytes *b)
{
	printf("  %-24s %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", what, b->inl,
	       b->ddp, b->lng);
}

static gint by_id(gconstpointer a, gconstpointer b)
{
	uint32_t x = ((const struct conn_counts *)a)->id, y = ((const struct conn_counts *)b)->id;

	return (x > y) - (x < y);
}

static void print_conns(const struct report *r)
{
	GList *conns = g_list_sort(g_hash_table_get_values(r->conns), by_id), *l;

	printf("\nPer connection\n");
	for (l = conns; l; l = l->next) {
		const struct conn_counts *cc = l->data;

		printf("  connection %u: %s\n", cc->id, cc->name ? cc->name : "?");
		printf("    calls %" G_GUINT64_FORMAT ", replies %" G_GUINT64_FORMAT ", backchannel %" G_GUINT64_FORMAT
		       ", incomplete %" G_GUINT64_FORMAT ", retries %" G_GUINT64_FORMAT "\n", cc->calls, cc->replies,
		       cc->backchannel, cc->incomplete, cc->retries);
		printf("    bytes: inline %" G_GUINT64_FORMAT ", DDP %" G_GUINT64_FORMAT ", Long %" G_GUINT64_FORMAT "\n",
		       cc->bytes.inl, cc->bytes.ddp, cc->bytes.lng);
		printf("    credits granted (latest reply) %u, requested (latest call) %u; highest calls outstanding %u\n",
		       cc->granted, cc->requested, cc->peak);
	}
	g_list_free(conns);
}

static void report_draw(void *p)
{
	struct report *r = p;
	GList *keys, *k;
	unsigned i;

	printf("\n===================================================================================\n");
	printf("RPC-over-RDMA statistics (rpcrdma-toolkit): %" G_GUINT64_FORMAT " messages\n", r->messages);
	printf("\nMessages by type\n");
	keys = sorted_keys(r->types);
	for (k = keys; k; k = k->next)
		printf("  %-36s %10" G_GUINT64_FORMAT "\n", (char *)k->data,
		       *(uint64_t *)g_hash_table_lookup(r->types, k->data));
	g_list_free(keys);

	keys = sorted_keys(r->ops);
	printf("\nChunk usage per operation (calls)\n  %-24s %7s %7s %7s %7s %7s %7s\n", "operation", "calls",
	       "inline", "read", "pzrc", "write", "reply");
	for (k = keys; k; k = k->next) {
		const struct op_counts *oc = g_hash_table_lookup(r->ops, k->data);

		if (!oc->calls)
			continue;
		printf("  %-24s %7" G_GUINT64_FORMAT, (char *)k->data, oc->calls);
		for (i = 0; i < CK__N; i++)
			printf(" %7" G_GUINT64_FORMAT, oc->chunk[i]);
		printf("\n");
	}
	printf("\nBytes: inline, by DDP (chunk data) and in Long messages\n  %-24s %14s %14s %14s\n", "operation",
	       "inline", "DDP", "Long");
	for (k = keys; k; k = k->next)
		print_bytes(k->data, &((const struct op_counts *)g_hash_table_lookup(r->ops, k->data))->bytes);
	print_bytes("all", &r->bytes);

	printf("\nChunk segment sizes (bytes)\n");
	for (i = 0; i < N_SIZES; i++)
		printf("  %-24s %10" G_GUINT64_FORMAT "\n", size_range[i], r->sizes[i]);

	printf("\nResponse time per operation (ms)\n  %-24s %8s %10s %10s %10s\n", "operation", "replies", "min",
	       "avg", "max");
	for (k = keys; k; k = k->next) {
		const struct op_counts *oc = g_hash_table_lookup(r->ops, k->data);

		if (!oc->rtt_n)
			continue;
		printf("  %-24s %8" G_GUINT64_FORMAT " %10.3f %10.3f %10.3f\n", (char *)k->data, oc->rtt_n,
		       oc->rtt_min / 1000.0, (double)oc->rtt_sum / (double)oc->rtt_n / 1000.0, oc->rtt_max / 1000.0);
	}
	g_list_free(keys);

	print_conns(r);
	printf("===================================================================================\n");
}

static void report_finish(void *p)
{
	struct report *r = p;

	g_hash_table_destroy(r->types);
	g_hash_table_destroy(r->ops);
	g_hash_table_destroy(r->conns);
	g_free(r);
}

static rrp_tap_init_ret report_init(const char *opt_arg, void *userdata)
{
	struct report *r = g_new0(struct report, 1);
	const char *filter = NULL;
	GString *err;

	(void)userdata;
	if (!strncmp(opt_arg, "rpcrdma,stat,", 13))
		filter = opt_arg + 13;
	r->types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	r->ops = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	r->conns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, conn_free);
	err = register_tap_listener("rpcrdma", r, filter, 0, report_reset, report_packet, report_draw, report_finish);
	if (err) {
		fprintf(stderr, "tshark: -z rpcrdma,stat: %s\n", err->str);
		g_string_free(err, TRUE);
		g_hash_table_destroy(r->types);
		g_hash_table_destroy(r->ops);
		g_hash_table_destroy(r->conns);
		g_free(r);
		RRP_TAP_INIT_RETURN(false);
	}
	RRP_TAP_INIT_RETURN(true);
}

/* ---- the statistics tree (GUI) ---- */

static int n_types, n_chunks, n_bytes, n_credits, n_rtt;
static const char st_sizes[] = "Chunk segment sizes (bytes)";

static void st_init(stats_tree *st)
{
	n_types = stats_tree_create_node(st, "Messages by type", 0, STAT_DT_INT, TRUE);
	n_chunks = stats_tree_create_node(st, "Chunk usage per operation (calls)", 0, STAT_DT_INT, TRUE);
	n_bytes = stats_tree_create_node(st, "Bytes: inline, by DDP (chunk data) and in Long messages", 0, STAT_DT_INT,
					 TRUE);
	stats_tree_create_range_node(st, st_sizes, 0, size_range[0], size_range[1], size_range[2], size_range[3],
				     size_range[4], size_range[5], size_range[6], NULL);
	n_credits = stats_tree_create_node(st, "Highest calls outstanding per connection", 0, STAT_DT_INT, TRUE);
	n_rtt = stats_tree_create_node(st, "Response time per operation (microseconds)", 0, STAT_DT_INT, TRUE);
}

static tap_packet_status st_packet(stats_tree *st, packet_info *pinfo, epan_dissect_t *edt, const void *p,
				   tap_flags_t flags)
{
	const struct rrp_msg *m = ((const struct rrp_tap_info *)p)->msg;
	const struct rr_msg_view *v = &m->v;
	struct tally t;
	unsigned i;
	int op;

	(void)pinfo;
	(void)edt;
	(void)flags;
	tally_of(m, &t);
	tick_stat_node(st, "Messages by type", 0, FALSE);
	tick_stat_node(st, t.type, n_types, FALSE);
	if (t.is_call) {
		tick_stat_node(st, "Chunk usage per operation (calls)", 0, FALSE);
		op = tick_stat_node(st, v->op, n_chunks, TRUE);
		for (i = 0; i < CK__N; i++)
			if (t.chunk[i])
				tick_stat_node(st, chunk_name[i], op, FALSE);
		if (m->outstanding) {
			int c = stats_tree_create_node(st, m->conn_name, n_credits, STAT_DT_INT, FALSE);

			(void)c;
			avg_stat_node_add_value_int(st, m->conn_name, n_credits, FALSE, (int)m->outstanding);
		}
	}
	increase_stat_node(st, "inline bytes", n_bytes, FALSE, (int)MIN(v->inline_bytes, (uint64_t)INT32_MAX));
	increase_stat_node(st, "DDP bytes", n_bytes, FALSE, (int)MIN(v->ddp_bytes, (uint64_t)INT32_MAX));
	increase_stat_node(st, "Long bytes", n_bytes, FALSE, (int)MIN(v->long_bytes, (uint64_t)INT32_MAX));
	for (i = 0; i < m->n_seg_lens; i++)
		stats_tree_tick_range(st, st_sizes, 0, (int)MIN(m->seg_lens[i], (uint32_t)INT32_MAX));
	if (t.has_rtt)
		avg_stat_node_add_value_int(st, v->op, n_rtt, FALSE, (int)MIN(t.rtt_us, (uint64_t)INT32_MAX));
	return TAP_PACKET_REDRAW;
}

void rrp_stats_register(void)
{
	static stat_tap_ui ui = {
		.group = REGISTER_STAT_GROUP_GENERIC,
		.title = "RPC-over-RDMA",
		.cli_string = "rpcrdma,stat",
		.tap_init_cb = report_init,
	};

	register_stat_tap_ui(&ui, NULL);
	stats_tree_register_plugin("rpcrdma", "rpcrdma", "RPC-over-RDMA", 0, st_packet, st_init, NULL);
}
