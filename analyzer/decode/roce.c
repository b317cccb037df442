// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce.c - the three ways an IB transport packet reaches us, and its
 * invariant CRC.
 *
 *  - RoCEv2: IP / UDP (dst port 4791) / BTH ... / ICRC.  The ICRC is the
 *    last 4 bytes of the UDP payload.
 *  - RoCEv1: Ethernet type 0x8915 / GRH / BTH ... / ICRC.  The GRH PayLen
 *    counts the bytes after the GRH, ICRC included.
 *  - Native IB (DLT_INFINIBAND, ERF InfiniBand records): LRH / [GRH] /
 *    BTH ... / ICRC / VCRC.  LRH PktLen counts 4-byte words from the LRH
 *    through the ICRC; the VCRC (2 bytes) follows.
 *
 * ICRC (IBTA 7.8.1, RoCEv2 Annex A17): CRC-32 over the packet from the
 * first header through the last payload/pad byte, with the fields that
 * routers and switches may change replaced by ones: the whole LRH (for
 * RoCE there is none, and 8 bytes of ones stand in for it), IPv4 TOS, TTL
 * and header checksum, IPv6/GRH traffic class, flow label and hop limit,
 * the UDP checksum, and BTH resv8a.  The CRC goes on the wire least
 * significant byte first (Linux rxe stores the crc32_le result as is).
 *
 * For native IB we also accept the reading "LRH with only VL masked":
 * no native IB capture in sample-pcaps/ settles which one senders use.
 */
#include <string.h>

#include "crc.h"
#include "emit.h"
#include "ib.h"

#define BTH_LEN   12
#define GRH_LEN   40
#define LRH_LEN   8
#define ICRC_LEN  4
#define GRH_NXT_IBA 0x1B
#define LNH_IBA_LOCAL  2
#define LNH_IBA_GLOBAL 3
#define HDRBUF 128          /* 8 + 60 (IPv4 with options) + 8 + 12 fits */

struct icrc_hdr {
	uint8_t b[HDRBUF];
	size_t n;
};

static bool hdr_take(struct icrc_hdr *h, struct rr_cursor *cur, size_t n)
{
	if (n > sizeof(h->b) - h->n)
		return false;
	if (!rr_copy_bytes(cur, h->b + h->n, n))
		return false;
	h->n += n;
	return true;
}

static void hdr_ones(struct icrc_hdr *h, size_t n)
{
	memset(h->b + h->n, 0xFF, n);
	h->n += n;
}

/* IPv6 header and IB GRH share a layout: version | TClass | FlowLabel,
 * PayLen, NxtHdr, HopLmt. */
static void mask_grh(uint8_t *g)
{
	g[0] |= 0x0F;
	g[1] = g[2] = g[3] = 0xFF;
	g[7] = 0xFF;
}

/*
 * Finish an ICRC: the masked headers in h, then the rest of the covered
 * bytes from cur (a copy), then compare with the 4 bytes after them.
 * Returns true when they match; *got / *want for the sentence.
 */
static bool icrc_finish(const struct icrc_hdr *h, struct rr_cursor cur, size_t rest,
			uint32_t *got, uint32_t *want)
{
	uint32_t reg = rr_crc32_update(0xFFFFFFFFu, h->b, h->n);

	*got = *want = 0;      /* a cut frame: nothing to compare, and nothing undefined to print */
	if (!rr_crc32_cursor(&reg, &cur, rest) || !rr_get_le32(&cur, got))
		return false;
	*want = ~reg;
	return *got == *want;
}

/*
 * A frame's ICRC did not match.  Told once the BTH is accepted (ib_transport):
 * on UDP 4791 the port alone says nothing.  Whether the frame is damaged
 * (true: its events are dropped) depends on whether the capture tool
 * computes ICRCs at all: some write none, or zeros, and then every frame
 * would be.
 */
static bool icrc_bad(struct rr_frame_ctx *fx, const char *what, uint32_t got, uint32_t want)
{
	dec_frame_cond(fx, CAP_ICRC, "%s frame %" PRIu64 ": ICRC 0x%08x != computed 0x%08x%s",
		       what, fx->frame, got, want,
		       fx->d->icrc_good ? "; a receiver drops it: not used as evidence" : "");
	return fx->d->icrc_good > 0;
}

static void icrc_good(struct rr_frame_ctx *fx)
{
	fx->d->icrc_good++;
}

void roce_v2(struct rr_frame_ctx *fx, const struct ip_view *ip, struct rr_cursor *udp_hdr,
	     struct rr_cursor *payload, uint32_t wire)
{
	struct ib_view ib = { .what = "RoCEv2" };
	size_t have = rr_cursor_left(payload);
	size_t n = have;

	if (wire < BTH_LEN + ICRC_LEN) {
		dec_malformed(fx, "RoCEv2 frame %" PRIu64 ": UDP payload of %u bytes cannot hold BTH and ICRC",
			      fx->frame, wire);
		return;
	}
	if (have == wire && !fx->d->opts.no_icrc_check) {
		struct icrc_hdr h = { .n = 0 };
		struct rr_cursor iph = ip->hdr, udp = *udp_hdr, pl = *payload;
		size_t iplen = rr_cursor_left(&iph), bth_at;
		uint32_t got, want;

		hdr_ones(&h, LRH_LEN);
		if (hdr_take(&h, &iph, iplen) && hdr_take(&h, &udp, 8) &&
		    hdr_take(&h, &pl, BTH_LEN)) {
			uint8_t *p = h.b + LRH_LEN;

			if (ip->version == 4) {
				p[1] = 0xFF;             /* TOS (DSCP + ECN) */
				p[8] = 0xFF;             /* TTL */
				p[10] = p[11] = 0xFF;    /* header checksum */
			} else {
				mask_grh(p);
			}
			p += iplen;
			p[6] = p[7] = 0xFF;              /* UDP checksum */
			bth_at = LRH_LEN + iplen + 8;
			h.b[bth_at + 4] = 0xFF;          /* BTH resv8a */
			if (!icrc_finish(&h, pl, wire - BTH_LEN - ICRC_LEN, &got, &want))
				ib.damaged = icrc_bad(fx, "RoCEv2", got, want);
			else
				icrc_good(fx);
		}
	}

	ib.flow.transport = RR_TRANSPORT_ROCEV2;
	ib.flow.src.family = ib.flow.dst.family = ip->version == 4 ? RR_ADDR_IPV4 : RR_ADDR_IPV6;
	memcpy(ib.flow.src.bytes, ip->src, ip->version == 4 ? 4 : 16);
	memcpy(ib.flow.dst.bytes, ip->dst, ip->version == 4 ? 4 : 16);
	ib.wire = wire - ICRC_LEN;
	if (n > ib.wire)
		n = ib.wire;
	rr_cursor_sub(payload, n, &ib.bth);
	ib_transport(fx, &ib);
}

/* GRH in front of a BTH: RoCEv1 and native IB with LNH = IBA global. */
static bool grh_read(struct rr_frame_ctx *fx, struct rr_cursor *cur, const char *what,
		     uint16_t *paylen, uint8_t *sgid, uint8_t *dgid)
{
	uint8_t ver, nxt;

	if (!rr_peek_u8(cur, 0, &ver) || !rr_skip(cur, 4) || !rr_get_be16(cur, paylen) ||
	    !rr_get_u8(cur, &nxt) || !rr_skip(cur, 1) || !rr_copy_bytes(cur, sgid, 16) ||
	    !rr_copy_bytes(cur, dgid, 16)) {
		dec_short(fx, "%s frame %" PRIu64 ": GRH", what, fx->frame);
		return false;
	}
	if ((ver >> 4) != 6 || nxt != GRH_NXT_IBA) {
		dec_malformed(fx, "%s frame %" PRIu64 ": GRH IPVer %u / NxtHdr 0x%02x is not an IBA transport header",
			      what, fx->frame, ver >> 4, nxt);
		return false;
	}
	return true;
}

void roce_v1(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct ib_view ib = { .what = "RoCEv1" };
	struct rr_cursor start = *cur;
	uint16_t paylen;
	size_t n;

	if (!grh_read(fx, cur, "RoCEv1", &paylen, ib.flow.src.bytes, ib.flow.dst.bytes))
		return;
	if (paylen < BTH_LEN + ICRC_LEN || (uint32_t)paylen + GRH_LEN > wire) {
		dec_malformed(fx, "RoCEv1 frame %" PRIu64 ": GRH PayLen %u does not fit the frame (%u bytes)",
			      fx->frame, paylen, wire);
		return;
	}
	if (rr_cursor_left(cur) >= paylen && !fx->d->opts.no_icrc_check) {
		struct icrc_hdr h = { .n = 0 };
		struct rr_cursor c = start;
		uint32_t got, want;

		hdr_ones(&h, LRH_LEN);
		hdr_take(&h, &c, GRH_LEN + BTH_LEN);
		mask_grh(h.b + LRH_LEN);
		h.b[LRH_LEN + GRH_LEN + 4] = 0xFF;
		if (!icrc_finish(&h, c, paylen - BTH_LEN - ICRC_LEN, &got, &want))
			ib.damaged = icrc_bad(fx, "RoCEv1", got, want);
		else
			icrc_good(fx);
	}
	ib.flow.transport = RR_TRANSPORT_ROCEV1;
	ib.flow.src.family = ib.flow.dst.family = RR_ADDR_IPV6;
	ib.wire = paylen - ICRC_LEN;
	n = rr_cursor_left(cur);
	if (n > ib.wire)
		n = ib.wire;
	rr_cursor_sub(cur, n, &ib.bth);
	ib_transport(fx, &ib);
}

void ib_native(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct ib_view ib = { .what = "InfiniBand" };
	struct rr_cursor start = *cur;
	uint8_t b0, b1;
	uint16_t dlid, w, slid;
	uint32_t pktlen, hdrs = LRH_LEN;
	bool grh;
	size_t n;

	dec_rdma(fx);           /* an InfiniBand link carries IB packets only */
	if (!rr_get_u8(cur, &b0) || !rr_get_u8(cur, &b1) || !rr_get_be16(cur, &dlid) ||
	    !rr_get_be16(cur, &w) || !rr_get_be16(cur, &slid)) {
		dec_short(fx, "InfiniBand frame %" PRIu64 ": LRH", fx->frame);
		return;
	}
	if ((b1 & 3) != LNH_IBA_LOCAL && (b1 & 3) != LNH_IBA_GLOBAL)
		return;     /* raw / IPv6 non-IBA transport: not ours */
	grh = (b1 & 3) == LNH_IBA_GLOBAL;
	if (grh)
		hdrs += GRH_LEN;
	pktlen = (uint32_t)(w & 0x7FF) * 4;
	if (pktlen < hdrs + BTH_LEN + ICRC_LEN || pktlen > wire) {
		dec_malformed(fx, "InfiniBand frame %" PRIu64 ": LRH PktLen %u bytes does not fit the frame (%u bytes)",
			      fx->frame, pktlen, wire);
		return;
	}
	if (grh) {
		uint16_t paylen;

		if (!grh_read(fx, cur, "InfiniBand", &paylen, ib.flow.src.bytes, ib.flow.dst.bytes))
			return;
		memset(ib.flow.src.bytes, 0, 16);   /* IB flows are named by LIDs */
		memset(ib.flow.dst.bytes, 0, 16);
	}
	if (rr_cursor_left(&start) >= pktlen && !fx->d->opts.no_icrc_check) {
		struct icrc_hdr h = { .n = 0 };
		struct rr_cursor c = start;
		uint32_t got, want, got2, want2;

		hdr_ones(&h, LRH_LEN);
		rr_skip(&c, LRH_LEN);
		hdr_take(&h, &c, hdrs - LRH_LEN + BTH_LEN);
		if (grh)
			mask_grh(h.b + LRH_LEN);
		h.b[hdrs + 4] = 0xFF;
		if (!icrc_finish(&h, c, pktlen - hdrs - BTH_LEN - ICRC_LEN, &got, &want)) {
			/* Second reading: the LRH itself covered, VL masked. */
			struct rr_cursor l = start;

			rr_copy_bytes(&l, h.b, LRH_LEN);
			h.b[0] |= 0xF0;
			if (!icrc_finish(&h, c, pktlen - hdrs - BTH_LEN - ICRC_LEN, &got2, &want2))
				ib.damaged = icrc_bad(fx, "InfiniBand", got, want);
			else
				icrc_good(fx);
		} else {
			icrc_good(fx);
		}
	}
	ib.flow.transport = RR_TRANSPORT_IB;
	ib.flow.src.family = ib.flow.dst.family = RR_ADDR_LID;
	ib.flow.src.bytes[0] = (uint8_t)(slid >> 8);
	ib.flow.src.bytes[1] = (uint8_t)slid;
	ib.flow.dst.bytes[0] = (uint8_t)(dlid >> 8);
	ib.flow.dst.bytes[1] = (uint8_t)dlid;
	ib.wire = pktlen - hdrs - ICRC_LEN;
	n = rr_cursor_left(cur);
	if (n > ib.wire)
		n = ib.wire;
	rr_cursor_sub(cur, n, &ib.bth);
	ib_transport(fx, &ib);
}
