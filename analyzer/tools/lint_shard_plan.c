// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lint_shard_plan.c - how ulb-lint --jobs splits a capture: one pass over
 * the file joins every two hosts that exchanged a frame (union-find), and
 * the groups that result go to the shards, largest first, each to the
 * shard with the fewest frames so far.
 */
#include <glib.h>
#include <string.h>

#include "lint_jobs_int.h"
#include "rpcrdma/hash.h"

#define FRAME_MAP_MAX (4u << 20)   /* 16 MiB of node numbers while planning, 4 MiB of shards after */
#define NO_NODE G_MAXUINT
/*
 * Past this mean frame size (bulk DDP at a 4 KiB MTU) one thread checks a
 * file about as fast as it can read it (bench/mix.sh: 1.1x cat's CPU time
 * on the large-DDP capture): a split has little to share, and its first
 * pass costs about what the check does.
 */
#define SPLIT_MAX_MEAN_FRAME 2048u
#define SIZE_SAMPLE_FRAMES 4096u

struct lint_shard_plan {
	int dlt;
	GHashTable *node_of;        /* host address (RR_HOST_ADDR_LEN bytes) -> node + 1 */
	GArray *parent;             /* guint per node: union-find */
	GArray *frames;             /* guint64 per node: frames counted at the node (its root after the pass) */
	GArray *shard;              /* guint per node: its group's shard, once planned */
	uint64_t total, shard_frames[LINT_JOBS_MAX];
	uint64_t bytes;             /* captured bytes of every frame */
	bool bulky;                 /* the first SIZE_SAMPLE_FRAMES were past SPLIT_MAX_MEAN_FRAME: the pass stopped */
	unsigned groups;
	bool tunnel;
	/*
	 * Each frame's node (NO_NODE: no hosts) while the capture has at most
	 * FRAME_MAP_MAX frames, then each frame's shard, so that a worker tells
	 * its frames by their number instead of by their headers.
	 */
	guint *frame_node;
	uint64_t nodes_len, nodes_cap;
	bool mapping;               /* frame_node is kept (the capture has not passed FRAME_MAP_MAX) */
	uint8_t *frame_shard;
	uint64_t mapped;
	/* the last frame's hosts and nodes while planning: a conversation's frames come in runs */
	struct rr_hosts_memo hosts_memo;
	struct rr_frame_hosts last;
	guint last_node[2];
	bool have_last;
};

static guint root(struct lint_shard_plan *p, guint n)
{
	guint *par = (guint *)(void *)p->parent->data;

	while (par[n] != n) {
		par[n] = par[par[n]];   /* halve the path as it is walked */
		n = par[n];
	}
	return n;
}

static guint node(struct lint_shard_plan *p, const uint8_t *addr)
{
	gpointer v = g_hash_table_lookup(p->node_of, addr);
	guint n;
	guint64 zero = 0;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	n = p->parent->len;
	g_array_append_val(p->parent, n);
	g_array_append_val(p->frames, zero);
	g_hash_table_insert(p->node_of, g_memdup2(addr, RR_HOST_ADDR_LEN), GUINT_TO_POINTER(n + 1));
	return n;
}

static guint addr_hash(gconstpointer k)
{
	return rr_fnv1a32(k, RR_HOST_ADDR_LEN);
}

static gboolean addr_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, RR_HOST_ADDR_LEN) == 0;
}

/* Each frame's node, while the capture is small enough to keep them (a frame at a time: no call per frame). */
static inline void keep_node(struct lint_shard_plan *p, guint n)
{
	if (!p->mapping)
		return;
	if (p->nodes_len == p->nodes_cap) {
		p->nodes_cap = p->nodes_cap ? 2 * p->nodes_cap : 65536;
		p->frame_node = g_renew(guint, p->frame_node, p->nodes_cap);
	}
	p->frame_node[p->nodes_len++] = n;
}

static bool count_frame(void *ctx, uint64_t frame_no, const uint8_t *pkt, uint32_t caplen)
{
	struct lint_shard_plan *p = ctx;
	struct rr_frame_hosts h;
	guint a, b, ra, rb;

	(void)frame_no;
	p->total++;
	p->bytes += caplen;
	/* Bulk frames: no split will pay, so the pass need not go on (the sample is the file's start). */
	if (p->total == SIZE_SAMPLE_FRAMES && p->bytes / p->total > SPLIT_MAX_MEAN_FRAME) {
		p->bulky = true;
		return false;
	}
	if (p->mapping && p->total > FRAME_MAP_MAX) {
		g_free(p->frame_node);
		p->frame_node = NULL;
		p->mapping = false;
	}
	switch (rr_frame_hosts_memo(&p->hosts_memo, p->dlt, pkt, caplen, &h)) {
	case RR_HOSTS_TUNNEL:
		p->tunnel = true;
		return false;       /* no split: the pass need not go on */
	case RR_HOSTS_NONE:
		keep_node(p, NO_NODE);
		return true;
	case RR_HOSTS_FOUND:
		break;
	}
	if (p->have_last && !memcmp(&h, &p->last, sizeof(h))) {
		a = p->last_node[0];
		b = p->last_node[1];
	} else {
		a = node(p, h.addr[0]);
		b = node(p, h.addr[1]);
		p->last = h;
		p->last_node[0] = a;
		p->last_node[1] = b;
		p->have_last = true;
	}
	g_array_index(p->frames, guint64, a)++;
	keep_node(p, a);
	ra = root(p, a);
	rb = root(p, b);
	if (ra != rb)
		g_array_index(p->parent, guint, ra) = rb;
	return true;
}

static gint by_frames_desc(gconstpointer x, gconstpointer y, gpointer data)
{
	const guint64 *frames = data;
	guint a = *(const guint *)x, b = *(const guint *)y;

	if (frames[a] != frames[b])
		return frames[a] > frames[b] ? -1 : 1;
	return a < b ? -1 : a > b;      /* ties in the order hosts first appeared: the same plan every time */
}

/* Each group to the shard with the fewest frames so far, largest group first. */
static void assign(struct lint_shard_plan *p, unsigned jobs)
{
	guint n = p->parent->len, i;
	guint64 *sum = g_new0(guint64, n);
	GArray *roots = g_array_new(FALSE, FALSE, sizeof(guint));

	for (i = 0; i < n; i++)
		sum[root(p, i)] += g_array_index(p->frames, guint64, i);
	for (i = 0; i < n; i++)
		if (root(p, i) == i)
			g_array_append_val(roots, i);
	g_array_sort_with_data(roots, by_frames_desc, sum);
	p->groups = roots->len;
	g_array_set_size(p->shard, n);
	for (i = 0; i < roots->len; i++) {
		guint r = g_array_index(roots, guint, i);
		unsigned best = 0, s;

		for (s = 1; s < jobs; s++)
			if (p->shard_frames[s] < p->shard_frames[best])
				best = s;
		g_array_index(p->shard, guint, r) = best;
		p->shard_frames[best] += sum[r];
	}
	for (i = 0; i < n; i++)
		g_array_index(p->shard, guint, i) = g_array_index(p->shard, guint, root(p, i));
	if (p->mapping) {
		p->mapped = p->nodes_len;
		p->frame_shard = g_malloc(p->mapped + 1);
		for (uint64_t f = 0; f < p->mapped; f++) {
			guint v = p->frame_node[f];

			p->frame_shard[f] = v == NO_NODE ? 0 : (uint8_t)g_array_index(p->shard, guint, v);
		}
		g_free(p->frame_node);
		p->frame_node = NULL;
		p->mapping = false;
	}
	g_array_free(roots, TRUE);
	g_free(sum);
}

struct lint_shard_plan *lint_shard_plan_new(const struct lint_source *src, unsigned jobs, char *why, size_t whylen)
{
	struct lint_shard_plan *p;
	struct rr_capture *cap;
	char err[512];
	uint64_t with_hosts = 0;
	unsigned s;
	int rc;

	cap = src->bytes ? rr_capture_open_memory(src->path, src->bytes, src->len, err, sizeof(err)) :
			   rr_capture_open(src->path, err, sizeof(err));
	if (!cap) {
		g_snprintf(why, whylen, "it could not be opened");
		return NULL;
	}
	p = g_new0(struct lint_shard_plan, 1);
	p->dlt = rr_capture_linktype(cap);
	p->node_of = g_hash_table_new_full(addr_hash, addr_equal, g_free, NULL);
	p->parent = g_array_new(FALSE, FALSE, sizeof(guint));
	p->frames = g_array_new(FALSE, FALSE, sizeof(guint64));
	p->shard = g_array_new(FALSE, TRUE, sizeof(guint));
	p->mapping = true;
	rc = rr_capture_scan(cap, count_frame, p, err, sizeof(err));
	rr_capture_close(cap);
	if (rc) {
		g_snprintf(why, whylen, "it could not be read to its end (one thread reads what it can and says "
			   "where and why)");
		goto cannot;
	}
	if (p->bulky || (p->total && p->bytes / p->total > SPLIT_MAX_MEAN_FRAME)) {
		g_snprintf(why, whylen, "its %sframes average %" G_GUINT64_FORMAT " bytes: reading them costs about "
			   "what checking them does, and a split would not be faster",
			   p->bulky ? "first " : "", p->bytes / p->total);
		goto cannot;
	}
	if (p->tunnel) {
		g_snprintf(why, whylen, "it holds tunneled frames (GRE, ERSPAN, VXLAN), whose inner hosts decide "
			   "what belongs together");
		goto cannot;
	}
	assign(p, jobs);
	if (p->groups == 0) {
		g_snprintf(why, whylen, p->total ? "none of its frames carries a network address to split them by "
			   "(InfiniBand or ERF link, or no IP traffic)" : "it holds no frame");
		goto cannot;
	}
	if (p->groups < 2) {
		g_snprintf(why, whylen, "all its traffic is one group of hosts that talk to each other");
		goto cannot;
	}
	for (s = 0; s < jobs; s++)
		with_hosts += p->shard_frames[s];
	p->shard_frames[0] += p->total - with_hosts;    /* frames without hosts */
	return p;
cannot:
	lint_shard_plan_free(p);
	return NULL;
}

unsigned lint_shard_of(const struct lint_shard_plan *p, struct lint_shard_memo *m, uint64_t frame_no,
		       const uint8_t *pkt, uint32_t caplen)
{
	struct rr_frame_hosts h;
	gpointer v;

	if (frame_no >= 1 && frame_no <= p->mapped)
		return p->frame_shard[frame_no - 1];
	if (rr_frame_hosts_memo(&m->hosts_memo, p->dlt, pkt, caplen, &h) != RR_HOSTS_FOUND)
		return 0;
	if (m->have_last && !memcmp(&h, &m->last, sizeof(h)))
		return m->last_shard;
	v = g_hash_table_lookup(p->node_of, h.addr[0]);
	m->last = h;
	m->have_last = true;
	/* Hosts the first pass did not see (the file grew since): shard 0's. */
	m->last_shard = v ? g_array_index(p->shard, guint, GPOINTER_TO_UINT(v) - 1) : 0;
	return m->last_shard;
}

uint64_t lint_shard_frames(const struct lint_shard_plan *p, unsigned i)
{
	return i < LINT_JOBS_MAX ? p->shard_frames[i] : 0;
}

uint64_t lint_shard_plan_frames(const struct lint_shard_plan *p)
{
	return p->total;
}

unsigned lint_shard_plan_groups(const struct lint_shard_plan *p)
{
	return p->groups;
}

void lint_shard_plan_free(struct lint_shard_plan *p)
{
	if (!p)
		return;
	g_hash_table_destroy(p->node_of);
	g_array_free(p->parent, TRUE);
	g_array_free(p->frames, TRUE);
	g_array_free(p->shard, TRUE);
	g_free(p->frame_node);
	g_free(p->frame_shard);
	g_free(p);
}
