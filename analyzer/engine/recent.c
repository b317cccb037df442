// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The calls requesters sent lately, for rr_msg_view.retry: an XID seen
 * again from the same requester host is a retry (RFC 5531: a retransmitted
 * call keeps its XID; after a reconnect it arrives on a new connection).
 * Bounded: the last RR_RECENT_CALLS distinct calls over all connections,
 * the oldest forgotten first.
 */
#include "engine_int.h"
#include "recent.h"

struct rr_recent {
	uint64_t keys[RR_RECENT_CALLS];   /* a ring, oldest at next once full */
	uint32_t next, used;
	GHashTable *set;                  /* points into keys[]: each kept key once */
};

/* Both halves of the key (requester host, XID) mixed: g_int64_hash() keeps the XID alone. */
static guint key_hash(gconstpointer p)
{
	uint64_t k = *(const uint64_t *)p;

	k = (k ^ (k >> 32)) * 0x9e3779b97f4a7c15u;
	return (guint)(k >> 32);
}

struct rr_recent *rr_recent_new(void)
{
	struct rr_recent *r = g_new0(struct rr_recent, 1);

	r->set = g_hash_table_new(key_hash, g_int64_equal);
	return r;
}

bool rr_recent_repeat(struct rr_recent *r, uint64_t key)
{
	uint64_t *slot = &r->keys[r->next];

	if (g_hash_table_contains(r->set, &key))
		return true;
	if (r->used == RR_RECENT_CALLS)
		g_hash_table_remove(r->set, slot);
	else
		r->used++;
	*slot = key;
	g_hash_table_add(r->set, slot);
	r->next = (r->next + 1) % RR_RECENT_CALLS;
	return false;
}

void rr_recent_free(struct rr_recent *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->set);
	g_free(r);
}
