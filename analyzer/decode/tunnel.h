/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tunnel.h - the encapsulations a switch mirror or an overlay fabric puts
 * around a frame (tunnel.c): GRE with Transparent Ethernet Bridging,
 * ERSPAN types I, II and III, and VXLAN.
 *
 * ip.c hands over the payload of an IP packet of protocol 47 (GRE) or of
 * a UDP datagram to port 4789 (VXLAN).  Neither function decodes what is
 * inside: each leaves the carried Ethernet frame in fx->tunnel (see
 * decode_int.h), and link.c decodes it when the outer layers have
 * returned, so the layers never call back up into one another and a
 * hostile nest of tunnels is walked in a bounded loop (TUNNEL_MAX_DEPTH).
 */
#ifndef RR_DECODE_TUNNEL_H
#define RR_DECODE_TUNNEL_H

#include "decode_int.h"

#define TUNNEL_GRE_PROTO  47
#define TUNNEL_VXLAN_PORT 4789
/* Tunnels opened inside one captured frame before it is given up. */
#define TUNNEL_MAX_DEPTH  4

/* A GRE packet (IP payload, wire bytes long) from cur on. */
void tunnel_gre(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
/* A VXLAN packet (UDP payload, wire bytes long) from cur on. */
void tunnel_vxlan(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);

#endif
