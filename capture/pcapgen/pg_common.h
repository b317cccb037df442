/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rpcrdma-pcapgen: shared definitions.
 *
 * The generator is the test oracle for the decoder, so it deliberately
 * shares no code with analyzer/: every encoder here is written from the
 * specifications (RFC 8166/8267/8797, RFC 5040/5041/5044, IBTA Vol. 1 and
 * Annex A16/A17) so that a misreading in one place is caught by the other.
 */
#ifndef PG_COMMON_H
#define PG_COMMON_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard limits: a scenario asking for more gets a parse error, never a huge
 * allocation. */
#define PG_NFS_RDMA_PORT_DEFAULT 20049u /* nfsrdma (RFC 8267 6.3) */
#define PG_MAX_PAYLOAD      (16u * 1024u * 1024u) /* one data item */
#define PG_MAX_TOTAL_DATA   (256u * 1024u * 1024u) /* whole scenario */
#define PG_MAX_SEGS         64u   /* segments per chunk */
#define PG_MAX_CHUNKS       16u   /* chunks per list */
#define PG_MAX_SPLIT        64u   /* RDMA ops per segment */
#define PG_MAX_OPS          32u   /* COMPOUND operations */
#define PG_MAX_ENTRIES      4096u /* READDIR entries */
#define PG_MAX_PATH         4096u /* symlink text */
#define PG_MAX_ITEMS        20000u /* RPCs after repeat expansion */
#define PG_MAX_REPEAT       1000u

enum pg_side { PG_CLIENT = 0, PG_SERVER = 1 };

/* splitmix64: tiny, well-known, and identical on every platform, so the
 * capture bytes depend only on the scenario and the seed. */
typedef struct {
	uint64_t s;
} pg_rng;

static inline uint64_t pg_rng_next(pg_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t pg_rng_u32(pg_rng *r)
{
	return (uint32_t)(pg_rng_next(r) >> 32);
}

/* Uniform-enough value in [lo, hi]; bias is irrelevant for test data. */
static inline uint32_t pg_rng_range(pg_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(pg_rng_next(r) % ((uint64_t)hi - lo + 1));
}

static inline pg_rng pg_rng_derive(uint64_t seed, uint64_t stream, uint64_t idx)
{
	pg_rng r = { seed ^ (stream * 0xd1b54a32d192ed03ull) ^ (idx * 0x8cb92ba72f3d8dd7ull) };
	(void)pg_rng_next(&r);
	return r;
}

void pg_rng_fill(pg_rng *r, uint8_t *buf, size_t n);

/* Internal invariant broken: a bug in the generator, not in the input. */
G_NORETURN void pg_bug(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static inline uint32_t pg_round4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

#endif
