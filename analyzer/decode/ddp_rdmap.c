// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ddp_rdmap.c - DDP (RFC 5041) and RDMAP (RFC 5040) headers of one ULPDU.
 *
 *   byte 0: DDP control   T | L | Rsvd(4) | DV(2)     DV = 1
 *   byte 1: RDMAP control RV(2) | Rsvd(2) | Opcode(4) RV = 1
 *   tagged:   STag(4) TO(8)                           14 bytes in all
 *   untagged: RsvdULP/Invalidate STag(4) QN(4) MSN(4) MO(4)   18 bytes
 *   Read Request adds: sink STag(4) sink TO(8) size(4) src STag(4) src TO(8)
 *
 * Opcodes and queues (RFC 5040 4.2, 5.1): Write (0, tagged), Read Request
 * (1, QN 1), Read Response (2, tagged), Send (3), Send with Invalidate (4),
 * Send with SE (5), Send with SE and Invalidate (6) on QN 0, Terminate (7,
 * QN 2).
 */
#include <string.h>

#include "ddp.h"
#include "emit.h"
#include "stream.h"
#include "tcp_table.h"

#define DDP_TAGGED_LEN   14
#define DDP_UNTAGGED_LEN 18
#define READ_REQ_LEN     28

enum {
	OP_WRITE = 0, OP_READ_REQ, OP_READ_RESP, OP_SEND, OP_SEND_INV, OP_SEND_SE,
	OP_SEND_SE_INV, OP_TERMINATE,
};

static bool op_tagged(uint8_t op)
{
	return op == OP_WRITE || op == OP_READ_RESP;
}

static uint32_t op_queue(uint8_t op)
{
	return op == OP_READ_REQ ? 1 : op == OP_TERMINATE ? 2 : 0;
}

enum ddp_result ddp_parse(struct rr_cursor *cur, uint32_t ulpdu_len, bool strict,
			  struct ddp_hdr *h, const char **why)
{
	uint8_t ddp, rdmap;

	memset(h, 0, sizeof(*h));
	*why = NULL;
	if (ulpdu_len < 2) {
		*why = "ULPDU length";
		return DDP_BAD;
	}
	if (!rr_get_u8(cur, &ddp) || !rr_get_u8(cur, &rdmap))
		return DDP_SHORT;
	h->tagged = ddp & 0x80;
	h->last = ddp & 0x40;
	h->opcode = rdmap & 0x0F;
	if ((ddp & 0x03) != 1) {
		*why = "DDP version";
		return DDP_BAD;
	}
	if ((rdmap >> 6) != 1) {
		*why = "RDMAP version";
		return DDP_BAD;
	}
	if (h->opcode > OP_TERMINATE) {
		*why = "RDMAP opcode";
		return DDP_BAD;
	}
	if (strict && ((ddp & 0x3C) || (rdmap & 0x30))) {
		*why = "reserved DDP/RDMAP bits";
		return DDP_BAD;
	}
	if (h->tagged != op_tagged(h->opcode)) {
		*why = "DDP tagged flag for the RDMAP opcode";
		return DDP_BAD;
	}
	h->hdr_len = h->tagged ? DDP_TAGGED_LEN : DDP_UNTAGGED_LEN;
	if (h->opcode == OP_READ_REQ)
		h->hdr_len += READ_REQ_LEN;
	if (ulpdu_len < h->hdr_len) {
		*why = "ULPDU length (shorter than the DDP/RDMAP header)";
		return DDP_BAD;
	}
	if (h->tagged) {
		if (!rr_get_be32(cur, &h->stag) || !rr_get_be64(cur, &h->to))
			return DDP_SHORT;
		return DDP_OK;
	}
	if (!rr_get_be32(cur, &h->inv_stag) || !rr_get_be32(cur, &h->qn) ||
	    !rr_get_be32(cur, &h->msn) || !rr_get_be32(cur, &h->mo))
		return DDP_SHORT;
	if (h->qn != op_queue(h->opcode)) {
		*why = "DDP queue number for the RDMAP opcode";
		return DDP_BAD;
	}
	if (strict && h->msn == 0) {
		*why = "DDP MSN 0";   /* MSNs start at 1 (RFC 5041 5.1) */
		return DDP_BAD;
	}
	if (h->opcode == OP_READ_REQ) {
		if (!h->last || h->mo != 0 || ulpdu_len != h->hdr_len) {
			*why = "RDMA Read Request framing (one segment, MO 0, 28 bytes)";
			return DDP_BAD;
		}
		if (!rr_get_be32(cur, &h->sink_stag) || !rr_get_be64(cur, &h->sink_to) ||
		    !rr_get_be32(cur, &h->rd_size) || !rr_get_be32(cur, &h->src_stag) ||
		    !rr_get_be64(cur, &h->src_to))
			return DDP_SHORT;
	}
	return DDP_OK;
}

void ddp_emit(struct rr_frame_ctx *fx, struct tcp_stream *s, const struct ddp_hdr *h,
	      struct rr_cursor *cur, uint32_t ulpdu_len)
{
	struct rr_event ev;
	size_t have;

	memset(&ev, 0, sizeof(ev));
	stream_flow(s, &ev.flow);
	ev.has_offset = true;
	if (h->tagged) {
		ev.kind = h->opcode == OP_WRITE ? RR_EV_WRITE : RR_EV_READ_RESP;
		ev.rkey = h->stag;
		ev.va = h->to;
		ev.offset = h->to;
		/* No per-segment FIRST flag in DDP: a tagged message begins after
		 * the previous one's Last segment. */
		ev.frag = !h->last ? RR_FRAG_MIDDLE : s->mpa.tagged_open ? RR_FRAG_LAST : RR_FRAG_ONLY;
		s->mpa.tagged_open = !h->last;
	} else {
		ev.msn = h->msn;
		ev.offset = h->mo;
		ev.frag = !h->last ? RR_FRAG_MIDDLE : h->mo == 0 ? RR_FRAG_ONLY : RR_FRAG_LAST;
		switch (h->opcode) {
		case OP_SEND:
		case OP_SEND_SE:
			ev.kind = RR_EV_SEND;
			break;
		case OP_SEND_INV:
		case OP_SEND_SE_INV:
			ev.kind = RR_EV_SEND_INV;
			ev.inv_rkey = h->inv_stag;
			break;
		case OP_READ_REQ:
			ev.kind = RR_EV_READ_REQ;
			ev.has_reth = true;
			ev.rkey = h->src_stag;
			ev.va = h->src_to;
			ev.dma_len = h->rd_size;
			ev.sink_stag = h->sink_stag;
			ev.sink_to = h->sink_to;
			break;
		default:
			ev.kind = RR_EV_TERMINATE;
			break;
		}
	}
	ev.wirelen = ulpdu_len - (uint32_t)h->hdr_len;
	have = rr_cursor_left(cur);
	if (have > ev.wirelen)
		have = ev.wirelen;
	ev.caplen = (uint32_t)have;
	if (have)
		rr_get_bytes(cur, have, &ev.data);
	/*
	 * What lost bytes held is unknown, in this direction or the other
	 * (replies rest on calls): the engine is told once per direction and
	 * stops judging that connection's history.
	 */
	{
		const struct tcp_stream *peer = stream_peer(fx, s);

		if (!s->told_loss && (s->unseen || (peer && peer->unseen))) {
			ev.after_loss = true;
			s->told_loss = true;
		}
	}
	ev.lost_bytes = s->lost_untold;
	s->lost_untold = 0;
	dec_emit(fx, &ev);
}
