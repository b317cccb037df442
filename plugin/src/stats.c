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
static const uint64_t size_floor[N_SIZES] = { 0, 1024, 4096, 16384, 65536, 262144, 1048576 };
/* Advertised lengths: zero-length segments are counted on their own row. */
static const char *const adv_range[N_SIZES] = {
	"1-1023", "1024-4095", "4096-16383", "16384-65535", "65536-262143", "262144-1048575", "1048576-",
};

/* What one message adds to the reports. */
struct tally {
	char type[64];                /* "RDMA_MSG call" */
	bool is_call;
	bool chunk[CK__N];            /* calls: what the call used */
	bool has_rtt;
	uint64_t rtt_us;
	char rtt_label[RR_OP_LABEL_LEN + 16];   /* the operation, "(backchannel)" added for the backchannel's */
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
	t->has_rtt = rrp_reply_time(m, &t->rtt_us);
	snprintf(t->rtt_label, sizeof(t->rtt_label), "%s%s", v->op, v->backchannel ? " (backchannel)" : "");
}

static unsigned size_bucket(uint64_t len)
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
};

struct rtt_counts {
	uint64_t n, sum, min, max;
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
	GHashTable *rtts;     /* op, "(backchannel)" added for the backchannel's -> struct rtt_counts */
	GHashTable *conns;    /* connection number -> struct conn_counts */
	uint64_t adv[N_SIZES], adv_zero, moved[N_SIZES];
	struct bytes bytes;
	uint64_t messages;
};

static void report_reset(void *p)
{
	struct report *r = p;

	g_hash_table_remove_all(r->types);
	g_hash_table_remove_all(r->ops);
	g_hash_table_remove_all(r->rtts);
	g_hash_table_remove_all(r->conns);
	memset(r->adv, 0, sizeof(r->adv));
	memset(r->moved, 0, sizeof(r->moved));
	r->adv_zero = 0;
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
	struct rtt_counts *rt;
	struct conn_counts *cc;
	unsigned i;

	(void)pinfo;
	(void)edt;
	(void)flags;
	tally_of(m, &t);
	(*(uint64_t *)entry(r->types, t.type, sizeof(uint64_t)))++;
	oc = entry(r->ops, v->op, sizeof(*oc));
	rt = t.has_rtt ? entry(r->rtts, t.rtt_label, sizeof(*rt)) : NULL;
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
	for (i = 0; t.is_call && i < m->n_seg_lens; i++) {
		if (m->seg_lens[i])
			r->adv[size_bucket(m->seg_lens[i])]++;
		else
			r->adv_zero++;
	}
	for (i = 0; i < m->n_segs; i++)
		r->moved[size_bucket(m->segs[i].s.bytes)]++;
	if (rt) {
		if (!rt->n || t.rtt_us < rt->min)
			rt->min = t.rtt_us;
		if (t.rtt_us > rt->max)
			rt->max = t.rtt_us;
		rt->n++;
		rt->sum += t.rtt_us;
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

	printf("\nChunk segments advertised by calls (length, bytes)\n  %-24s %10" G_GUINT64_FORMAT "\n", "zero-length",
	       r->adv_zero);
	for (i = 0; i < N_SIZES; i++)
		printf("  %-24s %10" G_GUINT64_FORMAT "\n", adv_range[i], r->adv[i]);
	printf("\nChunk segments: bytes seen moved (per segment)\n");
	for (i = 0; i < N_SIZES; i++)
		printf("  %-24s %10" G_GUINT64_FORMAT "\n", size_range[i], r->moved[i]);
	g_list_free(keys);

	keys = sorted_keys(r->rtts);
	printf("\nResponse time per operation (ms)\n  %-36s %8s %10s %10s %10s\n", "operation", "replies", "min",
	       "avg", "max");
	for (k = keys; k; k = k->next) {
		const struct rtt_counts *rt = g_hash_table_lookup(r->rtts, k->data);

		printf("  %-36s %8" G_GUINT64_FORMAT " %10.3f %10.3f %10.3f\n", (char *)k->data, rt->n, rt->min / 1000.0,
		       (double)rt->sum / (double)rt->n / 1000.0, rt->max / 1000.0);
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
	g_hash_table_destroy(r->rtts);
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
	r->rtts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	r->conns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, conn_free);
	err = register_tap_listener("rpcrdma", r, filter, 0, report_reset, report_packet, report_draw, report_finish);
	if (err) {
		fprintf(stderr, "tshark: -z rpcrdma,stat: %s\n", err->str);
		g_string_free(err, TRUE);
		g_hash_table_destroy(r->types);
		g_hash_table_destroy(r->ops);
	g_hash_table_destroy(r->rtts);
		g_hash_table_destroy(r->conns);
		g_free(r);
		RRP_TAP_INIT_RETURN(false);
	}
	RRP_TAP_INIT_RETURN(true);
}

/* ---- the statistics tree (GUI) ---- */

/*
 * Wireshark's stats_tree counts in int and shows a parent's count only as
 * ticked: every row here is ticked with its parent.  Byte counts go into
 * average nodes (bytes per message), whose totals stats_tree keeps in 64
 * bits: Count x Average is the total; the exact totals are in the text
 * report (-z rpcrdma,stat).  Response times go into float average nodes
 * in milliseconds, so the Average, Min Val and Max Val columns read ms.
 */
static const char st_types[] = "Messages by type";
static const char st_chunks[] = "Chunk usage per operation (calls)";
static const char st_bytes[] = "Bytes per message (Average); total = Count x Average";
static const char st_adv[] = "Chunk segments advertised by calls";
static const char st_adv_zero[] = "zero-length";
static const char st_adv_len[] = "by advertised length (bytes)";
static const char st_moved[] = "Chunk segments: bytes seen moved (per segment)";
static const char st_outst[] = "Calls outstanding per connection (Max Val: the highest)";
static const char st_rtt[] = "Response time per operation (ms)";

/* A tree's own state: the row label of each connection, fixed when first seen. */
static GHashTable *st_conn_labels;    /* stats_tree* -> GHashTable (connection number -> label) */

static int n_chunks, n_bytes, n_adv, n_outst, n_rtt;

static void st_init(stats_tree *st)
{
	if (!st_conn_labels)
		st_conn_labels = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
						       (GDestroyNotify)g_hash_table_destroy);
	g_hash_table_replace(st_conn_labels, st, g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free));
	stats_tree_create_node(st, st_types, 0, STAT_DT_INT, TRUE);
	n_chunks = stats_tree_create_node(st, st_chunks, 0, STAT_DT_INT, TRUE);
	n_bytes = stats_tree_create_node(st, st_bytes, 0, STAT_DT_INT, TRUE);
	n_adv = stats_tree_create_node(st, st_adv, 0, STAT_DT_INT, TRUE);
	stats_tree_create_node(st, st_adv_zero, n_adv, STAT_DT_INT, FALSE);
	stats_tree_create_range_node(st, st_adv_len, n_adv, adv_range[0], adv_range[1], adv_range[2], adv_range[3],
				     adv_range[4], adv_range[5], adv_range[6], NULL);
	stats_tree_create_range_node(st, st_moved, 0, size_range[0], size_range[1], size_range[2], size_range[3],
				     size_range[4], size_range[5], size_range[6], NULL);
	n_outst = stats_tree_create_node(st, st_outst, 0, STAT_DT_INT, TRUE);
	n_rtt = stats_tree_create_node(st, st_rtt, 0, STAT_DT_FLOAT, TRUE);
}

static void st_cleanup(stats_tree *st)
{
	if (st_conn_labels)
		g_hash_table_remove(st_conn_labels, st);
}

/* "connection 3: rocev2 10.0.0.2 qp 0x13 <-> 10.0.0.1 qp 0x13", as the connection was named when first seen. */
static const char *st_conn_label(stats_tree *st, const struct rrp_msg *m)
{
	GHashTable *h = st_conn_labels ? g_hash_table_lookup(st_conn_labels, st) : NULL;
	char *label;

	if (!h)
		return "?";
	label = g_hash_table_lookup(h, GUINT_TO_POINTER(m->v.conn_id));
	if (!label) {
		label = g_strdup_printf("connection %u: %s", m->v.conn_id, m->conn_name ? m->conn_name : "?");
		g_hash_table_insert(h, GUINT_TO_POINTER(m->v.conn_id), label);
	}
	return label;
}

static int clamp_int(uint64_t v)
{
	return (int)MIN(v, (uint64_t)INT32_MAX);
}

static void st_bytes_of(stats_tree *st, const struct rr_msg_view *v)
{
	avg_stat_node_add_value_int(st, st_bytes, 0, TRUE,
				    clamp_int(v->inline_bytes + v->ddp_bytes + v->long_bytes));
	avg_stat_node_add_value_int(st, "inline", n_bytes, FALSE, clamp_int(v->inline_bytes));
	avg_stat_node_add_value_int(st, "by DDP", n_bytes, FALSE, clamp_int(v->ddp_bytes));
	avg_stat_node_add_value_int(st, "in Long messages", n_bytes, FALSE, clamp_int(v->long_bytes));
}

static void st_segments_of(stats_tree *st, const struct rrp_msg *m, bool is_call)
{
	unsigned i;

	for (i = 0; is_call && i < m->n_seg_lens; i++) {
		tick_stat_node(st, st_adv, 0, TRUE);
		if (!m->seg_lens[i]) {
			tick_stat_node(st, st_adv_zero, n_adv, FALSE);
			continue;
		}
		tick_stat_node(st, st_adv_len, n_adv, TRUE);
		stats_tree_tick_range(st, st_adv_len, n_adv, clamp_int(m->seg_lens[i]));
	}
	for (i = 0; i < m->n_segs; i++) {
		tick_stat_node(st, st_moved, 0, TRUE);
		stats_tree_tick_range(st, st_moved, 0, clamp_int(m->segs[i].s.bytes));
	}
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
	tick_stat_node(st, st_types, 0, TRUE);
	tick_stat_node(st, t.type, stats_tree_parent_id_by_name(st, st_types), FALSE);
	if (t.is_call) {
		tick_stat_node(st, st_chunks, 0, TRUE);
		op = tick_stat_node(st, v->op, n_chunks, TRUE);
		for (i = 0; i < CK__N; i++)
			if (t.chunk[i])
				tick_stat_node(st, chunk_name[i], op, FALSE);
		avg_stat_node_add_value_int(st, st_outst, 0, TRUE, clamp_int(m->outstanding));
		avg_stat_node_add_value_int(st, st_conn_label(st, m), n_outst, FALSE, clamp_int(m->outstanding));
	}
	st_bytes_of(st, v);
	st_segments_of(st, m, t.is_call);
	if (t.has_rtt) {
		avg_stat_node_add_value_float(st, st_rtt, 0, TRUE, (float)((double)t.rtt_us / 1000.0));
		avg_stat_node_add_value_float(st, t.rtt_label, n_rtt, FALSE, (float)((double)t.rtt_us / 1000.0));
	}
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
	stats_tree_register_plugin("rpcrdma", "rpcrdma", "RPC-over-RDMA", 0, st_packet, st_init, st_cleanup);
	rrp_srt_register();
	rrp_conv_register();
	rrp_flow_register();
}
