// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoder tests: iWARP over TCP - MPA handshake (rev 2, markers, CRC),
 * heuristic detection without it, DDP/RDMAP opcodes, TCP retransmission,
 * overlap, reordering, gaps, truncation, malformed frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pcap/pcap.h>

#include "builder.h"

#define F_FIN 0x01
#define F_SYN 0x02
#define F_RST 0x04
#define F_PSH 0x08
#define F_ACK 0x10

enum { C2S = 0, S2C = 1 };

static uint8_t frame[PK_MAX];

struct conn {
	struct tdec *t;
	uint32_t seq[2];
	uint32_t ip[2];
	uint16_t port[2];
};

static struct conn *conn_new(uint16_t sport, uint16_t dport, const struct rr_decode_opts *o)
{
	struct conn *c = calloc(1, sizeof(*c));

	c->t = tdec_new(DLT_EN10MB, o);
	c->ip[C2S] = 0x0A000001;
	c->ip[S2C] = 0x0A000002;
	c->port[C2S] = sport;
	c->port[S2C] = dport;
	c->seq[C2S] = 0xFFFFFF00u;      /* wraps during the tests */
	c->seq[S2C] = 0x10000000u;
	return c;
}

static void conn_free(struct conn *c)
{
	tdec_free(c->t);
	free(c);
}

static void seg_at(struct conn *c, int dir, uint32_t seq, const uint8_t *d, size_t n,
		   uint8_t flags, size_t snap)
{
	size_t len = tcp_frame(frame, c->ip[dir], c->ip[!dir], c->port[dir], c->port[!dir], seq,
			       c->seq[!dir], flags | F_ACK, d, n);

	tdec_feed(c->t, frame, snap && snap < len ? snap : len, len);
}

static void send_bytes(struct conn *c, int dir, const uint8_t *d, size_t n, size_t segsz)
{
	for (size_t o = 0; o < n; o += segsz) {
		size_t k = n - o < segsz ? n - o : segsz;

		seg_at(c, dir, c->seq[dir], d + o, k, F_PSH, 0);
		c->seq[dir] += (uint32_t)k;
	}
}

static void syn(struct conn *c, int dir)
{
	seg_at(c, dir, c->seq[dir] - 1, NULL, 0, F_SYN, 0);
}

static void mpa_frame(struct pk *p, bool req, uint8_t flags, uint8_t rev, const uint8_t *pd,
		      uint16_t pdlen)
{
	pk_bytes(p, req ? "MPA ID Req Frame" : "MPA ID Rep Frame", 16);
	pk_u8(p, flags);
	pk_u8(p, rev);
	pk_be16(p, pdlen);
	pk_bytes(p, pd, pdlen);
}

/* A Send carrying n bytes of pattern v. */
static void ulpdu_send(struct pk *u, uint8_t op, uint32_t msn, uint32_t mo, bool last,
		       uint32_t inv, uint8_t v, size_t n)
{
	u->n = 0;
	ddp_untagged(u, op, last, inv, 0, msn, mo);
	pk_fill(u, v, n);
}

static void handshake(struct conn *c, uint8_t req_flags, uint8_t rep_flags)
{
	static const uint8_t req_pd[12] = { 0x80, 0x10, 0x40, 0x08, 0xf6, 0xab, 0x0e, 0x18,
					    1, 2, 3, 4 };
	static const uint8_t rep_pd[4] = { 0x00, 0x20, 0x00, 0x04 };
	struct pk *p = pk_new();

	syn(c, C2S);
	syn(c, S2C);
	mpa_frame(p, true, req_flags | 0x10, 2, req_pd, sizeof(req_pd));
	send_bytes(c, C2S, p->b, p->n, 1460);
	p->n = 0;
	mpa_frame(p, false, rep_flags | 0x10, 2, rep_pd, sizeof(rep_pd));
	send_bytes(c, S2C, p->b, p->n, 1460);
	free(p);
}

static void test_mpa_handshake_opcodes(void **state)
{
	struct conn *c = conn_new(40000, 20049, NULL);
	struct mstream *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct pk *u = pk_new();
	const struct rr_event *e = c->t->c->ev;

	(void)state;
	handshake(c, 0, 0);
	ulpdu_send(u, 3, 1, 0, true, 0, 0x11, 100);             /* Send */
	ms_fpdu(a, u->b, u->n);
	u->n = 0;
	ddp_tagged(u, 0, false, 0x100, 0x1000);                 /* Write, 2 segments */
	pk_fill(u, 0x22, 64);
	ms_fpdu(a, u->b, u->n);
	u->n = 0;
	ddp_tagged(u, 0, true, 0x100, 0x1040);
	pk_fill(u, 0x23, 36);
	ms_fpdu(a, u->b, u->n);
	u->n = 0;
	ddp_untagged(u, 1, true, 0, 1, 1, 0);                   /* Read Request */
	pk_be32(u, 0x200);
	pk_be64(u, 0x2000);
	pk_be32(u, 8192);
	pk_be32(u, 0x300);
	pk_be64(u, 0x3000);
	ms_fpdu(a, u->b, u->n);
	ulpdu_send(u, 4, 2, 0, true, 0xABCD, 0x33, 20);         /* Send with Invalidate */
	ms_fpdu(a, u->b, u->n);
	ulpdu_send(u, 5, 3, 0, false, 0, 0x44, 40);             /* Send SE, 2 segments */
	ms_fpdu(a, u->b, u->n);
	ulpdu_send(u, 5, 3, 40, true, 0, 0x45, 40);
	ms_fpdu(a, u->b, u->n);
	send_bytes(c, C2S, a->out.b, a->out.n, 1448);
	u->n = 0;
	ddp_tagged(u, 2, true, 0x300, 0x3000);                  /* Read Response */
	pk_fill(u, 0x55, 200);
	ms_fpdu(b, u->b, u->n);
	u->n = 0;
	ddp_untagged(u, 7, true, 0, 2, 1, 0);                   /* Terminate */
	pk_be32(u, 0x00010203);
	ms_fpdu(b, u->b, u->n);
	send_bytes(c, S2C, b->out.b, b->out.n, 100);
	seg_at(c, C2S, c->seq[C2S], NULL, 0, F_FIN, 0);
	seg_at(c, S2C, c->seq[S2C], NULL, 0, F_RST, 0);
	rr_frame_decoder_finish(c->t->d);

	if (c->t->c->nd)
		col_dump(c->t->c);
	assert_int_equal(c->t->c->nd, 0);
	assert_int_equal(c->t->c->n, 13);
	assert_int_equal(e[0].kind, RR_EV_CM);
	assert_int_equal(e[0].cm.kind, RR_CM_REQ);
	assert_int_equal(e[0].cm.mpa_rev, 2);
	assert_false(e[0].cm.mpa_markers);
	assert_false(e[0].cm.mpa_crc);
	assert_int_equal(e[0].cm.responder_resources, 16);
	assert_int_equal(e[0].cm.initiator_depth, 8);
	assert_int_equal(e[0].cm.private_len, 8);
	assert_memory_equal(e[0].cm.private_data, "\xf6\xab\x0e\x18\x01\x02\x03\x04", 8);
	assert_int_equal(e[0].flow.transport, RR_TRANSPORT_IWARP);
	assert_int_equal(e[0].flow.src.port, 40000);
	assert_int_equal(e[0].flow.dst.port, 20049);
	assert_int_equal(e[1].cm.kind, RR_CM_REP);
	assert_int_equal(e[1].cm.responder_resources, 32);
	assert_int_equal(e[1].flow.src.port, 20049);
	assert_int_equal(e[2].kind, RR_EV_SEND);
	assert_int_equal(e[2].frag, RR_FRAG_ONLY);
	assert_int_equal(e[2].msn, 1);
	assert_true(e[2].has_offset);
	assert_int_equal(e[2].caplen, 100);
	assert_int_equal(e[2].wirelen, 100);
	assert_int_equal(e[2].data[99], 0x11);
	assert_int_equal(e[3].kind, RR_EV_WRITE);
	assert_int_equal(e[3].frag, RR_FRAG_MIDDLE);
	assert_int_equal(e[3].rkey, 0x100);
	assert_true(e[3].offset == 0x1000);
	assert_int_equal(e[4].frag, RR_FRAG_LAST);
	assert_true(e[4].offset == 0x1040);
	assert_int_equal(e[4].caplen, 36);
	assert_int_equal(e[5].kind, RR_EV_READ_REQ);
	assert_int_equal(e[5].sink_stag, 0x200);
	assert_true(e[5].sink_to == 0x2000);
	assert_int_equal(e[5].dma_len, 8192);
	assert_int_equal(e[5].rkey, 0x300);
	assert_true(e[5].va == 0x3000);
	assert_int_equal(e[6].kind, RR_EV_SEND_INV);
	assert_int_equal(e[6].inv_rkey, 0xABCD);
	assert_int_equal(e[7].kind, RR_EV_SEND);
	assert_int_equal(e[7].frag, RR_FRAG_MIDDLE);
	assert_int_equal(e[8].frag, RR_FRAG_LAST);
	assert_true(e[8].offset == 40);
	assert_int_equal(e[9].kind, RR_EV_READ_RESP);
	assert_int_equal(e[9].frag, RR_FRAG_ONLY);
	assert_int_equal(e[9].caplen, 200);
	assert_int_equal(e[10].kind, RR_EV_TERMINATE);
	assert_int_equal(e[11].kind, RR_EV_CM);
	assert_int_equal(e[11].cm.kind, RR_CM_DREQ);
	assert_int_equal(e[11].flow.src.port, 40000);
	assert_int_equal(e[12].cm.kind, RR_CM_RESET);
	free(a);
	free(b);
	free(u);
	conn_free(c);
}

/* CRCs (C bit in the Request only) and markers (M bit both ways). */
static void run_negotiated(uint8_t req_flags, uint8_t rep_flags, bool corrupt)
{
	struct conn *c = conn_new(40001, 20049, NULL);
	struct mstream *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct pk *u = pk_new();
	const struct rr_event *e = c->t->c->ev;

	handshake(c, req_flags, rep_flags);
	a->crc = b->crc = (req_flags | rep_flags) & 0x40;
	a->markers = rep_flags & 0x80;          /* the responder asked the initiator */
	b->markers = req_flags & 0x80;
	for (uint32_t i = 0; i < 6; i++) {
		ulpdu_send(u, 3, i + 1, 0, true, 0, (uint8_t)(0x60 + i), 700 + i);
		if (corrupt && i == 2)
			a->corrupt_next_crc = true;
		ms_fpdu(a, u->b, u->n);
		ms_fpdu(b, u->b, u->n);
	}
	send_bytes(c, C2S, a->out.b, a->out.n, 1000);
	send_bytes(c, S2C, b->out.b, b->out.n, 333);
	rr_frame_decoder_finish(c->t->d);

	if (c->t->c->nd != (corrupt ? 1 : 0))
		col_dump(c->t->c);
	/*
	 * A corrupt FPDU (the client's third) makes no event; the next event of
	 * each direction tells the loss (a reply rests on its call).
	 */
	assert_int_equal(c->t->c->n, corrupt ? 13 : 14);
	assert_int_equal(col_count(c->t->c, CAP_MPA_CRC), corrupt ? 1 : 0);
	assert_int_equal(c->t->c->nd, corrupt ? 1 : 0);
	assert_int_equal(rr_frame_decoder_stats(c->t->d)->mpa_crc_bad, corrupt ? 1 : 0);
	assert_int_equal(e[0].cm.mpa_markers, (req_flags & 0x80) != 0);
	assert_int_equal(e[0].cm.mpa_crc, (req_flags & 0x40) != 0);
	for (int i = 2, n = 0; i < c->t->c->n; i++, n++) {
		uint32_t k = (uint32_t)n % 6;
		uint8_t want[720];

		if (corrupt && n == 2)      /* the dropped one */
			k = (uint32_t)++n % 6;
		assert_int_equal(e[i].kind, RR_EV_SEND);
		assert_int_equal(e[i].msn, k + 1);
		assert_int_equal(e[i].caplen, 700 + k);
		assert_int_equal(e[i].after_loss, corrupt && (n == 3 || n == 6));
		memset(want, 0x60 + (int)k, sizeof(want));
		assert_memory_equal(e[i].data, want, 700 + k);   /* markers removed */
	}
	free(a);
	free(b);
	free(u);
	conn_free(c);
}

static void test_mpa_crc(void **state)
{
	(void)state;
	run_negotiated(0x40, 0x00, false);
	run_negotiated(0x40, 0x00, true);
}

static void test_mpa_markers(void **state)
{
	(void)state;
	run_negotiated(0x80, 0x80, false);
	run_negotiated(0xC0, 0x80, false);
	run_negotiated(0xC0, 0xC0, true);
}

/* No SYN, no MPA frames: the capture starts inside an FPDU. */
static size_t heur_len(int i, bool tail_small)
{
	return tail_small && i >= 5 ? 20 : 300 + 13 * (size_t)i;
}

static void run_heuristic2(bool crc, bool markers, uint16_t port, uint16_t opt_port,
			   int want_events, bool tail_small);

static void run_heuristic(bool crc, bool markers, uint16_t port, uint16_t opt_port,
			  int want_events)
{
	run_heuristic2(crc, markers, port, opt_port, want_events, false);
}

/* tail_small: the last FPDUs are short enough to fit between two marker
 * slots, so they alone also look like a marker-less chain. */
static void run_heuristic2(bool crc, bool markers, uint16_t port, uint16_t opt_port,
			   int want_events, bool tail_small)
{
	struct rr_decode_opts o = { .iwarp_port = opt_port };
	struct conn *c = conn_new(port, 33333, &o);
	struct mstream *a = calloc(1, sizeof(*a));
	struct pk *u = pk_new();
	size_t from = 0;

	a->crc = crc;
	a->markers = markers;
	a->base = 0;
	for (uint32_t i = 0; i < 8; i++) {
		ulpdu_send(u, 3, 100 + i, 0, true, 0, (uint8_t)i, heur_len((int)i, tail_small));
		ms_fpdu(a, u->b, u->n);
		if (i == 0)
			from = a->out.n - 150;          /* start mid-FPDU */
	}
	send_bytes(c, C2S, a->out.b + from, a->out.n - from, 1448);
	rr_frame_decoder_finish(c->t->d);
	if (c->t->c->n != want_events || c->t->c->nd)
		col_dump(c->t->c);
	assert_int_equal(c->t->c->n, want_events);
	assert_int_equal(c->t->c->nd, 0);
	for (int i = 0; i < want_events; i++) {
		assert_int_equal(c->t->c->ev[i].msn, 101 + i);
		assert_int_equal(c->t->c->ev[i].caplen, heur_len(i + 1, tail_small));
		assert_int_equal(c->t->c->ev[i].data[0], i + 1);
	}
	free(a);
	free(u);
	conn_free(c);
}

static void test_heuristic_detection(void **state)
{
	(void)state;
	run_heuristic(false, false, 20049, 0, 7);
	run_heuristic(true, false, 20049, 20049, 7);
	run_heuristic(false, true, 20049, 0, 7);
	run_heuristic(true, true, 4444, 0, 7);
	run_heuristic(false, false, 4444, 20049, 0);   /* not the iWARP port */
	run_heuristic2(true, true, 20049, 0, 7, true);
	run_heuristic2(false, true, 20049, 0, 7, true);
	run_heuristic2(false, false, 20049, 0, 7, true);
}

static void test_heuristic_crc_error(void **state)
{
	struct conn *c = conn_new(20049, 1000, NULL);
	struct mstream *a = calloc(1, sizeof(*a));
	struct pk *u = pk_new();

	(void)state;
	a->crc = true;
	for (uint32_t i = 0; i < 6; i++) {
		ulpdu_send(u, 3, 1 + i, 0, true, 0, 0x70, 400);
		a->corrupt_next_crc = i == 4;
		ms_fpdu(a, u->b, u->n);
	}
	send_bytes(c, C2S, a->out.b, a->out.n, 1448);
	rr_frame_decoder_finish(c->t->d);
	/* CRCs found in use (the first FPDUs' matched): the fifth, whose did not, makes no event. */
	assert_int_equal(c->t->c->n, 5);
	assert_int_equal(c->t->c->ev[4].msn, 6);
	assert_true(c->t->c->ev[4].after_loss);
	assert_int_equal(col_count(c->t->c, CAP_MPA_CRC), 1);
	free(a);
	free(u);
	conn_free(c);
}

/* Six Sends of 500 bytes on a connection whose handshake we saw. */
static struct mstream *six_sends(struct conn *c)
{
	struct mstream *a = calloc(1, sizeof(*a));
	struct pk *u = pk_new();

	handshake(c, 0, 0);
	for (uint32_t i = 0; i < 6; i++) {
		ulpdu_send(u, 3, 1 + i, 0, true, 0, (uint8_t)(0x30 + i), 500);
		ms_fpdu(a, u->b, u->n);
	}
	free(u);
	return a;
}

static void test_tcp_retransmit_overlap_reorder(void **state)
{
	struct conn *c = conn_new(40002, 20049, NULL);
	struct mstream *a = six_sends(c);
	uint32_t s0 = c->seq[C2S];
	uint8_t *b = a->out.b;

	(void)state;
	/* 0-1000, 0-1000 again, 2000-3000 (early), 1000-2000, 1500-2500
	 * (overlaps both), 2500-end (FPDUs are 524 bytes) */
	seg_at(c, C2S, s0, b, 1000, F_PSH, 0);
	seg_at(c, C2S, s0, b, 1000, F_PSH, 0);
	seg_at(c, C2S, s0 + 2000, b + 2000, 1000, F_PSH, 0);
	assert_int_equal(c->t->c->n, 2 + 1);           /* only the first Send yet */
	seg_at(c, C2S, s0 + 1000, b + 1000, 1000, F_PSH, 0);
	seg_at(c, C2S, s0 + 1500, b + 1500, 1000, F_PSH, 0);
	seg_at(c, C2S, s0 + 2500, b + 2500, (size_t)(a->out.n - 2500), F_PSH, 0);
	assert_int_equal(c->t->c->nd, 0);
	assert_int_equal(c->t->c->n, 2 + 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(c->t->c->ev[2 + i].msn, i + 1);
		assert_int_equal(c->t->c->ev[2 + i].data[0], 0x30 + i);
	}
	assert_int_equal(col_count(c->t->c, CAP_DUP), 0);
	free(a);
	conn_free(c);

	/* A retransmission that differs from the first copy: reported, and
	 * the first copy is what the event carries. */
	c = conn_new(40012, 20049, NULL);
	a = six_sends(c);
	s0 = c->seq[C2S];
	b = a->out.b;
	seg_at(c, C2S, s0, b, 700, F_PSH, 0);
	b[650] ^= 0xFF;
	seg_at(c, C2S, s0 + 600, b + 600, 100, F_PSH, 0);
	assert_int_equal(col_count(c->t->c, CAP_DUP), 1);
	b[650] ^= 0xFF;
	seg_at(c, C2S, s0 + 600, b + 600, 100, F_PSH, 0);  /* exact: silent */
	seg_at(c, C2S, s0 + 700, b + 700, (size_t)(a->out.n - 700), F_PSH, 0);
	assert_int_equal(col_count(c->t->c, CAP_DUP), 1);
	assert_int_equal(c->t->c->nd, 1);
	assert_int_equal(c->t->c->n, 8);
	assert_int_equal(c->t->c->ev[3].data[650 - 524 - 20], 0x31);
	free(a);
	conn_free(c);
}

static void test_tcp_gap(void **state)
{
	struct conn *c = conn_new(40003, 20049, NULL);
	struct mstream *a = six_sends(c);
	uint32_t s0 = c->seq[C2S];
	uint8_t *b = a->out.b;
	const struct rr_decode_stats *st = rr_frame_decoder_stats(c->t->d);

	(void)state;
	/* Bytes 1000-1300 never captured; the receiver acknowledges them. */
	seg_at(c, C2S, s0, b, 1000, F_PSH, 0);
	seg_at(c, C2S, s0 + 1300, b + 1300, (size_t)(a->out.n - 1300), F_PSH, 0);
	c->seq[C2S] = s0 + (uint32_t)a->out.n;
	seg_at(c, S2C, c->seq[S2C], NULL, 0, 0, 0);     /* pure ACK past the hole */
	assert_int_equal(col_count(c->t->c, CAP_TCP_GAP), 1);
	assert_int_equal(st->tcp_gaps, 1);
	assert_non_null(strstr(c->t->c->text[0], "300 bytes"));
	/* FPDUs are 524 bytes: Send 2 (524-1048) lost its tail, Send 3 is
	 * found again after the hole; 3-6 decode after resync. */
	rr_frame_decoder_finish(c->t->d);
	{
		int sends = 0, last_msn = 0;

		for (int i = 0; i < c->t->c->n; i++)
			if (c->t->c->ev[i].kind == RR_EV_SEND && c->t->c->ev[i].caplen == 500) {
				sends++;
				last_msn = (int)c->t->c->ev[i].msn;
			}
		assert_int_equal(last_msn, 6);
		assert_true(sends >= 4);
	}
	assert_int_equal(col_count(c->t->c, CAP_MALFORMED), 0);
	free(a);
	conn_free(c);

	/* A hole only noticed at the end of the capture. */
	c = conn_new(40004, 20049, NULL);
	a = six_sends(c);
	s0 = c->seq[C2S];
	seg_at(c, C2S, s0, a->out.b, 1016, F_PSH, 0);
	seg_at(c, C2S, s0 + 2032, a->out.b + 2032, (size_t)(a->out.n - 2032), F_PSH, 0);
	rr_frame_decoder_finish(c->t->d);
	if (c->t->c->ev[c->t->c->n - 1].msn != 6)
		col_dump(c->t->c);
	assert_int_equal(col_count(c->t->c, CAP_TCP_GAP), 1);
	assert_int_equal(c->t->c->ev[c->t->c->n - 1].msn, 6);
	free(a);
	conn_free(c);
}

static void test_iwarp_truncation(void **state)
{
	struct conn *c = conn_new(40005, 20049, NULL);
	struct mstream *a = six_sends(c);
	uint32_t s0 = c->seq[C2S];

	(void)state;
	/* One FPDU per segment, snaplen 120: FPDU headers always captured. */
	for (int i = 0; i < 6; i++)
		seg_at(c, C2S, s0 + 524u * (uint32_t)i, a->out.b + 524 * i, 524, F_PSH, 120);
	c->seq[C2S] = s0 + 3144;
	seg_at(c, S2C, c->seq[S2C], NULL, 0, 0, 0);
	rr_frame_decoder_finish(c->t->d);
	if (c->t->c->n != 8)
		col_dump(c->t->c);
	assert_int_equal(c->t->c->n, 2 + 6);
	for (int i = 2; i < 8; i++) {
		assert_int_equal(c->t->c->ev[i].wirelen, 500);
		assert_int_equal(c->t->c->ev[i].caplen, 120 - 14 - 20 - 20 - 2 - 18);
		assert_int_equal(c->t->c->ev[i].msn, i - 1);
	}
	assert_int_equal(col_count(c->t->c, CAP_TRUNC), 6);
	assert_int_equal(col_count(c->t->c, CAP_TCP_GAP), 0);
	assert_int_equal(col_count(c->t->c, CAP_MALFORMED), 0);
	free(a);
	conn_free(c);
}

/*
 * A TCP download that is not iWARP, every data segment cut at 200 bytes:
 * nothing identifies a frame as RDMA, so no capture condition is told
 * (emit.h), and no frame counts as truncated.
 */
static void test_plain_tcp_truncation(void **state)
{
	struct conn *c = conn_new(41000, 8080, NULL);
	uint8_t body[1448];

	(void)state;
	for (size_t i = 0; i < sizeof(body); i++)
		body[i] = (uint8_t)(i * 7 + 3);
	memcpy(body, "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n", 60);
	syn(c, C2S);
	syn(c, S2C);
	send_bytes(c, C2S, (const uint8_t *)"GET /blob.bin HTTP/1.1\r\n\r\n", 27, 1460);
	for (int i = 0; i < 40; i++) {
		seg_at(c, S2C, c->seq[S2C], body, sizeof(body), F_PSH, 200);
		c->seq[S2C] += sizeof(body);
		seg_at(c, C2S, c->seq[C2S], NULL, 0, 0, 0);
	}
	rr_frame_decoder_finish(c->t->d);
	assert_int_equal(c->t->c->n, 0);
	assert_int_equal(c->t->c->nd, 0);
	assert_int_equal(rr_frame_decoder_stats(c->t->d)->truncated, 0);
	assert_int_equal(rr_frame_decoder_stats(c->t->d)->rdma_frames, 0);
	conn_free(c);
}

static void test_iwarp_malformed(void **state)
{
	struct conn *c = conn_new(40006, 20049, NULL);
	struct mstream *a = calloc(1, sizeof(*a));
	struct pk *u = pk_new();
	uint8_t pd[600] = { 0 };

	(void)state;
	handshake(c, 0, 0);
	ulpdu_send(u, 3, 1, 0, true, 0, 0x10, 64);
	ms_fpdu(a, u->b, u->n);
	ulpdu_send(u, 3, 2, 0, true, 0, 0x11, 64);
	u->b[0] = 0x42;                             /* DDP version 2 */
	ms_fpdu(a, u->b, u->n);
	for (uint32_t i = 3; i < 6; i++) {
		ulpdu_send(u, 3, i, 0, true, 0, 0x12, 64);
		ms_fpdu(a, u->b, u->n);
	}
	send_bytes(c, C2S, a->out.b, a->out.n, 1448);
	rr_frame_decoder_finish(c->t->d);
	assert_int_equal(col_count(c->t->c, CAP_MALFORMED), 1);
	assert_non_null(strstr(c->t->c->text[0], "DDP version"));
	assert_int_equal(c->t->c->ev[c->t->c->n - 1].msn, 5);
	assert_int_equal(c->t->c->n, 2 + 4);
	conn_free(c);

	/* MPA Request with 600 bytes of private data. */
	c = conn_new(40007, 20049, NULL);
	u->n = 0;
	mpa_frame(u, true, 0, 1, pd, sizeof(pd));
	syn(c, C2S);
	send_bytes(c, C2S, u->b, u->n, 1448);
	assert_int_equal(col_count(c->t->c, CAP_MALFORMED), 1);
	assert_non_null(strstr(c->t->c->text[0], "private data length 600"));
	assert_int_equal(c->t->c->n, 0);
	free(a);
	free(u);
	conn_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mpa_handshake_opcodes),
		cmocka_unit_test(test_mpa_crc),
		cmocka_unit_test(test_mpa_markers),
		cmocka_unit_test(test_heuristic_detection),
		cmocka_unit_test(test_heuristic_crc_error),
		cmocka_unit_test(test_tcp_retransmit_overlap_reorder),
		cmocka_unit_test(test_tcp_gap),
		cmocka_unit_test(test_iwarp_truncation),
		cmocka_unit_test(test_plain_tcp_truncation),
		cmocka_unit_test(test_iwarp_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
