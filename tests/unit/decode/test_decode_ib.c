// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoder tests: link types, RoCEv1/v2, native IB, ERF, IB opcodes,
 * CM MADs, ICRC, truncation and malformed IB-side frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pcap/pcap.h>

#include "builder.h"

static uint8_t frame[PK_MAX];
static const uint8_t PAYLOAD[] = "rpc-over-rdma payload, 31 bytes";   /* 32 with NUL */

/*
 * A RoCEv2 SEND_ONLY built outside this code base: its ICRC (0x4d87c128)
 * was computed with Python's zlib.crc32 over 8 bytes of 0xFF and the
 * masked IPv4 (TOS, TTL, checksum), UDP (checksum) and BTH (resv8a)
 * headers, following Linux rxe_icrc.c.
 */
static const uint8_t ROCEV2_INDEPENDENT[] = {
	0x02,0x00,0x00,0x00,0x00,0x02,0x02,0x00,0x00,0x00,0x00,0x01,0x08,0x00,0x45,0x02,0x00,0x3c,
	0x12,0x34,0x40,0x00,0x40,0x11,0xa5,0x27,0xc0,0xa8,0x01,0x01,0xc0,0xa8,0x01,0x02,0xc0,0x00,
	0x12,0xb7,0x00,0x28,0x00,0x00,0x04,0x30,0xff,0xff,0x00,0x00,0x00,0x11,0x80,0x12,0x34,0x56,
	0x68,0x65,0x6c,0x6c,0x6f,0x2c,0x20,0x72,0x78,0x65,0x21,0x21,0x21,0x00,0x00,0x00,0x28,0xc1,
	0x87,0x4d,
};

static struct pk *send_only(uint8_t pad_to_4)
{
	struct pk *t = pk_new();
	uint8_t pad = pad_to_4 ? (uint8_t)((4 - (sizeof(PAYLOAD) - 1) % 4) % 4) : 0;

	ib_bth(t, 0x04, pad, 0x000123, 0x00ABCD);
	ib_payload(t, PAYLOAD, sizeof(PAYLOAD) - 1 + (pad_to_4 ? 0 : 1), pad);
	return t;
}

static void test_rocev2_independent_icrc(void **state)
{
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	uint8_t bad[sizeof(ROCEV2_INDEPENDENT)];

	(void)state;
	tdec_feed(t, ROCEV2_INDEPENDENT, sizeof(ROCEV2_INDEPENDENT), sizeof(ROCEV2_INDEPENDENT));
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->ev[0].kind, RR_EV_SEND);
	assert_int_equal(t->c->ev[0].frag, RR_FRAG_ONLY);
	assert_int_equal(t->c->ev[0].psn, 0x123456);
	assert_int_equal(t->c->ev[0].flow.dst_qp, 0x11);
	assert_int_equal(t->c->ev[0].flow.transport, RR_TRANSPORT_ROCEV2);
	assert_int_equal(t->c->ev[0].caplen, 13);       /* 3 pad bytes and ICRC excluded */
	assert_memory_equal(t->c->ev[0].data, "hello, rxe!!!", 13);
	assert_int_equal(t->c->ev[0].frame, 1);
	/*
	 * One payload bit flipped, after a frame whose ICRC matched (the tool
	 * computes them): CAP-ICRC, and no event: a receiver drops the packet,
	 * and its bytes are not what was sent.
	 */
	memcpy(bad, ROCEV2_INDEPENDENT, sizeof(bad));
	bad[60] ^= 0x01;
	tdec_feed(t, bad, sizeof(bad), sizeof(bad));
	assert_int_equal(col_count(t->c, CAP_ICRC), 1);
	assert_non_null(strstr(t->c->text[0], "RoCEv2 frame 2: ICRC 0x4d87c128 != computed"));
	assert_non_null(strstr(t->c->text[0], "not used as evidence"));
	assert_int_equal(t->c->n, 1);
	assert_int_equal(rr_frame_decoder_stats(t->d)->icrc_bad, 1);
	tdec_free(t);
	/*
	 * The same frame first in a capture: no ICRC has matched yet (some
	 * tools write none), so it is told and its event still comes.
	 */
	t = tdec_new(DLT_EN10MB, NULL);
	tdec_feed(t, bad, sizeof(bad), sizeof(bad));
	assert_int_equal(col_count(t->c, CAP_ICRC), 1);
	assert_null(strstr(t->c->text[0], "not used as evidence"));
	assert_int_equal(t->c->n, 1);
	assert_memory_equal(t->c->ev[0].data, "hello,!rxe!!!", 13);
	tdec_free(t);
}

static void test_rocev2_masked_fields(void **state)
{
	struct pk *ibt = send_only(1);
	struct l2opt o = { .ttl = 3, .tos = 0xB8, .ipcsum = 0x1111, .udpcsum = 0x2222 };
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	size_t n;

	(void)state;
	ibt->b[4] = 0x5A;               /* resv8a: not covered */
	n = wrap_rocev2(frame, 4, ibt, &o);
	tdec_feed(t, frame, n, n);
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->ev[0].flow.src.family, RR_ADDR_IPV4);
	assert_memory_equal(t->c->ev[0].flow.src.bytes, "\x0a\x00\x00\x01", 4);
	assert_memory_equal(t->c->ev[0].flow.dst.bytes, "\x0a\x00\x00\x02", 4);
	assert_int_equal(t->c->ev[0].wirelen, sizeof(PAYLOAD) - 1);
	/* A covered field changed after the ICRC was computed: caught. */
	frame[14 + 12] ^= 0x01;          /* IPv4 source address */
	tdec_feed(t, frame, n, n);
	assert_int_equal(col_count(t->c, CAP_ICRC), 1);
	free(ibt);
	tdec_free(t);
}

static void test_rocev2_ipv6_vlan_qinq(void **state)
{
	struct pk *ibt = send_only(0);
	struct l2opt o = { .flow = 0xABCDE, .hop = 7, .tos = 0x60, .udpcsum = 0x1234 };
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	size_t n;

	(void)state;
	for (int tags = 0; tags <= 2; tags++) {
		o.vlan_tags = tags;
		n = wrap_rocev2(frame, 6, ibt, &o);
		tdec_feed(t, frame, n, n);
	}
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(t->c->ev[i].flow.src.family, RR_ADDR_IPV6);
		assert_int_equal(t->c->ev[i].flow.src.bytes[15], 1);
		assert_int_equal(t->c->ev[i].caplen, sizeof(PAYLOAD));
	}
	free(ibt);
	tdec_free(t);
}

static void test_link_types(void **state)
{
	struct pk *ibt = send_only(1);
	size_t n = wrap_rocev2(frame, 4, ibt, NULL);
	uint8_t sll[PK_MAX];
	struct tdec *t;

	(void)state;
	/* SLL: 16-byte header ending in the ethertype. */
	memset(sll, 0, 16);
	sll[1] = 4;             /* outgoing */
	sll[14] = 0x08;
	memcpy(sll + 16, frame + 14, n - 14);
	t = tdec_new(DLT_LINUX_SLL, NULL);
	tdec_feed(t, sll, n + 2, n + 2);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->nd, 0);
	tdec_free(t);
	/* SLL2: 20 bytes, protocol first. */
	memset(sll, 0, 20);
	sll[0] = 0x08;
	memcpy(sll + 20, frame + 14, n - 14);
	t = tdec_new(DLT_LINUX_SLL2, NULL);
	tdec_feed(t, sll, n + 6, n + 6);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->nd, 0);
	tdec_free(t);
	/* Raw IP: DLT_RAW guesses the version, DLT_IPV4 is told. */
	t = tdec_new(DLT_RAW, NULL);
	tdec_feed(t, frame + 14, n - 14, n - 14);
	assert_int_equal(t->c->n, 1);
	tdec_free(t);
	t = tdec_new(DLT_IPV4, NULL);
	tdec_feed(t, frame + 14, n - 14, n - 14);
	assert_int_equal(t->c->n, 1);
	tdec_free(t);
	n = wrap_rocev2(frame, 6, ibt, NULL);
	t = tdec_new(DLT_IPV6, NULL);
	tdec_feed(t, frame + 14, n - 14, n - 14);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->nd, 0);
	tdec_free(t);
	/* Unknown link type. */
	assert_null(rr_frame_decoder_new(DLT_IEEE802_11, NULL, NULL, NULL, NULL));
	assert_false(rr_frame_decoder_supports(DLT_IEEE802_11));
	assert_true(rr_frame_decoder_supports(DLT_ERF));
	free(ibt);
}

static void test_rocev1(void **state)
{
	struct pk *ibt = send_only(1);
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	size_t n = wrap_rocev1(frame, ibt);

	(void)state;
	tdec_feed(t, frame, n, n);
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->ev[0].flow.transport, RR_TRANSPORT_ROCEV1);
	assert_int_equal(t->c->ev[0].flow.src.family, RR_ADDR_IPV6);
	assert_int_equal(t->c->ev[0].flow.src.bytes[0], 0xfe);
	assert_int_equal(t->c->ev[0].flow.dst.bytes[15], 2);
	frame[n - 10] ^= 0x40;           /* payload byte */
	tdec_feed(t, frame, n, n);
	assert_int_equal(col_count(t->c, CAP_ICRC), 1);
	assert_non_null(strstr(t->c->text[0], "RoCEv1 frame 2"));
	free(ibt);
	tdec_free(t);
}

static void test_native_ib_and_erf(void **state)
{
	struct pk *ibt = send_only(1);
	struct tdec *t = tdec_new(DLT_INFINIBAND, NULL);
	uint8_t erf[PK_MAX];
	size_t n;

	(void)state;
	for (int grh = 0; grh <= 1; grh++) {
		n = wrap_ib(frame, ibt, grh, 0x0011, 0x0022);
		tdec_feed(t, frame, n, n);
	}
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(t->c->ev[i].flow.transport, RR_TRANSPORT_IB);
		assert_int_equal(t->c->ev[i].flow.src.family, RR_ADDR_LID);
		assert_memory_equal(t->c->ev[i].flow.src.bytes, "\x00\x11", 2);
		assert_memory_equal(t->c->ev[i].flow.dst.bytes, "\x00\x22", 2);
		assert_int_equal(t->c->ev[i].caplen, sizeof(PAYLOAD) - 1);
	}
	frame[n - 8] ^= 1;
	tdec_feed(t, frame, n, n);
	assert_int_equal(col_count(t->c, CAP_ICRC), 1);
	tdec_free(t);

	/* ERF: 16-byte header, one extension header, INFINIBAND record. */
	n = wrap_ib(frame, ibt, false, 1, 2);
	memset(erf, 0, 24);
	erf[8] = 21 | 0x80;             /* INFINIBAND, extension follows */
	erf[9] = 0x04;
	erf[10] = (uint8_t)((n + 24) >> 8);
	erf[11] = (uint8_t)(n + 24);
	erf[14] = (uint8_t)(n >> 8);
	erf[15] = (uint8_t)n;
	erf[16] = 0x05;                 /* extension type, no further one */
	memcpy(erf + 24, frame, n);
	t = tdec_new(DLT_ERF, NULL);
	tdec_feed(t, erf, n + 24, n + 24);
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->ev[0].kind, RR_EV_SEND);
	/* INFINIBAND_LINK flow-control packet: 6 bytes, nothing to say. */
	erf[8] = 25;
	erf[11] = 22;
	erf[10] = 0;
	erf[14] = 0;
	erf[15] = 6;
	tdec_feed(t, erf, 22, 22);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->nd, 0);
	/* rlen shorter than the header: malformed. */
	erf[8] = 21;
	erf[11] = 8;
	tdec_feed(t, erf, 40, 40);
	assert_int_equal(col_count(t->c, CAP_MALFORMED), 1);
	/* rlen 20 covers the 16-byte header but not its 8-byte extension. */
	erf[8] = 21 | 0x80;
	erf[11] = 20;
	tdec_feed(t, erf, 40, 40);
	assert_int_equal(col_count(t->c, CAP_MALFORMED), 2);
	assert_non_null(strstr(t->c->text[t->c->nd - 1], "24 header bytes"));
	tdec_free(t);
	free(ibt);
}

static void feed_ibt(struct tdec *t, struct pk *ibt)
{
	size_t n = wrap_rocev2(frame, 4, ibt, NULL);

	tdec_feed(t, frame, n, n);
	ibt->n = 0;
}

static void test_ib_opcodes(void **state)
{
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	struct pk *p = pk_new();
	uint8_t data[256];
	const struct rr_event *e = t->c->ev;

	(void)state;
	memset(data, 0xAB, sizeof(data));
	/* RDMA WRITE FIRST (RETH), MIDDLE, LAST_WITH_IMMEDIATE */
	ib_bth(p, 0x06, 0, 7, 100);
	pk_be64(p, 0x1122334455667788ull);
	pk_be32(p, 0xCAFE0001);
	pk_be32(p, 512);
	ib_payload(p, data, 256, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x07, 0, 7, 101);
	ib_payload(p, data, 128, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x09, 0, 7, 102);
	pk_be32(p, 0xDEADBEEF);
	ib_payload(p, data, 128, 0);
	feed_ibt(t, p);
	/* RDMA WRITE ONLY WITH IMMEDIATE: RETH then ImmDt */
	ib_bth(p, 0x0B, 2, 7, 103);
	pk_be64(p, 0x1000);
	pk_be32(p, 0xCAFE0002);
	pk_be32(p, 2);
	pk_be32(p, 42);
	ib_payload(p, data, 2, 2);
	feed_ibt(t, p);
	/* READ REQUEST; READ RESPONSE FIRST/MIDDLE/LAST (AETH on first/last) */
	ib_bth(p, 0x0C, 0, 9, 200);
	pk_be64(p, 0xABCDEF00ull);
	pk_be32(p, 0xBEEF);
	pk_be32(p, 4096);
	feed_ibt(t, p);
	ib_bth(p, 0x0D, 0, 8, 200);
	pk_be32(p, 0x00000005);
	ib_payload(p, data, 64, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x0E, 0, 8, 201);
	ib_payload(p, data, 64, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x0F, 0, 8, 202);
	pk_be32(p, 0x00000006);
	ib_payload(p, data, 64, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x10, 0, 8, 203);
	pk_be32(p, 0x00000007);
	ib_payload(p, data, 4, 0);
	feed_ibt(t, p);
	/* ACK; SEND_LAST_WITH_INVALIDATE; SEND_ONLY_WITH_INVALIDATE; SEND_FIRST */
	ib_bth(p, 0x11, 0, 8, 300);
	pk_be32(p, 0x60000010);          /* RNR NAK syndrome, MSN 16 */
	feed_ibt(t, p);
	ib_bth(p, 0x00, 0, 7, 400);
	ib_payload(p, data, 64, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x16, 0, 7, 401);
	pk_be32(p, 0x0BADF00D);
	ib_payload(p, data, 8, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x17, 0, 7, 402);
	pk_be32(p, 0x0BADF00E);
	ib_payload(p, data, 8, 0);
	feed_ibt(t, p);
	/* UC RDMA WRITE ONLY (0x2A); RC atomic (no event); UD to QP 5 (no event) */
	ib_bth(p, 0x2A, 0, 7, 500);
	pk_be64(p, 0x2000);
	pk_be32(p, 0xCAFE0003);
	pk_be32(p, 4);
	ib_payload(p, data, 4, 0);
	feed_ibt(t, p);
	ib_bth(p, 0x14, 0, 7, 501);
	pk_fill(p, 0, 28);
	feed_ibt(t, p);
	ib_bth(p, 0x64, 0, 5, 502);
	pk_fill(p, 0, 8);
	feed_ibt(t, p);

	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 14);
	assert_int_equal(e[0].kind, RR_EV_WRITE);
	assert_int_equal(e[0].frag, RR_FRAG_FIRST);
	assert_true(e[0].has_reth);
	assert_true(e[0].va == 0x1122334455667788ull);
	assert_int_equal(e[0].rkey, 0xCAFE0001);
	assert_int_equal(e[0].dma_len, 512);
	assert_int_equal(e[0].caplen, 256);
	assert_int_equal(e[1].frag, RR_FRAG_MIDDLE);
	assert_false(e[1].has_reth);
	assert_int_equal(e[2].frag, RR_FRAG_LAST);
	assert_true(e[2].has_imm);
	assert_int_equal(e[2].imm, 0xDEADBEEF);
	assert_int_equal(e[3].frag, RR_FRAG_ONLY);
	assert_int_equal(e[3].imm, 42);
	assert_int_equal(e[3].rkey, 0xCAFE0002);
	assert_int_equal(e[3].caplen, 2);           /* PadCnt 2 removed */
	assert_int_equal(e[4].kind, RR_EV_READ_REQ);
	assert_int_equal(e[4].rkey, 0xBEEF);
	assert_int_equal(e[4].dma_len, 4096);
	assert_int_equal(e[4].caplen, 0);
	assert_int_equal(e[5].kind, RR_EV_READ_RESP);
	assert_int_equal(e[5].frag, RR_FRAG_FIRST);
	assert_int_equal(e[5].aeth, 5);
	assert_int_equal(e[6].frag, RR_FRAG_MIDDLE);
	assert_int_equal(e[7].frag, RR_FRAG_LAST);
	assert_int_equal(e[7].aeth, 6);
	assert_int_equal(e[8].frag, RR_FRAG_ONLY);
	assert_int_equal(e[9].kind, RR_EV_ACK);
	assert_int_equal(e[9].aeth, 0x60000010);
	assert_int_equal(e[10].kind, RR_EV_SEND);
	assert_int_equal(e[10].frag, RR_FRAG_FIRST);
	assert_int_equal(e[11].kind, RR_EV_SEND_INV);
	assert_int_equal(e[11].frag, RR_FRAG_LAST);
	assert_int_equal(e[11].inv_rkey, 0x0BADF00D);
	assert_int_equal(e[12].frag, RR_FRAG_ONLY);
	assert_int_equal(e[12].inv_rkey, 0x0BADF00E);
	assert_int_equal(e[13].kind, RR_EV_WRITE);
	assert_int_equal(e[13].rkey, 0xCAFE0003);
	free(p);
	tdec_free(t);
}

/* A CM MAD to QP1: UD SEND_ONLY with DETH, 24-byte MAD header, 232 bytes. */
static void cm_mad(struct pk *p, uint16_t attr, const uint8_t *cm232)
{
	ib_bth(p, 0x64, 0, 1, 77);
	pk_be32(p, 0x80010000);          /* Q_Key */
	pk_be32(p, 0x00000001);          /* SrcQP 1 */
	pk_u8(p, 1);                     /* base version */
	pk_u8(p, 0x07);                  /* CM */
	pk_u8(p, 2);
	pk_u8(p, 0x03);                  /* Send */
	pk_be32(p, 0);
	pk_be64(p, 0x1234);
	pk_be16(p, attr);
	pk_be16(p, 0);
	pk_be32(p, 0);
	pk_bytes(p, cm232, 232);
}

static void put32(uint8_t *b, size_t at, uint32_t v)
{
	b[at] = (uint8_t)(v >> 24);
	b[at + 1] = (uint8_t)(v >> 16);
	b[at + 2] = (uint8_t)(v >> 8);
	b[at + 3] = (uint8_t)v;
}

static void test_cm_mads(void **state)
{
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	struct pk *p = pk_new();
	uint8_t m[232];
	const struct rr_event *e = t->c->ev;
	static const uint16_t attrs[] = { 0x0010, 0x0013, 0x0014, 0x0012, 0x0015, 0x0016, 0x0011 };

	(void)state;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		for (int k = 0; k < 232; k++)
			m[k] = (uint8_t)k;
		put32(m, 0, 0x1000 + (uint32_t)i);      /* local comm ID */
		put32(m, 4, 0x2000 + (uint32_t)i);      /* remote comm ID */
		if (attrs[i] == 0x0010) {
			put32(m, 8, 0x00000000);
			put32(m, 12, 0x01064E51);       /* service ID: RDMA_PS_TCP, port 20049 */
			put32(m, 32, 0x00ABCDEF & 0xFFFFFF);
			m[32] = 0x00; m[33] = 0x01; m[34] = 0x02; m[35] = 16;   /* QPN 0x102, RR 16 */
			m[39] = 8;                      /* initiator depth */
			m[44] = 0x0A; m[45] = 0x0B; m[46] = 0x0C;   /* start PSN */
		}
		if (attrs[i] == 0x0013) {
			m[12] = 0; m[13] = 0x03; m[14] = 0x04;  /* QPN 0x304 */
			m[20] = 0x01; m[21] = 0x02; m[22] = 0x03;
			m[24] = 4;
			m[25] = 5;
		}
		cm_mad(p, attrs[i], m);
		feed_ibt(t, p);
	}
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(t->c->n, 6);                   /* MRA (0x11) makes none */
	assert_int_equal(e[0].kind, RR_EV_CM);
	assert_int_equal(e[0].cm.kind, RR_CM_REQ);
	assert_int_equal(e[0].cm.local_comm_id, 0x1000);
	assert_true(e[0].cm.service_id == 0x0000000001064E51ull);
	assert_int_equal(e[0].cm.local_qpn, 0x000102);
	assert_int_equal(e[0].cm.responder_resources, 16);
	assert_int_equal(e[0].cm.initiator_depth, 8);
	assert_int_equal(e[0].cm.start_psn, 0x0A0B0C);
	assert_int_equal(e[0].cm.private_len, 92);
	assert_int_equal(e[0].cm.private_data[0], 140);
	assert_int_equal(e[0].cm.private_data[91], 231);
	assert_int_equal(e[0].flow.dst_qp, 1);
	assert_int_equal(e[1].cm.kind, RR_CM_REP);
	assert_int_equal(e[1].cm.remote_comm_id, 0x2001);
	assert_int_equal(e[1].cm.local_qpn, 0x304);
	assert_int_equal(e[1].cm.start_psn, 0x010203);
	assert_int_equal(e[1].cm.responder_resources, 4);
	assert_int_equal(e[1].cm.initiator_depth, 5);
	assert_int_equal(e[1].cm.private_len, 196);
	assert_int_equal(e[1].cm.private_data[0], 36);
	assert_int_equal(e[2].cm.kind, RR_CM_RTU);
	assert_int_equal(e[2].cm.private_len, 224);
	assert_int_equal(e[3].cm.kind, RR_CM_REJ);
	assert_int_equal(e[3].cm.private_len, 148);
	assert_int_equal(e[3].cm.private_data[0], 84);
	assert_int_equal(e[4].cm.kind, RR_CM_DREQ);
	assert_int_equal(e[4].cm.private_len, 220);
	assert_int_equal(e[4].cm.private_data[0], 12);
	assert_int_equal(e[5].cm.kind, RR_CM_DREP);
	assert_int_equal(e[5].cm.local_comm_id, 0x1005);

	/* The REQ again, cut by a snaplen of 128: the fields before the cut
	 * come out, the start PSN (offset 44) and private data do not. */
	put32(m, 0, 0x1000);
	put32(m, 8, 0);
	put32(m, 12, 0x01064E51);
	m[39] = 8;
	cm_mad(p, 0x0010, m);
	{
		size_t n = wrap_rocev2(frame, 4, p, NULL);

		tdec_feed(t, frame, 128, n);
	}
	assert_int_equal(t->c->n, 7);
	assert_int_equal(e[6].cm.kind, RR_CM_REQ);
	assert_int_equal(e[6].cm.local_comm_id, 0x1000);
	assert_true(e[6].cm.service_id == 0x0000000001064E51ull);
	assert_int_equal(e[6].cm.initiator_depth, 8);
	assert_int_equal(e[6].cm.start_psn, 0);
	assert_int_equal(e[6].cm.private_len, 0);
	assert_int_equal(col_count(t->c, CAP_TRUNC), 1);
	assert_int_equal(t->c->nd, 1);
	free(p);
	tdec_free(t);
}

static void test_truncation(void **state)
{
	struct pk *p = pk_new();
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	uint8_t data[1024];
	size_t n;

	(void)state;
	memset(data, 0x5C, sizeof(data));
	ib_bth(p, 0x0A, 0, 7, 1);
	pk_be64(p, 0x1000);
	pk_be32(p, 0x77);
	pk_be32(p, 1024);
	ib_payload(p, data, 1024, 0);
	n = wrap_rocev2(frame, 4, p, NULL);
	/* Snaplen 128: headers whole, payload cut. */
	tdec_feed(t, frame, 128, n);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(t->c->ev[0].wirelen, 1024);
	assert_int_equal(t->c->ev[0].caplen, 128 - 14 - 20 - 8 - 12 - 16);
	assert_int_equal(col_count(t->c, CAP_TRUNC), 1);
	assert_int_equal(col_count(t->c, CAP_ICRC), 0);
	assert_int_equal(t->c->dframe[0], 1);
	/* Cut inside the RETH: CAP-TRUNC, no event. */
	tdec_feed(t, frame, 14 + 20 + 8 + 12 + 8, n);
	assert_int_equal(t->c->n, 1);
	assert_int_equal(col_count(t->c, CAP_TRUNC), 2);
	/* Cut inside the Ethernet header, or inside the BTH on UDP 4791:
	 * nothing says the frame is RDMA, so nothing is said of it. */
	tdec_feed(t, frame, 10, n);
	tdec_feed(t, frame, 14 + 20 + 8 + 6, n);
	assert_int_equal(col_count(t->c, CAP_TRUNC), 2);
	/* RoCEv1 cut inside the GRH: its ethertype says RDMA. */
	n = wrap_rocev1(frame, p);
	tdec_feed(t, frame, 14 + 20, n);
	assert_int_equal(col_count(t->c, CAP_TRUNC), 3);
	assert_int_equal(col_count(t->c, CAP_MALFORMED), 0);
	assert_int_equal(rr_frame_decoder_stats(t->d)->truncated, 3);
	assert_int_equal(rr_frame_decoder_stats(t->d)->frames, 5);
	free(p);
	tdec_free(t);
}

static void test_malformed_ib(void **state)
{
	struct pk *ibt = send_only(1);
	struct tdec *t = tdec_new(DLT_EN10MB, NULL);
	size_t n = wrap_rocev2(frame, 4, ibt, NULL);
	uint8_t f[PK_MAX];

	(void)state;
	/*
	 * Headers that lie, in front of what would be a RoCEv2 BTH: nothing
	 * identifies these frames as RDMA (UDP 4791 alone does not), so they
	 * are not reported (emit.h).
	 */
	memcpy(f, frame, n);
	f[14 + 20 + 4] = 0x0F;                  /* UDP length beyond the IP payload */
	tdec_feed(t, f, n, n);
	memcpy(f, frame, n);
	f[14 + 2] = 0x7F;                       /* IP total length beyond an uncut frame */
	tdec_feed(t, f, n, n);
	memcpy(f, frame, n);
	f[14 + 20 + 8 + 1] |= 0x03;             /* BTH TVer 3: not a BTH */
	tdec_feed(t, f, n, n);
	assert_int_equal(col_count(t->c, CAP_ICRC), 0);
	tdec_feed(t, frame, 20, 20);            /* too short to be IPv4 at all, not cut */
	memset(f, 0, sizeof(f));                /* VLAN tags without end */
	for (int i = 12; i < 12 + 4 * 8; i += 4) {
		f[i] = 0x81;
		f[i + 1] = 0x00;
	}
	tdec_feed(t, f, 60, 60);
	assert_int_equal(t->c->nd, 0);
	assert_int_equal(rr_frame_decoder_stats(t->d)->malformed, 0);
	/* A READ REQUEST whose UDP payload stops inside the RETH: a BTH, so RDMA. */
	ibt->n = 0;
	ib_bth(ibt, 0x0C, 0, 1, 1);
	pk_be32(ibt, 0);
	n = wrap_rocev2(f, 4, ibt, NULL);
	tdec_feed(t, f, n, n);
	assert_int_equal(col_count(t->c, CAP_MALFORMED), 1);
	/* BTH TVer 3 behind the RoCEv1 ethertype: RDMA, and malformed. */
	n = wrap_rocev1(f, ibt);
	f[14 + 40 + 1] |= 0x03;
	tdec_feed(t, f, n, n);
	assert_int_equal(col_count(t->c, CAP_MALFORMED), 2);
	assert_non_null(strstr(t->c->text[t->c->nd - 1], "TVer"));
	/* LRH PktLen beyond the frame. */
	{
		struct tdec *ib = tdec_new(DLT_INFINIBAND, NULL);

		n = wrap_ib(f, ibt, false, 1, 2);
		f[5] = 0xFF;
		tdec_feed(ib, f, n, n);
		assert_int_equal(col_count(ib->c, CAP_MALFORMED), 1);
		assert_int_equal(ib->c->n, 0);
		tdec_free(ib);
	}
	assert_int_equal(t->c->n, 0);
	assert_int_equal(rr_frame_decoder_stats(t->d)->malformed, 2);
	free(ibt);
	tdec_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rocev2_independent_icrc),
		cmocka_unit_test(test_rocev2_masked_fields),
		cmocka_unit_test(test_rocev2_ipv6_vlan_qinq),
		cmocka_unit_test(test_link_types),
		cmocka_unit_test(test_rocev1),
		cmocka_unit_test(test_native_ib_and_erf),
		cmocka_unit_test(test_ib_opcodes),
		cmocka_unit_test(test_cm_mads),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_malformed_ib),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
