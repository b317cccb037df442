/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tcp.h - TCP reassembly under iWARP (tcp_stream.c): what ip.c hands it
 * and what frame_decoder.c asks of it at the end of a capture part.
 */
#ifndef RR_DECODE_TCP_H
#define RR_DECODE_TCP_H

#include "decode_int.h"
#include "ip.h"

/* A TCP header as reassembly needs it. */
struct tcp_view {
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
};
#define TCPF_FIN 0x01
#define TCPF_SYN 0x02
#define TCPF_RST 0x04
#define TCPF_ACK 0x10

/* One TCP segment: payload holds its captured bytes, wire its length. */
void tcp_segment(struct rr_frame_ctx *fx, const struct ip_view *ip, const struct tcp_view *tcp,
		 struct rr_cursor *payload, uint32_t wire);
/* End of the capture (or of a part of it): decode what every direction still holds. */
void tcp_finish(struct rr_frame_ctx *fx);

#endif
