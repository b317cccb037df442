// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings held until the capture shows it lost nothing that would explain
 * them (held.h).  Kept in arrival order, bounded: past CK_HELD_FINDINGS
 * the oldest is settled at once, as at its connection's end; and in time:
 * one held CK_HELD_USEC of capture time is settled as at its connection's
 * end (ck_held_clock).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "held.h"

#define CK_HELD_FINDINGS 1024
#define CK_HELD_FRAMES 64         /* evidence frames kept of each (the first ones) */
/*
 * How long a finding is held, in capture time: 2 s.  A capture shows the
 * loss of a message by the sender's next packet on that connection or by
 * the receiver's acknowledgment of it; on a busy connection both come
 * within milliseconds (an RC responder acknowledges at once or coalesced,
 * a TCP receiver within its delayed-ACK bound of 0.5 s, RFC 1122
 * §4.2.3.2), so there the hold ends long before the bound.  Past 2 s the
 * connection is idle, and its next Send may be minutes away (an idle NFS
 * mount sends little but lease renewals): waiting longer would delay the
 * finding by that much and rarely learn more.
 */
#define CK_HELD_USEC 2000000u

struct ck_held {
	enum rr_rule_id rule;
	uint32_t conn_id;
	bool from_requester;          /* the side whose next Send settles it */
	bool roles_known;
	uint64_t frame;
	uint64_t held_at;             /* the capture's clock when it was held */
	uint64_t frames[CK_HELD_FRAMES];
	size_t n_frames;
	bool has_xid;
	uint32_t xid;
	char text[600];
};

static GQueue *held_queue(struct rr_checker *ck)
{
	if (!ck->held_findings)
		ck->held_findings = g_queue_new();
	return ck->held_findings;
}

/* Told, unless the connection lost packets since it was held. */
static void settle_one(struct rr_checker *ck, struct ck_held *h)
{
	struct ck_conn_state *cs = g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(h->conn_id));

	if (cs && cs->cut)
		ck_skip(ck, h->rule);
	else
		ck_report_full(ck, h->rule, h->frame, h->frames, h->n_frames, h->conn_id, h->has_xid, h->xid,
			       "%s", h->text);
	g_free(h);
}

void ck_hold(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule, uint64_t frame, int dir,
	     bool calls, const char *fmt, ...)
{
	struct ck_held *h;
	const uint64_t *frames = &frame;
	size_t n = 1;
	va_list ap;

	if (!ck_rule_on(ck, rule)) {
		ck->n_evidence = 0;
		return;
	}
	ck->n_told++;
	h = g_new0(struct ck_held, 1);
	h->rule = rule;
	h->frame = frame;
	h->held_at = ck->clock_usec;
	/* Calls of the forward direction and replies of the backward one come from the requester. */
	h->from_requester = (dir == 0) == calls;
	if (f->kind == RR_FACT_MSG) {
		h->conn_id = f->msg->conn_id;
		h->roles_known = f->msg->conn.roles_known;
		h->has_xid = true;
		h->xid = f->msg->xid;
		frames = f->msg->frames;
		n = f->msg->n_frames;
	} else if (f->kind == RR_FACT_SEND) {
		h->conn_id = f->send->conn_id;
		h->roles_known = f->send->roles_known;
		h->has_xid = true;
		h->xid = f->send->hdr->xid;
		frames = f->send->frames;
		n = f->send->n_frames;
	}
	/* the first frames of the message, and every frame of the staged evidence */
	h->n_frames = ck_take_evidence(ck, frames, MIN(n, CK_HELD_FRAMES - ck->n_evidence), h->frames,
				       CK_HELD_FRAMES);
	va_start(ap, fmt);
	vsnprintf(h->text, sizeof(h->text), fmt, ap);
	va_end(ap);
	g_queue_push_tail(held_queue(ck), h);
	if (g_queue_get_length(ck->held_findings) > CK_HELD_FINDINGS)
		settle_one(ck, g_queue_pop_head(ck->held_findings));
}

/* Does this fact settle h: the end, its connection's end, or the next Send of the side that may have lost. */
static bool settles(const struct rr_fact *f, const struct ck_held *h)
{
	const struct rr_fact_send *s;

	switch (f->kind) {
	case RR_FACT_END:
		return true;
	case RR_FACT_CONN_DOWN:
		return f->conn_id == h->conn_id;
	case RR_FACT_SEND:
		s = f->send;
		if (s->conn_id != h->conn_id)
			return false;
		return !s->roles_known || !h->roles_known || s->from_requester == h->from_requester;
	default:
		return false;
	}
}

void ck_held_settle(struct rr_checker *ck, const struct rr_fact *f)
{
	GList *l, *next;

	if (!ck->held_findings)
		return;
	for (l = ck->held_findings->head; l; l = next) {
		next = l->next;
		if (!settles(f, l->data))
			continue;
		settle_one(ck, l->data);
		g_queue_delete_link(ck->held_findings, l);
	}
}

void ck_held_clock(struct rr_checker *ck, uint64_t ts_usec)
{
	struct ck_held *h;

	ck->clock_usec = ts_usec;
	if (!ck->held_findings)
		return;
	/* Held in arrival order, so the oldest come first: only the head needs a look. */
	while ((h = g_queue_peek_head(ck->held_findings)) && ts_usec >= h->held_at &&
	       ts_usec - h->held_at >= CK_HELD_USEC)
		settle_one(ck, g_queue_pop_head(ck->held_findings));
}

void ck_held_free(struct rr_checker *ck)
{
	if (ck->held_findings)
		g_queue_free_full(ck->held_findings, g_free);
	ck->held_findings = NULL;
}
