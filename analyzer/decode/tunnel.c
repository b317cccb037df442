// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tunnel.c - the headers a switch port mirror or an overlay network puts
 * around a captured frame, following:
 *
 *   RFC 2784 (GRE) with the Key and Sequence Number fields of RFC 2890:
 *     flags and version (C, K, S; version 0 only), protocol type, then the
 *     optional checksum + reserved, key, sequence number, in that order;
 *     protocol 0x6558 (Transparent Ethernet Bridging) carries an Ethernet
 *     frame, 0x0800 and 0x86DD an IP packet;
 *   draft-foschiano-erspan (Cisco ERSPAN), carried in GRE:
 *     protocol 0x88BE without the GRE S bit is type I (no ERSPAN header),
 *     with it type II (an 8-byte header, version 1); protocol 0x22EB is
 *     type III (a 12-byte header, version 2, and an 8-byte platform
 *     specific subheader when its O bit is set); the T bit says the switch
 *     cut the mirrored frame, whose wire length is then unknown;
 *   RFC 7348 (VXLAN), section 5: on UDP port 4789 an 8-byte header whose
 *     I flag says the VNI is valid, then an Ethernet frame.
 *
 * A header that does not fit is told the usual way (emit.h): it is held
 * with the frame's other conditions and said only if the frame turns out
 * to carry RDMA, so tunneled traffic that is not RDMA stays silent.
 */
#include "emit.h"
#include "l2.h"
#include "tunnel.h"

#define GRE_C        0x8000   /* checksum present (RFC 2784 section 2.1) */
#define GRE_K        0x2000   /* key present (RFC 2890 section 2) */
#define GRE_S        0x1000   /* sequence number present (RFC 2890 section 2) */
/* Routing present, strict source route, recursion control: RFC 1701
 * fields that RFC 2784 section 2.3 tells a receiver to discard. */
#define GRE_RFC1701  0x4F00
#define GRE_VERSION  0x0007

#define ETH_P_TEB     0x6558
#define ETH_P_ERSPAN  0x88BE  /* types I and II */
#define ETH_P_ERSPAN3 0x22EB  /* type III */

#define ERSPAN2_HLEN  8
#define ERSPAN3_HLEN  12
#define ERSPAN3_SUBHDR_LEN 8
#define ERSPAN_T      0x0400  /* in the second 16-bit word: frame truncated */
#define ERSPAN3_O     0x0001  /* in the last 16-bit word: subheader follows */
#define ERSPAN3_FT(w) (((w) >> 10) & 0x1F)
#define ERSPAN_FT_ETH 0
#define ERSPAN_FT_IP  2

#define VXLAN_HLEN    8
#define VXLAN_I       0x08

/* The switch cut the frame it mirrored: how long it was is not known. */
#define WIRE_UNKNOWN  UINT32_MAX

/*
 * The next n header bytes, as a cursor of their own (so no read strays
 * past them); *wire shrinks by n.  False after a diagnostic naming what.
 */
static bool header(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t *wire, size_t n,
		   const char *what, struct rr_cursor *hdr)
{
	if (n > *wire) {
		dec_malformed(fx, "frame %" PRIu64 ": %s of %zu bytes does not fit the %u bytes that carry it",
			      fx->frame, what, n, *wire);
		return false;
	}
	if (rr_cursor_left(cur) < n || !rr_cursor_sub(cur, n, hdr)) {
		dec_short(fx, "frame %" PRIu64 ": %s", fx->frame, what);
		return false;
	}
	if (*wire != WIRE_UNKNOWN)
		*wire -= (uint32_t)n;
	return true;
}

/* What the headers carried, for link.c to decode next. */
static void carry(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, bool ip)
{
	fx->tunnel.found = true;
	fx->tunnel.ip = ip;
	fx->tunnel.wire = wire;
	rr_cursor_sub(cur, rr_cursor_left(cur), &fx->tunnel.frame);
}

/* ERSPAN type II: version 1, VLAN, COS, En, T, session; reserved, index. */
static void erspan2(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct rr_cursor hdr;
	uint16_t ver_vlan = 0, cos_t_session = 0;

	if (!header(fx, cur, &wire, ERSPAN2_HLEN, "ERSPAN type II header", &hdr))
		return;
	rr_get_be16(&hdr, &ver_vlan);
	if (!rr_get_be16(&hdr, &cos_t_session))
		return;
	if (ver_vlan >> 12 != 1) {
		dec_malformed(fx, "frame %" PRIu64 ": ERSPAN type II header with version %u (1 expected)",
			      fx->frame, ver_vlan >> 12);
		return;
	}
	if (cos_t_session & ERSPAN_T) {
		fx->cut = true;
		wire = WIRE_UNKNOWN;
	}
	carry(fx, cur, wire, false);
}

/* ERSPAN type III: version 2, VLAN, COS, BSO, T, session; timestamp; SGT,
 * P, FT, hardware ID, D, granularity, O; the optional subheader. */
static void erspan3(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct rr_cursor hdr, sub;
	uint16_t ver_vlan = 0, cos_t_session = 0, flags = 0;
	unsigned ft;

	if (!header(fx, cur, &wire, ERSPAN3_HLEN, "ERSPAN type III header", &hdr))
		return;
	rr_get_be16(&hdr, &ver_vlan);
	rr_get_be16(&hdr, &cos_t_session);
	rr_skip(&hdr, 6);                       /* timestamp, SGT */
	if (!rr_get_be16(&hdr, &flags))
		return;
	if (ver_vlan >> 12 != 2) {
		dec_malformed(fx, "frame %" PRIu64 ": ERSPAN type III header with version %u (2 expected)",
			      fx->frame, ver_vlan >> 12);
		return;
	}
	if ((flags & ERSPAN3_O) &&
	    !header(fx, cur, &wire, ERSPAN3_SUBHDR_LEN, "ERSPAN type III platform specific subheader",
		    &sub))
		return;
	ft = ERSPAN3_FT(flags);
	if (ft != ERSPAN_FT_ETH && ft != ERSPAN_FT_IP) {
		dec_malformed(fx, "frame %" PRIu64 ": ERSPAN type III frame type %u (neither Ethernet nor IP)",
			      fx->frame, ft);
		return;
	}
	if (cos_t_session & ERSPAN_T) {
		fx->cut = true;
		wire = WIRE_UNKNOWN;
	}
	carry(fx, cur, wire, ft == ERSPAN_FT_IP);
}

void tunnel_gre(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct rr_cursor hdr;
	uint16_t flags, proto;
	uint8_t hi, lo;
	size_t hlen = 4;

	if (!rr_peek_u8(cur, 0, &hi) || !rr_peek_u8(cur, 1, &lo)) {
		dec_short(fx, "frame %" PRIu64 ": GRE header", fx->frame);
		return;
	}
	flags = (uint16_t)(hi << 8 | lo);
	if (flags & GRE_VERSION)
		return;         /* version 1 is PPTP's enhanced GRE: no Ethernet inside */
	if (flags & GRE_RFC1701) {
		dec_malformed(fx, "frame %" PRIu64 ": GRE header with RFC 1701 routing or recursion bits (0x%04x)",
			      fx->frame, flags);
		return;
	}
	hlen += (flags & GRE_C) ? 4 : 0;
	hlen += (flags & GRE_K) ? 4 : 0;
	hlen += (flags & GRE_S) ? 4 : 0;
	if (!header(fx, cur, &wire, hlen, "GRE header", &hdr))
		return;
	rr_skip(&hdr, 2);
	if (!rr_get_be16(&hdr, &proto))
		return;
	switch (proto) {
	case ETH_P_TEB:
		carry(fx, cur, wire, false);
		break;
	case ETH_P_ERSPAN:
		if (flags & GRE_S)
			erspan2(fx, cur, wire);
		else
			carry(fx, cur, wire, false);    /* type I: the frame follows GRE */
		break;
	case ETH_P_ERSPAN3:
		erspan3(fx, cur, wire);
		break;
	case ETH_P_IP:
	case ETH_P_IPV6:
		carry(fx, cur, wire, true);     /* a mirror that sends the IP packet alone */
		break;
	default:
		break;          /* MPLS, PPP, ...: not a mirror of ours */
	}
}

void tunnel_vxlan(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct rr_cursor hdr;
	uint8_t flags;

	if (!header(fx, cur, &wire, VXLAN_HLEN, "VXLAN header", &hdr))
		return;
	if (!rr_get_u8(&hdr, &flags))
		return;
	if (!(flags & VXLAN_I)) {
		dec_malformed(fx, "frame %" PRIu64 ": VXLAN header without the I flag (flags 0x%02x)",
			      fx->frame, flags);
		return;
	}
	carry(fx, cur, wire, false);
}
