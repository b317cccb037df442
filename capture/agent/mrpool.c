// SPDX-License-Identifier: GPL-2.0-or-later
/* A pool of registered regions by exact size and access kind (mrpool.h). */
#include "mrpool.h"

#include <string.h>

#include <glib.h>

struct pool_region {
	struct vb_mr mr;        /* what users see: the first member */
	bool pooled;            /* false: registered for one use (above MR_POOL_MAX) */
	bool remote_write;
};

struct mr_pool {
	struct mr_pool_ops ops;
	size_t keep_bytes, idle_bytes;
	GHashTable *idle;                /* shape key -> GPtrArray of struct pool_region* */
	GHashTable *taken;               /* struct vb_mr* -> struct pool_region* */
	struct mr_pool_stats st;
};

static gpointer shape_key(size_t len, bool remote_write)
{
	return GSIZE_TO_POINTER(((gsize)len << 1) | remote_write);
}

struct mr_pool *mr_pool_new(const struct mr_pool_ops *ops, size_t keep_bytes)
{
	struct mr_pool *p = g_new0(struct mr_pool, 1);
	p->ops = *ops;
	p->keep_bytes = keep_bytes;
	p->idle = g_hash_table_new(g_direct_hash, g_direct_equal);
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
	struct pool_region *r = NULL;
	GPtrArray *idle;

	len = len ? len : 1;
	idle = g_hash_table_lookup(p->idle, shape_key(len, remote_write));
	if (idle && idle->len) {
		r = g_ptr_array_steal_index_fast(idle, idle->len - 1);
		p->idle_bytes -= r->mr.len;
		p->st.reuses++;
		if (remote_write)
			memset(r->mr.buf, 0, r->mr.len);   /* nothing of an earlier call shows through */
	} else {
		r = g_new0(struct pool_region, 1);
		r->pooled = len <= MR_POOL_MAX;
		r->remote_write = remote_write;
		if (!p->ops.reg(p->ops.ctx, &r->mr, len, remote_write)) {
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
	GPtrArray *idle;
	gpointer key;
	if (!m || !(r = g_hash_table_lookup(p->taken, m)))
		return;   /* not ours, or given back twice: nothing to do */
	g_hash_table_remove(p->taken, m);
	p->st.in_use--;
	if (!r->pooled || p->idle_bytes + r->mr.len > p->keep_bytes) {
		release(p, r);
		return;
	}
	key = shape_key(r->mr.len, r->remote_write);
	if (!(idle = g_hash_table_lookup(p->idle, key))) {
		idle = g_ptr_array_new();
		g_hash_table_insert(p->idle, key, idle);
	}
	g_ptr_array_add(idle, r);
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
	g_hash_table_iter_init(&it, p->idle);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		GPtrArray *idle = v;
		for (guint i = 0; i < idle->len; i++)
			release(p, g_ptr_array_index(idle, i));
		g_ptr_array_free(idle, TRUE);
	}
	g_hash_table_destroy(p->idle);
	g_hash_table_iter_init(&it, p->taken);
	while (g_hash_table_iter_next(&it, &k, &v))
		release(p, v);
	g_hash_table_destroy(p->taken);
	g_free(p);
}
