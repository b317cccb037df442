// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RR-051 (group C): the size of the Receives a peer posts, seen through
 * the Sends it refuses as longer than the Receive posted for them (RFC 8166
 * 3.3: an IB/RoCE NAK "remote invalid request", an iWARP Terminate "DDP
 * message too long"): every receiver accepts 1024 bytes (RFC 8166 3.3.3).
 *
 * A refusal does not name its Send to the check stage.  Its candidates are
 * the sender's Sends after the last one the receiver is known to have taken:
 * an answer to a call shows that the receiver took that call and, the
 * connection delivering in order, every Send before it.  Judged only when
 * all candidates are remembered and the capture lost none of them.
 */
#include "conn_state.h"
#include "check_int.h"

/* The sender's index: [0] the requester's Sends, [1] the responder's. */
static struct ck_sends *sends_of(struct rr_checker *ck, uint32_t conn_id, int sender)
{
	return &ck_conn(ck, conn_id)->dir[sender].sends;
}

/* The receiver took every Send of the sender up to frame. */
static void prove(struct ck_sends *w, uint64_t frame)
{
	w->proven = MAX(w->proven, frame);
}

/* Every Send. */
static void note_send(struct rr_checker *ck, const struct rr_fact_send *s)
{
	struct ck_sends *w = sends_of(ck, s->conn_id, s->from_requester ? 0 : 1);
	const struct ck_call *c;
	int dir;

	if (w->n == CK_SENDS_MAX)
		w->evicted = MAX(w->evicted, w->frame[w->next]);
	w->frame[w->next] = s->frame;
	w->len[w->next] = (uint32_t)MIN(s->len, (size_t)UINT32_MAX);
	w->xid[w->next] = s->hdr->xid;
	w->next = (w->next + 1) % CK_SENDS_MAX;
	if (w->n < CK_SENDS_MAX)
		w->n++;
	if (s->is_call)
		return;
	/* An answer: its call's sender (the asker, index = the call's direction) is proven up to it. */
	dir = ck_send_dir(s);
	c = ck_call_find(ck, s->conn_id, dir, s->hdr->xid);
	if (c)
		prove(sends_of(ck, s->conn_id, dir), c->send_frame);
}

struct candidates {
	unsigned n;
	uint32_t max_len, last_len, last_xid;
	uint64_t last_frame;
};

/* The refused Send's candidates; false when unsure. */
static bool candidates(struct rr_checker *ck, const struct rr_fact_rnr *r, struct ck_sends *w,
		       struct candidates *out)
{
	unsigned i;

	*out = (struct candidates){ 0 };
	if (ck_conn(ck, r->conn_id)->cut || w->evicted > w->proven)
		return false;
	for (i = 0; i < w->n; i++) {
		if (w->frame[i] <= w->proven || w->frame[i] > r->frame)
			continue;
		out->n++;
		out->max_len = MAX(out->max_len, w->len[i]);
		if (w->frame[i] > out->last_frame) {
			out->last_frame = w->frame[i];
			out->last_len = w->len[i];
			out->last_xid = w->xid[i];
		}
	}
	return out->n > 0;
}

static const char *how(const struct rr_fact_rnr *r)
{
	return r->iwarp ? "a Terminate \"DDP message too long\"" : "a NAK \"remote invalid request\"";
}

/* A Send refused as too long: its candidates. */
static bool refused(struct rr_checker *ck, const struct rr_fact *f, struct ck_sends **w,
		    struct candidates *cand, enum rr_rule_id rule)
{
	const struct rr_fact_rnr *r = f->rnr;

	if (f->kind != RR_FACT_RNR || !r->too_long || !r->roles_known)
		return false;
	/* Refused by the requester: a Send of the responder. */
	*w = sends_of(ck, r->conn_id, r->by_requester ? 1 : 0);
	if (!candidates(ck, r, *w, cand)) {
		ck_skip(ck, rule);
		return false;
	}
	return true;
}

void ck_rr051(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rnr *r = f->rnr;
	struct ck_sends *w;
	struct candidates c;
	uint64_t frames[2];
	const char *refuser;

	if (f->kind == RR_FACT_SEND) {
		if (f->send->roles_known)
			note_send(ck, f->send);
		return;
	}
	if (!refused(ck, f, &w, &c, RR_051_ACCEPT_1024) || c.max_len > RR_DEFAULT_INLINE_THRESHOLD ||
	    w->reported_051)
		return;
	w->reported_051 = true;
	refuser = r->by_requester ? "requester" : "responder";
	frames[0] = c.last_frame;
	frames[1] = r->frame;
	ck_report_full(ck, RR_051_ACCEPT_1024, c.last_frame, frames, 2, r->conn_id, true, c.last_xid,
		       "the %s refused a Send of at most 1024 bytes as longer than its Receive (%s at frame %"
		       G_GUINT64_FORMAT "), though every receiver must accept 1024-byte inline messages. Inferred: "
		       "the refusal names no Send, but each Send of the %s it may refuse (%u of them, none of "
		       "which an answer of the %s shows it took) is at most %u bytes; the latest is XID 0x%08x "
		       "(%u bytes)", refuser, how(r), r->frame, r->by_requester ? "responder" : "requester", c.n,
		       refuser, c.max_len, c.last_xid, c.last_len);
}
