// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * erf.c - Endace ERF records inside DLT_ERF frames, as ibdump writes them.
 *
 * ERF header (16 bytes): timestamp (8, little-endian fixed point),
 * type (1; bit 7 = an extension header follows), flags (1), rlen (2, the
 * record length including this header), lctr/color (2), wlen (2, the
 * length of the packet on the wire).  Each extension header is 8 bytes;
 * bit 7 of its first byte says another follows.
 *
 * Record types: INFINIBAND (21) holds an IB packet from the LRH on;
 * INFINIBAND_LINK (25) holds link packets (flow control, 6 bytes) - some
 * writers use it for whole packets, so anything longer is treated as an
 * LRH packet too.  ETH (2, and the colored variants 11, 16, 20) holds
 * 2 bytes of offset/pad and an Ethernet frame; IPV4 (22) / IPV6 (23) raw IP.
 */
#include "emit.h"
#include "ib.h"
#include "link.h"

#define ERF_HDR 16
#define ERF_MAX_EXT 16
#define ERF_TYPE_ETH 2
#define ERF_TYPE_COLOR_ETH 11
#define ERF_TYPE_DSM_COLOR_ETH 16
#define ERF_TYPE_COLOR_HASH_ETH 20
#define ERF_TYPE_INFINIBAND 21
#define ERF_TYPE_IPV4 22
#define ERF_TYPE_IPV6 23
#define ERF_TYPE_INFINIBAND_LINK 25
#define IB_LINK_PACKET_LEN 6

void erf_record(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	uint8_t type, flags, more;
	uint16_t rlen, lctr, wlen;
	size_t hdr = ERF_HDR, have;
	struct rr_cursor pl;
	int n = 0;

	(void)wire;
	if (!rr_skip(cur, 8) || !rr_get_u8(cur, &type) || !rr_get_u8(cur, &flags) ||
	    !rr_get_be16(cur, &rlen) || !rr_get_be16(cur, &lctr) || !rr_get_be16(cur, &wlen)) {
		dec_short(fx, "ERF frame %" PRIu64 ": record header", fx->frame);
		return;
	}
	/* An InfiniBand record holds IB traffic, as an InfiniBand link does. */
	if ((type & 0x7F) == ERF_TYPE_INFINIBAND || (type & 0x7F) == ERF_TYPE_INFINIBAND_LINK)
		dec_rdma(fx);
	for (more = type & 0x80; more; more &= 0x80) {
		if (++n > ERF_MAX_EXT) {
			dec_malformed(fx, "ERF frame %" PRIu64 ": more than %d extension headers",
				      fx->frame, ERF_MAX_EXT);
			return;
		}
		if (!rr_peek_u8(cur, 0, &more) || !rr_skip(cur, 8)) {
			dec_short(fx, "ERF frame %" PRIu64 ": extension header", fx->frame);
			return;
		}
		hdr += 8;
	}
	if (rlen < hdr) {
		dec_malformed(fx, "ERF frame %" PRIu64 ": rlen %u is shorter than the %zu header bytes",
			      fx->frame, rlen, hdr);
		return;
	}
	/* The record may be padded beyond wlen, or snapped short of it. */
	have = rr_cursor_left(cur);
	if (have > (size_t)rlen - hdr)
		have = (size_t)rlen - hdr;
	if (!(type & 0x7F) || (type & 0x7F) == ERF_TYPE_INFINIBAND ||
	    (type & 0x7F) == ERF_TYPE_INFINIBAND_LINK || (type & 0x7F) == ERF_TYPE_IPV4 ||
	    (type & 0x7F) == ERF_TYPE_IPV6) {
		if (have > wlen)
			have = wlen;
	}
	rr_cursor_sub(cur, have, &pl);
	/* ERF has its own notion of truncation: wlen beyond what it kept. */
	if (have < wlen && (type & 0x7F) != ERF_TYPE_ETH)
		fx->cut = true;

	switch (type & 0x7F) {
	case ERF_TYPE_INFINIBAND_LINK:
		if (wlen <= IB_LINK_PACKET_LEN)
			return;     /* flow-control packet */
		/* fall through */
	case ERF_TYPE_INFINIBAND:
		ib_native(fx, &pl, wlen);
		break;
	case ERF_TYPE_ETH:
	case ERF_TYPE_COLOR_ETH:
	case ERF_TYPE_DSM_COLOR_ETH:
	case ERF_TYPE_COLOR_HASH_ETH:
		if (!rr_skip(&pl, 2)) {
			dec_short(fx, "ERF frame %" PRIu64 ": Ethernet offset/pad", fx->frame);
			return;
		}
		if (rr_cursor_left(&pl) < wlen)
			fx->cut = true;
		link_ethernet(fx, &pl, wlen);
		break;
	case ERF_TYPE_IPV4:
		link_raw(fx, &pl, wlen, 4);   /* link.c also opens a tunnel inside */
		break;
	case ERF_TYPE_IPV6:
		link_raw(fx, &pl, wlen, 6);
		break;
	default:
		break;
	}
}
