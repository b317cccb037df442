// SPDX-License-Identifier: GPL-2.0-or-later
/* A pool of registered regions by size class and access kind (mrpool.h). */
#include "mrpool.h"

#include <string.h>

#include <glib.h>

#define N_CLASSES 13   /* 4 KiB << 0 ... 4 KiB << 12 = 16 MiB */

struct pool_region {
	struct vb_mr mr;        /* what users see: the first member */
	int cls;                /* size class, or -1: registered for one use */
	bool remote_write;
};

struct mr_pool {
	struct mr_pool_ops ops;
	size_t keep_bytes, idle_bytes;
	GPtrArray *idle[N_CLASSES][2];   /* struct pool_region*, by class and remote_write */
	GHashTable *taken;               /* struct vb_mr* -> struct pool_region* */
	struct mr_pool_stats st;
};

static int class_of(size_t len)
{
	size_t sz = MR_POOL_MIN_CLASS;
	for (int c = 0; c < N_CLASSES; c++, sz <<= 1)
		if (len <= sz)
			return c;
	return -1;
}

static size_t class_size(int cls)
{
	return (size_t)MR_POOL_MIN_CLASS << cls;
}

struct mr_pool *mr_pool_new(const struct mr_pool_ops *ops, size_t keep_bytes)
{
	struct mr_pool *p = g_new0(struct mr_pool, 1);
	p->ops = *ops;
	p->keep_bytes = keep_bytes;
	for (int c = 0; c < N_CLASSES; c++)
		for (int w = 0; w < 2; w++)
			p->idle[c][w] = g_ptr_array_new();
	p->taken = g_hash_table_new(g_direct_hash, g_direct_equal);
	return p;
}

static void release(struct mr_pool *p, struct pool_region *r)
{
	p->st.bytes -= r->mr.len;
	p->ops.dereg(p->ops.ctx, &r->mr);
	g_free(r);
}

struct vb_mr *mr_pool_take(struct mr_pool *p, size_t len, bool remote_write)
{
	int cls = class_of(len ? len : 1);
	struct pool_region *r = NULL;
	GPtrArray *idle = cls >= 0 ? p->idle[cls][remote_write] : NULL;

	if (idle && idle->len) {
		r = g_ptr_array_steal_index_fast(idle, idle->len - 1);
		p->idle_bytes -= r->mr.len;
		p->st.reuses++;
		if (remote_write)
			memset(r->mr.buf, 0, r->mr.len);   /* nothing of an earlier call shows through */
	} else {
		r = g_new0(struct pool_region, 1);
		r->cls = cls;
		r->remote_write = remote_write;
		if (!p->ops.reg(p->ops.ctx, &r->mr, cls >= 0 ? class_size(cls) : len, remote_write)) {
			g_free(r);
			return NULL;
		}
		p->st.registrations++;
		p->st.bytes += r->mr.len;
	}
	g_hash_table_insert(p->taken, &r->mr, r);
	p->st.in_use++;
	return &r->mr;
}

void mr_pool_give(struct mr_pool *p, struct vb_mr *m)
{
	struct pool_region *r;
	if (!m || !(r = g_hash_table_lookup(p->taken, m)))
		return;   /* not ours, or given back twice: nothing to do */
	g_hash_table_remove(p->taken, m);
	p->st.in_use--;
	if (r->cls < 0 || p->idle_bytes + r->mr.len > p->keep_bytes) {
		release(p, r);
		return;
	}
	g_ptr_array_add(p->idle[r->cls][r->remote_write], r);
	p->idle_bytes += r->mr.len;
}

void mr_pool_stats(const struct mr_pool *p, struct mr_pool_stats *out)
{
	*out = p->st;
}

void mr_pool_free(struct mr_pool *p)
{
	GHashTableIter it;
	gpointer k, v;
	if (!p)
		return;
	for (int c = 0; c < N_CLASSES; c++)
		for (int w = 0; w < 2; w++) {
			for (guint i = 0; i < p->idle[c][w]->len; i++)
				release(p, g_ptr_array_index(p->idle[c][w], i));
			g_ptr_array_free(p->idle[c][w], TRUE);
		}
	g_hash_table_iter_init(&it, p->taken);
	while (g_hash_table_iter_next(&it, &k, &v))
		release(p, v);
	g_hash_table_destroy(p->taken);
	g_free(p);
}
