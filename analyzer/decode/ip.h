/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ip.h - IPv4/IPv6 and the UDP/TCP headers on them (ip.c).  UDP to port
 * 4791 goes on to roce_v2() (ib.h), TCP to tcp_segment() (tcp.h).
 */
#ifndef RR_DECODE_IP_H
#define RR_DECODE_IP_H

#include "decode_int.h"

/* An IP header as the layers above it need it. */
struct ip_view {
	int version;                /* 4 or 6 */
	uint8_t src[16], dst[16];
	struct rr_cursor hdr;       /* the IP header bytes, for the RoCEv2 ICRC */
};

/* One IP packet of the given version (4 or 6), wire bytes from cur on. */
void ip_packet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version);

#endif
