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
 *  - on x86 with PCLMULQDQ, both: carry-less multiplication folding, four
 *    16-byte lanes (Intel, "Fast CRC Computation for Generic Polynomials
 *    Using PCLMULQDQ Instruction", 2009; for CRC-32 the constants are
 *    those of Linux's crc32-pclmul), then a Barrett reduction; with
 *    AVX-512 and VPCLMULQDQ, runs of 256 bytes or more fold four 64-byte
 *    registers at a time.  Runs of fewer than 64 bytes and the last n % 16
 *    bytes go the short way: the tables, or for CRC-32C the SSE4.2 crc32
 *    instruction;
 *  - CRC-32C on x86 with SSE4.2 but no PCLMULQDQ: the crc32 instruction,
 *    8 bytes a step;
 *  - everywhere else: slicing-by-8 tables (eight tables, one per byte
 *    position), built once on first use.
 *
 * rr_crc32_update_sw() and rr_crc32c_update_sw() always take the table
 * path, rr_crc32*_update_128() the 128-bit folding when the CPU has
 * PCLMULQDQ; the unit tests compare the fast paths against the tables.
 */
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "crc.h"

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
 * Reflected CRCs by folding.  A fold by d bits multiplies the low 64-bit
 * half of a 128-bit lane by K(d + 32) and the high half by K(d - 32),
 * where K(e) = reflect64((x^e mod P) << 32) << 1 (the recipe that gives
 * Linux's crc32-pclmul constants):
 *   d = 512 (four 128-bit lanes, or one 512-bit register): K(544), K(480)
 *   d = 128: K(160), K(96);  d = 256: K(288), K(224);  d = 384: K(416), K(352)
 *   d = 2048 (four 512-bit registers): K(2080), K(2016)
 * then 128 -> 64 bits with K(96), 64 -> 32 bits with K(64), and a Barrett
 * reduction with P' = reflect33(P) and mu = reflect33(x^64 / P).
 */
struct fold_k {
	long long k2080, k2016, k544, k480, k416, k352, k288, k224, k160, k96, k64, poly, mu;
};

static const struct fold_k K_CRC32 = {     /* P = 0x104C11DB7 */
	0x11542778aLL, 0x1322d1430LL, 0x154442bd4LL, 0x1c6e41596LL, 0x03db1ecdcLL,
	0x174359406LL, 0x0f1da05aaLL, 0x15a546366LL, 0x1751997d0LL, 0x0ccaa009eLL,
	0x163cd6124LL, 0x1DB710641LL, 0x1F7011641LL,
};

static const struct fold_k K_CRC32C = {    /* P = 0x11EDC6F41 */
	0x0dcb17aa4LL, 0x0b9e02b86LL, 0x0740eef02LL, 0x09e4addf8LL, 0x01c291d04LL,
	0x1d82c63daLL, 0x1384aa63aLL, 0x0ba4fc28eLL, 0x0f20c0dfeLL, 0x14cd00bd6LL,
	0x0dd45aab8LL, 0x105ec76f1LL, 0x0dea713f1LL,
};

/* Fold 16-byte blocks into x, then reduce x to the 32-bit register. */
__attribute__((target("pclmul,sse4.1")))
static uint32_t fold_tail(__m128i x, const uint8_t *p, size_t n, const struct fold_k *k)
{
	const __m128i k3k4 = _mm_set_epi64x(k->k96, k->k160);
	const __m128i k5 = _mm_set_epi64x(0, k->k64);
	const __m128i poly_mu = _mm_set_epi64x(k->mu, k->poly);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i t;

	while (n >= 16) {
		t = _mm_clmulepi64_si128(x, k3k4, 0x00);
		x = _mm_clmulepi64_si128(x, k3k4, 0x11);
		x = _mm_xor_si128(_mm_xor_si128(x, t), _mm_loadu_si128((const __m128i *)p));
		p += 16;
		n -= 16;
	}
	/* 128 -> 64 bits (appending 32 zero bits): low half times K(96). */
	t = _mm_clmulepi64_si128(k3k4, x, 0x01);
	x = _mm_xor_si128(_mm_srli_si128(x, 8), t);
	/* 64 -> 32 bits. */
	t = _mm_srli_si128(x, 4);
	x = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), k5, 0x00);
	x = _mm_xor_si128(x, t);
	/* Barrett reduction to the 32-bit register. */
	t = x;
	x = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), poly_mu, 0x10);
	x = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), poly_mu, 0x00);
	x = _mm_xor_si128(x, t);
	return (uint32_t)_mm_extract_epi32(x, 1);
}

/* 16 <= n < 64, a multiple of 16: one 128-bit lane (the ICRC's masked headers are 48 to 68 bytes). */
__attribute__((target("pclmul,sse4.1")))
static uint32_t fold16(uint32_t reg, const uint8_t *p, size_t n, const struct fold_k *k)
{
	__m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)reg));

	return fold_tail(x, p + 16, n - 16, k);
}

/* n >= 64, a multiple of 16: four 128-bit lanes. */
__attribute__((target("pclmul,sse4.1")))
static uint32_t fold128(uint32_t reg, const uint8_t *p, size_t n, const struct fold_k *k)
{
	const __m128i k1k2 = _mm_set_epi64x(k->k480, k->k544);
	const __m128i k3k4 = _mm_set_epi64x(k->k96, k->k160);
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
	return fold_tail(x0, p, n, k);
}

/* n >= 256, a multiple of 16: four 512-bit registers (VPCLMULQDQ). */
__attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1")))
static uint32_t fold512(uint32_t reg, const uint8_t *p, size_t n, const struct fold_k *k)
{
	const __m512i k2048 = _mm512_broadcast_i32x4(_mm_set_epi64x(k->k2016, k->k2080));
	const __m512i k512 = _mm512_broadcast_i32x4(_mm_set_epi64x(k->k480, k->k544));
	/* lanes 0..2 of the last register fold by 384, 256, 128 bits */
	const __m512i klanes = _mm512_set_epi64(0, 0, k->k96, k->k160, k->k224, k->k288,
						k->k352, k->k416);
	__m512i z0, z1, z2, z3, t;
	__m128i x;

	z0 = _mm512_xor_si512(_mm512_loadu_si512(p),
			      _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)reg)));
	z1 = _mm512_loadu_si512(p + 64);
	z2 = _mm512_loadu_si512(p + 128);
	z3 = _mm512_loadu_si512(p + 192);
	p += 256;
	n -= 256;
#define FOLD(z, kk, next) \
	_mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, kk, 0x00), \
				  _mm512_clmulepi64_epi128(z, kk, 0x11), next, 0x96)
	while (n >= 256) {
		z0 = FOLD(z0, k2048, _mm512_loadu_si512(p));
		z1 = FOLD(z1, k2048, _mm512_loadu_si512(p + 64));
		z2 = FOLD(z2, k2048, _mm512_loadu_si512(p + 128));
		z3 = FOLD(z3, k2048, _mm512_loadu_si512(p + 192));
		p += 256;
		n -= 256;
	}
	z0 = FOLD(z0, k512, z1);
	z0 = FOLD(z0, k512, z2);
	z0 = FOLD(z0, k512, z3);
	while (n >= 64) {
		z0 = FOLD(z0, k512, _mm512_loadu_si512(p));
		p += 64;
		n -= 64;
	}
#undef FOLD
	/* Four 128-bit lanes into one. */
	t = _mm512_xor_si512(_mm512_clmulepi64_epi128(z0, klanes, 0x00),
			     _mm512_clmulepi64_epi128(z0, klanes, 0x11));
	x = _mm_xor_si128(_mm_xor_si128(_mm512_extracti32x4_epi32(t, 0),
					_mm512_extracti32x4_epi32(t, 1)),
			  _mm_xor_si128(_mm512_extracti32x4_epi32(t, 2),
					_mm512_extracti32x4_epi32(z0, 3)));
	return fold_tail(x, p, n, k);
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

static bool have_avx512_clmul, have_sse42;

/* Fold what can be folded; fewer than 16 bytes and the last n % 16 bytes
 * go the short way. */
static uint32_t by_folding(uint32_t reg, const uint8_t *p, size_t n, const struct fold_k *k,
			   uint32_t (*short_way)(uint32_t, const uint8_t *, size_t))
{
	size_t body;

	if (n < 16)
		return short_way(reg, p, n);
	body = n & ~(size_t)15;
	if (body < 64)
		reg = fold16(reg, p, body, k);
	else
		reg = body >= 256 && have_avx512_clmul ? fold512(reg, p, body, k) : fold128(reg, p, body, k);
	return n > body ? short_way(reg, p + body, n - body) : reg;
}

static uint32_t crc32_clmul(uint32_t reg, const uint8_t *p, size_t n)
{
	return by_folding(reg, p, n, &K_CRC32, crc32_sw);
}

static uint32_t crc32c_clmul(uint32_t reg, const uint8_t *p, size_t n)
{
	return by_folding(reg, p, n, &K_CRC32C, have_sse42 ? crc32c_sse42 : crc32c_sw);
}
#endif

typedef uint32_t (*crc_fn)(uint32_t reg, const uint8_t *p, size_t n);

static crc_fn crc32_impl = crc32_sw, crc32c_impl = crc32c_sw;
static const char *impl_name = "tables";

/*
 * Once per process, whichever thread comes first (ulb-lint --jobs decodes in
 * several): pthread_once, whose ordering ThreadSanitizer sees (glib's
 * g_once_init_leave() stores inside an uninstrumented library), behind a
 * flag read on every call.
 */
static atomic_bool ready;

static void init_tables(void)
{
	build(tab32, 0xEDB88320u);
	build(tab32c, 0x82F63B78u);
#ifdef RR_CRC_X86
	__builtin_cpu_init();
	have_sse42 = __builtin_cpu_supports("sse4.2");
	if (have_sse42)
		crc32c_impl = crc32c_sse42;
	if (__builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
		crc32_impl = crc32_clmul;
		crc32c_impl = crc32c_clmul;
		have_avx512_clmul = __builtin_cpu_supports("avx512f") &&
				    __builtin_cpu_supports("vpclmulqdq");
		impl_name = have_avx512_clmul ? "vpclmulqdq" : "pclmul";
	} else if (have_sse42) {
		impl_name = "sse4.2";
	}
#endif
	atomic_store_explicit(&ready, true, memory_order_release);
}

static inline void init_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	if (!atomic_load_explicit(&ready, memory_order_acquire))
		pthread_once(&once, init_tables);
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

/* The 128-bit folding alone (for the tests on AVX-512 machines). */
static uint32_t only_128(uint32_t reg, const uint8_t *p, size_t n, bool c)
{
	init_once();
#ifdef RR_CRC_X86
	if (crc32_impl == crc32_clmul && n >= 16) {
		size_t body = n & ~(size_t)15;

		reg = (body < 64 ? fold16 : fold128)(reg, p, body, c ? &K_CRC32C : &K_CRC32);
		p += body;
		n -= body;
	}
#endif
	return c ? crc32c_sw(reg, p, n) : crc32_sw(reg, p, n);
}

uint32_t rr_crc32_update_128(uint32_t reg, const uint8_t *p, size_t n)
{
	return only_128(reg, p, n, false);
}

uint32_t rr_crc32c_update_128(uint32_t reg, const uint8_t *p, size_t n)
{
	return only_128(reg, p, n, true);
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
