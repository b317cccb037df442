// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_net.h"

#include "pg_buf.h"
#include "pg_crc.h"

#include <string.h>

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_8021Q 0x8100
#define ETH_P_ROCEV1 0x8915
#define ROCEV2_PORT 4791

void pg_net_init(pg_net *n, const pg_link_info *link, uint64_t seed)
{
	pg_rng r = pg_rng_derive(seed, 0x4e4554, 0);
	memset(n, 0, sizeof(*n));
	n->link = link;
	for (int s = 0; s < 2; s++) {
		pg_host *h = &n->host[s];
		const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x5a, 0x10, (uint8_t)(s + 1) };
		memcpy(h->mac, mac, 6);
		h->ip4[0] = 10;
		h->ip4[1] = 1;
		h->ip4[2] = 0;
		h->ip4[3] = (uint8_t)(s + 1);
		h->ip6[0] = 0xfd;
		h->ip6[1] = 0x00;
		h->ip6[3] = 0x01;
		h->ip6[15] = (uint8_t)(s + 1);
		h->lid = (uint16_t)(s == PG_CLIENT ? 3 : 7);
		h->ifindex = 2;
		/* Mellanox OUI, as a ConnectX port GUID would have */
		h->guid = 0x0002c90300000000ull | (pg_rng_u32(&r) & 0xffffff00u) | (uint64_t)(s + 1);
		if (link->l3 == PG_L3_IPV4) {
			/* RoCEv2 over IPv4: IPv4-mapped GID */
			h->gid[10] = h->gid[11] = 0xff;
			memcpy(h->gid + 12, h->ip4, 4);
		} else if (link->l3 == PG_L3_IPV6) {
			memcpy(h->gid, h->ip6, 16);
		} else {
			/* link-local GID: fe80::GUID (RoCEv1: EUI-64 from the MAC) */
			uint64_t g = h->guid;
			if (!link->lrh)
				g = (uint64_t)(mac[0] ^ 2) << 56 | (uint64_t)mac[1] << 48 |
				    (uint64_t)mac[2] << 40 | 0xfffe000000ull |
				    (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];
			h->gid[0] = 0xfe;
			h->gid[1] = 0x80;
			for (int i = 0; i < 8; i++)
				h->gid[8 + i] = (uint8_t)(g >> (56 - 8 * i));
			if (!link->lrh)
				h->guid = g;
		}
		n->ip_id[s] = (uint16_t)pg_rng_u32(&r);
	}
	n->flow6 = pg_rng_u32(&r) & 0xfffff;
}

static void l2_header(pg_net *n, int from, uint16_t ethertype, GByteArray *out)
{
	const pg_host *src = &n->host[from], *dst = &n->host[!from];
	switch (n->link->l2) {
	case PG_L2_ETH:
	case PG_L2_VLAN:
		pb_bytes(out, dst->mac, 6);
		pb_bytes(out, src->mac, 6);
		if (n->link->l2 == PG_L2_VLAN) {
			pb_be16(out, ETH_P_8021Q);
			pb_be16(out, 3u << 13 | 100); /* PCP 3 (RoCE traffic class), VID 100 */
		}
		pb_be16(out, ethertype);
		break;
	case PG_L2_SLL:
		/* captured on the client: its frames are outgoing (4) */
		pb_be16(out, from == PG_CLIENT ? 4 : 0);
		pb_be16(out, 1); /* ARPHRD_ETHER */
		pb_be16(out, 6);
		pb_bytes(out, src->mac, 6);
		pb_zero(out, 2);
		pb_be16(out, ethertype);
		break;
	case PG_L2_SLL2:
		pb_be16(out, ethertype);
		pb_zero(out, 2);
		pb_be32(out, n->host[PG_CLIENT].ifindex);
		pb_be16(out, 1);
		pb_u8(out, from == PG_CLIENT ? 4 : 0);
		pb_u8(out, 6);
		pb_bytes(out, src->mac, 6);
		pb_zero(out, 2);
		break;
	default:
		break;
	}
}

/* IPv4 or IPv6 header for a payload of plen bytes; returns its offset. */
static size_t l3_header(pg_net *n, int from, uint8_t proto, size_t plen, GByteArray *out)
{
	const pg_host *src = &n->host[from], *dst = &n->host[!from];
	size_t at = out->len;
	if (n->link->l3 == PG_L3_IPV4) {
		pb_u8(out, 0x45);
		pb_u8(out, 0);
		pb_be16(out, (uint16_t)(20 + plen));
		pb_be16(out, n->ip_id[from]++);
		pb_be16(out, 0x4000); /* DF */
		pb_u8(out, 64);
		pb_u8(out, proto);
		pb_be16(out, 0);
		pb_bytes(out, src->ip4, 4);
		pb_bytes(out, dst->ip4, 4);
		pb_put_be16(out, at + 10, pg_csum_fold(pg_csum_add(0, out->data + at, 20)));
	} else {
		pb_be32(out, 0x60000000u | n->flow6);
		pb_be16(out, (uint16_t)plen);
		pb_u8(out, proto);
		pb_u8(out, 64);
		pb_bytes(out, src->ip6, 16);
		pb_bytes(out, dst->ip6, 16);
	}
	return at;
}

/* Transport checksum over the IP pseudo-header (RFC 768/793/8200). */
static uint16_t l4_csum(const pg_net *n, const uint8_t *ip, uint8_t proto, const uint8_t *l4,
			size_t len)
{
	uint32_t sum = 0;
	uint8_t ph[8] = { 0 };
	if (n->link->l3 == PG_L3_IPV4) {
		sum = pg_csum_add(sum, ip + 12, 8);
		ph[1] = proto;
		ph[2] = (uint8_t)(len >> 8);
		ph[3] = (uint8_t)len;
		sum = pg_csum_add(sum, ph, 4);
	} else {
		sum = pg_csum_add(sum, ip + 8, 32);
		ph[0] = (uint8_t)(len >> 24);
		ph[1] = (uint8_t)(len >> 16);
		ph[2] = (uint8_t)(len >> 8);
		ph[3] = (uint8_t)len;
		ph[7] = proto;
		sum = pg_csum_add(sum, ph, 8);
	}
	sum = pg_csum_add(sum, l4, len);
	return pg_csum_fold(sum);
}

static size_t l2_len(const pg_link_info *l)
{
	switch (l->l2) {
	case PG_L2_ETH: return 14;
	case PG_L2_VLAN: return 18;
	case PG_L2_SLL: return 16;
	case PG_L2_SLL2: return 20;
	default: return 0;
	}
}

size_t pg_net_ib_hdrlen(const pg_link_info *l)
{
	size_t h = l2_len(l);
	if (l->lrh)
		h += 8;
	if (l->grh)
		h += 40;
	if (l->l3 == PG_L3_IPV4)
		h += 20 + 8;
	else if (l->l3 == PG_L3_IPV6)
		h += 40 + 8;
	return h;
}

/*
 * IBTA Vol. 1 7.8.1 and Annex A17: the ICRC covers the packet from the
 * LRH on with the variant fields set to all ones. A local packet keeps its
 * LRH with only VL masked; with a GRH (or the IP header that replaces it in
 * RoCEv2) the whole LRH is variant and is replaced by 8 bytes of ones. In
 * the GRH/IPv6 header traffic class, flow label and hop limit are variant,
 * in IPv4 TOS, TTL and the header checksum, in UDP the checksum, in the BTH
 * the reserved byte after the P_Key. The CRC value goes on the wire least
 * significant byte first.
 */
uint32_t pg_net_icrc(const pg_link_info *l, const uint8_t *frame, size_t len)
{
	size_t at = l2_len(l), bth = pg_net_ib_hdrlen(l);
	uint8_t hdr[8 + 48 + 12];
	size_t h = 0;
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint32_t crc;

	if (l->lrh && !l->grh) {
		memcpy(hdr, frame + at, 8);
		hdr[0] |= 0xf0; /* VL */
		h = 8;
		at += 8;
	} else {
		memcpy(hdr, ones, 8);
		h = 8;
		if (l->lrh)
			at += 8;
	}
	if (l->grh || l->l3 == PG_L3_IPV6) {
		size_t n = l->grh ? 40 : 48;
		memcpy(hdr + h, frame + at, n);
		hdr[h] |= 0x0f;
		hdr[h + 1] = hdr[h + 2] = hdr[h + 3] = 0xff;
		hdr[h + 7] = 0xff;
		if (!l->grh)
			hdr[h + 46] = hdr[h + 47] = 0xff; /* UDP checksum */
		h += n;
	} else if (l->l3 == PG_L3_IPV4) {
		memcpy(hdr + h, frame + at, 28);
		hdr[h + 1] = 0xff;                      /* TOS */
		hdr[h + 8] = 0xff;                      /* TTL */
		hdr[h + 10] = hdr[h + 11] = 0xff;       /* header checksum */
		hdr[h + 26] = hdr[h + 27] = 0xff;       /* UDP checksum */
		h += 28;
	}
	memcpy(hdr + h, frame + bth, 12);
	hdr[h + 4] = 0xff; /* BTH resv8a (FECN/BECN in RoCE) */
	h += 12;
	crc = pg_crc32(0, hdr, h);
	return pg_crc32(crc, frame + bth + 12, len - bth - 12);
}

void pg_net_ib_frame(pg_net *n, int from, const uint8_t *ibt, size_t len, uint16_t sport,
		     uint32_t corrupt, GByteArray *out)
{
	const pg_link_info *l = n->link;
	const pg_host *src = &n->host[from], *dst = &n->host[!from];
	size_t ip_at = 0, udp_at = 0, lrh_at = 0;
	size_t ib_len = len + 4; /* transport + ICRC */
	uint32_t icrc;

	g_byte_array_set_size(out, 0);
	if (l->l3 == PG_L3_IPV4)
		l2_header(n, from, ETH_P_IP, out);
	else if (l->l3 == PG_L3_IPV6)
		l2_header(n, from, ETH_P_IPV6, out);
	else if (!l->lrh)
		l2_header(n, from, ETH_P_ROCEV1, out);
	if (l->lrh) {
		size_t words = (8 + (l->grh ? 40 : 0) + ib_len) / 4;
		lrh_at = out->len;
		pb_u8(out, 0x00);                        /* VL 0, LVer 0 */
		pb_u8(out, (uint8_t)(0x00 | (l->grh ? 3 : 2))); /* SL 0, LNH */
		pb_be16(out, dst->lid);
		pb_be16(out, (uint16_t)(words & 0x7ff));
		pb_be16(out, src->lid);
	}
	if (l->grh) {
		pb_be32(out, 0x60000000u);
		pb_be16(out, (uint16_t)ib_len);
		pb_u8(out, 0x1b); /* next header: BTH */
		pb_u8(out, l->lrh ? 255 : 1);
		pb_bytes(out, src->gid, 16);
		pb_bytes(out, dst->gid, 16);
	}
	if (l->l3 != PG_L3_NONE) {
		ip_at = l3_header(n, from, 17, 8 + ib_len, out);
		udp_at = out->len;
		pb_be16(out, sport);
		pb_be16(out, ROCEV2_PORT);
		pb_be16(out, (uint16_t)(8 + ib_len));
		pb_be16(out, 0);
	}
	pb_bytes(out, ibt, len);
	icrc = pg_net_icrc(l, out->data, out->len) ^ corrupt;
	pb_le32(out, icrc);
	if (l->lrh) {
		/* VCRC covers LRH..ICRC; sent low byte first like the ICRC */
		uint16_t v = pg_ib_vcrc(out->data + lrh_at, out->len - lrh_at);
		pb_u8(out, (uint8_t)v);
		pb_u8(out, (uint8_t)(v >> 8));
	}
	/* IPv4 RoCEv2 leaves the UDP checksum 0; IPv6 forbids that (RFC 8200). */
	if (l->l3 == PG_L3_IPV6)
		pb_put_be16(out, udp_at + 6,
			    l4_csum(n, out->data + ip_at, 17, out->data + udp_at, out->len - udp_at));
}

void pg_net_tcp_frame(pg_net *n, int from, const pg_tcphdr *h, const uint8_t *data, size_t len,
		      GByteArray *out)
{
	size_t hl = 20 + ((h->optlen + 3) & ~(size_t)3), ip_at, tcp_at;
	g_byte_array_set_size(out, 0);
	l2_header(n, from, n->link->l3 == PG_L3_IPV6 ? ETH_P_IPV6 : ETH_P_IP, out);
	ip_at = l3_header(n, from, 6, hl + len, out);
	tcp_at = out->len;
	pb_be16(out, h->sport);
	pb_be16(out, h->dport);
	pb_be32(out, h->seq);
	pb_be32(out, h->ack);
	pb_u8(out, (uint8_t)((hl / 4) << 4));
	pb_u8(out, h->flags);
	pb_be16(out, h->win);
	pb_be16(out, 0);
	pb_be16(out, 0);
	pb_bytes(out, h->opts, h->optlen);
	pb_zero(out, hl - 20 - h->optlen);
	pb_bytes(out, data, len);
	pb_put_be16(out, tcp_at + 16,
		    l4_csum(n, out->data + ip_at, 6, out->data + tcp_at, out->len - tcp_at));
}
