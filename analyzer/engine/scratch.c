// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's spare arrays: a message's rebuild takes what it needs and
 * gives it back when the message was delivered, so the next message reuses
 * the memory (see scratch.h).
 */
#include "scratch.h"

GArray *rr_scratch_take(struct rr_scratch *s, guint elt_size)
{
	unsigned i;

	for (i = 0; i < SCRATCH_SLOTS; i++) {
		GArray *a = s->free[i];

		if (a && g_array_get_element_size(a) == elt_size) {
			s->free[i] = NULL;
			return a;
		}
	}
	return g_array_new(FALSE, FALSE, elt_size);
}

void rr_scratch_give(struct rr_scratch *s, GArray *a)
{
	unsigned i;

	if (!a)
		return;
	/* A large one goes: the next message is seldom as large, and memory stays bounded. */
	if ((guint64)a->len * g_array_get_element_size(a) <= SCRATCH_KEEP_BYTES) {
		for (i = 0; i < SCRATCH_SLOTS; i++) {
			if (!s->free[i]) {
				g_array_set_size(a, 0);
				s->free[i] = a;
				return;
			}
		}
	}
	g_array_unref(a);
}

void rr_scratch_clear(struct rr_scratch *s)
{
	unsigned i;

	for (i = 0; i < SCRATCH_SLOTS; i++) {
		if (s->free[i])
			g_array_unref(s->free[i]);
		s->free[i] = NULL;
	}
}
