/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rfc8797.h - the RPC-over-RDMA CM private message (RFC 8797): what each
 * side of a connection says in the RDMA-CM private data about the Sends it
 * can take and whether it accepts Send With Invalidate.
 *
 * Wire layout (RFC 8797 4): magic 0xf6ab0e18 (32 bits), version (8),
 * flags (8), send size (8), receive size (8); a size byte n means
 * (n + 1) * 1024 bytes.  The message sits after whatever the CM itself puts
 * first (the RDMA-CM IP header in an IB CM REQ), so it is searched for at
 * every word of the first 64 bytes.
 */
#ifndef RPCRDMA_RFC8797_H
#define RPCRDMA_RFC8797_H

#include <stdbool.h>
#include <stdint.h>

#define RR_RFC8797_MAGIC 0xf6ab0e18u
#define RR_RFC8797_F_SND_W_INV_OK 0x01u   /* the sender accepts Send With Invalidate */

struct rr_rfc8797 {
	uint32_t offset;          /* where the magic starts in the private data */
	uint8_t version, flags;
	uint8_t send_raw, recv_raw;
	uint32_t send_size;       /* bytes this side can send in one Send */
	uint32_t recv_size;       /* bytes this side can receive */
};

/* False when there is no version 1 message in the private data. */
bool rr_rfc8797_find(const uint8_t *pd, uint32_t len, struct rr_rfc8797 *out);

#endif
