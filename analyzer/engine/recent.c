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
#include "rpcrdma/hash.h"

/*
 * The set is open addressing over the ring: each slot holds the ring index
 * of a key (+1; 0 empty) and the key's 32-bit hash, 8 bytes, twice as many
 * slots as the ring, linear probing, removal by shifting back.  Probes
 * compare hashes and read the ring only on a match, so a lookup touches one
 * slot line (the set grows to 1 MiB: every call's lookup is a cache miss,
 * and 16-byte slots made it two).  It grows with the ring, so that a small
 * capture does not hold the whole of it.
 */
#define SET_FIRST_SLOTS 1024u

struct set_slot {
	uint32_t at;                      /* ring index + 1; 0: empty */
	uint32_t hash;
};

struct rr_recent {
	uint64_t keys[RR_RECENT_CALLS];   /* a ring, oldest at next once full */
	uint32_t next, used;
	struct set_slot *set;
	uint32_t mask;                    /* slots - 1: at least twice used */
};

/* Both halves of the key (requester host, XID) mixed. */
static uint32_t key_hash(uint64_t k)
{
	return rr_mix64to32(k);
}

/* The slot holding key (hash h), or the empty slot that ends its run. */
static uint32_t find(const struct rr_recent *r, uint64_t key, uint32_t h)
{
	uint32_t i = h & r->mask;

	while (r->set[i].at && (r->set[i].hash != h || r->keys[r->set[i].at - 1] != key))
		i = (i + 1) & r->mask;
	return i;
}

static void set_remove(struct rr_recent *r, uint32_t i)
{
	uint32_t j;

	r->set[i].at = 0;
	/* Shift back each later entry of the run that the hole now separates from its home slot. */
	for (j = (i + 1) & r->mask; r->set[j].at; j = (j + 1) & r->mask) {
		uint32_t home = r->set[j].hash & r->mask;

		if (((j - home) & r->mask) >= ((j - i) & r->mask)) {
			r->set[i] = r->set[j];
			r->set[j].at = 0;
			i = j;
		}
	}
}

/* Twice the slots, every entry placed again by its hash (the ring is not read). */
static void set_grow(struct rr_recent *r)
{
	struct set_slot *old = r->set;
	uint32_t n = r->mask + 1, i;

	r->mask = 2 * n - 1;
	r->set = g_new0(struct set_slot, r->mask + 1);
	for (i = 0; i < n; i++) {
		uint32_t j;

		if (!old[i].at)
			continue;
		for (j = old[i].hash & r->mask; r->set[j].at; j = (j + 1) & r->mask)
			;
		r->set[j] = old[i];
	}
	g_free(old);
}

struct rr_recent *rr_recent_new(void)
{
	struct rr_recent *r = g_new0(struct rr_recent, 1);

	r->mask = SET_FIRST_SLOTS - 1;
	r->set = g_new0(struct set_slot, SET_FIRST_SLOTS);
	return r;
}

bool rr_recent_repeat(struct rr_recent *r, uint64_t key)
{
	uint32_t h = key_hash(key), i = find(r, key, h);

	if (r->set[i].at)
		return true;
	if (r->used == RR_RECENT_CALLS) {
		uint64_t old = r->keys[r->next];

		set_remove(r, find(r, old, key_hash(old)));
		i = find(r, key, h);   /* the removal may have moved the run */
	} else {
		r->used++;
		if (2 * r->used > r->mask + 1) {
			set_grow(r);
			i = find(r, key, h);
		}
	}
	r->keys[r->next] = key;
	r->set[i].at = r->next + 1;
	r->set[i].hash = h;
	r->next = (r->next + 1) % RR_RECENT_CALLS;
	return false;
}

void rr_recent_prefetch(const struct rr_recent *r, uint64_t key)
{
	if (r)
		__builtin_prefetch(&r->set[key_hash(key) & r->mask]);
}

void rr_recent_free(struct rr_recent *r)
{
	if (!r)
		return;
	g_free(r->set);
	g_free(r);
}
