// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * link.c - link-layer headers: Ethernet (with 802.1Q / 802.1ad / QinQ
 * tags), Linux cooked captures v1 and v2, raw IP.
 *
 * Every one of them ends in an ethertype (or an IP version), and only
 * three matter here: IPv4 and IPv6 (RoCEv2 over UDP, iWARP over TCP) and
 * 0x8915, RoCEv1, where a GRH follows the Ethernet header directly.  The
 * headers' layout is l2.h's, shared with the split's first pass (hosts.c).
 *
 * A frame may carry another: a switch mirror (ERSPAN, GRE) or an overlay
 * (VXLAN) found by tunnel.c below ip.c.  The carried frame is decoded here
 * as the outer one was, after the outer layers have returned, to at most
 * TUNNEL_MAX_DEPTH levels; so a mirrored conversation is keyed on its own
 * addresses, as a capture on its hosts would be.
 */
#include "emit.h"
#include "ib.h"
#include "ip.h"
#include "l2.h"
#include "link.h"
#include "tunnel.h"

static uint32_t after(uint32_t wire, size_t n)
{
	return wire > n ? wire - (uint32_t)n : 0;
}

static void ethertype(struct rr_frame_ctx *fx, uint16_t type, struct rr_cursor *cur,
		      uint32_t wire)
{
	unsigned tags;

	switch (l2_skip_tags(cur, &type, &tags)) {
	case L2_TAGS_OK:
		break;
	case L2_TAGS_TOO_MANY:
		dec_malformed(fx, "frame %" PRIu64 ": more than %d VLAN tags", fx->frame, L2_MAX_TAGS);
		return;
	case L2_TAGS_CUT:
		dec_short(fx, "frame %" PRIu64 ": VLAN tag", fx->frame);
		return;
	}
	wire = after(wire, 4 * (size_t)tags);

	switch (type) {
	case ETH_P_IP:
		ip_packet(fx, cur, wire, 4);
		break;
	case ETH_P_IPV6:
		ip_packet(fx, cur, wire, 6);
		break;
	case ETH_P_ROCE:
		dec_rdma(fx);       /* the ethertype says RoCEv1 */
		roce_v1(fx, cur, wire);
		break;
	default:
		break;      /* ARP, LLDP, ...: nothing of ours */
	}
}

static bool eth_header(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint16_t *type,
		       const char *what)
{
	if (!l2_ethernet(cur, type)) {
		dec_short(fx, "frame %" PRIu64 ": %s", fx->frame, what);
		return false;
	}
	return true;
}

/* DLT_RAW and an IP packet in a tunnel: the version is the first nibble. */
static void raw_ip(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, const char *what)
{
	uint8_t b;
	int version;

	if (!rr_peek_u8(cur, 0, &b)) {
		dec_short(fx, "frame %" PRIu64 ": %s header", fx->frame, what);
		return;
	}
	version = b >> 4;
	if (version != 4 && version != 6) {
		dec_malformed(fx, "frame %" PRIu64 ": %s frame with IP version %d", fx->frame, what,
			      version);
		return;
	}
	ip_packet(fx, cur, wire, version);
}

/* The frames that tunnels carried (tunnel.h), one level at a time. */
static void tunneled(struct rr_frame_ctx *fx)
{
	for (int depth = 1; fx->tunnel.found; depth++) {
		struct tunnel_inner in = fx->tunnel;
		uint16_t type;

		fx->tunnel.found = false;
		if (depth > TUNNEL_MAX_DEPTH) {
			dec_malformed(fx, "frame %" PRIu64 ": more than %d tunnels nested",
				      fx->frame, TUNNEL_MAX_DEPTH);
			return;
		}
		if (in.ip)
			raw_ip(fx, &in.frame, in.wire, "tunneled IP");
		else if (eth_header(fx, &in.frame, &type, "tunneled Ethernet header"))
			ethertype(fx, type, &in.frame, after(in.wire, L2_ETH_LEN));
	}
}

static void link_ethertype(struct rr_frame_ctx *fx, uint16_t type, struct rr_cursor *cur,
			   uint32_t wire)
{
	ethertype(fx, type, cur, wire);
	tunneled(fx);
}

void link_ethernet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t type;

	if (eth_header(fx, cur, &type, "Ethernet header"))
		link_ethertype(fx, type, cur, after(wire, L2_ETH_LEN));
}

/* DLT_LINUX_SLL (its layout: l2.h). */
void link_sll(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t proto;

	if (!l2_sll(cur, &proto)) {
		dec_short(fx, "frame %" PRIu64 ": Linux cooked (SLL) header", fx->frame);
		return;
	}
	link_ethertype(fx, proto, cur, after(wire, L2_SLL_LEN));
}

/* DLT_LINUX_SLL2 (its layout: l2.h). */
void link_sll2(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t proto;

	if (!l2_sll2(cur, &proto)) {
		dec_short(fx, "frame %" PRIu64 ": Linux cooked v2 (SLL2) header", fx->frame);
		return;
	}
	link_ethertype(fx, proto, cur, after(wire, L2_SLL2_LEN));
}

void link_raw(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version)
{
	if (version == 0)
		raw_ip(fx, cur, wire, "raw IP");
	else
		ip_packet(fx, cur, wire, version);
	tunneled(fx);
}
