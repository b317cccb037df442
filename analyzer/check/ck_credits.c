// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group F: credits, per connection and direction, counted at
 * each Send in wire order.  One capture point sees the two directions in
 * the order the host did, so by default no excess is forgiven; captures
 * merged from several points can reorder them (--credit-slack N).
 */
#include "conn_state.h"
#include "check_int.h"
#include "held.h"

static bool is_forward_call(const struct rr_fact_send *s)
{
	return s->status == RR_HDR_OK && s->is_call && s->hdr->proc != RR_RDMA_DONE &&
	       ck_send_dir(s) == 0;
}

void ck_rr100(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (s->status == RR_HDR_OK && !s->is_call && ck_send_dir(s) == 0 &&
	    s->hdr->proc != RR_RDMA_ERROR && s->hdr->credit == 0)
		ck_report(ck, f, RR_100_GRANT_ZERO, s->frame, "reply XID 0x%08x grants 0 credits", s->hdr->xid);
}

void ck_rr101(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (s->status == RR_HDR_OK && s->roles_known && ck_send_dir(s) == 1 &&
	    s->hdr->proc != RR_RDMA_ERROR && s->hdr->credit == 0)
		ck_report(ck, f, RR_101_BACK_CREDIT_ZERO, s->frame,
			  "backward %s XID 0x%08x carries rdma_credit 0", s->is_call ? "call" : "reply",
			  s->hdr->xid);
}

/* A reply's Send: remember which call it answered (its Send frame). */
static void note_answer(struct rr_checker *ck, const struct rr_fact_send *s, int dir)
{
	struct ck_dir_state *ds = &ck_conn(ck, s->conn_id)->dir[dir];
	const struct ck_call *c = ck_call_find(ck, s->conn_id, dir, s->hdr->xid);

	if (!c || (c->flags & CK_CALL_REPLIED))
		return;
	ds->answered[ds->next_answered] = c->send_frame;
	ds->next_answered = (ds->next_answered + 1) % CK_ANSWERED_MAX;
	if (ds->n_answered < CK_ANSWERED_MAX)
		ds->n_answered++;
}

/*
 * Calls counted as outstanding whose replies the capture most likely does
 * not show: the responder has since answered a whole credit window of calls
 * sent after them.  A reply can be missing from a capture that lost nothing
 * it could notice (a Send cut or dropped before the capture point), and the
 * requester counts only the calls it knows to be in flight (RFC 8166 3.3.1).
 */
static uint32_t stale_calls(struct rr_checker *ck, const struct rr_fact_send *s, int dir, uint32_t window)
{
	struct ck_conn_state *cs = ck_conn(ck, s->conn_id);
	const struct ck_dir_state *ds = &cs->dir[dir];
	const struct ck_call *c;
	uint32_t stale = 0, at = 0;

	window = MIN(MAX(window, 1u), CK_ANSWERED_MAX);
	while ((c = ck_keymap_next(&cs->calls[dir], &at))) {
		uint32_t later = 0;

		if (c->flags & CK_CALL_REPLIED)
			continue;
		for (unsigned i = 0; i < ds->n_answered; i++)
			later += ds->answered[i] > c->send_frame;
		stale += later >= window;
	}
	return stale;
}

static void over_limit(struct rr_checker *ck, const struct rr_fact *f, int dir, enum rr_rule_id rule)
{
	const struct rr_fact_send *s = f->send;
	struct ck_dir_state *ds = &ck_conn(ck, s->conn_id)->dir[dir];
	uint32_t limit, stale, now = ds->outstanding + 1;
	char more[128] = "";

	if (!ds->have_grant)
		return;
	limit = MIN(ds->granted, s->hdr->credit ? s->hdr->credit : ds->granted);
	if (now <= limit + ck_opts(ck)->credit_slack)
		return;
	stale = stale_calls(ck, s, dir, limit);
	if (now - stale <= limit + ck_opts(ck)->credit_slack) {
		ck_skip(ck, rule);
		return;
	}
	if (stale)
		g_snprintf(more, sizeof(more), ". Not counted: %u unanswered call(s) whose replies the capture "
			   "is taken to miss, since later calls were answered", stale);
	/*
	 * Every call beyond the limit is its own finding: each one is a Send
	 * the peer may drop.  Held: the replies that freed credits may be in
	 * packets the capture lost.
	 */
	ck_hold(ck, f, rule, s->frame, dir, false,
		  "%s call XID 0x%08x makes %u calls outstanding; the limit is %u (granted %u, requested %u)%s",
		  dir ? "backward" : "forward", s->hdr->xid, now - stale, limit, ds->granted, s->hdr->credit,
		  more);
}

void ck_rr102(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (!s->is_call && s->status == RR_HDR_OK && ck_send_dir(s) == 0)
		note_answer(ck, s, 0);
	if (is_forward_call(s))
		over_limit(ck, f, 0, RR_102_CREDIT_LIMIT);
}

void ck_rr104(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (s->status != RR_HDR_OK || !s->roles_known || ck_send_dir(s) != 1)
		return;
	if (!s->is_call)
		note_answer(ck, s, 1);
	else
		over_limit(ck, f, 1, RR_104_BACK_CREDIT_LIMIT);
}

void ck_rr103(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_dir_state *ds;

	if (!is_forward_call(s) || !s->conn.handshake)
		return;
	ds = &ck_conn(ck, s->conn_id)->dir[0];
	/* Held: the first reply may be in packets the capture lost. */
	if (!ds->saw_reply && ds->calls_before_reply == 1)
		ck_hold(ck, f, RR_103_FIRST_CREDIT, s->frame, 0, false,
			  "call XID 0x%08x is the second call on a new connection before any reply granted credits",
			  s->hdr->xid);
}

/*
 * RFC 8167 4.1: credits "work the same way in the reverse direction", so
 * RFC 8166 3.3.3 holds for the server as a backward requester: one credit
 * until a backward reply carries the client's grant.
 */
void ck_rr108(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_dir_state *ds;

	if (s->status != RR_HDR_OK || !s->is_call || !s->roles_known || ck_send_dir(s) != 1 ||
	    !s->conn.handshake)
		return;
	ds = &ck_conn(ck, s->conn_id)->dir[1];
	/* Held: the first backward reply may be in packets the capture lost. */
	if (!ds->saw_reply && ds->calls_before_reply == 1)
		ck_hold(ck, f, RR_108_BACK_FIRST_CREDIT, s->frame, 1, false,
			"backward call XID 0x%08x is the second backward call on a new connection before any "
			"backward reply granted credits", s->hdr->xid);
}

void ck_rr105(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_conn_state *cs;
	struct ck_dir_state *ds;

	if (!is_forward_call(s))
		return;
	cs = ck_conn(ck, s->conn_id);
	ds = &cs->dir[0];
	if (!cs->nfs4_seen || !ds->have_grant || ds->reserve_reported || ds->granted < 2 ||
	    ds->outstanding + 1 < ds->granted)
		return;
	ds->reserve_reported = true;
	ck_report(ck, f, RR_105_CREDIT_RESERVE, s->frame,
		  "the NFSv4 client uses all %u granted credits (XID 0x%08x), keeping none for a health probe",
		  ds->granted, s->hdr->xid);
}

void ck_rr106(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_dir_state *ds;

	if (s->status != RR_HDR_OK || s->is_call || s->hdr->proc == RR_RDMA_ERROR || !s->hdr->credit)
		return;
	ds = &ck_conn(ck, s->conn_id)->dir[ck_send_dir(s)];
	if (ds->have_grant && ds->granted != s->hdr->credit && !ds->change_reported) {
		ds->change_reported = true;
		ck_report(ck, f, RR_106_CREDIT_CHANGES, s->frame,
			  "the responder's grant changes from %u to %u credits (reply XID 0x%08x)", ds->granted,
			  s->hdr->credit, s->hdr->xid);
	}
}
