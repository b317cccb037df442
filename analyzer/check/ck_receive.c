// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RR-107 (group F): a Send that found no Receive posted.  On a connection
 * carrying RPC-over-RDMA that breaks one of RFC 8166 §3.3.1's duties: a
 * requester sending beyond the credits granted (RR-102 counts them) or a
 * responder not keeping a Receive for each credit it granted, when the
 * requester's Send is refused; a requester not keeping Receives for the
 * replies it expects, when the responder's Send is refused.  Told once per
 * connection and direction.
 */
#include "conn_state.h"
#include "check_int.h"

void ck_rr107(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rnr *r = f->rnr;
	struct ck_dir_state *ds;
	char how[64];

	if (f->kind != RR_FACT_RNR || r->too_long)
		return;
	ds = &ck_conn(ck, r->conn_id)->dir[r->roles_known && r->by_requester ? 1 : 0];
	if (ds->rnr_reported)
		return;
	ds->rnr_reported = true;
	if (r->iwarp)
		g_strlcpy(how, "a Terminate (DDP: no buffer available)", sizeof(how));
	else
		g_snprintf(how, sizeof(how), "an RNR NAK (PSN 0x%06x, timer code %u)", r->psn, r->timer);
	if (!r->roles_known)
		ck_report_full(ck, RR_107_RNR, r->frame, &r->frame, 1, r->conn_id, false, 0,
			  "a Send on this RPC-over-RDMA connection found no Receive posted: the receiver answered "
			  "with %s (reported once per connection and direction)", how);
	else if (r->by_requester)
		ck_report_full(ck, RR_107_RNR, r->frame, &r->frame, 1, r->conn_id, false, 0,
			  "the requester answered a Send of the responder with %s: it kept no Receive for a "
			  "reply or backward call (reported once per connection and direction)", how);
	else
		ck_report_full(ck, RR_107_RNR, r->frame, &r->frame, 1, r->conn_id, false, 0,
			  "the responder answered a Send of the requester with %s: either the requester sent "
			  "beyond the credits granted or the responder kept fewer Receives than it granted "
			  "(reported once per connection and direction)", how);
}
