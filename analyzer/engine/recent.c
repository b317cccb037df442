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
#include "../check/keymap.h"

struct rr_recent {
	uint64_t keys[RR_RECENT_CALLS];   /* a ring, oldest at next once full */
	uint32_t next, used;
	struct ck_keymap set;             /* key -> its slot in keys[]: each kept key once */
};

struct rr_recent *rr_recent_new(void)
{
	return g_new0(struct rr_recent, 1);
}

bool rr_recent_repeat(struct rr_recent *r, uint64_t key)
{
	uint64_t *slot = &r->keys[r->next];

	if (ck_keymap_get(&r->set, key))
		return true;
	if (r->used == RR_RECENT_CALLS)
		ck_keymap_take(&r->set, *slot);
	else
		r->used++;
	*slot = key;
	ck_keymap_put(&r->set, key, slot);
	r->next = (r->next + 1) % RR_RECENT_CALLS;
	return false;
}

void rr_recent_free(struct rr_recent *r)
{
	if (!r)
		return;
	ck_keymap_free(&r->set, NULL);
	g_free(r);
}
