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

	for (i = s->n; i > 0; i--) {
		GArray *a = s->free[i - 1];

		if (s->elt[i - 1] == elt_size) {
			s->n--;
			s->free[i - 1] = s->free[s->n];
			s->elt[i - 1] = s->elt[s->n];
			return a;
		}
	}
	return g_array_new(FALSE, FALSE, elt_size);
}

void rr_scratch_give(struct rr_scratch *s, GArray *a)
{
	guint elt;

	if (!a)
		return;
	elt = g_array_get_element_size(a);
	/* A large one goes: the next message is seldom as large, and memory stays bounded. */
	if (s->n < SCRATCH_SLOTS && (guint64)a->len * elt <= SCRATCH_KEEP_BYTES) {
		a->len = 0;   /* as g_array_set_size(a, 0) for these arrays: neither cleared nor zero-terminated */
		s->free[s->n] = a;
		s->elt[s->n++] = elt;
		return;
	}
	g_array_unref(a);
}

void rr_scratch_clear(struct rr_scratch *s)
{
	while (s->n)
		g_array_unref(s->free[--s->n]);
}
