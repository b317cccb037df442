// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Receiver-not-ready (RFC 8166 §3.3): a Send that finds no Receive posted.
 * IB/RoCE answer it with an RNR NAK, an ACKNOWLEDGE whose AETH syndrome is
 * 001 and a timer code (the sender retries); iWARP has no such retry, the
 * receiver ends the stream with a Terminate whose header names layer DDP,
 * an untagged buffer error, code 2 "no buffer available" (RFC 5040 §4.8).
 * A Send longer than the Receive posted is refused too (§3.3): an IB/RoCE
 * NAK "remote invalid request", a Terminate with untagged error code 5.
 */
#include "conn.h"
#include "rnr.h"
#include "../check/check.h"

#define AETH_RNR 1u            /* syndrome bits 7..5 */
#define AETH_NAK_INVALID 0x61u /* NAK, remote invalid request: a Send longer than the Receive */
#define TERM_LAYER_DDP 1u
#define TERM_DDP_UNTAGGED 2u
#define TERM_NO_BUFFER 2u
#define TERM_TOO_LONG 5u

static bool refused(const struct rr_event *ev, struct rr_fact_rnr *r)
{
	if (ev->kind == RR_EV_ACK) {
		r->psn = ev->psn;
		r->too_long = ev->aeth >> 24 == AETH_NAK_INVALID;
		if (ev->aeth >> 29 != AETH_RNR)
			return r->too_long;
		r->timer = (uint8_t)(ev->aeth >> 24 & 0x1f);
		return true;
	}
	if (ev->kind != RR_EV_TERMINATE || ev->caplen < 2 || !ev->data)
		return false;
	r->iwarp = true;
	r->too_long = ev->data[1] == TERM_TOO_LONG;
	return ev->data[0] >> 4 == TERM_LAYER_DDP && (ev->data[0] & 0x0f) == TERM_DDP_UNTAGGED &&
	       (ev->data[1] == TERM_NO_BUFFER || r->too_long);
}

void rr_rnr_event(struct rr_engine *eng, const struct rr_event *ev)
{
	struct rr_fact_rnr r = { 0 };
	struct rr_fact fact = { .kind = RR_FACT_RNR, .rnr = &r };
	struct rr_flow *f;

	if (!refused(ev, &r))
		return;
	/* The refusal travels from the receiver to the Send's sender: the receiver's flow. */
	f = rr_flow_find(eng, &ev->flow);
	if (!f || !f->conn->carried_rpcrdma)
		return;
	r.conn_id = rr_conn_id(eng, f->conn);
	r.frame = ev->frame;
	r.roles_known = f->conn->requester >= 0;
	r.by_requester = rr_flow_is_requester(f);
	rr_checker_fact(eng->checker, &fact);
}
