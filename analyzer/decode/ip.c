// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ip.c - IPv4, IPv6, and the UDP and TCP headers on top of them; GRE and
 * VXLAN go to tunnel.c.
 *
 * Lengths: the IP header says how long the packet was on the wire.  When
 * fewer bytes were captured and the frame was cut by the snaplen, the
 * rest is truncation; when the frame was not cut, the header lies
 * (CAP_MALFORMED).  Ethernet padding after the IP packet is dropped here.
 */
#include <string.h>

#include "emit.h"
#include "ib.h"
#include "ip.h"
#include "tcp.h"
#include "tunnel.h"

/* Big-endian words of header bytes already bounded. */
static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define ROCEV2_PORT  4791
#define MAX_V6_EXT   8      /* extension headers we walk before giving up */

static void udp_datagram(struct rr_frame_ctx *fx, const struct ip_view *ip,
			 struct rr_cursor *cur, uint32_t wire)
{
	struct rr_cursor hdr, payload;
	uint16_t dport, ulen;
	size_t have;

	if (!rr_cursor_sub(cur, 8, &hdr)) {
		dec_short(fx, "frame %" PRIu64 ": UDP header", fx->frame);
		return;
	}
	/* Source port, destination port, length, checksum: read in place once bounded. */
	dport = be16_at(hdr.base + 2);
	ulen = be16_at(hdr.base + 4);
	if (dport != ROCEV2_PORT && dport != TUNNEL_VXLAN_PORT)
		return;
	if (ulen < 8 || ulen > wire) {
		dec_malformed(fx, "frame %" PRIu64 ": UDP length %u does not fit the IP payload of %u bytes",
			      fx->frame, ulen, wire);
		return;
	}
	have = rr_cursor_left(cur);
	if (have > (size_t)ulen - 8)
		have = (size_t)ulen - 8;
	rr_cursor_sub(cur, have, &payload);
	if (dport == TUNNEL_VXLAN_PORT)
		tunnel_vxlan(fx, &payload, ulen - 8u);
	else
		roce_v2(fx, ip, &hdr, &payload, ulen - 8u);
}

static void tcp_header(struct rr_frame_ctx *fx, const struct ip_view *ip,
		       struct rr_cursor *cur, uint32_t wire)
{
	struct tcp_view t;
	uint8_t off, flags;
	size_t hlen, have;
	struct rr_cursor payload;
	const uint8_t *h;

	if (rr_cursor_left(cur) < 20) {
		dec_short(fx, "frame %" PRIu64 ": TCP header", fx->frame);
		return;
	}
	/* The fixed 20 bytes, read in place once bounded. */
	h = cur->base + cur->pos;
	t.sport = be16_at(h);
	t.dport = be16_at(h + 2);
	t.seq = be32_at(h + 4);
	t.ack = be32_at(h + 8);
	off = h[12];
	flags = h[13];
	rr_skip(cur, 20);
	t.flags = flags;
	hlen = (size_t)(off >> 4) * 4;
	if (hlen < 20 || hlen > wire) {
		dec_malformed(fx, "frame %" PRIu64 ": TCP data offset %zu bytes (segment of %u bytes)",
			      fx->frame, hlen, wire);
		return;
	}
	if (!rr_skip(cur, hlen - 20)) {
		dec_short(fx, "frame %" PRIu64 ": TCP options", fx->frame);
		return;
	}
	have = rr_cursor_left(cur);
	if (have > wire - hlen)
		have = wire - hlen;
	rr_cursor_sub(cur, have, &payload);
	tcp_segment(fx, ip, &t, &payload, (uint32_t)(wire - hlen));
}

static void transport(struct rr_frame_ctx *fx, const struct ip_view *ip, uint8_t proto,
		      struct rr_cursor *cur, uint32_t wire)
{
	if (proto == IPPROTO_UDP_)
		udp_datagram(fx, ip, cur, wire);
	else if (proto == IPPROTO_TCP_)
		tcp_header(fx, ip, cur, wire);
	else if (proto == TUNNEL_GRE_PROTO)
		tunnel_gre(fx, cur, wire);
}

/*
 * Bound the packet to its stated length.  Returns the payload wire length
 * and leaves *cur over the captured payload, or returns false after a
 * diagnostic.
 */
static bool bound(struct rr_frame_ctx *fx, struct rr_cursor *cur, struct rr_cursor *pl,
		  uint32_t wire, uint32_t total, size_t hlen, const char *what)
{
	size_t have = rr_cursor_left(cur) + hlen;

	if (total > wire || total < hlen) {
		dec_malformed(fx, "frame %" PRIu64 ": %s total length %u does not fit the frame (%u bytes after the link header)",
			      fx->frame, what, total, wire);
		return false;
	}
	if (have < total && !fx->cut) {
		dec_malformed(fx, "frame %" PRIu64 ": %s total length %u but the frame holds %zu bytes",
			      fx->frame, what, total, have);
		return false;
	}
	if (have > total)
		have = total;
	rr_cursor_sub(cur, have - hlen, pl);
	return true;
}

static void ipv4(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct ip_view ip = { .version = 4 };
	struct rr_cursor pl;
	uint8_t vihl, proto;
	uint16_t total, frag;
	size_t hlen;

	if (!rr_peek_u8(cur, 0, &vihl) || !rr_peek_u8(cur, 19, &proto)) {
		dec_short(fx, "frame %" PRIu64 ": IPv4 header", fx->frame);
		return;
	}
	hlen = (size_t)(vihl & 0x0F) * 4;
	if ((vihl >> 4) != 4 || hlen < 20) {
		dec_malformed(fx, "frame %" PRIu64 ": IPv4 version/IHL byte 0x%02x", fx->frame, vihl);
		return;
	}
	if (!rr_cursor_sub(cur, hlen, &ip.hdr)) {
		dec_short(fx, "frame %" PRIu64 ": IPv4 options", fx->frame);
		return;
	}
	/* The fixed 20 bytes are all in the header just bounded: read in place. */
	total = be16_at(ip.hdr.base + 2);
	frag = be16_at(ip.hdr.base + 6);
	proto = ip.hdr.base[9];
	memcpy(ip.src, ip.hdr.base + 12, 4);
	memcpy(ip.dst, ip.hdr.base + 16, 4);
	if (!bound(fx, cur, &pl, wire, total, hlen, "IPv4"))
		return;
	/* Fragments: RoCE never fragments and iWARP rides TCP with PMTU
	 * discovery; a fragment is not something we can place. */
	if (frag & 0x3FFF)
		return;
	transport(fx, &ip, proto, &pl, total - (uint32_t)hlen);
}

static void ipv6(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire)
{
	struct ip_view ip = { .version = 6 };
	struct rr_cursor pl;
	uint16_t plen;
	uint8_t nh;
	uint32_t pwire;

	if (!rr_cursor_sub(cur, 40, &ip.hdr)) {
		dec_short(fx, "frame %" PRIu64 ": IPv6 header", fx->frame);
		return;
	}
	rr_skip(&ip.hdr, 4);
	rr_get_be16(&ip.hdr, &plen);
	rr_get_u8(&ip.hdr, &nh);
	rr_skip(&ip.hdr, 1);
	rr_copy_bytes(&ip.hdr, ip.src, 16);
	rr_copy_bytes(&ip.hdr, ip.dst, 16);
	rr_seek(&ip.hdr, 0);
	if (plen == 0)
		return;     /* jumbogram or garbage: not RDMA */
	if (!bound(fx, cur, &pl, wire, (uint32_t)plen + 40, 40, "IPv6"))
		return;
	pwire = plen;
	for (int i = 0; i < MAX_V6_EXT; i++) {
		uint8_t next, len8;
		size_t elen;

		if (nh != 0 && nh != 43 && nh != 60) {
			if (nh == 44)
				return;             /* fragment: see ipv4() */
			transport(fx, &ip, nh, &pl, pwire);
			return;
		}
		if (!rr_get_u8(&pl, &next) || !rr_get_u8(&pl, &len8)) {
			dec_short(fx, "frame %" PRIu64 ": IPv6 extension header", fx->frame);
			return;
		}
		elen = ((size_t)len8 + 1) * 8;
		if (elen > pwire || !rr_skip(&pl, elen - 2)) {
			if (elen > pwire)
				dec_malformed(fx, "frame %" PRIu64 ": IPv6 extension header of %zu bytes exceeds the payload",
					      fx->frame, elen);
			else
				dec_short(fx, "frame %" PRIu64 ": IPv6 extension header", fx->frame);
			return;
		}
		pwire -= (uint32_t)elen;
		nh = next;
	}
	dec_malformed(fx, "frame %" PRIu64 ": more than %d IPv6 extension headers", fx->frame,
		      MAX_V6_EXT);
}

void ip_packet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version)
{
	if (version == 4)
		ipv4(fx, cur, wire);
	else
		ipv6(fx, cur, wire);
}
