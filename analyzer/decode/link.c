// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * link.c - link-layer headers: Ethernet (with 802.1Q / 802.1ad / QinQ
 * tags), Linux cooked captures v1 and v2, raw IP.
 *
 * Every one of them ends in an ethertype (or an IP version), and only
 * three matter here: IPv4 and IPv6 (RoCEv2 over UDP, iWARP over TCP) and
 * 0x8915, RoCEv1, where a GRH follows the Ethernet header directly.
 */
#include "emit.h"
#include "ib.h"
#include "ip.h"
#include "link.h"

#define ETH_P_IP     0x0800
#define ETH_P_IPV6   0x86DD
#define ETH_P_ROCE   0x8915
#define ETH_P_8021Q  0x8100
#define ETH_P_8021AD 0x88A8
#define ETH_P_QINQ1  0x9100   /* pre-standard QinQ outer tag */
#define MAX_TAGS     4        /* more than this is not a real network */

static uint32_t after(uint32_t wire, size_t n)
{
	return wire > n ? wire - (uint32_t)n : 0;
}

void link_ethertype(struct rr_frame_ctx *fx, uint16_t type, struct rr_cursor *cur,
		    uint32_t wire)
{
	for (int tags = 0; type == ETH_P_8021Q || type == ETH_P_8021AD || type == ETH_P_QINQ1;
	     tags++) {
		uint16_t tci;

		if (tags == MAX_TAGS) {
			dec_malformed(fx, "frame %" PRIu64 ": more than %d VLAN tags",
				      fx->frame, MAX_TAGS);
			return;
		}
		if (!rr_get_be16(cur, &tci) || !rr_get_be16(cur, &type)) {
			dec_short(fx, "frame %" PRIu64 ": VLAN tag", fx->frame);
			return;
		}
		wire = after(wire, 4);
	}

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

void link_ethernet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t type;

	if (!rr_skip(cur, 12) || !rr_get_be16(cur, &type)) {
		dec_short(fx, "frame %" PRIu64 ": Ethernet header", fx->frame);
		return;
	}
	link_ethertype(fx, type, cur, after(wire, 14));
}

/* DLT_LINUX_SLL: packet type, ARPHRD type, address length, 8 address
 * bytes, protocol (an ethertype for everything we care about). */
void link_sll(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t proto;

	if (!rr_skip(cur, 14) || !rr_get_be16(cur, &proto)) {
		dec_short(fx, "frame %" PRIu64 ": Linux cooked (SLL) header", fx->frame);
		return;
	}
	link_ethertype(fx, proto, cur, after(wire, 16));
}

/* DLT_LINUX_SLL2: protocol first, then reserved, ifindex, ARPHRD type,
 * packet type, address length and 8 address bytes: 20 bytes. */
void link_sll2(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint16_t proto;

	if (!rr_get_be16(cur, &proto) || !rr_skip(cur, 18)) {
		dec_short(fx, "frame %" PRIu64 ": Linux cooked v2 (SLL2) header", fx->frame);
		return;
	}
	link_ethertype(fx, proto, cur, after(wire, 20));
}

void link_raw(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version)
{
	uint8_t b;

	if (version == 0) {
		if (!rr_peek_u8(cur, 0, &b)) {
			dec_short(fx, "frame %" PRIu64 ": raw IP header", fx->frame);
			return;
		}
		version = b >> 4;
		if (version != 4 && version != 6) {
			dec_malformed(fx, "frame %" PRIu64 ": raw IP frame with IP version %d",
				      fx->frame, version);
			return;
		}
	}
	ip_packet(fx, cur, wire, version);
}
