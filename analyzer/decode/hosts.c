// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hosts.c - the two hosts a frame travels between, read from its network
 * header alone, for a reader that splits a capture over processes
 * (capture.h, rr_frame_hosts).
 *
 * Everything the engine keeps across frames (a connection, its flows, a
 * requester's XIDs and retries, a server's record of calls that went well,
 * a host's memory handles) lives between hosts that exchanged frames, so
 * frames whose hosts are joined by a chain of conversations can be split
 * from all others without changing a finding.  The addresses are:
 *   IPv4 (RFC 791): source and destination, bytes 12 and 16 of the header;
 *   IPv6 (RFC 8200): source and destination, bytes 8 and 24;
 *   RoCEv1 (IBTA Annex A16): the GRH's source and destination GIDs, bytes 8
 *   and 24 of the GRH that follows the Ethernet header; a GID is the host's
 *   IPv6 address, so it is one host with the IPv6 packets it sends.
 * A frame to a multicast or broadcast address has one host, its sender.
 * A frame that carries another (GRE and ERSPAN, VXLAN: what tunnel.c
 * decodes) is a tunnel: its inner hosts are not these, so the caller must
 * not split such a capture.  Link layers with no network
 * addresses (InfiniBand, ERF) and frames cut before their addresses have no
 * hosts.
 */
#include <pcap/pcap.h>
#include <stdbool.h>
#include <string.h>

#include "capture.h"
#include "cursor.h"
#include "l2.h"

#define IPPROTO_UDP_   17
#define IPPROTO_GRE_   47
#define MAX_V6_EXT     8        /* ip.c's bound */
#define VXLAN_PORT     4789     /* RFC 7348 §5 */
#define LINKTYPE_RAW_FILE 101

/* The addresses at src and dst of the cursor's header, family-tagged so an IPv4 and a GID never meet. */
static void put_addr(uint8_t out[RR_HOST_ADDR_LEN], uint8_t family, const uint8_t *a, size_t n)
{
	out[0] = family;
	memcpy(out + 1, a, n);
	memset(out + 1 + n, 0, RR_HOST_ADDR_LEN - 1 - n);
}

/* A multicast or broadcast address (RFC 5771: 224.0.0.0/4; RFC 919: 255.255.255.255; RFC 4291 §2.7: ff00::/8). */
static bool group_address(const uint8_t *a, size_t n)
{
	static const uint8_t all_ones[4] = { 255, 255, 255, 255 };

	if (n == 4)
		return (a[0] & 0xf0) == 0xe0 || memcmp(a, all_ones, 4) == 0;
	return a[0] == 0xff;
}

static enum rr_hosts_kind take(struct rr_cursor *c, size_t src, size_t dst, size_t n, uint8_t family,
			       struct rr_frame_hosts *out)
{
	const uint8_t *a, *b;

	if (!rr_seek(c, src) || !rr_get_bytes(c, n, &a) || !rr_seek(c, dst) || !rr_get_bytes(c, n, &b))
		return RR_HOSTS_NONE;
	/*
	 * A frame to a group (neighbour discovery, MLD, mDNS, ...) is no
	 * exchange with another host: it is its sender's alone.  Joining every
	 * host that sends to the same group would leave a network one group.
	 */
	if (group_address(b, n))
		b = a;
	/* In a fixed order, so both directions of a conversation give the same pair (one family: bytes decide). */
	if (memcmp(a, b, n) > 0) {
		const uint8_t *t = a;

		a = b;
		b = t;
	}
	put_addr(out->addr[0], family, a, n);
	put_addr(out->addr[1], family, b, n);
	return RR_HOSTS_FOUND;
}

/* What the transport header at off says: GRE and VXLAN carry frames (tunnel.c); anything else does not. */
static enum rr_hosts_kind transport(struct rr_cursor *c, size_t off, uint8_t proto)
{
	uint16_t dport;

	if (proto == IPPROTO_GRE_)
		return RR_HOSTS_TUNNEL;
	if (proto == IPPROTO_UDP_ && rr_seek(c, off + 2) && rr_get_be16(c, &dport) && dport == VXLAN_PORT)
		return RR_HOSTS_TUNNEL;
	return RR_HOSTS_FOUND;
}

static enum rr_hosts_kind ipv4(const uint8_t *p, size_t n, struct rr_frame_hosts *out)
{
	struct rr_cursor c;
	uint8_t vihl, proto;
	enum rr_hosts_kind k;

	rr_cursor_init(&c, p, n);
	if (!rr_peek_u8(&c, 0, &vihl) || !rr_peek_u8(&c, 9, &proto))
		return RR_HOSTS_NONE;
	k = take(&c, 12, 16, 4, 4, out);
	return k == RR_HOSTS_FOUND ? transport(&c, (size_t)(vihl & 0x0f) * 4, proto) : k;
}

static enum rr_hosts_kind ipv6(const uint8_t *p, size_t n, struct rr_frame_hosts *out)
{
	struct rr_cursor c;
	uint8_t nh, len8;
	size_t off = 40;
	enum rr_hosts_kind k;

	rr_cursor_init(&c, p, n);
	if (!rr_peek_u8(&c, 6, &nh))
		return RR_HOSTS_NONE;
	k = take(&c, 8, 24, 16, 6, out);
	if (k != RR_HOSTS_FOUND)
		return k;
	/* Hop-by-hop, routing and destination options come before the transport, as ip.c walks them. */
	for (int i = 0; i < MAX_V6_EXT && (nh == 0 || nh == 43 || nh == 60); i++) {
		if (!rr_peek_u8(&c, off, &nh) || !rr_peek_u8(&c, off + 1, &len8))
			return k;       /* cut inside the chain: the decoder reads no further either */
		off += ((size_t)len8 + 1) * 8;
	}
	return transport(&c, off, nh);
}

static enum rr_hosts_kind by_ethertype(uint16_t type, struct rr_cursor *c, struct rr_frame_hosts *out)
{
	const uint8_t *rest;
	size_t n;

	unsigned tags;

	if (l2_skip_tags(c, &type, &tags) != L2_TAGS_OK)
		return RR_HOSTS_NONE;
	rr_get_rest(c, &rest, &n);
	switch (type) {
	case ETH_P_IP:
		return ipv4(rest, n, out);
	case ETH_P_IPV6:
		return ipv6(rest, n, out);
	case ETH_P_ROCE: {
		struct rr_cursor grh;

		rr_cursor_init(&grh, rest, n);
		/* A GID is an IPv6 address (IBTA A16.4), and the engine keys a host by it as such. */
		return take(&grh, 8, 24, 16, 6, out);
	}
	default:
		return RR_HOSTS_NONE;       /* ARP, LLDP, ...: no RDMA, nothing kept */
	}
}

static enum rr_hosts_kind raw_ip(const uint8_t *p, size_t n, int version, struct rr_frame_hosts *out)
{
	if (!version && n)
		version = p[0] >> 4;
	if (version == 4)
		return ipv4(p, n, out);
	if (version == 6)
		return ipv6(p, n, out);
	return RR_HOSTS_NONE;
}

enum rr_hosts_kind rr_frame_hosts(int dlt, const uint8_t *pkt, uint32_t caplen, struct rr_frame_hosts *out)
{
	struct rr_cursor c;
	uint16_t type;

	rr_cursor_init(&c, pkt, pkt ? caplen : 0);
	switch (dlt) {
	case DLT_EN10MB:
		return l2_ethernet(&c, &type) ? by_ethertype(type, &c, out) : RR_HOSTS_NONE;
	case DLT_LINUX_SLL:
		return l2_sll(&c, &type) ? by_ethertype(type, &c, out) : RR_HOSTS_NONE;
	case DLT_LINUX_SLL2:
		return l2_sll2(&c, &type) ? by_ethertype(type, &c, out) : RR_HOSTS_NONE;
	case DLT_RAW:
	case LINKTYPE_RAW_FILE:
		return raw_ip(pkt, pkt ? caplen : 0, 0, out);
	case DLT_IPV4:
		return raw_ip(pkt, pkt ? caplen : 0, 4, out);
	case DLT_IPV6:
		return raw_ip(pkt, pkt ? caplen : 0, 6, out);
	default:
		return RR_HOSTS_NONE;
	}
}

/*
 * The bytes of an untagged Ethernet frame that decide rr_frame_hosts() for
 * it, one after the other in key (as many as its paths above read: the
 * ethertype; for IPv4 without options the protocol, the addresses and a UDP
 * destination port; for IPv6 without extension headers the next header,
 * the addresses and a UDP destination port; for RoCEv1 the GIDs).  0 for
 * any other frame, which is parsed each time.
 */
static size_t memo_key(const uint8_t *p, uint32_t caplen, uint8_t key[48])
{
	size_t n = 2;

	if (caplen < 14)
		return 0;
	memcpy(key, p + 12, 2);
	switch (p[12] << 8 | p[13]) {
	case ETH_P_IP:
		if (caplen < 14 + 20 || p[14] != 0x45)
			return 0;
		key[n++] = p[23];
		memcpy(key + n, p + 26, 8);
		n += 8;
		if (p[23] == IPPROTO_UDP_) {
			if (caplen < 14 + 20 + 4)
				return 0;
			memcpy(key + n, p + 36, 2);
			n += 2;
		}
		return n;
	case ETH_P_IPV6:
		if (caplen < 14 + 40 || p[20] == 0 || p[20] == 43 || p[20] == 60)
			return 0;
		key[n++] = p[20];
		memcpy(key + n, p + 22, 32);
		n += 32;
		if (p[20] == IPPROTO_UDP_) {
			if (caplen < 14 + 40 + 4)
				return 0;
			memcpy(key + n, p + 56, 2);
			n += 2;
		}
		return n;
	case ETH_P_ROCE:
		if (caplen < 14 + 40)
			return 0;
		memcpy(key + n, p + 22, 32);
		return n + 32;
	default:
		return 0;
	}
}

enum rr_hosts_kind rr_frame_hosts_memo(struct rr_hosts_memo *memo, int dlt, const uint8_t *pkt, uint32_t caplen,
				       struct rr_frame_hosts *out)
{
	uint8_t key[48];
	size_t n = dlt == DLT_EN10MB && pkt ? memo_key(pkt, caplen, key) : 0;
	enum rr_hosts_kind kind;
	unsigned i;

	if (!n)
		return rr_frame_hosts(dlt, pkt, caplen, out);
	/* Zero-padded, keys compare at their fixed size, which the compiler does inline (no libc call a frame). */
	memset(key + n, 0, sizeof(key) - n);
	for (i = 0; i < RR_HOSTS_MEMO; i++) {
		if (n == memo->e[i].key_len && !memcmp(key, memo->e[i].key, sizeof(key))) {
			if (memo->e[i].kind == RR_HOSTS_FOUND)
				*out = memo->e[i].hosts;
			return memo->e[i].kind;
		}
	}
	kind = rr_frame_hosts(dlt, pkt, caplen, out);
	i = memo->next++ % RR_HOSTS_MEMO;
	memo->e[i].kind = kind;
	memo->e[i].key_len = (uint8_t)n;
	memcpy(memo->e[i].key, key, sizeof(key));
	if (kind == RR_HOSTS_FOUND)
		memo->e[i].hosts = *out;
	return kind;
}
