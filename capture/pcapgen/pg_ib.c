// SPDX-License-Identifier: GPL-2.0-or-later
/* InfiniBand RC transport (BTH and extension headers) for native IB and
 * RoCE: packetization by path MTU, PSNs, ACKs, RDMA Read responses, and the
 * CM exchange over QP1. */
#include "pg_buf.h"
#include "pg_ibcm.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

enum {
	OP_SEND_FIRST = 0x00, OP_SEND_MIDDLE = 0x01, OP_SEND_LAST = 0x02, OP_SEND_ONLY = 0x04,
	OP_WRITE_FIRST = 0x06, OP_WRITE_MIDDLE = 0x07, OP_WRITE_LAST = 0x08, OP_WRITE_ONLY = 0x0a,
	OP_READ_REQ = 0x0c, OP_READ_RESP_FIRST = 0x0d, OP_READ_RESP_MIDDLE = 0x0e,
	OP_READ_RESP_LAST = 0x0f, OP_READ_RESP_ONLY = 0x10, OP_ACK = 0x11,
	OP_SEND_LAST_INV = 0x16, OP_SEND_ONLY_INV = 0x17, OP_UD_SEND_ONLY = 0x64,
};

#define PSN_MASK 0xffffffu
#define AETH_ACK 0x1f /* ACK, credit count "invalid" as most HCAs send */
#define GSI_QKEY 0x80010000u

typedef struct {
	pg_xport base;
	pg_ibcm cm;
	uint32_t qpn[2];
	uint32_t psn[2];   /* next request PSN of each side's send queue */
	uint32_t msn[2];   /* responder message sequence number of each side */
	uint32_t ud_psn[2];
	uint16_t sport[2];
	uint32_t pmtu;
	GByteArray *pkt, *frame;
	char name[160];
	char client[64], server[64];
	uint32_t psn0[2];
} pg_ib;

static pg_ib *IB(pg_xport *x)
{
	return (pg_ib *)x;
}

static void bth(GByteArray *b, uint8_t opcode, bool se, bool mig, uint32_t pad, uint32_t dqp,
		bool ackreq, uint32_t psn)
{
	pb_u8(b, opcode);
	pb_u8(b, (uint8_t)((se ? 0x80 : 0) | (mig ? 0x40 : 0) | (pad & 3) << 4));
	pb_be16(b, 0xffff); /* default P_Key */
	pb_u8(b, 0);        /* resv8a */
	pb_be24(b, dqp);
	pb_u8(b, ackreq ? 0x80 : 0);
	pb_be24(b, psn & PSN_MASK);
}

static void reth(GByteArray *b, uint64_t va, uint32_t rkey, uint32_t len)
{
	pb_be64(b, va);
	pb_be32(b, rkey);
	pb_be32(b, len);
}

static void aeth(GByteArray *b, uint32_t msn)
{
	pb_u8(b, AETH_ACK);
	pb_be24(b, msn & PSN_MASK);
}

static uint32_t payload_pad(uint32_t n)
{
	return (4 - (n & 3)) & 3;
}

/* Frame the transport packet in ib->pkt and write it. */
static uint32_t emit(pg_ib *ib, int from, int owner, uint32_t corrupt)
{
	pg_xctx *c = ib->base.ctx;
	pg_net_ib_frame(&c->net, from, ib->pkt->data, ib->pkt->len, ib->sport[from], corrupt,
			ib->frame);
	return pg_cap_frame(c->cap, ib->frame->data, ib->frame->len, &owner, owner >= 0 ? 1 : 0);
}

static uint32_t npkts(const pg_ib *ib, uint32_t len)
{
	return len ? (len + ib->pmtu - 1) / ib->pmtu : 1;
}

/* Sends and RDMA Writes: FIRST/MIDDLE/LAST or ONLY. Returns the last PSN. */
static uint32_t post_send_or_write(pg_ib *ib, int from, const pg_op *op)
{
	uint32_t n = npkts(ib, op->len), psn = 0, f;
	bool wr = op->kind == PG_OP_WRITE;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = i * ib->pmtu, chunk = MIN(ib->pmtu, op->len - off);
		bool first = i == 0, last = i + 1 == n;
		uint8_t opc;
		if (wr)
			opc = n == 1 ? OP_WRITE_ONLY : first ? OP_WRITE_FIRST : last ? OP_WRITE_LAST
										: OP_WRITE_MIDDLE;
		else if (n == 1)
			opc = op->invalidate ? OP_SEND_ONLY_INV : OP_SEND_ONLY;
		else
			opc = first ? OP_SEND_FIRST : !last ? OP_SEND_MIDDLE
				      : op->invalidate ? OP_SEND_LAST_INV : OP_SEND_LAST;
		psn = ib->psn[from];
		ib->psn[from] = (ib->psn[from] + 1) & PSN_MASK;
		g_byte_array_set_size(ib->pkt, 0);
		bth(ib->pkt, opc, last && op->solicited && !wr, true, payload_pad(chunk),
		    ib->qpn[!from], last, psn);
		if (wr && first)
			reth(ib->pkt, op->va, op->rkey, op->len);
		if (!wr && last && op->invalidate)
			pb_be32(ib->pkt, op->inv_rkey); /* IETH */
		pb_bytes(ib->pkt, op->data + off, chunk);
		pb_zero(ib->pkt, payload_pad(chunk));
		f = emit(ib, from, op->owner, first ? op->bad_crc : 0);
		if (first && op->frame_out && !*op->frame_out)
			*op->frame_out = f;
	}
	ib->msn[!from] = (ib->msn[!from] + 1) & PSN_MASK;
	return psn;
}

static void ack(pg_ib *ib, int responder, uint32_t psn)
{
	g_byte_array_set_size(ib->pkt, 0);
	bth(ib->pkt, OP_ACK, false, true, 0, ib->qpn[!responder], false, psn);
	aeth(ib->pkt, ib->msn[responder]);
	emit(ib, responder, -1, 0);
}

/* The receiver refuses the Send at psn (IBTA 9.7.5.2.8): syndrome 001 and
 * a timer code, an RNR NAK (no Receive posted); 0x61, a NAK "remote invalid
 * request" (the Send is longer than the Receive). */
static uint32_t nak(pg_ib *ib, int receiver, uint32_t psn, uint8_t syndrome)
{
	g_byte_array_set_size(ib->pkt, 0);
	bth(ib->pkt, OP_ACK, false, true, 0, ib->qpn[!receiver], false, psn);
	pb_u8(ib->pkt, syndrome);
	pb_be24(ib->pkt, ib->msn[receiver] & PSN_MASK);
	return emit(ib, receiver, -1, 0);
}

/* Replays the packets of one operation, as a requester does after a lost
 * ACK; the copies carry the same PSNs. */
static void replay(pg_ib *ib, int from, const pg_op *op, uint32_t first_psn)
{
	uint32_t saved = ib->psn[from], msn = ib->msn[!from];
	pg_op copy = *op;
	copy.bad_crc = 0;
	ib->psn[from] = first_psn;
	pg_cap_gap(ib->base.ctx->cap, 500);
	pg_cap_replay(ib->base.ctx->cap, true);
	post_send_or_write(ib, from, &copy);
	pg_cap_replay(ib->base.ctx->cap, false);
	ib->psn[from] = saved;
	ib->msn[!from] = msn;
}

typedef struct {
	const pg_op *op;
	uint32_t psn;
} pending_read;

static void read_request(pg_ib *ib, int from, const pg_op *op, pending_read *pr)
{
	uint32_t n = npkts(ib, op->len), f;
	pr->op = op;
	pr->psn = ib->psn[from];
	ib->psn[from] = (ib->psn[from] + n) & PSN_MASK;
	g_byte_array_set_size(ib->pkt, 0);
	bth(ib->pkt, OP_READ_REQ, false, true, 0, ib->qpn[!from], true, pr->psn);
	reth(ib->pkt, op->va, op->rkey, op->len);
	f = emit(ib, from, -1, 0);
	if (op->frame_out && !*op->frame_out)
		*op->frame_out = f;
}

/* The responder answers with the PSNs of the request's range (IBTA 9.7.5). */
static void read_response(pg_ib *ib, int requester, const pending_read *pr)
{
	const pg_op *op = pr->op;
	int resp = !requester;
	uint32_t n = npkts(ib, op->len);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = i * ib->pmtu, chunk = MIN(ib->pmtu, op->len - off);
		bool first = i == 0, last = i + 1 == n;
		uint8_t opc = n == 1 ? OP_READ_RESP_ONLY : first ? OP_READ_RESP_FIRST
					: last ? OP_READ_RESP_LAST : OP_READ_RESP_MIDDLE;
		if (last)
			ib->msn[resp] = (ib->msn[resp] + 1) & PSN_MASK;
		g_byte_array_set_size(ib->pkt, 0);
		bth(ib->pkt, opc, false, true, payload_pad(chunk), ib->qpn[requester], false,
		    pr->psn + i);
		if (first || last)
			aeth(ib->pkt, ib->msn[resp]);
		pb_bytes(ib->pkt, op->data + off, chunk);
		pb_zero(ib->pkt, payload_pad(chunk));
		emit(ib, resp, op->owner, first ? op->bad_crc : 0);
	}
}

static void ib_burst(pg_xport *x, int from, const pg_op *ops, size_t n)
{
	pg_ib *ib = IB(x);
	pending_read *reads = g_new0(pending_read, n ? n : 1);
	size_t nreads = 0;
	bool need_ack = false, dup_seen = false;
	uint32_t last_psn = 0;

	pg_cap_gap(x->ctx->cap, 20);
	for (size_t i = 0; i < n; i++) {
		const pg_op *op = &ops[i];
		if (op->kind == PG_OP_READ) {
			read_request(ib, from, op, &reads[nreads++]);
			continue;
		}
		{
			uint32_t first = ib->psn[from], msn = ib->msn[!from];
			last_psn = post_send_or_write(ib, from, op);
			need_ack = true;
			if (op->refuse && op->refused_frame_out && op->kind == PG_OP_SEND) {
				/* Not received: the message sequence number stays. */
				ib->msn[!from] = msn;
				pg_cap_gap(x->ctx->cap, 4);
				*op->refused_frame_out = nak(ib, !from, first, op->refuse == PG_REFUSE_TOO_LONG ?
							     0x61 : 0x20 | (op->rnr_timer & 0x1f));
				if (op->refuse == PG_REFUSE_NO_RECEIVE) {
					replay(ib, from, op, first);
					ib->msn[!from] = (ib->msn[!from] + 1) & PSN_MASK;
				}
			}
			if (op->dup) {
				replay(ib, from, op, first);
				dup_seen = true;
			}
		}
	}
	if (nreads)
		pg_cap_gap(x->ctx->cap, 8);
	for (size_t i = 0; i < nreads; i++)
		read_response(ib, from, &reads[i]);
	if (need_ack) {
		pg_cap_gap(x->ctx->cap, 4);
		ack(ib, !from, last_psn);
		if (dup_seen)
			ack(ib, !from, last_psn); /* duplicate detected: re-acknowledged */
	}
	g_free(reads);
}

static void mad(pg_ib *ib, int from, uint16_t attr)
{
	g_byte_array_set_size(ib->pkt, 0);
	bth(ib->pkt, OP_UD_SEND_ONLY, false, false, 0, 1, false, ib->ud_psn[from]++);
	pb_be32(ib->pkt, GSI_QKEY); /* DETH */
	pb_u8(ib->pkt, 0);
	pb_be24(ib->pkt, 1);        /* source QP 1 */
	pg_ibcm_mad(ib->pkt, &ib->cm, attr, from);
	pg_cap_gap(ib->base.ctx->cap, 40);
	emit(ib, from, -1, 0);
}

static void ib_connect(pg_xport *x)
{
	pg_ib *ib = IB(x);
	if (!x->ctx->s->handshake)
		return;
	mad(ib, PG_CLIENT, CM_ATTR_REQ);
	mad(ib, PG_SERVER, CM_ATTR_REP);
	mad(ib, PG_CLIENT, CM_ATTR_RTU);
	pg_cap_gap(x->ctx->cap, 200);
}

static void ib_disconnect(pg_xport *x)
{
	pg_ib *ib = IB(x);
	if (!x->ctx->s->handshake || !x->ctx->s->disconnect)
		return;
	pg_cap_gap(x->ctx->cap, 1000);
	mad(ib, PG_CLIENT, CM_ATTR_DREQ);
	mad(ib, PG_SERVER, CM_ATTR_DREP);
}

static void ib_terminate(pg_xport *x, int from)
{
	/* IB has no Terminate message; the scenario's terminate is iWARP-only. */
	(void)x;
	(void)from;
}

static void addr_str(const pg_ib *ib, int side, char *out, size_t len)
{
	const pg_net *n = &ib->base.ctx->net;
	const pg_host *h = &n->host[side];
	if (n->link->lrh) {
		snprintf(out, len, "lid 0x%04x", h->lid);
	} else if (n->link->l3 == PG_L3_IPV4) {
		snprintf(out, len, "%u.%u.%u.%u", h->ip4[0], h->ip4[1], h->ip4[2], h->ip4[3]);
	} else {
		const uint8_t *g = n->link->l3 == PG_L3_IPV6 ? h->ip6 : h->gid;
		char buf[INET6_ADDRSTRLEN];
		inet_ntop(AF_INET6, g, buf, sizeof(buf));
		snprintf(out, len, "%s", buf);
	}
}

static void ib_conninfo(pg_xport *x, pg_conninfo *ci)
{
	pg_ib *ib = IB(x);
	ci->name = ib->name;
	ci->client = ib->client;
	ci->server = ib->server;
	ci->client_qpn = ib->qpn[PG_CLIENT];
	ci->server_qpn = ib->qpn[PG_SERVER];
	ci->client_psn = ib->psn0[PG_CLIENT];
	ci->server_psn = ib->psn0[PG_SERVER];
}

static void ib_destroy(pg_xport *x)
{
	pg_ib *ib = IB(x);
	g_byte_array_free(ib->pkt, TRUE);
	g_byte_array_free(ib->frame, TRUE);
	g_free(ib);
}

pg_xport *pg_ib_new(pg_xctx *ctx)
{
	pg_ib *ib = g_new0(pg_ib, 1);
	pg_rng r = pg_rng_derive(ctx->seed, 0x494231, 0);
	const pg_scenario *s = ctx->s;
	ib->base.ctx = ctx;
	ib->base.connect = ib_connect;
	ib->base.burst = ib_burst;
	ib->base.terminate = ib_terminate;
	ib->base.disconnect = ib_disconnect;
	ib->base.conninfo = ib_conninfo;
	ib->base.destroy = ib_destroy;
	ib->pmtu = s->mtu;
	ib->pkt = g_byte_array_new();
	ib->frame = g_byte_array_new();
	for (int side = 0; side < 2; side++) {
		ib->qpn[side] = pg_rng_range(&r, 0x40, 0xfffff);
		switch (s->psn_mode) {
		case PG_PSN_WRAP:
			/* close enough to 2^24 that a few exchanges cross it */
			ib->psn[side] = PSN_MASK - pg_rng_range(&r, 2, 12);
			break;
		case PG_PSN_FIXED:
			ib->psn[side] = (s->psn + (uint32_t)side * 0x1000) & PSN_MASK;
			break;
		default:
			ib->psn[side] = pg_rng_u32(&r) & PSN_MASK;
		}
		ib->psn0[side] = ib->psn[side];
		ib->ud_psn[side] = pg_rng_u32(&r) & PSN_MASK;
		/* rxe derives the UDP source port from the QPN */
		ib->sport[side] = (uint16_t)(0xc000 | (ib->qpn[side] & 0x3fff));
		ib->cm.comm_id[side] = pg_rng_u32(&r);
	}
	ib->cm.ctx = ctx;
	ib->cm.tid = pg_rng_next(&r) & 0x0000ffffffffffffull;
	ib->cm.pmtu = ib->pmtu;
	ib->cm.cma_port = (uint16_t)pg_rng_range(&r, 32768, 60999);
	memcpy(ib->cm.qpn, ib->qpn, sizeof(ib->qpn));
	memcpy(ib->cm.psn, ib->psn, sizeof(ib->psn));
	addr_str(ib, PG_CLIENT, ib->client, sizeof(ib->client));
	addr_str(ib, PG_SERVER, ib->server, sizeof(ib->server));
	snprintf(ib->name, sizeof(ib->name), "%s qp 0x%06x <-> %s qp 0x%06x", ib->client,
		 ib->qpn[PG_CLIENT], ib->server, ib->qpn[PG_SERVER]);
	return &ib->base;
}
