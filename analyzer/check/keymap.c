// SPDX-License-Identifier: GPL-2.0-or-later
/* A map from 64-bit keys to pointers without tombstones (see keymap.h). */
#include "keymap.h"

#define KEYMAP_FIRST_SLOTS 64u

/* Both halves of the key mixed: the XIDs of one requester differ in the low half only. */
static uint32_t slot_of(const struct ck_keymap *m, uint64_t key)
{
	key = (key ^ (key >> 32)) * 0x9e3779b97f4a7c15u;
	return (uint32_t)(key >> 32) & m->mask;
}

static uint32_t find(const struct ck_keymap *m, uint64_t key)
{
	uint32_t i = slot_of(m, key);

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

void *ck_keymap_get(const struct ck_keymap *m, uint64_t key)
{
	return m->mask ? m->vals[find(m, key)] : NULL;
}

static void grow(struct ck_keymap *m)
{
	uint64_t *keys = m->keys;
	void **vals = m->vals;
	uint32_t old = m->mask ? m->mask + 1 : 0, i;

	m->mask = old ? 2 * old - 1 : KEYMAP_FIRST_SLOTS - 1;
	m->keys = g_new(uint64_t, m->mask + 1);
	m->vals = g_new0(void *, m->mask + 1);
	for (i = 0; i < old; i++) {
		if (vals[i]) {
			uint32_t at = find(m, keys[i]);

			m->keys[at] = keys[i];
			m->vals[at] = vals[i];
		}
	}
	g_free(keys);
	g_free(vals);
}

void *ck_keymap_put(struct ck_keymap *m, uint64_t key, void *val)
{
	uint32_t i;
	void *was;

	if (!m->mask || 2 * (m->n + 1) > m->mask + 1)
		grow(m);
	i = find(m, key);
	was = m->vals[i];
	if (!was)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return was;
}

void *ck_keymap_take(struct ck_keymap *m, uint64_t key)
{
	uint32_t i, j;
	void *was;

	if (!m->mask)
		return NULL;
	i = find(m, key);
	was = m->vals[i];
	if (!was)
		return NULL;
	m->vals[i] = NULL;
	m->n--;
	/* Shift back each later entry of the run that the hole now separates from its home slot. */
	for (j = (i + 1) & m->mask; m->vals[j]; j = (j + 1) & m->mask) {
		uint32_t home = slot_of(m, m->keys[j]);

		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
	return was;
}

void ck_keymap_clear(struct ck_keymap *m, GDestroyNotify free_val)
{
	uint32_t i;

	for (i = 0; m->mask && i <= m->mask; i++) {
		if (m->vals[i] && free_val)
			free_val(m->vals[i]);
		m->vals[i] = NULL;
	}
	m->n = 0;
}

void ck_keymap_free(struct ck_keymap *m, GDestroyNotify free_val)
{
	ck_keymap_clear(m, free_val);
	g_free(m->keys);
	g_free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->mask = 0;
}
