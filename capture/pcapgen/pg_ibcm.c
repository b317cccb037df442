// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_ibcm.h"

#include "pg_buf.h"

#include <string.h>

uint64_t pg_ibcm_service_id(uint16_t port)
{
	/* RDMA-CM IP service: 0x0000_0000_01 | port space | port */
	return 0x0000000001000000ull | (uint64_t)PG_RDMA_PS_TCP << 16 | port;
}

void pg_cm_private(GByteArray *b, const pg_xctx *ctx)
{
	uint8_t size = (uint8_t)(ctx->inline_max / 1024 - 1);
	pb_be32(b, 0xf6ab0e18u); /* RFC 8797 cp_magic */
	pb_u8(b, 1);             /* cp_version */
	pb_u8(b, ctx->remote_inv ? 1 : 0);
	pb_u8(b, size);          /* cp_send_size */
	pb_u8(b, size);          /* cp_recv_size */
}

static uint8_t mtu_enum(uint32_t pmtu)
{
	switch (pmtu) {
	case 256: return 1;
	case 512: return 2;
	case 1024: return 3;
	case 2048: return 4;
	default: return 5;
	}
}

/* RDMA-CM's header in front of the ULP's REQ private data (Linux
 * struct cma_hdr): version, IP version, source port, source and
 * destination address (IPv4 in the last 4 bytes). */
static void cma_hdr(GByteArray *b, const pg_ibcm *cm)
{
	const pg_net *n = &cm->ctx->net;
	bool v6 = n->link->l3 == PG_L3_IPV6;
	pb_u8(b, 0x00);
	pb_u8(b, v6 ? 0x60 : 0x40);
	pb_be16(b, cm->cma_port);
	for (int s = PG_CLIENT; s <= PG_SERVER; s++) {
		if (v6) {
			pb_bytes(b, n->host[s].ip6, 16);
		} else {
			pb_zero(b, 12);
			pb_bytes(b, n->host[s].ip4, 4);
		}
	}
}

static void pad_to(GByteArray *b, size_t start, size_t len)
{
	if (b->len - start > len)
		pg_bug("CM message overflow");
	pb_zero(b, len - (b->len - start));
}

static void cm_req(GByteArray *b, const pg_ibcm *cm)
{
	const pg_net *n = &cm->ctx->net;
	const pg_host *c = &n->host[PG_CLIENT], *s = &n->host[PG_SERVER];
	bool roce = !n->link->lrh;
	size_t pd;
	pb_be32(b, cm->comm_id[PG_CLIENT]);
	pb_be32(b, 0);
	pb_be64(b, pg_ibcm_service_id(cm->ctx->s->port));
	pb_be64(b, c->guid);
	pb_be32(b, 0);
	pb_be32(b, 0);                                   /* local Q_Key */
	pb_be32(b, cm->qpn[PG_CLIENT] << 8 | 16);        /* QPN | responder resources */
	pb_be32(b, 0 << 8 | 0);                          /* EECN | initiator depth */
	pb_be32(b, 0 << 8 | 20u << 3 | 0u << 1 | 1u);   /* rEECN | timeout | RC | E2E fc */
	pb_be32(b, cm->psn[PG_CLIENT] << 8 | 20u << 3 | 7u); /* PSN | timeout | retries */
	pb_be16(b, 0xffff);
	pb_u8(b, (uint8_t)(mtu_enum(cm->pmtu) << 4 | 7)); /* MTU | RDC | RNR retry */
	pb_u8(b, 15u << 4);                              /* max CM retries */
	pb_be16(b, roce ? 0xffff : c->lid);
	pb_be16(b, roce ? 0xffff : s->lid);
	pb_bytes(b, c->gid, 16);
	pb_bytes(b, s->gid, 16);
	pb_be32(b, 0u << 12 | 3u);                       /* flow label | packet rate */
	pb_u8(b, 0);                                     /* traffic class */
	pb_u8(b, roce ? (n->link->grh ? 1 : 64) : 0xff); /* hop limit */
	pb_u8(b, (uint8_t)(0u << 4 | (roce && !n->link->grh ? 0 : 1) << 3)); /* SL | subnet local */
	pb_u8(b, 18u << 3);                              /* local ACK timeout */
	pb_zero(b, 44);                                  /* no alternate path */
	pd = b->len;
	cma_hdr(b, cm);
	pg_cm_private(b, cm->ctx);
	pad_to(b, pd, 92);
}

static void cm_rep(GByteArray *b, const pg_ibcm *cm)
{
	const pg_host *s = &cm->ctx->net.host[PG_SERVER];
	size_t pd;
	pb_be32(b, cm->comm_id[PG_SERVER]);
	pb_be32(b, cm->comm_id[PG_CLIENT]);
	pb_be32(b, 0);
	pb_be32(b, cm->qpn[PG_SERVER] << 8);
	pb_be32(b, 0);
	pb_be32(b, cm->psn[PG_SERVER] << 8);
	pb_u8(b, 0);                      /* responder resources */
	pb_u8(b, 16);                     /* initiator depth: server issues the RDMA Reads */
	pb_u8(b, (uint8_t)(16u << 3 | 0u << 1 | 1u)); /* ack delay | failover | E2E fc */
	pb_u8(b, 7u << 5);                /* RNR retry */
	pb_be64(b, s->guid);
	pd = b->len;
	pg_cm_private(b, cm->ctx);
	pad_to(b, pd, 196);
}

void pg_ibcm_mad(GByteArray *b, const pg_ibcm *cm, uint16_t attr, int from)
{
	size_t start = b->len, data;
	pb_u8(b, 1);    /* base version */
	pb_u8(b, 0x07); /* CM class */
	pb_u8(b, 2);    /* class version */
	pb_u8(b, 0x03); /* method: Send */
	pb_be16(b, 0);
	pb_be16(b, 0);
	pb_be64(b, cm->tid + (attr >= CM_ATTR_DREQ ? 1 : 0));
	pb_be16(b, attr);
	pb_be16(b, 0);
	pb_be32(b, 0);
	data = b->len;
	switch (attr) {
	case CM_ATTR_REQ:
		cm_req(b, cm);
		break;
	case CM_ATTR_REP:
		cm_rep(b, cm);
		break;
	case CM_ATTR_RTU:
	case CM_ATTR_DREP:
		pb_be32(b, cm->comm_id[from]);
		pb_be32(b, cm->comm_id[!from]);
		break;
	case CM_ATTR_DREQ:
		pb_be32(b, cm->comm_id[from]);
		pb_be32(b, cm->comm_id[!from]);
		pb_be32(b, cm->qpn[!from] << 8);
		break;
	default:
		pg_bug("CM attribute 0x%04x", attr);
	}
	pad_to(b, data, 232);
	if (b->len - start != 256)
		pg_bug("MAD length %u", (unsigned)(b->len - start));
}
