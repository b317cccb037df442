/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Link, network and TCP/UDP headers around IB transport packets and TCP
 * segments, plus the IB ICRC/VCRC that depend on them. */
#ifndef PG_NET_H
#define PG_NET_H

#include "pg_scenario.h"

typedef struct {
	uint8_t mac[6];
	uint8_t ip4[4];
	uint8_t ip6[16];
	uint8_t gid[16];   /* source GID on this link type */
	uint64_t guid;
	uint16_t lid;
	uint32_t ifindex;
} pg_host;

typedef struct {
	const pg_link_info *link;
	pg_host host[2];
	uint16_t ip_id[2];
	uint32_t flow6;
} pg_net;

void pg_net_init(pg_net *n, const pg_link_info *link, uint64_t seed);

/* Frame an IB transport packet (BTH, extension headers, payload, pad; no
 * ICRC) sent by side `from`. sport is the RoCEv2 UDP source port.
 * corrupt: XOR mask applied to the ICRC (0 for a correct one). */
void pg_net_ib_frame(pg_net *n, int from, const uint8_t *ibt, size_t len, uint16_t sport,
		     uint32_t corrupt, GByteArray *out);

#define PG_TCP_FIN 0x01
#define PG_TCP_SYN 0x02
#define PG_TCP_RST 0x04
#define PG_TCP_PSH 0x08
#define PG_TCP_ACK 0x10

typedef struct {
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;
	const uint8_t *opts;
	size_t optlen;
} pg_tcphdr;

void pg_net_tcp_frame(pg_net *n, int from, const pg_tcphdr *h, const uint8_t *data, size_t len,
		      GByteArray *out);

/* Compute the ICRC of a complete frame as produced by pg_net_ib_frame
 * (without its ICRC/VCRC trailer): exposed for the unit test. */
uint32_t pg_net_icrc(const pg_link_info *link, const uint8_t *frame, size_t len);
/* Offset where the IB transport (BTH) starts in a frame of this link. */
size_t pg_net_ib_hdrlen(const pg_link_info *link);

#endif
