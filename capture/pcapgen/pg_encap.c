// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pg_encap.c - what a mirroring switch puts around each frame, written
 * from the specifications:
 *
 *   GRE, RFC 2784 with RFC 2890's key and sequence number: flags and
 *     version 0, protocol type, then checksum + reserved (C), key (K),
 *     sequence number (S); protocol 0x6558 carries an Ethernet frame;
 *   ERSPAN, draft-foschiano-erspan: type II is GRE protocol 0x88BE with
 *     the S bit and an 8-byte header (version 1); type III is protocol
 *     0x22EB with a 12-byte header (version 2) and, with the O bit, an
 *     8-byte platform specific subheader (platform ID 3);
 *   VXLAN, RFC 7348 section 5: UDP to port 4789, an 8-byte header with
 *     the I flag and a VNI, then the Ethernet frame.
 *
 * The outer hosts are the mirroring switch and the collector, on
 * documentation addresses (RFC 5737, RFC 3849).
 */
#include "pg_encap.h"

#include "pg_buf.h"
#include "pg_crc.h"

#include <string.h>

#define ETH_P_IP      0x0800
#define ETH_P_IPV6    0x86dd
#define ETH_P_8021Q   0x8100
#define ETH_P_TEB     0x6558
#define ETH_P_ERSPAN  0x88be
#define ETH_P_ERSPAN3 0x22eb
#define IPPROTO_GRE_  47
#define IPPROTO_UDP_  17
#define VXLAN_PORT    4789

#define GRE_C 0x8000
#define GRE_K 0x2000
#define GRE_S 0x1000

#define OUTER_VID   200
#define SESSION_ID  42        /* ERSPAN session; also the GRE key and the VNI */
#define PORT_INDEX  5         /* ERSPAN II index, platform subheader port */

static const uint8_t switch_mac[6] = { 0x02, 0x00, 0x00, 0x5e, 0x00, 0x01 };
static const uint8_t collector_mac[6] = { 0x02, 0x00, 0x00, 0x5e, 0x00, 0x02 };
static const uint8_t switch_ip4[4] = { 192, 0, 2, 1 };
static const uint8_t collector_ip4[4] = { 192, 0, 2, 100 };
static const uint8_t switch_ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x01 };
static const uint8_t collector_ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x64 };

static const char *const kinds[] = { [PG_ENCAP_ERSPAN2] = "erspan2", [PG_ENCAP_ERSPAN3] = "erspan3",
				     [PG_ENCAP_GRE] = "gre", [PG_ENCAP_VXLAN] = "vxlan" };

static bool option(pg_encap *e, const char *o)
{
	if (!strcmp(o, "ipv6"))
		e->ipv6 = true;
	else if (!strcmp(o, "vlan"))
		e->vlan = true;
	else if (e->kind == PG_ENCAP_GRE && !strcmp(o, "csum"))
		e->csum = true;
	else if (e->kind == PG_ENCAP_GRE && !strcmp(o, "key"))
		e->key = true;
	else if (e->kind == PG_ENCAP_GRE && !strcmp(o, "seq"))
		e->seq = true;
	else if (e->kind == PG_ENCAP_ERSPAN3 && !strcmp(o, "subhdr"))
		e->subhdr = true;
	else
		return false;
	return true;
}

bool pg_encap_parse(const char *text, pg_encap *e, char **err)
{
	char **w = g_strsplit(text, ",", -1);
	bool ok = true;

	memset(e, 0, sizeof(*e));
	for (int k = 1; k < (int)G_N_ELEMENTS(kinds); k++)
		if (w[0] && !strcmp(w[0], kinds[k]))
			e->kind = k;
	if (e->kind == PG_ENCAP_NONE) {
		*err = g_strdup_printf("--encap: unknown encapsulation '%s' (erspan2, erspan3, gre, vxlan)",
				       w[0] ? w[0] : "");
		ok = false;
	}
	for (int i = 1; ok && w[i]; i++) {
		if (!option(e, w[i])) {
			*err = g_strdup_printf("--encap: option '%s' does not apply to %s (ipv6, vlan; gre: "
					       "csum, key, seq; erspan3: subhdr)", w[i], w[0]);
			ok = false;
		}
	}
	g_strfreev(w);
	return ok;
}

static size_t gre_len(const pg_encap *e)
{
	switch (e->kind) {
	case PG_ENCAP_ERSPAN2:
		return 8 + 8;
	case PG_ENCAP_ERSPAN3:
		return 8 + 12 + (e->subhdr ? 8 : 0);
	case PG_ENCAP_GRE:
		return 4 + (e->csum ? 4 : 0) + (e->key ? 4 : 0) + (e->seq ? 4 : 0);
	default:
		return 8 + 8;   /* VXLAN: UDP and VXLAN headers */
	}
}

size_t pg_encap_overhead(const pg_encap *e)
{
	if (e->kind == PG_ENCAP_NONE)
		return 0;
	return 14 + (e->vlan ? 4 : 0) + (e->ipv6 ? 40 : 20) + gre_len(e);
}

/* The outer IP header for a payload of plen bytes; returns its offset. */
static size_t ip_header(const pg_encap *e, uint32_t n, uint8_t proto, size_t plen, GByteArray *out)
{
	size_t at = out->len;

	if (!e->ipv6) {
		pb_u8(out, 0x45);
		pb_u8(out, 0);
		pb_be16(out, (uint16_t)(20 + plen));
		pb_be16(out, (uint16_t)n);
		pb_be16(out, 0x4000);   /* DF */
		pb_u8(out, 64);
		pb_u8(out, proto);
		pb_be16(out, 0);
		pb_bytes(out, switch_ip4, 4);
		pb_bytes(out, collector_ip4, 4);
		pb_put_be16(out, at + 10, pg_csum_fold(pg_csum_add(0, out->data + at, 20)));
	} else {
		pb_be32(out, 0x60000000u);
		pb_be16(out, (uint16_t)plen);
		pb_u8(out, proto);
		pb_u8(out, 64);
		pb_bytes(out, switch_ip6, 16);
		pb_bytes(out, collector_ip6, 16);
	}
	return at;
}

/* The GRE header, then ERSPAN's when there is one. */
static void gre_headers(const pg_encap *e, uint32_t n, uint64_t usec, const uint8_t *frame,
			size_t len, GByteArray *out)
{
	bool erspan = e->kind == PG_ENCAP_ERSPAN2 || e->kind == PG_ENCAP_ERSPAN3;
	uint16_t flags = 0, proto = ETH_P_TEB;
	/* En (type II): 3 when the mirrored frame kept its 802.1Q tag */
	uint16_t en = len >= 14 && pb_get_be16(frame + 12) == ETH_P_8021Q ? 3 : 0;
	uint64_t ts = usec * 10;    /* granularity 01: 100 ns */

	if (erspan || e->seq)
		flags |= GRE_S;
	flags |= e->csum ? GRE_C : 0;
	flags |= e->key ? GRE_K : 0;
	if (erspan)
		proto = e->kind == PG_ENCAP_ERSPAN2 ? ETH_P_ERSPAN : ETH_P_ERSPAN3;
	pb_be16(out, flags);
	pb_be16(out, proto);
	if (flags & GRE_C)
		pb_be32(out, 0);        /* checksum and reserved1: checksum filled in later */
	if (flags & GRE_K)
		pb_be32(out, SESSION_ID);
	if (flags & GRE_S)
		pb_be32(out, n);
	if (e->kind == PG_ENCAP_ERSPAN2) {
		pb_be16(out, 1u << 12);                         /* version 1, VLAN 0 */
		pb_be16(out, (uint16_t)(en << 11 | SESSION_ID)); /* COS 0, En, T 0 */
		pb_be32(out, PORT_INDEX);                        /* reserved, index */
	} else if (e->kind == PG_ENCAP_ERSPAN3) {
		pb_be16(out, 2u << 12);                         /* version 2, VLAN 0 */
		pb_be16(out, SESSION_ID);                       /* COS 0, BSO 0, T 0 */
		pb_be32(out, (uint32_t)ts);
		pb_be16(out, 0);                                /* SGT */
		/* P 1 (an Ethernet PDU), FT 0 (Ethernet), hardware ID 1,
		 * D 0 (ingress), Gra 01, O */
		pb_be16(out, (uint16_t)(0x8000u | 1u << 4 | 1u << 1 | (e->subhdr ? 1u : 0u)));
		if (e->subhdr) {
			pb_be32(out, 3u << 26 | PORT_INDEX);    /* platform ID 3, port ID */
			pb_be32(out, (uint32_t)(ts >> 32));     /* timestamp, upper half */
		}
	}
}

/* Finish what needs the whole packet: the GRE or UDP checksum. */
static void checksum(const pg_encap *e, size_t ip_at, size_t l4_at, GByteArray *out)
{
	size_t l4len = out->len - l4_at;
	uint32_t sum = 0;
	uint16_t c;
	uint8_t ph[8] = { 0 };

	if (e->kind != PG_ENCAP_VXLAN) {
		if (e->csum)
			pb_put_be16(out, l4_at + 4, pg_csum_fold(pg_csum_add(0, out->data + l4_at, l4len)));
		return;
	}
	/* UDP over the pseudo-header (RFC 768; RFC 8200 section 8.1) */
	if (!e->ipv6) {
		sum = pg_csum_add(sum, out->data + ip_at + 12, 8);
		ph[1] = IPPROTO_UDP_;
		ph[2] = (uint8_t)(l4len >> 8);
		ph[3] = (uint8_t)l4len;
		sum = pg_csum_add(sum, ph, 4);
	} else {
		sum = pg_csum_add(sum, out->data + ip_at + 8, 32);
		ph[2] = (uint8_t)(l4len >> 8);
		ph[3] = (uint8_t)l4len;
		ph[7] = IPPROTO_UDP_;
		sum = pg_csum_add(sum, ph, 8);
	}
	c = pg_csum_fold(pg_csum_add(sum, out->data + l4_at, l4len));
	pb_put_be16(out, l4_at + 6, c ? c : 0xffff);
}

void pg_encap_wrap(const pg_encap *e, uint32_t n, uint64_t usec, const uint8_t *frame,
		   size_t len, GByteArray *out)
{
	size_t plen = gre_len(e) + len, ip_at, l4_at;
	uint32_t hash = 0;

	pb_bytes(out, collector_mac, 6);
	pb_bytes(out, switch_mac, 6);
	if (e->vlan) {
		pb_be16(out, ETH_P_8021Q);
		pb_be16(out, OUTER_VID);
	}
	pb_be16(out, e->ipv6 ? ETH_P_IPV6 : ETH_P_IP);
	ip_at = ip_header(e, n, e->kind == PG_ENCAP_VXLAN ? IPPROTO_UDP_ : IPPROTO_GRE_, plen, out);
	l4_at = out->len;
	if (e->kind == PG_ENCAP_VXLAN) {
		/* source port from the inner addresses, as RFC 7348 section 5 suggests */
		for (size_t i = 0; i < 12 && i < len; i++)
			hash = hash * 31 + frame[i];
		pb_be16(out, (uint16_t)(0xc000 | (hash & 0x3fff)));
		pb_be16(out, VXLAN_PORT);
		pb_be16(out, (uint16_t)plen);
		pb_be16(out, 0);
		pb_be32(out, 0x08000000u);              /* I flag */
		pb_be32(out, (uint32_t)SESSION_ID << 8);  /* VNI, reserved */
	} else {
		gre_headers(e, n, usec, frame, len, out);
	}
	pb_bytes(out, frame, len);
	checksum(e, ip_at, l4_at, out);
}
