/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.h - arrays a message's rebuild uses and gives back when the
 * message was delivered (its frames, items, segments, Payload bytes), kept
 * by the engine for the next message instead of allocated and freed for
 * each.  Bounded: SCRATCH_SLOTS arrays, none kept past SCRATCH_KEEP_BYTES.
 */
#ifndef RPCRDMA_SCRATCH_H
#define RPCRDMA_SCRATCH_H

#include <glib.h>
#include <string.h>

#define SCRATCH_SLOTS 16
#define SCRATCH_KEEP_BYTES ((guint)1 << 18)

struct rr_scratch {
	GArray *free[SCRATCH_SLOTS];  /* empty arrays of any element size, a stack */
	guint elt[SCRATCH_SLOTS];     /* the element size of each */
	unsigned n;
};

/* An empty array of elements of elt_size bytes (a byte array is one of 1-byte elements). */
GArray *rr_scratch_take(struct rr_scratch *s, guint elt_size);
/* Done with a (NULL: nothing): kept for a later take, or freed. */
void rr_scratch_give(struct rr_scratch *s, GArray *a);
static inline GByteArray *rr_scratch_take_bytes(struct rr_scratch *s)
{
	return (GByteArray *)(void *)rr_scratch_take(s, 1);
}
static inline void rr_scratch_give_bytes(struct rr_scratch *s, GByteArray *b)
{
	rr_scratch_give(s, (GArray *)(void *)b);
}
/* n zeroed elements of elt_size bytes, in an array taken from s (*a: give it back). */
static inline void *rr_scratch_zeroed(struct rr_scratch *s, guint elt_size, guint n, GArray **a)
{
	*a = rr_scratch_take(s, elt_size);
	g_array_set_size(*a, n);
	memset((*a)->data, 0, (size_t)n * elt_size);
	return (*a)->data;
}
/* Free every array kept. */
void rr_scratch_clear(struct rr_scratch *s);

#endif
