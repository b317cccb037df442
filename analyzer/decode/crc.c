// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc.c - the two CRCs RDMA transports carry.
 *
 *  - CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320): the IB/RoCE
 *    invariant CRC (ICRC).
 *  - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the MPA CRC of
 *    iWARP (RFC 5044 4.4, computed as iSCSI does, RFC 3720 B.4).
 *
 * Both are kept as a raw register: start from 0xFFFFFFFF, feed bytes,
 * complement at the end.  The ICRC covers every byte of every RoCE
 * packet, so speed matters.  Three implementations, picked once at run
 * time from what the CPU has (__builtin_cpu_supports):
 *
 *  - CRC-32 on x86 with PCLMULQDQ: carry-less multiplication folding, four
 *    16-byte lanes (Intel, "Fast CRC Computation for Generic Polynomials
 *    Using PCLMULQDQ Instruction", 2009; the constants are those of
 *    Linux's crc32-pclmul for the reflected polynomial), then a Barrett
 *    reduction; runs of fewer than 64 bytes and the last n % 16 bytes go
 *    through the tables;
 *  - CRC-32C on x86 with SSE4.2: the crc32 instruction, 8 bytes a step;
 *  - everywhere else: slicing-by-8 tables (eight tables, one per byte
 *    position), built once on first use.
 *
 * rr_crc32_update_sw() and rr_crc32c_update_sw() always take the table
 * path; the unit tests compare the fast paths against them.
 */
#include <glib.h>
#include <string.h>

#include "decode_int.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RR_CRC_X86 1
#include <immintrin.h>
#endif

static uint32_t tab32[8][256], tab32c[8][256];

static void build(uint32_t tab[8][256], uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t r = i;

		for (int k = 0; k < 8; k++)
			r = (r & 1) ? (r >> 1) ^ poly : r >> 1;
		tab[0][i] = r;
	}
	/* tab[k][i]: the register effect of byte i followed by k zero bytes. */
	for (int k = 1; k < 8; k++)
		for (uint32_t i = 0; i < 256; i++)
			tab[k][i] = (tab[k - 1][i] >> 8) ^ tab[0][tab[k - 1][i] & 0xFF];
}

/*
 * p and n always come from rr_get_bytes() (or from a local copy of
 * header bytes), so the loops stay inside the span the bounded reader
 * handed out.
 */
static uint32_t update(const uint32_t tab[8][256], uint32_t reg, const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		reg ^= (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
		       (uint32_t)p[i + 3] << 24;
		reg = tab[7][reg & 0xFF] ^ tab[6][(reg >> 8) & 0xFF] ^ tab[5][(reg >> 16) & 0xFF] ^
		      tab[4][reg >> 24] ^ tab[3][p[i + 4]] ^ tab[2][p[i + 5]] ^ tab[1][p[i + 6]] ^
		      tab[0][p[i + 7]];
	}
	for (; i < n; i++)
		reg = tab[0][(reg ^ p[i]) & 0xFF] ^ (reg >> 8);
	return reg;
}

static uint32_t crc32_sw(uint32_t reg, const uint8_t *p, size_t n)
{
	return update(tab32, reg, p, n);
}

static uint32_t crc32c_sw(uint32_t reg, const uint8_t *p, size_t n)
{
	return update(tab32c, reg, p, n);
}

#ifdef RR_CRC_X86
/*
 * CRC-32 (reflected) of n bytes, n >= 64 and a multiple of 16, by
 * folding.  Constants (bit-reflected, shifted left by one):
 *   k1 = x^(4*128+32) mod P, k2 = x^(4*128-32) mod P    fold 64 bytes
 *   k3 = x^(128+32) mod P,   k4 = x^(128-32) mod P      fold 16 bytes
 *   k5 = x^64 mod P                                     64 -> 32 bits
 *   P' = 0x1DB710641, mu = floor(x^64 / P) = 0x1F7011641 (Barrett)
 */
__attribute__((target("pclmul,sse4.1")))
static uint32_t crc32_fold(uint32_t reg, const uint8_t *p, size_t n)
{
	const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
	const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124LL);
	const __m128i poly_mu = _mm_set_epi64x(0x1F7011641LL, 0x1DB710641LL);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x0, x1, x2, x3, t0, t1, t2, t3;

	x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)reg));
	x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	p += 64;
	n -= 64;
	while (n >= 64) {
		t0 = _mm_clmulepi64_si128(x0, k1k2, 0x00);
		t1 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
		t2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
		t3 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
		x0 = _mm_clmulepi64_si128(x0, k1k2, 0x11);
		x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
		x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
		x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
		x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), _mm_loadu_si128((const __m128i *)p));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, t1), _mm_loadu_si128((const __m128i *)(p + 16)));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, t2), _mm_loadu_si128((const __m128i *)(p + 32)));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, t3), _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		n -= 64;
	}
	/* Four lanes into one. */
	t0 = _mm_clmulepi64_si128(x0, k3k4, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k3k4, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x1);
	t0 = _mm_clmulepi64_si128(x0, k3k4, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k3k4, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x2);
	t0 = _mm_clmulepi64_si128(x0, k3k4, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k3k4, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x3);
	while (n >= 16) {
		t0 = _mm_clmulepi64_si128(x0, k3k4, 0x00);
		x0 = _mm_clmulepi64_si128(x0, k3k4, 0x11);
		x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), _mm_loadu_si128((const __m128i *)p));
		p += 16;
		n -= 16;
	}
	/* 128 -> 64 bits (appending 32 zero bits): low half times k4. */
	t0 = _mm_clmulepi64_si128(k3k4, x0, 0x01);
	x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t0);
	/* 64 -> 32 bits. */
	t0 = _mm_srli_si128(x0, 4);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), k5, 0x00);
	x0 = _mm_xor_si128(x0, t0);
	/* Barrett reduction to the 32-bit register. */
	t0 = x0;
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), poly_mu, 0x10);
	x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, mask32), poly_mu, 0x00);
	x0 = _mm_xor_si128(x0, t0);
	return (uint32_t)_mm_extract_epi32(x0, 1);
}

static uint32_t crc32_pclmul(uint32_t reg, const uint8_t *p, size_t n)
{
	size_t body;

	if (n < 64)
		return crc32_sw(reg, p, n);
	body = n & ~(size_t)15;
	reg = crc32_fold(reg, p, body);
	return n > body ? crc32_sw(reg, p + body, n - body) : reg;
}

__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t reg, const uint8_t *p, size_t n)
{
#if defined(__x86_64__)
	uint64_t r = reg;

	while (n >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		r = _mm_crc32_u64(r, v);
		p += 8;
		n -= 8;
	}
	reg = (uint32_t)r;
#else
	while (n >= 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		reg = _mm_crc32_u32(reg, v);
		p += 4;
		n -= 4;
	}
#endif
	while (n--)
		reg = _mm_crc32_u8(reg, *p++);
	return reg;
}
#endif

typedef uint32_t (*crc_fn)(uint32_t reg, const uint8_t *p, size_t n);

static crc_fn crc32_impl = crc32_sw, crc32c_impl = crc32c_sw;
static const char *impl_name = "tables";

static void init_once(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		build(tab32, 0xEDB88320u);
		build(tab32c, 0x82F63B78u);
#ifdef RR_CRC_X86
		__builtin_cpu_init();
		if (__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
			crc32_impl = crc32_pclmul;
			impl_name = "pclmul";
		}
		if (__builtin_cpu_supports("sse4.2")) {
			crc32c_impl = crc32c_sse42;
			impl_name = crc32_impl == crc32_pclmul ? "pclmul+sse4.2" : "sse4.2";
		}
#endif
		g_once_init_leave(&done, 1);
	}
}

const char *rr_crc_impl(void)
{
	init_once();
	return impl_name;
}

uint32_t rr_crc32_update(uint32_t reg, const uint8_t *p, size_t n)
{
	init_once();
	return crc32_impl(reg, p, n);
}

uint32_t rr_crc32c_update(uint32_t reg, const uint8_t *p, size_t n)
{
	init_once();
	return crc32c_impl(reg, p, n);
}

uint32_t rr_crc32_update_sw(uint32_t reg, const uint8_t *p, size_t n)
{
	init_once();
	return crc32_sw(reg, p, n);
}

uint32_t rr_crc32c_update_sw(uint32_t reg, const uint8_t *p, size_t n)
{
	init_once();
	return crc32c_sw(reg, p, n);
}

bool rr_crc32_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n)
{
	const uint8_t *p;

	if (!rr_get_bytes(cur, n, &p))
		return false;
	*reg = rr_crc32_update(*reg, p, n);
	return true;
}

bool rr_crc32c_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n)
{
	const uint8_t *p;

	if (!rr_get_bytes(cur, n, &p))
		return false;
	*reg = rr_crc32c_update(*reg, p, n);
	return true;
}

uint32_t rr_crc32c(const uint8_t *p, size_t n)
{
	return ~rr_crc32c_update(0xFFFFFFFFu, p, n);
}
