// SPDX-License-Identifier: GPL-2.0-or-later
/* A map from 64-bit keys to pointers without tombstones (see keymap.h). */
#include "keymap.h"
#include "rpcrdma/hash.h"

#define KEYMAP_FIRST_SLOTS 8u    /* small: every connection has two (its calls by direction) */

/* Both halves of the key mixed: the XIDs of one requester differ in the low half only. */
static uint32_t slot_of(const struct ck_keymap *m, uint64_t key)
{
	return rr_mix64to32(key) & m->mask;
}

static uint32_t find(const struct ck_keymap *m, uint64_t key)
{
	uint32_t i = slot_of(m, key);

	while (m->slots[i].val && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	return i;
}

void *ck_keymap_get(const struct ck_keymap *m, uint64_t key)
{
	return m->mask ? m->slots[find(m, key)].val : NULL;
}

void ck_keymap_prefetch(const struct ck_keymap *m, uint64_t key)
{
	if (m->mask)
		__builtin_prefetch(&m->slots[slot_of(m, key)], 1);
}

/* Every entry placed again in a table of `slots` slots (a power of two, more than twice n). */
static void resize(struct ck_keymap *m, uint32_t slots)
{
	struct ck_keymap_slot *old_slots = m->slots;
	uint32_t old = m->mask ? m->mask + 1 : 0, i;

	m->mask = slots - 1;
	m->slots = g_new0(struct ck_keymap_slot, slots);
	for (i = 0; i < old; i++)
		if (old_slots[i].val)
			m->slots[find(m, old_slots[i].key)] = old_slots[i];
	g_free(old_slots);
}

void *ck_keymap_put(struct ck_keymap *m, uint64_t key, void *val)
{
	uint32_t i;
	void *was;

	if (!m->mask || 2 * (m->n + 1) > m->mask + 1)
		resize(m, m->mask ? 2 * (m->mask + 1) : KEYMAP_FIRST_SLOTS);
	i = find(m, key);
	was = m->slots[i].val;
	if (!was)
		m->n++;
	m->slots[i].key = key;
	m->slots[i].val = val;
	return was;
}

void *ck_keymap_take(struct ck_keymap *m, uint64_t key)
{
	uint32_t i, j;
	void *was;

	if (!m->mask)
		return NULL;
	i = find(m, key);
	was = m->slots[i].val;
	if (!was)
		return NULL;
	m->slots[i].val = NULL;
	m->n--;
	/* Shift back each later entry of the run that the hole now separates from its home slot. */
	for (j = (i + 1) & m->mask; m->slots[j].val; j = (j + 1) & m->mask) {
		uint32_t home = slot_of(m, m->slots[j].key);

		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->slots[i] = m->slots[j];
			m->slots[j].val = NULL;
			i = j;
		}
	}
	/* An eighth full: half the slots (a burst of calls leaves no megabyte behind it). */
	if (m->mask + 1 > KEYMAP_FIRST_SLOTS && m->n < (m->mask + 1) / 8)
		resize(m, (m->mask + 1) / 2);
	return was;
}

void ck_keymap_free(struct ck_keymap *m, GDestroyNotify free_val)
{
	uint32_t i;

	for (i = 0; m->mask && i <= m->mask; i++)
		if (m->slots[i].val && free_val)
			free_val(m->slots[i].val);
	g_free(m->slots);
	m->slots = NULL;
	m->mask = 0;
	m->n = 0;
}
