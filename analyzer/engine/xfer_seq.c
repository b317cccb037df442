// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IB/RoCE request-stream sequence: duplicates, and the gaps that show the
 * capture lost packets.
 *
 * Each request packet (Send, Write, Read Request) takes the next PSN of
 * its sender's request stream, modulo 2^24 (IBTA 9.7); a Read Request
 * takes one PSN per packet of its response.  So on one flow:
 *  - a PSN at or before the newest one seen, within a send window, is a
 *    retransmission or a duplicate (CAP-DUP): not loss, not used again;
 *  - a PSN past the next expected one means the packets between were sent
 *    and the capture does not hold them: they are counted lost on the flow
 *    and the connection is marked (rr_conn_note_loss), so that checks
 *    resting on its history are skipped, never judged on what is missing;
 *  - an ACK the other side sends acknowledges the request stream up to its
 *    PSN (a NAK up to the PSN before): packets up to there that the capture
 *    did not show are lost too.  This tells a lost call before its reply
 *    comes, when the responder acknowledges before it answers.
 * A jump forward or back by more than a send window is a new sequence (a
 * new connection on the same QP numbers whose handshake was not captured):
 * the history no longer applies, but how much was lost is unknown.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "xfer_int.h"

/*
 * How far back a retransmission can reach: a requester resends from the
 * oldest unacknowledged packet, which is within its send window.  Further
 * behind, or ahead, than this is a new PSN sequence.
 */
#define RR_PSN_RETRANSMIT_WINDOW 0x10000u

/* Smallest IB PMTU: a Read Response has at most len/256 + 1 packets. */
#define RR_MIN_PMTU 256u

/* PSNs a Read Request takes (its response packets), and how many more it may take. */
static uint32_t read_span(struct rr_flow *f, const struct rr_event *ev, uint32_t *slack)
{
	struct rr_flow *peer = rr_flow_peer(f);
	uint32_t pmtu = f->xfer->pmtu;

	*slack = 0;
	if (!pmtu && peer && peer->xfer)
		pmtu = peer->xfer->pmtu;   /* both ends of a connection use one path MTU */
	if (!ev->dma_len)
		return 1;
	if (pmtu)
		return (uint32_t)(((uint64_t)ev->dma_len + pmtu - 1) / pmtu);
	*slack = ev->dma_len / RR_MIN_PMTU;
	return 1;
}

/* Who sent f's packets, as a finding names them. */
static const char *sender(const struct rr_flow *f)
{
	if (f->conn->requester < 0)
		return "one end";
	return rr_flow_is_requester(f) ? "the requester" : "the responder";
}

/*
 * The latest hole, as much of it as no late packet filled: told once it
 * can no longer be filled (a newer hole, a new sequence, the connection's
 * end), so that a packet the capture only reordered is not called lost;
 * then forgotten.
 */
static void tell_hole(struct rr_engine *eng, struct rr_flow *f)
{
	struct rr_xfer_flow *x = f->xfer;
	char psns[40];

	if (x->hole_len && x->hole_frame) {
		if (x->hole_len == 1)
			snprintf(psns, sizeof(psns), "PSN 0x%06x", x->hole_start);
		else
			snprintf(psns, sizeof(psns), "PSN 0x%06x to 0x%06x", x->hole_start,
				 (x->hole_start + x->hole_len - 1) & RR_PSN_MASK);
		rr_diag_report(&eng->diag, CAP_PSN_GAP, x->hole_frame,
			       "%u packet%s sent by %s on %s (%s) %s missing (not in the capture, or dropped for a "
			       "bad ICRC): what %s carried is not known", x->hole_len, x->hole_len == 1 ? "" : "s", sender(f), rr_conn_name(f->conn), psns,
			       x->hole_len == 1 ? "is" : "are", x->hole_len == 1 ? "it" : "they");
	}
	x->hole_len = 0;
	x->hole_frame = 0;
}

/* The PSNs [from, to) were not captured (found at frame): counted on f, and f's connection marked. */
static void lost(struct rr_engine *eng, struct rr_flow *f, uint32_t from, uint32_t to, uint64_t frame)
{
	struct rr_xfer_flow *x = f->xfer;
	uint32_t n = rr_psn_dist(from, to);

	eng->xfer->psn_gaps++;
	tell_hole(eng, f);
	x->hole_start = from;
	x->hole_len = n;
	x->hole_frame = frame;
	rr_conn_note_loss(f, n, 0);
}

void rr_xfer_tell_hole(struct rr_engine *eng, struct rr_flow *f)
{
	if (f->xfer)
		tell_hole(eng, f);
}

/*
 * The stream is known up to (not including) upto.  Packets between what
 * was accounted for and upto are lost, except the ones a Read Request
 * whose response length is unknown may have taken.
 */
static void known_upto(struct rr_engine *eng, struct rr_flow *f, uint32_t upto, uint64_t frame)
{
	struct rr_xfer_flow *x = f->xfer;
	uint32_t d = rr_psn_dist(x->req_next, upto);

	if (!rr_psn_after(x->req_next, upto))
		return;                    /* nothing new (or behind) */
	if (d <= x->req_slack) {
		x->req_slack -= d;
	} else {
		lost(eng, f, (x->req_next + x->req_slack) & RR_PSN_MASK, upto, frame);
		x->req_slack = 0;
	}
	x->req_next = upto;
}

/* Packets of o's response, at PSN MTU pmtu (0: unknown). */
static uint32_t response_packets(const struct rr_read_req *o, uint32_t pmtu)
{
	if (!pmtu)
		return 0;
	return o->len ? (uint32_t)(((uint64_t)o->len + pmtu - 1) / pmtu) : 1;
}

/*
 * Responses come in the order of their requests (IBTA 9.7.5), one PSN per
 * packet from the request's own: packets r's response skipped were lost,
 * and so was what earlier requests' responses still lacked.
 */
void rr_xfer_read_resp_seq(struct rr_engine *eng, struct rr_flow *f, struct rr_flow *reader, struct rr_read_req *r,
			   const struct rr_event *ev)
{
	uint32_t d = rr_psn_dist(r->psn, ev->psn);
	uint32_t pmtu = ev->frag == RR_FRAG_FIRST ? ev->wirelen : r->pmtu ? r->pmtu : rr_xf(f)->pmtu;
	uint64_t n = 0;
	GList *l;

	if (d > r->resp_next)
		n += d - r->resp_next;
	if (d >= r->resp_next)
		r->resp_next = d + 1;
	l = g_queue_find(&reader->xfer->read_reqs, r);
	for (l = l ? l->prev : NULL; l; l = l->prev) {
		struct rr_read_req *o = l->data;
		uint32_t total = response_packets(o, o->pmtu ? o->pmtu : pmtu);

		if (!total || o->resp_next >= total)
			break;          /* unknown, or whole: the ones before were settled then */
		n += total - o->resp_next;
		o->resp_next = total;
	}
	if (n) {
		eng->xfer->psn_gaps++;
		rr_conn_note_loss(f, n, 0);
		/* Responses are not retransmitted out of order: these are lost for good. */
		rr_diag_report(&eng->diag, CAP_PSN_GAP, ev->frame,
			       "%" PRIu64 " packet%s of RDMA Read Responses sent by %s on %s %s missing from the capture "
			       "before PSN 0x%06x: what %s carried is not known", n, n == 1 ? "" : "s", sender(f),
			       rr_conn_name(f->conn),
			       n == 1 ? "is" : "are", ev->psn, n == 1 ? "it" : "they");
	}
}

void rr_xfer_read_took(struct rr_flow *reader, uint32_t psn, uint32_t n)
{
	struct rr_xfer_flow *x = reader->xfer;
	uint32_t end = (psn + n) & RR_PSN_MASK;

	/* Only the newest request's span is still open; an older one's was settled by what came after. */
	if (!x || !x->req_psn_valid || x->req_last_psn != psn || !x->req_slack)
		return;
	if (end == x->req_next || rr_psn_after(x->req_next, end))
		x->req_next = end;      /* never back: an ACK may have told of more */
	x->req_slack = 0;
}

/* A PSN of the latest hole arrived after all: it was not lost. */
static bool fills_hole(struct rr_flow *f, uint32_t psn)
{
	struct rr_xfer_flow *x = f->xfer;

	if (!x->hole_len || rr_psn_dist(x->hole_start, psn) >= x->hole_len)
		return false;
	rr_conn_note_found(f, 1);
	/* The hole shrinks from its start; a packet inside it splits it: keep the part after. */
	x->hole_len -= rr_psn_dist(x->hole_start, psn) + 1;
	x->hole_start = (psn + 1) & RR_PSN_MASK;
	return true;
}

/*
 * The first packet of a stream whose handshake was captured: the packets
 * between the handshake's starting PSN and it were lost.  Of the two
 * starting PSNs, the one it follows most closely is its sender's; neither
 * within RR_CM_START_LOSS before it: the start is unknown.
 */
#define RR_CM_START_LOSS 4096u

static void from_start(struct rr_engine *eng, struct rr_flow *f, uint32_t psn, uint64_t frame)
{
	struct rr_xfer_flow *x = f->xfer;
	uint32_t best = RR_CM_START_LOSS, from = 0;
	unsigned i;

	for (i = 0; i < x->n_cm_psn; i++) {
		uint32_t d = rr_psn_dist(x->cm_psn[i], psn);

		if (d < best) {
			best = d;
			from = x->cm_psn[i];
		}
	}
	x->n_cm_psn = 0;
	if (best && best < RR_CM_START_LOSS)
		lost(eng, f, from, psn, frame);
}

static void new_sequence(struct rr_engine *eng, struct rr_flow *f)
{
	eng->xfer->psn_gaps++;
	tell_hole(eng, f);
	rr_conn_note_loss(f, 0, 0);
}

bool rr_xfer_ib_duplicate(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev)
{
	struct rr_xfer_flow *x = rr_xf(f);
	uint32_t span, slack, next, d;
	bool moves = true;

	if (x->req_psn_valid && fills_hole(f, ev->psn)) {
		if (rr_psn_after(x->req_last_psn, ev->psn))
			x->req_last_psn = ev->psn;
		return false;
	}
	if (x->req_psn_valid && !rr_psn_after(x->req_last_psn, ev->psn)) {
		if (rr_psn_dist(ev->psn, x->req_last_psn) < RR_PSN_RETRANSMIT_WINDOW) {
			eng->stats.dup_packets++;
			rr_diag_report(&eng->diag, CAP_DUP, ev->frame,
				       "PSN 0x%06x on %s was already seen (retransmission or duplicate)",
				       ev->psn, rr_conn_name(f->conn));
			return true;
		}
		new_sequence(eng, f);
		x->req_psn_valid = false;
	}
	span = ev->kind == RR_EV_READ_REQ ? read_span(f, ev, &slack) : (slack = 0, 1);
	next = (ev->psn + span) & RR_PSN_MASK;
	d = rr_psn_dist(x->req_next, ev->psn);
	if (!x->req_psn_valid) {
		tell_hole(eng, f);
		from_start(eng, f, ev->psn, ev->frame);
	} else if (d >= RR_PSN_HALF) {
		/* Inside what an ACK already accounted for: only what lies after it moves on. */
		moves = rr_psn_after(x->req_next, next);
	} else if (d >= RR_PSN_RETRANSMIT_WINDOW) {
		new_sequence(eng, f);
	} else {
		known_upto(eng, f, ev->psn, ev->frame);
	}
	if (moves) {
		x->req_next = next;
		x->req_slack = slack;
	}
	x->req_psn_valid = true;
	x->req_last_psn = ev->psn;
	return false;
}

void rr_xfer_ack(struct rr_engine *eng, const struct rr_event *ev)
{
	struct rr_flow *g = rr_flow_find(eng, &ev->flow);
	struct rr_flow *f = g ? rr_flow_proved_peer(g) : NULL;
	uint8_t kind = (uint8_t)(ev->aeth >> 29) & 3;  /* AETH syndrome bits 6:5: 0 ACK, 1 RNR NAK, 3 NAK */
	uint32_t upto = kind == 0 ? ev->psn + 1 : ev->psn;
	struct rr_xfer_flow *x;

	if (!f || !f->xfer || !f->xfer->req_psn_valid)
		return;
	x = f->xfer;
	upto &= RR_PSN_MASK;
	/* Far ahead: not this stream's (a sequence the capture did not see start). */
	if (rr_psn_dist(x->req_next, upto) >= RR_PSN_RETRANSMIT_WINDOW)
		return;
	known_upto(eng, f, upto, ev->frame);
}

void rr_xfer_cm_req(struct rr_engine *eng, const struct rr_event *req)
{
	struct rr_xfer *x = eng->xfer;
	struct rr_cm_start *st = &x->req_start[x->next_start++ % RR_CM_STARTS];

	if (req->flow.transport == RR_TRANSPORT_IWARP)
		return;
	st->used = true;
	st->addr = req->flow.src;
	st->qpn = req->cm.local_qpn;
	st->psn = req->cm.start_psn & RR_PSN_MASK;
}

static bool addr_eq(const struct rr_addr *a, const struct rr_addr *b)
{
	return a->family == b->family && a->port == b->port && !memcmp(a->bytes, b->bytes, sizeof(a->bytes));
}

/*
 * The handshake's two starting PSNs (the REQ's and the REP's), either of
 * which may be f's sender's: IBTA 12.7 gives the REQ's to the active side,
 * Linux rdma_cm sends the passive side's in it.  The first packet of f
 * tells which (rr_xfer_ib_duplicate()).
 */
static unsigned start_psns(struct rr_engine *eng, const struct rr_flow *f, const struct rr_event *rep,
			   uint32_t out[2])
{
	const struct rr_flow *peer = rr_flow_peer(f);
	/* The active side's QP is where the passive side's packets go. */
	uint32_t active_qpn = addr_eq(&f->key.dst, &rep->flow.dst) ? f->key.dst_qp : peer ? peer->key.dst_qp : 0;
	unsigned i, n = 0;

	out[n++] = rep->cm.start_psn & RR_PSN_MASK;
	for (i = 0; i < RR_CM_STARTS; i++) {
		const struct rr_cm_start *st = &eng->xfer->req_start[i];

		if (st->used && st->qpn == active_qpn && addr_eq(&st->addr, &rep->flow.dst)) {
			out[n++] = st->psn;
			break;
		}
	}
	return n;
}

void rr_xfer_flow_restart(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *rep)
{
	struct rr_xfer_flow *x;

	if (f->key.transport == RR_TRANSPORT_IWARP)
		return;
	x = rr_xf(f);
	tell_hole(eng, f);
	x->req_psn_valid = false;
	x->n_cm_psn = start_psns(eng, f, rep, x->cm_psn);
}
