/* SPDX-License-Identifier: GPL-2.0-or-later */
/* InfiniBand Communication Management MADs (IBTA Vol. 1 ch. 12) with
 * RDMA-CM (IP addressing) and RFC 8797 private data. */
#ifndef PG_IBCM_H
#define PG_IBCM_H

#include "pg_xport.h"

enum { CM_ATTR_REQ = 0x0010, CM_ATTR_REP = 0x0013, CM_ATTR_RTU = 0x0014,
       CM_ATTR_DREQ = 0x0015, CM_ATTR_DREP = 0x0016 };

#define PG_NFS_RDMA_PORT 20049
#define PG_RDMA_PS_TCP 0x0106

typedef struct {
	const pg_xctx *ctx;
	uint64_t tid;
	uint32_t comm_id[2];
	uint32_t qpn[2];
	uint32_t psn[2];
	uint32_t pmtu;
	uint16_t cma_port; /* client's RDMA-CM source port */
} pg_ibcm;

/* Append the 256-byte MAD for attr, sent by side `from`. */
void pg_ibcm_mad(GByteArray *b, const pg_ibcm *cm, uint16_t attr, int from);
uint64_t pg_ibcm_service_id(uint16_t port);

#endif
