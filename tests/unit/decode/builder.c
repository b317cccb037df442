// SPDX-License-Identifier: GPL-2.0-or-later
/* Frame builders and the event/diagnostic collector for decoder tests. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"

void pk_u8(struct pk *p, uint8_t v)
{
	if (p->n < PK_MAX)
		p->b[p->n++] = v;
}

void pk_be16(struct pk *p, uint16_t v)
{
	pk_u8(p, (uint8_t)(v >> 8));
	pk_u8(p, (uint8_t)v);
}

void pk_be24(struct pk *p, uint32_t v)
{
	pk_u8(p, (uint8_t)(v >> 16));
	pk_be16(p, (uint16_t)v);
}

void pk_be32(struct pk *p, uint32_t v)
{
	pk_be16(p, (uint16_t)(v >> 16));
	pk_be16(p, (uint16_t)v);
}

void pk_be64(struct pk *p, uint64_t v)
{
	pk_be32(p, (uint32_t)(v >> 32));
	pk_be32(p, (uint32_t)v);
}

void pk_le32(struct pk *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		pk_u8(p, (uint8_t)(v >> (8 * i)));
}

void pk_bytes(struct pk *p, const void *d, size_t n)
{
	const uint8_t *s = d;

	for (size_t i = 0; i < n; i++)
		pk_u8(p, s[i]);
}

void pk_fill(struct pk *p, uint8_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pk_u8(p, v);
}

struct pk *pk_new(void)
{
	return calloc(1, sizeof(struct pk));
}

/* Bit at a time: slow and obviously right. */
static uint32_t ref_crc(uint32_t poly, const uint8_t *p, size_t n)
{
	uint32_t r = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		r ^= p[i];
		for (int k = 0; k < 8; k++)
			r = (r >> 1) ^ (poly & (0u - (r & 1)));
	}
	return ~r;
}

uint32_t ref_crc32(const uint8_t *p, size_t n)
{
	return ref_crc(0xEDB88320u, p, n);
}

uint32_t ref_crc32c(const uint8_t *p, size_t n)
{
	return ref_crc(0x82F63B78u, p, n);
}

void ib_bth(struct pk *p, uint8_t opcode, uint8_t pad, uint32_t qp, uint32_t psn)
{
	pk_u8(p, opcode);
	pk_u8(p, (uint8_t)(pad << 4));      /* SE 0, M 0, TVer 0 */
	pk_be16(p, 0xFFFF);                 /* default P_Key */
	pk_u8(p, 0);                        /* resv8a */
	pk_be24(p, qp);
	pk_u8(p, 0x80);                     /* AckReq */
	pk_be24(p, psn);
}

void ib_payload(struct pk *p, const uint8_t *d, size_t n, uint8_t pad)
{
	pk_bytes(p, d, n);
	pk_fill(p, 0, pad);
}

static void eth(struct pk *p, uint16_t type, int tags)
{
	static const uint8_t dst[6] = { 2, 0, 0, 0, 0, 2 }, src[6] = { 2, 0, 0, 0, 0, 1 };

	pk_bytes(p, dst, 6);
	pk_bytes(p, src, 6);
	if (tags == 2) {
		pk_be16(p, 0x88A8);
		pk_be16(p, 100);
	}
	if (tags >= 1) {
		pk_be16(p, 0x8100);
		pk_be16(p, 7);
	}
	pk_be16(p, type);
}

static uint16_t ip_csum(const uint8_t *h, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

static void ipv4(struct pk *p, uint8_t proto, size_t plen, uint32_t src, uint32_t dst,
		 const struct l2opt *o)
{
	size_t at = p->n;

	pk_u8(p, 0x45);
	pk_u8(p, o ? o->tos : 0);
	pk_be16(p, (uint16_t)(20 + plen));
	pk_be16(p, 0x1234);
	pk_be16(p, 0x4000);
	pk_u8(p, o && o->ttl ? o->ttl : 64);
	pk_u8(p, proto);
	pk_be16(p, 0);
	pk_be32(p, src);
	pk_be32(p, dst);
	{
		uint16_t c = o && o->ipcsum ? o->ipcsum : ip_csum(p->b + at, 20);

		p->b[at + 10] = (uint8_t)(c >> 8);
		p->b[at + 11] = (uint8_t)c;
	}
}

static const uint8_t gid_a[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
static const uint8_t gid_b[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 };

static void ipv6(struct pk *p, uint8_t nh, size_t plen, const struct l2opt *o)
{
	pk_be32(p, 6u << 28 | (uint32_t)(o ? o->tos : 0) << 20 | (o ? o->flow & 0xFFFFF : 0));
	pk_be16(p, (uint16_t)plen);
	pk_u8(p, nh);
	pk_u8(p, o && o->hop ? o->hop : 64);
	pk_bytes(p, gid_a, 16);
	pk_bytes(p, gid_b, 16);
}

/* ICRC the way the decoder's documentation says, built independently. */
static void icrc(struct pk *p, size_t l3, size_t l3len, int kind, size_t bth, bool bad)
{
	static uint8_t tmp[PK_MAX + 16];
	size_t n = 0;

	memset(tmp, 0xFF, 8);
	n = 8;
	if (kind == 0) {        /* native IB: the LRH (8 bytes at l3 - 8) stays masked */
	}
	memcpy(tmp + n, p->b + l3, p->n - l3);
	if (kind == 4) {
		tmp[n + 1] = 0xFF;
		tmp[n + 8] = 0xFF;
		tmp[n + 10] = tmp[n + 11] = 0xFF;
		tmp[n + 20 + 6] = tmp[n + 20 + 7] = 0xFF;
	} else if (kind == 6 || kind == 1) {   /* IPv6 + UDP, or GRH */
		tmp[n] |= 0x0F;
		tmp[n + 1] = tmp[n + 2] = tmp[n + 3] = 0xFF;
		tmp[n + 7] = 0xFF;
		if (kind == 6)
			tmp[n + 40 + 6] = tmp[n + 40 + 7] = 0xFF;
	}
	(void)l3len;
	tmp[n + (bth - l3) + 4] = 0xFF;
	n += p->n - l3;
	pk_le32(p, ref_crc32(tmp, n) ^ (bad ? 1u : 0u));
}

size_t wrap_rocev2(uint8_t *out, int ipver, const struct pk *ibt, const struct l2opt *o)
{
	struct pk *p = pk_new();
	static const struct l2opt none;
	size_t l3, bth, n;

	if (!o)
		o = &none;
	eth(p, ipver == 4 ? 0x0800 : 0x86DD, o->vlan_tags);
	l3 = p->n;
	if (ipver == 4)
		ipv4(p, 17, 8 + ibt->n + 4, 0x0A000001, 0x0A000002, o);
	else
		ipv6(p, 17, 8 + ibt->n + 4, o);
	pk_be16(p, 0xC000);
	pk_be16(p, 4791);
	pk_be16(p, (uint16_t)(8 + ibt->n + 4));
	pk_be16(p, o->udpcsum);
	bth = p->n;
	pk_bytes(p, ibt->b, ibt->n);
	icrc(p, l3, 0, ipver, bth, o->bad_icrc);
	memcpy(out, p->b, p->n);
	n = p->n;
	free(p);
	return n;
}

size_t wrap_rocev1(uint8_t *out, const struct pk *ibt)
{
	struct pk *p = pk_new();
	struct l2opt o = { .flow = 0x12345, .hop = 1, .tos = 0x22 };
	size_t l3, bth, n;

	eth(p, 0x8915, 0);
	l3 = p->n;
	ipv6(p, 0x1B, ibt->n + 4, &o);
	bth = p->n;
	pk_bytes(p, ibt->b, ibt->n);
	icrc(p, l3, 0, 1, bth, false);
	memcpy(out, p->b, p->n);
	n = p->n;
	free(p);
	return n;
}

size_t wrap_ib(uint8_t *out, const struct pk *ibt, bool grh, uint16_t slid, uint16_t dlid)
{
	struct pk *p = pk_new();
	struct l2opt o = { .flow = 0x54321, .hop = 3 };
	size_t total = 8 + (grh ? 40 : 0) + ibt->n + 4, l3, bth, n;

	pk_u8(p, 0x30);                         /* VL 3, LVer 0 */
	pk_u8(p, grh ? 0x03 : 0x02);            /* SL 0, LNH */
	pk_be16(p, dlid);
	pk_be16(p, (uint16_t)(total / 4));
	pk_be16(p, slid);
	l3 = p->n;
	if (grh)
		ipv6(p, 0x1B, ibt->n + 4, &o);
	bth = p->n;
	pk_bytes(p, ibt->b, ibt->n);
	icrc(p, l3, 0, grh ? 1 : 0, bth, false);
	pk_be16(p, 0xBEEF);                     /* VCRC: not checked */
	memcpy(out, p->b, p->n);
	n = p->n;
	free(p);
	return n;
}

size_t tcp_frame(uint8_t *out, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
		 uint32_t seq, uint32_t ack, uint8_t flags, const uint8_t *pl, size_t len)
{
	struct pk *p = pk_new();
	size_t n;

	eth(p, 0x0800, 0);
	ipv4(p, 6, 20 + len, src, dst, NULL);
	pk_be16(p, sport);
	pk_be16(p, dport);
	pk_be32(p, seq);
	pk_be32(p, ack);
	pk_u8(p, 0x50);
	pk_u8(p, flags);
	pk_be16(p, 65535);
	pk_be32(p, 0);
	pk_bytes(p, pl, len);
	memcpy(out, p->b, p->n);
	n = p->n;
	free(p);
	return n;
}

void ddp_untagged(struct pk *p, uint8_t op, bool last, uint32_t inv, uint32_t qn, uint32_t msn,
		  uint32_t mo)
{
	pk_u8(p, (uint8_t)((last ? 0x40 : 0) | 0x01));
	pk_u8(p, (uint8_t)(0x40 | op));
	pk_be32(p, inv);
	pk_be32(p, qn);
	pk_be32(p, msn);
	pk_be32(p, mo);
}

void ddp_tagged(struct pk *p, uint8_t op, bool last, uint32_t stag, uint64_t to)
{
	pk_u8(p, (uint8_t)(0x80 | (last ? 0x40 : 0) | 0x01));
	pk_u8(p, (uint8_t)(0x40 | op));
	pk_be32(p, stag);
	pk_be64(p, to);
}

static bool at_marker(const struct mstream *ms)
{
	return ms->markers && ms->out.n >= ms->base && (ms->out.n - ms->base) % 512 == 0;
}

static void ms_byte(struct mstream *ms, uint8_t v, size_t hdr)
{
	if (at_marker(ms)) {
		size_t m = ms->out.n;

		pk_be16(&ms->out, 0);
		pk_be16(&ms->out, (uint16_t)(m - hdr));
	}
	pk_u8(&ms->out, v);
}

void ms_fpdu(struct mstream *ms, const uint8_t *ulpdu, size_t n)
{
	size_t start = ms->out.n, hdr = start, pad = (4 - ((n + 2) & 3)) & 3;
	uint32_t crc = 0;

	if (at_marker(ms)) {                    /* leading marker, FPDUPTR 0 */
		pk_be32(&ms->out, 0);
		hdr = start + 4;
	}
	ms_byte(ms, (uint8_t)(n >> 8), hdr);
	ms_byte(ms, (uint8_t)n, hdr);
	for (size_t i = 0; i < n; i++)
		ms_byte(ms, ulpdu[i], hdr);
	for (size_t i = 0; i < pad; i++)
		ms_byte(ms, 0, hdr);
	if (at_marker(ms)) {                    /* a marker just before the CRC */
		size_t m = ms->out.n;

		pk_be16(&ms->out, 0);
		pk_be16(&ms->out, (uint16_t)(m - hdr));
	}
	if (ms->crc)
		crc = ref_crc32c(ms->out.b + start, ms->out.n - start);
	if (ms->corrupt_next_crc) {
		crc ^= 0x00010000;
		ms->corrupt_next_crc = false;
	}
	pk_le32(&ms->out, crc);
}

void col_ev(void *ctx, const struct rr_event *ev)
{
	struct col *c = ctx;

	if (c->n >= COL_MAX)
		return;
	c->ev[c->n] = *ev;
	c->data[c->n] = ev->caplen ? g_memdup2(ev->data, ev->caplen) : NULL;
	c->pd[c->n] = ev->cm.private_len ? g_memdup2(ev->cm.private_data, ev->cm.private_len) : NULL;
	c->ev[c->n].data = c->data[c->n];
	c->ev[c->n].cm.private_data = c->pd[c->n];
	c->n++;
}

void col_diag(void *ctx, const struct rr_diag *d)
{
	struct col *c = ctx;

	if (c->nd >= COL_MAX)
		return;
	c->diag[c->nd] = d->id;
	c->dframe[c->nd] = d->frame;
	snprintf(c->text[c->nd], sizeof(c->text[0]), "%s", d->text);
	c->nd++;
	if (getenv("DECODE_TEST_VERBOSE"))
		fprintf(stderr, "diag %d frame %llu: %s\n", d->id, (unsigned long long)d->frame,
			d->text);
}

int col_count(const struct col *c, int id)
{
	int k = 0;

	for (int i = 0; i < c->nd; i++)
		k += c->diag[i] == id;
	return k;
}

void col_reset(struct col *c)
{
	for (int i = 0; i < c->n; i++) {
		g_free(c->data[i]);
		g_free(c->pd[i]);
	}
	memset(c, 0, sizeof(*c));
}

void col_dump(const struct col *c)
{
	for (int i = 0; i < c->n; i++)
		fprintf(stderr, "ev %d: kind %d frag %d frame %llu cap %u wire %u\n", i,
			c->ev[i].kind, c->ev[i].frag, (unsigned long long)c->ev[i].frame,
			c->ev[i].caplen, c->ev[i].wirelen);
	for (int i = 0; i < c->nd; i++)
		fprintf(stderr, "diag %d frame %llu: %s\n", c->diag[i],
			(unsigned long long)c->dframe[i], c->text[i]);
}

struct tdec *tdec_new(int dlt, const struct rr_decode_opts *opts)
{
	struct tdec *t = calloc(1, sizeof(*t));
	struct rr_diag_sink sink;

	t->c = calloc(1, sizeof(struct col));
	sink.fn = col_diag;
	sink.ctx = t->c;
	t->d = rr_frame_decoder_new(dlt, opts, col_ev, t->c, &sink);
	return t;
}

void tdec_feed(struct tdec *t, const uint8_t *pkt, size_t caplen, size_t wirelen)
{
	t->frame++;
	rr_frame_decode(t->d, t->frame, t->frame * 1000, pkt, (uint32_t)caplen,
			(uint32_t)wirelen);
}

void tdec_free(struct tdec *t)
{
	for (int i = 0; i < t->c->n; i++) {
		g_free(t->c->data[i]);
		g_free(t->c->pd[i]);
	}
	rr_frame_decoder_free(t->d);
	free(t->c);
	free(t);
}
