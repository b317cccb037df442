/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mrpool.h - registered memory, registered once and reused across calls.
 *
 * Registering a region is a round trip into the provider (and, on real
 * hardware, pinning and a translation-table update): a requester that
 * registers each call's chunks afresh spends more time registering than
 * moving data at 1 MiB per call.  The pool keeps regions by their exact
 * length and access kind (remotely writable, for write and reply chunks;
 * remotely readable, for read chunks), hands one out for a segment and
 * takes it back when the call is done, so a run that keeps N calls of the
 * same shapes in flight registers about N regions of each shape once.
 * xprtrdma keeps its MRs in a per-transport free list for the same reason.
 *
 * Lengths are exact, not rounded up to a size class: a region's bounds are
 * its segment's, so a responder that writes or reads past a segment still
 * meets a remote access error, as it would with a registration per call.
 *
 * The registration itself is the caller's (verbs.h's vb_reg/vb_dereg in
 * the agent, a stand-in in the unit tests), given as two functions.
 */
#ifndef AGENT_MRPOOL_H
#define AGENT_MRPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs.h"

struct mr_pool;

struct mr_pool_ops {
	/* register len bytes into *m with this remote access; false on failure */
	bool (*reg)(void *ctx, struct vb_mr *m, size_t len, bool remote_write);
	void (*dereg)(void *ctx, struct vb_mr *m);
	void *ctx;
};

struct mr_pool_stats {
	uint64_t registrations;   /* regions registered (each once) */
	uint64_t reuses;          /* takes served from a region given back */
	uint64_t in_use;          /* taken and not given back */
	uint64_t bytes;           /* registered and still held by the pool or its users */
};

/* Regions larger than this are registered for one use only. */
#define MR_POOL_MAX (16u << 20)

/* keep_bytes: what the pool may hold while unused; regions given back beyond it are released. */
struct mr_pool *mr_pool_new(const struct mr_pool_ops *ops, size_t keep_bytes);
/* A region of at least len bytes (zeroed for a remotely writable one), or NULL. */
struct vb_mr *mr_pool_take(struct mr_pool *p, size_t len, bool remote_write);
void mr_pool_give(struct mr_pool *p, struct vb_mr *m);
void mr_pool_stats(const struct mr_pool *p, struct mr_pool_stats *out);
/* Releases every region, also those still taken (their users must be done with them). */
void mr_pool_free(struct mr_pool *p);

#endif
