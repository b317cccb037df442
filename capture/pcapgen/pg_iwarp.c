// SPDX-License-Identifier: GPL-2.0-or-later
/* iWARP: RDMAP (RFC 5040) over DDP (RFC 5041) over MPA (RFC 5044, RFC 6581
 * enhanced connection setup) over TCP. */
#include "pg_iwarp.h"

#include "pg_buf.h"
#include "pg_crc.h"

#include <string.h>

uint32_t pg_iw_tcp_emit(pg_iw *w, int from, uint32_t seq, uint8_t flags, const uint8_t *data,
			size_t len, const uint8_t *opts, size_t optlen, const int *owners,
			size_t nown)
{
	pg_tcphdr h = { w->side[from].port, w->side[!from].port, seq, 0, flags, 0, opts, optlen };
	pg_xctx *c = w->base.ctx;
	if (flags & PG_TCP_ACK)
		h.ack = w->side[!from].nxt;
	h.win = (flags & PG_TCP_SYN) ? 64240 : (uint16_t)(262144 >> WSCALE);
	pg_net_tcp_frame(&c->net, from, &h, data, len, w->frame);
	return pg_cap_frame(c->cap, w->frame->data, w->frame->len, owners, nown);
}

void pg_iw_pure_ack(pg_iw *w, int from)
{
	pg_cap_gap(w->base.ctx->cap, 6);
	pg_iw_tcp_emit(w, from, w->side[from].nxt, PG_TCP_ACK, NULL, 0, NULL, 0, NULL, 0);
}

/* ---- FPDU construction ---------------------------------------------- */

static void begin(pg_iw *w)
{
	g_byte_array_set_size(w->stream, 0);
	g_array_set_size(w->spans, 0);
	g_array_set_size(w->dup_at, 0);
	g_array_set_size(w->reorder_at, 0);
}

/* Markers sit every 512 octets of sequence space counted from the first
 * FPDU of the direction (RFC 5044 5). */
static bool marker_due(pg_iw *w, int from)
{
	side_t *t = &w->side[from];
	uint32_t seq = t->nxt + w->stream->len;
	return w->markers && ((seq - t->fpdu0) % MARKER_INTERVAL) == 0;
}

static void marker(pg_iw *w, uint32_t len_field_at)
{
	uint32_t here = w->stream->len;
	/* FPDUPTR: octets back from the marker to the FPDU's ULPDU_Length; a
	 * marker in front of the FPDU's header points at that FPDU: 0. */
	uint32_t ptr = here > len_field_at ? here - len_field_at : 0;
	pb_be16(w->stream, 0);
	pb_be16(w->stream, (uint16_t)ptr);
}

/* Append one FPDU carrying a ULPDU (DDP segment) to the burst stream. */
static void add_fpdu(pg_iw *w, int from, const uint8_t *ulpdu, uint32_t ulen, int owner,
		     uint32_t corrupt)
{
	side_t *t = &w->side[from];
	uint32_t start = w->stream->len, len_at = start, body = 2 + ulen;
	uint32_t pad = (4 - (body & 3)) & 3, crc = 0;
	GByteArray *lb = g_byte_array_new();
	span_t sp;

	if (!t->started) {
		t->started = true;
		t->fpdu0 = t->nxt;
	}
	pb_be16(lb, (uint16_t)ulen);
	pb_bytes(lb, ulpdu, ulen);
	pb_zero(lb, pad);
	for (uint32_t off = 0; off < lb->len; off += 4) {
		if (marker_due(w, from)) {
			marker(w, len_at);
			if (off == 0)
				len_at = w->stream->len;
		}
		pb_bytes(w->stream, lb->data + off, 4);
	}
	if (marker_due(w, from))
		marker(w, len_at);
	/* The CRC covers the FPDU as sent, markers included (RFC 5044 4.4);
	 * it goes on the wire low byte first, as iSCSI's CRC32C does. */
	if (w->crc)
		crc = pg_crc32c(0, w->stream->data + start, w->stream->len - start);
	pb_le32(w->stream, crc ^ corrupt);
	g_byte_array_free(lb, TRUE);
	sp.start = start;
	sp.end = w->stream->len;
	sp.owner = owner;
	sp.frame_out = w->cur_frame_out;
	g_array_append_val(w->spans, sp);
}

static void ddp_ctrl(GByteArray *b, bool tagged, bool last, uint8_t opcode)
{
	pb_u8(b, (uint8_t)((tagged ? 0x80 : 0) | (last ? 0x40 : 0) | 0x01)); /* DDP v1 */
	pb_u8(b, (uint8_t)(0x40 | opcode));                                  /* RDMAP v1 */
}

/* An untagged message (Send*, Read Request, Terminate) cut into DDP
 * segments that each fit one FPDU. */
static void untagged(pg_iw *w, int from, uint8_t opcode, int qn, uint32_t inv,
		     const uint8_t *data, uint32_t len, int owner, uint32_t corrupt)
{
	side_t *t = &w->side[from];
	uint32_t room = w->ulpdu_max - 18, msn = t->msn[qn]++, off = 0;
	do {
		uint32_t n = MIN(room, len - off);
		bool last = off + n == len;
		g_byte_array_set_size(w->ulpdu, 0);
		ddp_ctrl(w->ulpdu, false, last, opcode);
		pb_be32(w->ulpdu, inv);
		pb_be32(w->ulpdu, (uint32_t)qn);
		pb_be32(w->ulpdu, msn);
		pb_be32(w->ulpdu, off);
		pb_bytes(w->ulpdu, data + off, n);
		add_fpdu(w, from, w->ulpdu->data, w->ulpdu->len, owner, off == 0 ? corrupt : 0);
		off += n;
	} while (off < len);
}

static void tagged(pg_iw *w, int from, uint8_t opcode, uint32_t stag, uint64_t to,
		   const uint8_t *data, uint32_t len, int owner, uint32_t corrupt)
{
	uint32_t room = w->ulpdu_max - 14, off = 0;
	do {
		uint32_t n = MIN(room, len - off);
		bool last = off + n == len;
		g_byte_array_set_size(w->ulpdu, 0);
		ddp_ctrl(w->ulpdu, true, last, opcode);
		pb_be32(w->ulpdu, stag);
		pb_be64(w->ulpdu, to + off);
		pb_bytes(w->ulpdu, data + off, n);
		add_fpdu(w, from, w->ulpdu->data, w->ulpdu->len, owner, off == 0 ? corrupt : 0);
		off += n;
	} while (off < len);
}

static void read_request(pg_iw *w, int from, const pg_op *op)
{
	GByteArray *b = g_byte_array_new();
	pb_be32(b, op->sink_stag);
	pb_be64(b, op->sink_to);
	pb_be32(b, op->len);
	pb_be32(b, op->rkey);
	pb_be64(b, op->va);
	untagged(w, from, RDMAP_READ_REQ, QN_READ, 0, b->data, b->len, -1, 0);
	g_byte_array_free(b, TRUE);
}

static void add_op(pg_iw *w, int from, const pg_op *op)
{
	uint32_t at = w->stream->len;
	uint8_t opc;
	w->cur_frame_out = op->frame_out;
	switch (op->kind) {
	case PG_OP_SEND:
		opc = op->solicited ? (op->invalidate ? RDMAP_SEND_SE_INV : RDMAP_SEND_SE)
				    : (op->invalidate ? RDMAP_SEND_INV : RDMAP_SEND);
		untagged(w, from, opc, QN_SEND, op->invalidate ? op->inv_rkey : 0, op->data,
			 op->len, op->owner, op->bad_crc);
		break;
	case PG_OP_WRITE:
		tagged(w, from, RDMAP_WRITE, op->rkey, op->va, op->data, op->len, op->owner,
		       op->bad_crc);
		break;
	case PG_OP_READ:
		read_request(w, from, op);
		break;
	}
	w->cur_frame_out = NULL;
	if (op->dup)
		g_array_append_val(w->dup_at, at);
	if (op->reorder)
		g_array_append_val(w->reorder_at, at);
}

/* ---- TCP segmentation ------------------------------------------------ */

typedef struct {
	uint32_t start, end;
} seg_t;

static GArray *segment(pg_iw *w)
{
	GArray *segs = g_array_new(FALSE, FALSE, sizeof(seg_t));
	uint32_t len = w->stream->len;
	if (w->aligned) {
		/* one FPDU per segment, as MPA senders SHOULD (RFC 5044 8) */
		for (guint i = 0; i < w->spans->len; i++) {
			const span_t *sp = &g_array_index(w->spans, span_t, i);
			for (uint32_t a = sp->start; a < sp->end; a += w->mss) {
				seg_t s = { a, MIN(a + w->mss, sp->end) };
				g_array_append_val(segs, s);
			}
		}
	} else {
		/* the stream cut at MSS boundaries: FPDUs straddle segments and
		 * small ones share a segment */
		for (uint32_t a = 0; a < len; a += w->mss) {
			seg_t s = { a, MIN(a + w->mss, len) };
			g_array_append_val(segs, s);
		}
	}
	return segs;
}

static guint seg_index(const GArray *segs, uint32_t at)
{
	for (guint i = 0; i < segs->len; i++)
		if (at < g_array_index(segs, seg_t, i).end)
			return i;
	return segs->len ? segs->len - 1 : 0;
}

static void emit_seg(pg_iw *w, int from, seg_t s)
{
	int owners[16];
	size_t n = 0;
	uint32_t f;
	for (guint i = 0; i < w->spans->len; i++) {
		const span_t *sp = &g_array_index(w->spans, span_t, i);
		bool seen = false;
		if (sp->owner < 0 || sp->end <= s.start || sp->start >= s.end)
			continue;
		for (size_t k = 0; k < n; k++)
			seen |= owners[k] == sp->owner;
		if (!seen && n < G_N_ELEMENTS(owners))
			owners[n++] = sp->owner;
	}
	f = pg_iw_tcp_emit(w, from, w->side[from].nxt + s.start, PG_TCP_ACK | PG_TCP_PSH,
			   w->stream->data + s.start, s.end - s.start, NULL, 0, owners, n);
	for (guint i = 0; i < w->spans->len; i++) {
		const span_t *sp = &g_array_index(w->spans, span_t, i);
		if (sp->frame_out && !*sp->frame_out && sp->end > s.start && sp->start < s.end)
			*sp->frame_out = f;
	}
}

static void flush(pg_iw *w, int from)
{
	GArray *segs;
	guint n;
	bool *dup;
	if (!w->stream->len)
		return;
	segs = segment(w);
	/* a single segment is cut in two so that reordering is visible */
	if (w->reorder_at->len && segs->len == 1 && w->stream->len >= 8) {
		seg_t a = g_array_index(segs, seg_t, 0), b;
		uint32_t mid = (a.end / 2) & ~3u;
		b.start = mid;
		b.end = a.end;
		a.end = mid;
		g_array_index(segs, seg_t, 0) = a;
		g_array_append_val(segs, b);
	}
	n = segs->len;
	dup = g_new0(bool, n);
	for (guint i = 0; i < w->dup_at->len; i++)
		dup[seg_index(segs, g_array_index(w->dup_at, uint32_t, i))] = true;
	for (guint i = 0; i < w->reorder_at->len; i++) {
		guint k = seg_index(segs, g_array_index(w->reorder_at, uint32_t, i));
		if (k + 1 >= n)
			k = k ? k - 1 : k;
		if (k + 1 < n) {
			seg_t t = g_array_index(segs, seg_t, k);
			bool d = dup[k];
			g_array_index(segs, seg_t, k) = g_array_index(segs, seg_t, k + 1);
			g_array_index(segs, seg_t, k + 1) = t;
			dup[k] = dup[k + 1];
			dup[k + 1] = d;
		}
	}
	pg_cap_gap(w->base.ctx->cap, 15);
	for (guint i = 0; i < n; i++) {
		emit_seg(w, from, g_array_index(segs, seg_t, i));
		if (dup[i]) {
			pg_cap_gap(w->base.ctx->cap, 300);
			pg_cap_replay(w->base.ctx->cap, true);
			emit_seg(w, from, g_array_index(segs, seg_t, i));
			pg_cap_replay(w->base.ctx->cap, false);
		}
	}
	w->side[from].nxt += w->stream->len;
	g_free(dup);
	g_array_free(segs, TRUE);
	begin(w);
}

/* The receiver refuses a Send: a Terminate naming DDP, untagged buffer
 * error (RFC 5040 4.8), code 2 "no buffer available" or 5 "message too
 * long for available buffer"; the scenario goes on as after a terminate
 * line. */
static void refuse(pg_iw *w, int receiver, uint32_t *frame_out, uint8_t code)
{
	uint8_t term[4] = { 0x10 | 0x02, code, 0, 0 };
	begin(w);
	w->cur_frame_out = frame_out;
	untagged(w, receiver, RDMAP_TERMINATE, QN_TERM, 0, term, sizeof(term), -1, 0);
	flush(w, receiver);
	w->cur_frame_out = NULL;
	pg_iw_pure_ack(w, !receiver);
}

void pg_iw_burst(pg_xport *x, int from, const pg_op *ops, size_t n)
{
	pg_iw *w = (pg_iw *)x;
	bool reads = false;
	begin(w);
	for (size_t i = 0; i < n; i++) {
		add_op(w, from, &ops[i]);
		reads |= ops[i].kind == PG_OP_READ;
	}
	flush(w, from);
	if (reads) {
		/* the peer answers each Read Request with a tagged Read
		 * Response into the requester's sink buffer */
		for (size_t i = 0; i < n; i++)
			if (ops[i].kind == PG_OP_READ)
				tagged(w, !from, RDMAP_READ_RESP, ops[i].sink_stag, ops[i].sink_to,
				       ops[i].data, ops[i].len, ops[i].owner, ops[i].bad_crc);
		flush(w, !from);
		pg_iw_pure_ack(w, from);
	} else {
		pg_iw_pure_ack(w, !from);
	}
	for (size_t i = 0; i < n; i++)
		if (ops[i].refuse && ops[i].refused_frame_out && ops[i].kind == PG_OP_SEND)
			refuse(w, !from, ops[i].refused_frame_out,
			       ops[i].refuse == PG_REFUSE_TOO_LONG ? 0x05 : 0x02);
}

void pg_iw_terminate(pg_xport *x, int from)
{
	pg_iw *w = (pg_iw *)x;
	uint8_t term[4] = { 0x00 | 0x02, 0x09, 0, 0 }; /* RDMAP, remote operation, "cannot invalidate" */
	begin(w);
	untagged(w, from, RDMAP_TERMINATE, QN_TERM, 0, term, sizeof(term), -1, 0);
	flush(w, from);
	pg_iw_pure_ack(w, !from);
}

