/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keymap.h - a map from 64-bit keys (requester host << 32 | XID) to
 * pointers, for tables that change with every call: open addressing with
 * linear probing, at most half full, and removal by shifting back the
 * entries after it, so that no tombstone ever lengthens a probe (glib's
 * GHashTable keeps them until it resizes, and with a call added and one
 * forgotten for every call its probes grew long).  Not iterable in any
 * order but the slots': only what needs no order may use it.
 */
#ifndef RPCRDMA_CK_KEYMAP_H
#define RPCRDMA_CK_KEYMAP_H

#include <glib.h>
#include <stdint.h>

struct ck_keymap_slot {
	uint64_t key;
	void *val;                    /* NULL: an empty slot (values are never NULL) */
};

struct ck_keymap {
	struct ck_keymap_slot *slots; /* a key beside its value: one cache line per probe */
	uint32_t mask;                /* slots - 1; 0 before the first put */
	uint32_t n;
};

/* The value under key, or NULL. */
void *ck_keymap_get(const struct ck_keymap *m, uint64_t key);
/*
 * Asks for the cache line of key's home slot, before a get or put of it: a
 * map of many keys misses the cache on most lookups of a new one.
 */
void ck_keymap_prefetch(const struct ck_keymap *m, uint64_t key);
/* Sets key's value (val not NULL); returns the value it replaced, or NULL. */
void *ck_keymap_put(struct ck_keymap *m, uint64_t key, void *val);
/* Removes key; returns its value, or NULL when it had none.  A map an eighth full gives half its slots back. */
void *ck_keymap_take(struct ck_keymap *m, uint64_t key);
static inline uint32_t ck_keymap_size(const struct ck_keymap *m)
{
	return m->n;
}
/*
 * The value of the first entry at or after slot *at, *at moved past it; NULL
 * when there is none.  From *at = 0, every value once, in the slots' order,
 * while the map does not change.
 */
static inline void *ck_keymap_next(const struct ck_keymap *m, uint32_t *at)
{
	for (; m->mask && *at <= m->mask; (*at)++)
		if (m->slots[*at].val)
			return m->slots[(*at)++].val;
	return NULL;
}
/*
 * Removes every entry, handing each value to free_val (NULL: none), and
 * gives the slots back: the map is empty and ready for use again (a full
 * table's megabytes are not kept for nothing).
 */
void ck_keymap_free(struct ck_keymap *m, GDestroyNotify free_val);

#endif
