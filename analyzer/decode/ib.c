// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ib.c - the IB transport layer: BTH, its extension headers, and the
 * Communication Manager MADs that set RC connections up.
 *
 * The caller (roce.c) hands a cursor from the BTH to the start of the ICRC
 * and the wire length of that span.  The event payload is what is left
 * after the BTH and its extension headers, minus the BTH PadCnt bytes.
 *
 * Only RC (and UC, which shares the opcodes) carry RPC-over-RDMA; UD
 * matters only for MADs to QP1 with management class CM (IBTA vol 1
 * ch. 12; field offsets as in Linux include/rdma/ibta_vol1_c12.h).
 */
#include <string.h>

#include "emit.h"
#include "ib.h"

#define BTH_LEN  12
#define RETH_LEN 16
#define AETH_LEN 4
#define IMM_LEN  4
#define IETH_LEN 4
#define DETH_LEN 8
#define MAD_HDR  24
#define MAD_LEN  256
#define CM_IDS_LEN 8

#define TR_RC 0
#define TR_UC 1
#define TR_UD 3

enum { X_RETH = 1, X_AETH = 2, X_IMM = 4, X_IETH = 8, X_UC = 16 };

struct ib_op {
	const char *name;
	uint8_t kind;   /* enum rr_event_kind, 0 = not an event */
	uint8_t frag;
	uint8_t ext;
};

/* RC opcodes 0x00-0x17 (low five bits); UC uses the ones marked X_UC. */
static const struct ib_op rc_ops[0x18] = {
	[0x00] = { "SEND_FIRST", RR_EV_SEND, RR_FRAG_FIRST, X_UC },
	[0x01] = { "SEND_MIDDLE", RR_EV_SEND, RR_FRAG_MIDDLE, X_UC },
	[0x02] = { "SEND_LAST", RR_EV_SEND, RR_FRAG_LAST, X_UC },
	[0x03] = { "SEND_LAST_WITH_IMMEDIATE", RR_EV_SEND, RR_FRAG_LAST, X_IMM | X_UC },
	[0x04] = { "SEND_ONLY", RR_EV_SEND, RR_FRAG_ONLY, X_UC },
	[0x05] = { "SEND_ONLY_WITH_IMMEDIATE", RR_EV_SEND, RR_FRAG_ONLY, X_IMM | X_UC },
	[0x06] = { "RDMA_WRITE_FIRST", RR_EV_WRITE, RR_FRAG_FIRST, X_RETH | X_UC },
	[0x07] = { "RDMA_WRITE_MIDDLE", RR_EV_WRITE, RR_FRAG_MIDDLE, X_UC },
	[0x08] = { "RDMA_WRITE_LAST", RR_EV_WRITE, RR_FRAG_LAST, X_UC },
	[0x09] = { "RDMA_WRITE_LAST_WITH_IMMEDIATE", RR_EV_WRITE, RR_FRAG_LAST, X_IMM | X_UC },
	[0x0A] = { "RDMA_WRITE_ONLY", RR_EV_WRITE, RR_FRAG_ONLY, X_RETH | X_UC },
	[0x0B] = { "RDMA_WRITE_ONLY_WITH_IMMEDIATE", RR_EV_WRITE, RR_FRAG_ONLY,
		   X_RETH | X_IMM | X_UC },
	[0x0C] = { "RDMA_READ_REQUEST", RR_EV_READ_REQ, RR_FRAG_ONLY, X_RETH },
	[0x0D] = { "RDMA_READ_RESPONSE_FIRST", RR_EV_READ_RESP, RR_FRAG_FIRST, X_AETH },
	[0x0E] = { "RDMA_READ_RESPONSE_MIDDLE", RR_EV_READ_RESP, RR_FRAG_MIDDLE, 0 },
	[0x0F] = { "RDMA_READ_RESPONSE_LAST", RR_EV_READ_RESP, RR_FRAG_LAST, X_AETH },
	[0x10] = { "RDMA_READ_RESPONSE_ONLY", RR_EV_READ_RESP, RR_FRAG_ONLY, X_AETH },
	[0x11] = { "ACKNOWLEDGE", RR_EV_ACK, RR_FRAG_ONLY, X_AETH },
	/* 0x12-0x14 atomics, 0x15 reserved: no event */
	[0x16] = { "SEND_LAST_WITH_INVALIDATE", RR_EV_SEND_INV, RR_FRAG_LAST, X_IETH },
	[0x17] = { "SEND_ONLY_WITH_INVALIDATE", RR_EV_SEND_INV, RR_FRAG_ONLY, X_IETH },
};

static size_t ext_len(uint8_t ext)
{
	return (ext & X_RETH ? RETH_LEN : 0) + (ext & X_AETH ? AETH_LEN : 0) +
	       (ext & X_IMM ? IMM_LEN : 0) + (ext & X_IETH ? IETH_LEN : 0);
}

/* The bytes after the headers: captured part, wire length, truncation. */
static bool payload(struct rr_frame_ctx *fx, struct ib_view *ib, size_t hdr, uint8_t pad,
		    struct rr_event *ev)
{
	size_t have = rr_cursor_left(&ib->bth);
	uint32_t wire;

	if (ib->wire < hdr + pad) {
		dec_malformed(fx, "%s frame %" PRIu64 ": %u bytes after the BTH cannot hold %zu header bytes and PadCnt %u",
			      ib->what, fx->frame, ib->wire, hdr - BTH_LEN, pad);
		return false;
	}
	wire = ib->wire - (uint32_t)hdr - pad;
	if (have > wire)
		have = wire;
	ev->wirelen = wire;
	ev->caplen = (uint32_t)have;
	rr_get_bytes(&ib->bth, have, &ev->data);
	if (have < wire)
		dec_short(fx, "%s frame %" PRIu64 ": %u of %u payload bytes", ib->what, fx->frame,
			  (unsigned)have, wire);
	return true;
}

/* CM MADs: IBTA vol 1 12.6; offsets after the 24-byte MAD header. */
enum {
	CM_REQ = 0x0010, CM_REJ = 0x0012, CM_REP = 0x0013, CM_RTU = 0x0014,
	CM_DREQ = 0x0015, CM_DREP = 0x0016,
};

static uint32_t at24(struct rr_cursor *c, size_t off)
{
	uint32_t v = 0;

	rr_seek(c, off);
	rr_get_be24(c, &v);
	return v;
}

static uint32_t at32(struct rr_cursor *c, size_t off)
{
	uint32_t v = 0;

	rr_seek(c, off);
	rr_get_be32(c, &v);
	return v;
}

static uint8_t at8(struct rr_cursor *c, size_t off)
{
	uint8_t v = 0;

	rr_seek(c, off);
	rr_get_u8(c, &v);
	return v;
}

static void cm_mad(struct rr_frame_ctx *fx, struct ib_view *ib, struct rr_event *ev)
{
	struct rr_cursor mad, data;
	uint8_t base, mclass, cver;
	uint16_t attr;
	size_t pd_off, pd_len, have;

	rr_cursor_init(&mad, ev->data, ev->caplen);
	if (!rr_get_u8(&mad, &base) || !rr_get_u8(&mad, &mclass) || !rr_get_u8(&mad, &cver) ||
	    !rr_skip(&mad, 13) || !rr_get_be16(&mad, &attr) || !rr_skip(&mad, 6)) {
		if (ev->caplen < ev->wirelen)
			return;     /* dec_short already said so */
		dec_malformed(fx, "%s frame %" PRIu64 ": MAD to QP1 shorter than its 24-byte header",
			      ib->what, fx->frame);
		return;
	}
	if (mclass != 0x07)
		return;     /* SA, PerfMgt, ...: not connection management */
	if (base != 1 || ev->wirelen != MAD_LEN) {
		dec_malformed(fx, "%s frame %" PRIu64 ": CM MAD base version %u, length %u (want 1, 256)",
			      ib->what, fx->frame, base, ev->wirelen);
		return;
	}
	(void)cver;
	switch (attr) {
	case CM_REQ: ev->cm.kind = RR_CM_REQ; pd_off = 140; pd_len = 92; break;
	case CM_REP: ev->cm.kind = RR_CM_REP; pd_off = 36; pd_len = 196; break;
	case CM_RTU: ev->cm.kind = RR_CM_RTU; pd_off = 8; pd_len = 224; break;
	case CM_REJ: ev->cm.kind = RR_CM_REJ; pd_off = 84; pd_len = 148; break;
	case CM_DREQ: ev->cm.kind = RR_CM_DREQ; pd_off = 12; pd_len = 220; break;
	case CM_DREP: ev->cm.kind = RR_CM_DREP; pd_off = 8; pd_len = 224; break;
	default:
		return;     /* MRA, LAP, APR, SIDR, ClassPortInfo */
	}
	/* data: the 232 bytes after the MAD header, as far as captured;
	 * positions below are IBTA offsets within it. */
	have = rr_cursor_left(&mad);
	rr_cursor_sub(&mad, have, &data);
	/* Cut by the snaplen: fields past the cut stay 0 (dec_short said so),
	 * but the communication IDs are the least an event needs. */
	if (have < CM_IDS_LEN)
		return;
	ev->cm.local_comm_id = at32(&data, 0);
	ev->cm.remote_comm_id = at32(&data, 4);
	switch (attr) {
	case CM_REQ:
		ev->cm.remote_comm_id = 0;
		rr_seek(&data, 8);
		rr_get_be64(&data, &ev->cm.service_id);
		ev->cm.local_qpn = at24(&data, 32);
		ev->cm.responder_resources = at8(&data, 35);
		ev->cm.initiator_depth = at8(&data, 39);
		ev->cm.start_psn = at24(&data, 44);
		break;
	case CM_REP:
		ev->cm.local_qpn = at24(&data, 12);
		ev->cm.start_psn = at24(&data, 20);
		ev->cm.responder_resources = at8(&data, 24);
		ev->cm.initiator_depth = at8(&data, 25);
		break;
	}
	if (have > pd_off) {
		size_t n = have - pd_off < pd_len ? have - pd_off : pd_len;

		rr_seek(&data, pd_off);
		rr_get_bytes(&data, n, &ev->cm.private_data);
		ev->cm.private_len = (uint32_t)n;
	}
	ev->cm.private_cut = have < pd_off + pd_len;
	ev->kind = RR_EV_CM;
	ev->frag = RR_FRAG_ONLY;
	ev->data = NULL;
	ev->caplen = ev->wirelen = 0;
	dec_emit(fx, ev);
}

static void ud_packet(struct rr_frame_ctx *fx, struct ib_view *ib, uint8_t code, uint8_t pad,
		      struct rr_event *ev)
{
	size_t hdr = BTH_LEN + DETH_LEN + (code == 0x05 ? IMM_LEN : 0);

	if (code != 0x04 && code != 0x05)
		return;
	if (ev->flow.dst_qp != 1)
		return;     /* UD data (IPoIB, ...) is not RPC-over-RDMA */
	if (ib->wire < hdr) {
		dec_malformed(fx, "%s frame %" PRIu64 ": UD SEND to QP1 of %u bytes cannot hold DETH",
			      ib->what, fx->frame, ib->wire);
		return;
	}
	if (!rr_skip(&ib->bth, hdr - BTH_LEN)) {
		dec_short(fx, "%s frame %" PRIu64 ": DETH not captured", ib->what, fx->frame);
		return;
	}
	if (payload(fx, ib, hdr, pad, ev))
		cm_mad(fx, ib, ev);
}

void ib_transport(struct rr_frame_ctx *fx, struct ib_view *ib)
{
	struct rr_event ev;
	uint8_t opcode, b1;
	uint32_t qp, psn;
	const struct ib_op *op;
	uint8_t tr, code, pad;
	size_t hdr;
	const uint8_t *b;

	if (ib->wire < BTH_LEN) {
		dec_malformed(fx, "%s frame %" PRIu64 ": %u bytes cannot hold a BTH", ib->what,
			      fx->frame, ib->wire);
		return;
	}
	if (rr_cursor_left(&ib->bth) < BTH_LEN) {
		dec_short(fx, "%s frame %" PRIu64 ": BTH not captured", ib->what, fx->frame);
		return;
	}
	/* Its 12 bytes read in place once bounded: OpCode, SE|M|Pad|TVer, P_Key, resv, DestQP, A|resv, PSN. */
	b = ib->bth.base + ib->bth.pos;
	opcode = b[0];
	b1 = b[1];
	qp = (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
	psn = (uint32_t)b[9] << 16 | (uint32_t)b[10] << 8 | b[11];
	rr_skip(&ib->bth, BTH_LEN);
	if ((b1 & 0x0F) != 0) {
		dec_malformed(fx, "%s frame %" PRIu64 ": BTH TVer %u (only 0 is defined)", ib->what,
			      fx->frame, b1 & 0x0F);
		return;
	}
	/* A BTH we accept: the frame is IB transport (on UDP 4791, the first sign of it). */
	dec_rdma(fx);
	if (ib->damaged)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.flow = ib->flow;
	ev.flow.dst_qp = qp;
	ev.psn = psn;
	tr = opcode >> 5;
	code = opcode & 0x1F;
	pad = (b1 >> 4) & 3;

	if (tr == TR_UD) {
		ud_packet(fx, ib, code, pad, &ev);
		return;
	}
	if ((tr != TR_RC && tr != TR_UC) || code >= G_N_ELEMENTS(rc_ops))
		return;     /* RD, CNP, XRC, atomics: nothing we rebuild */
	op = &rc_ops[code];
	if (!op->kind || (tr == TR_UC && !(op->ext & X_UC)))
		return;
	hdr = BTH_LEN + ext_len(op->ext);
	if (ib->wire < hdr) {
		dec_malformed(fx, "%s frame %" PRIu64 ": %s needs %zu header bytes, packet has %u",
			      ib->what, fx->frame, op->name, hdr, ib->wire);
		return;
	}
	if (rr_cursor_left(&ib->bth) < hdr - BTH_LEN) {
		dec_short(fx, "%s frame %" PRIu64 ": %s headers not captured", ib->what, fx->frame,
			  op->name);
		return;
	}
	ev.kind = op->kind;
	ev.frag = op->frag;
	if (op->ext & X_RETH) {
		ev.has_reth = true;
		rr_get_be64(&ib->bth, &ev.va);
		rr_get_be32(&ib->bth, &ev.rkey);
		rr_get_be32(&ib->bth, &ev.dma_len);
	}
	if (op->ext & X_AETH)
		rr_get_be32(&ib->bth, &ev.aeth);
	if (op->ext & X_IMM) {
		ev.has_imm = true;
		rr_get_be32(&ib->bth, &ev.imm);
	}
	if (op->ext & X_IETH)
		rr_get_be32(&ib->bth, &ev.inv_rkey);
	if (!payload(fx, ib, hdr, pad, &ev))
		return;
	dec_emit(fx, &ev);
}
