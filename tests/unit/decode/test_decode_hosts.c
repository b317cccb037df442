// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr_frame_hosts (decode/hosts.c): the two hosts of a frame for a split
 * capture's first pass, from frames built byte by byte here (the addresses
 * written are the oracle), through every link layer it reads and the VLAN
 * tags it shares with the decoder (l2.h).
 */
#include <pcap/pcap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "rpcrdma/capture.h"

static const uint8_t A4[4] = { 10, 0, 0, 2 }, B4[4] = { 10, 0, 0, 1 };

/* An IPv4 header (no options) from A4 to B4 with protocol proto, then 8 bytes of transport. */
static size_t ipv4(uint8_t *p, uint8_t proto, uint16_t dport)
{
	memset(p, 0, 28);
	p[0] = 0x45;
	p[9] = proto;
	memcpy(p + 12, A4, 4);
	memcpy(p + 16, B4, 4);
	p[22] = (uint8_t)(dport >> 8);
	p[23] = (uint8_t)dport;
	return 28;
}

/* An Ethernet header with tags VLAN tags (802.1Q) in front of ethertype type. */
static size_t eth(uint8_t *p, unsigned tags, uint16_t type)
{
	size_t n = 12;

	memset(p, 0xEE, 12);
	for (unsigned i = 0; i < tags; i++) {
		p[n++] = 0x81;
		p[n++] = 0x00;
		p[n++] = 0x00;
		p[n++] = (uint8_t)(i + 1);
	}
	p[n++] = (uint8_t)(type >> 8);
	p[n++] = (uint8_t)type;
	return n;
}

/* An Ethernet frame with VLAN tags carrying a 40-byte GRH (RoCEv1) or IPv6 header from src to dst. */
static size_t v6_frame(uint8_t *f, unsigned tags, uint16_t type, const uint8_t src[16], const uint8_t dst[16])
{
	size_t n = eth(f, tags, type);

	memset(f + n, 0, 48);
	f[n] = 0x60;
	f[n + 6] = type == 0x8915 ? 0x1B : 58;  /* next header: BTH, or ICMPv6 */
	memcpy(f + n + 8, src, 16);
	memcpy(f + n + 24, dst, 16);
	return n + (type == 0x8915 ? 40 : 48);
}

/* The lower address first, tagged with its family (4 or 6). */
static void assert_pair(const struct rr_frame_hosts *h, uint8_t family, const uint8_t *lo, const uint8_t *hi,
			size_t len)
{
	assert_int_equal(h->addr[0][0], family);
	assert_memory_equal(h->addr[0] + 1, lo, len);
	assert_int_equal(h->addr[1][0], family);
	assert_memory_equal(h->addr[1] + 1, hi, len);
}

static void test_ethernet_and_tags(void **state)
{
	uint8_t f[128];
	struct rr_frame_hosts h;
	size_t n;

	(void)state;
	for (unsigned tags = 0; tags <= 4; tags++) {
		n = eth(f, tags, 0x0800);
		n += ipv4(f + n, 6, 20049);
		memset(&h, 0, sizeof(h));
		assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_FOUND);
		assert_pair(&h, 4, B4, A4, 4);
		/* Cut inside the destination address: no hosts. */
		assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)(n - 10), &h), RR_HOSTS_NONE);
	}
	/* A fifth tag is more than a real network has; a tag cut short is no frame. */
	n = eth(f, 5, 0x0800);
	n += ipv4(f + n, 6, 20049);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_NONE);
	n = eth(f, 2, 0x0800);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, 12 + 6, &h), RR_HOSTS_NONE);
	/* ARP: no hosts of ours. */
	n = eth(f, 0, 0x0806);
	memset(f + n, 1, 28);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n + 28, &h), RR_HOSTS_NONE);
}

static void test_cooked_and_raw(void **state)
{
	uint8_t f[128];
	struct rr_frame_hosts h;

	(void)state;
	/* SLL: the protocol at 14, 16 bytes. */
	memset(f, 0, 16);
	f[14] = 0x08;
	ipv4(f + 16, 17, 4791);
	assert_int_equal(rr_frame_hosts(DLT_LINUX_SLL, f, 16 + 28, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 4, B4, A4, 4);
	/* SLL2: the protocol first, 20 bytes. */
	memset(f, 0, 20);
	f[0] = 0x08;
	ipv4(f + 20, 17, 4791);
	assert_int_equal(rr_frame_hosts(DLT_LINUX_SLL2, f, 20 + 28, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 4, B4, A4, 4);
	/* Raw IP; and UDP to the VXLAN port or GRE carry frames of other hosts. */
	ipv4(f, 17, 4791);
	assert_int_equal(rr_frame_hosts(DLT_RAW, f, 28, &h), RR_HOSTS_FOUND);
	ipv4(f, 17, 4789);
	assert_int_equal(rr_frame_hosts(DLT_RAW, f, 28, &h), RR_HOSTS_TUNNEL);
	ipv4(f, 47, 0);
	assert_int_equal(rr_frame_hosts(DLT_IPV4, f, 28, &h), RR_HOSTS_TUNNEL);
	/* InfiniBand has no network addresses. */
	assert_int_equal(rr_frame_hosts(DLT_INFINIBAND, f, 28, &h), RR_HOSTS_NONE);
}

/* RoCEv1: the GRH's GIDs, as IPv6 addresses, behind a VLAN tag. */
static void test_rocev1_gids(void **state)
{
	uint8_t f[128], g1[16], g2[16];
	struct rr_frame_hosts h;
	size_t n;

	(void)state;
	memset(g1, 0, 16);
	memset(g2, 0, 16);
	g1[0] = g2[0] = 0xfe;
	g1[1] = g2[1] = 0x80;
	g1[15] = 1;
	g2[15] = 2;
	n = v6_frame(f, 1, 0x8915, g2, g1);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 6, g1, g2, 16);
}

/*
 * A frame to a multicast or broadcast group is its sender's alone: both
 * hosts are the sender, so neighbour discovery, MLD or mDNS, which every
 * host sends to the same groups, joins no two hosts.
 */
static void test_group_destinations(void **state)
{
	static const uint8_t groups4[][4] = { { 224, 0, 0, 251 }, { 239, 255, 255, 250 }, { 255, 255, 255, 255 } };
	static const uint8_t unicast4[][4] = { { 223, 255, 255, 255 }, { 240, 0, 0, 1 }, { 10, 0, 0, 255 } };
	uint8_t f[128], src6[16] = { 0xfe, 0x80 }, mld[16] = { 0xff, 0x02 }, uni6[16] = { 0xfe, 0x80 };
	struct rr_frame_hosts h;
	size_t n;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		ipv4(f, 17, 5353);
		memcpy(f + 16, groups4[i], 4);
		assert_int_equal(rr_frame_hosts(DLT_RAW, f, 28, &h), RR_HOSTS_FOUND);
		assert_pair(&h, 4, A4, A4, 4);
		/* The neighbouring unicast addresses are hosts of their own. */
		memcpy(f + 16, unicast4[i], 4);
		assert_int_equal(rr_frame_hosts(DLT_RAW, f, 28, &h), RR_HOSTS_FOUND);
		assert_memory_equal(h.addr[0][0] == 4 && !memcmp(h.addr[0] + 1, A4, 4) ? h.addr[1] + 1 : h.addr[0] + 1,
				    unicast4[i], 4);
	}
	/* IPv6 to ff02::16 (MLD reports), and RoCEv1 to a multicast GID. */
	src6[15] = 0x10;
	mld[15] = 0x16;
	uni6[15] = 0x16;
	n = v6_frame(f, 0, 0x86DD, src6, mld);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 6, src6, src6, 16);
	n = v6_frame(f, 0, 0x86DD, src6, uni6);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 6, src6, uni6, 16);
	n = v6_frame(f, 0, 0x8915, src6, mld);
	assert_int_equal(rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &h), RR_HOSTS_FOUND);
	assert_pair(&h, 6, src6, src6, 16);
}

/*
 * rr_frame_hosts_memo() answers as rr_frame_hosts() does, frame after frame:
 * frames of every kind above, each changed in a few bytes (often where the
 * memo's key lies, often elsewhere) and cut at any length, in a random
 * order from a fixed seed, each for a run of frames (its IPv4 ID changing),
 * so that the memo is hit, missed and overwritten.
 */
static void test_memo_answers_alike(void **state)
{
	uint8_t base[10][128], f[128] = { 0 }, g1[16] = { 0xfe, 0x80 }, g2[16] = { 0xff, 0x02 };
	size_t len[10], n;
	struct rr_hosts_memo memo;
	struct rr_frame_hosts a, b;
	uint32_t seed = 12345, hits = 0, whole = 0;
	enum rr_hosts_kind ka;
	unsigned next;

	(void)state;
	memset(&memo, 0, sizeof(memo));
	g1[15] = 1;
	g2[15] = 0x16;
	len[0] = eth(base[0], 0, 0x0800) + ipv4(base[0] + 14, 17, 4791);      /* RoCEv2 */
	len[1] = eth(base[1], 0, 0x0800) + ipv4(base[1] + 14, 17, 4789);      /* VXLAN */
	len[2] = eth(base[2], 0, 0x0800) + ipv4(base[2] + 14, 47, 0);         /* GRE */
	len[3] = eth(base[3], 0, 0x0800) + ipv4(base[3] + 14, 6, 20049);      /* iWARP */
	len[4] = eth(base[4], 0, 0x0800) + ipv4(base[4] + 14, 6, 20049) + 4;  /* IPv4 options */
	base[4][14] = 0x46;
	len[5] = v6_frame(base[5], 0, 0x86DD, g1, g2);
	base[5][20] = 17;
	base[5][56] = 0x12;
	base[5][57] = 0xB5;                                                     /* UDP to VXLAN */
	len[6] = v6_frame(base[6], 0, 0x86DD, g1, g2);
	base[6][20] = 0;                                                        /* hop-by-hop options */
	len[7] = v6_frame(base[7], 0, 0x8915, g2, g1);
	len[8] = eth(base[8], 1, 0x0800) + ipv4(base[8] + 18, 17, 4791);      /* a VLAN tag */
	len[9] = eth(base[9], 0, 0x0806) + 28;                                 /* ARP */
	unsigned pick = 0;

	n = 0;
	for (unsigned it = 0; it < 50000; it++) {
		unsigned k = (seed = seed * 1103515245u + 12345u) >> 16 & 0xffff;
		unsigned changes = k / 10 % 4;

		if (it && k % 4) {
			f[18]++;            /* the next frame of the run: another IPv4 ID */
			goto ask;
		}
		pick = k % 10;
		memcpy(f, base[pick], sizeof(f));
		n = len[pick];
		for (unsigned c = 0; c < changes; c++) {
			seed = seed * 1103515245u + 12345u;
			f[(seed >> 8) % (n > 60 ? 60 : n)] ^= (uint8_t)(1u << (seed >> 24 & 7));
		}
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16 & 7) == 0)
			n = (seed >> 20) % (n + 1);
ask:
		memset(&a, 0xAA, sizeof(a));
		memset(&b, 0x55, sizeof(b));
		ka = rr_frame_hosts(DLT_EN10MB, f, (uint32_t)n, &a);
		next = memo.next;
		assert_int_equal(rr_frame_hosts_memo(&memo, DLT_EN10MB, f, (uint32_t)n, &b), ka);
		if (ka == RR_HOSTS_FOUND)
			assert_memory_equal(&a, &b, sizeof(a));
		/* Of the frames the memo keeps (untagged IPv4 without options, IPv6 without extensions, RoCEv1), whole: */
		if (n == len[pick] && (pick <= 3 || pick == 5 || pick == 7)) {
			whole++;
			hits += memo.next == next;
		}
	}
	/* Most of those were answered from the memo, or the test proves little. */
	assert_true(hits > whole / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ethernet_and_tags),
		cmocka_unit_test(test_cooked_and_raw),
		cmocka_unit_test(test_rocev1_gids),
		cmocka_unit_test(test_group_destinations),
		cmocka_unit_test(test_memo_answers_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
