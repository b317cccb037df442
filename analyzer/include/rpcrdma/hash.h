/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hash.h - the two hash functions the analyzer's tables use, written once:
 * FNV-1a over a few bytes (host addresses), and a multiplicative mix that
 * folds a 64-bit key into 32 bits (requester host << 32 | XID, whose low
 * halves alone differ within one requester).
 */
#ifndef RPCRDMA_HASH_H
#define RPCRDMA_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 32 bits (Fowler, Noll, Vo; draft-eastlake-fnv). */
static inline uint32_t rr_fnv1a32(const void *data, size_t n)
{
	const uint8_t *b = data;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

/* Both halves of k mixed into the high 32 bits of a Fibonacci-hashing product. */
static inline uint32_t rr_mix64to32(uint64_t k)
{
	k = (k ^ (k >> 32)) * 0x9e3779b97f4a7c15u;
	return (uint32_t)(k >> 32);
}

#endif
