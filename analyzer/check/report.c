// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a check tells the stage and asks of it: findings (to the diag sink,
 * and attached to the record they are about, or held until that record is
 * rebuilt), checks that could not judge (counted as skipped), and the
 * options in force.  The checks call only down to here, never into the
 * dispatcher, so the table (checker.c) -> checks (ck_*.c) -> this file is
 * one way.
 */
#include <stdarg.h>
#include <stdio.h>

#include "check_int.h"

const struct rr_check_opts *ck_opts(const struct rr_checker *ck)
{
	return &ck->opts;
}

enum rr_profile ck_profile(const struct rr_checker *ck)
{
	return ck->opts.profile;
}

void ck_skip_why(struct rr_checker *ck, enum rr_rule_id rule, enum rr_skip_reason why)
{
	(void)rule;
	ck->skipped[why]++;
}

void ck_skip(struct rr_checker *ck, enum rr_rule_id rule)
{
	ck_skip_why(ck, rule, RR_SKIP_NOT_CAPTURED);
}

bool ck_rule_on(const struct rr_checker *ck, enum rr_rule_id id)
{
	const struct rr_rule *r = rr_rule_get(id);

	return ck->opts.enabled[id] && r->sev[ck->opts.profile] != RR_SEV_OFF;
}

static void attach(struct rr_message *m, const struct rr_diag *d)
{
	struct rr_diag *arr = (struct rr_diag *)m->findings;

	arr = g_renew(struct rr_diag, arr, m->n_findings + 1);
	rr_diag_copy(&arr[m->n_findings], d);
	m->findings = arr;
	m->n_findings++;
}

static void pending_free(struct ck_pending *p)
{
	rr_diag_clear(&p->d);
	g_free(p);
}

void ck_pending_free_all(struct rr_checker *ck)
{
	while (!g_queue_is_empty(&ck->pending))
		pending_free(g_queue_pop_head(&ck->pending));
}

/* A finding about a Send waits for its message's record. */
static void hold(struct rr_checker *ck, uint32_t conn_id, uint64_t frame, const struct rr_diag *d)
{
	struct ck_pending *p = g_new0(struct ck_pending, 1);

	p->conn_id = conn_id;
	p->frame = frame;
	rr_diag_copy(&p->d, d);
	g_queue_push_tail(&ck->pending, p);
	if (g_queue_get_length(&ck->pending) > CK_PENDING_MAX)
		pending_free(g_queue_pop_head(&ck->pending));
}

void ck_collect_pending(struct rr_checker *ck, struct rr_message *m)
{
	GList *l, *next;

	for (l = ck->pending.head; l; l = next) {
		struct ck_pending *p = l->data;

		next = l->next;
		if (p->conn_id != m->conn_id || p->frame != m->send_frame)
			continue;
		attach(m, &p->d);
		g_queue_delete_link(&ck->pending, l);
		pending_free(p);
	}
}

void rr_checker_release(struct rr_message *m)
{
	size_t i;

	for (i = 0; i < m->n_findings; i++)
		rr_diag_clear((struct rr_diag *)&m->findings[i]);
	g_free((struct rr_diag *)m->findings);
	m->findings = NULL;
	m->n_findings = 0;
}

static void emit(struct rr_checker *ck, const struct rr_fact *f, const struct rr_diag *d)
{
	const struct rr_rule *r = rr_rule_get(d->id);
	struct rr_diag copy = *d;

	copy.severity = r->kind == RR_KIND_RULE ? r->sev[ck->opts.profile] : r->severity;
	if (f && f->kind == RR_FACT_MSG)
		attach(f->msg, &copy);
	else if (f && f->kind == RR_FACT_SEND && !f->send->rejected)
		hold(ck, f->send->conn_id, f->send->frame, &copy);
	rr_diag_emit(&ck->sink, &copy);
}

void ck_report(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
	       uint64_t frame, const char *fmt, ...)
{
	char text[600];
	va_list ap;
	struct rr_diag d = { .id = rule, .frame = frame, .text = text };

	if (!ck_rule_on(ck, rule))
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	d.frames = &d.frame;
	d.n_frames = 1;
	if (f->kind == RR_FACT_MSG) {
		d.frames = f->msg->frames;
		d.n_frames = f->msg->n_frames;
		d.conn_id = f->msg->conn_id;
		d.has_xid = true;
		d.xid = f->msg->xid;
	} else if (f->kind == RR_FACT_SEND) {
		d.frames = f->send->frames;
		d.n_frames = f->send->n_frames;
		d.conn_id = f->send->conn_id;
		d.has_xid = f->send->status != RR_HDR_E_SHORT || f->send->len >= 4;
		d.xid = f->send->hdr->xid;
	} else if (f->kind == RR_FACT_RDMA) {
		d.conn_id = f->rdma->conn_id;
		d.has_xid = f->rdma->handle_live;
		d.xid = f->rdma->xid;
	}
	emit(ck, f, &d);
}

void ck_report_full(struct rr_checker *ck, enum rr_rule_id rule, uint64_t frame,
		    const uint64_t *frames, size_t n_frames, uint32_t conn_id, bool has_xid,
		    uint32_t xid, const char *fmt, ...)
{
	char text[600];
	va_list ap;
	struct rr_diag d = { .id = rule, .frame = frame, .frames = frames, .n_frames = n_frames,
			     .conn_id = conn_id, .has_xid = has_xid, .xid = xid, .text = text };

	if (!ck_rule_on(ck, rule))
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	emit(ck, NULL, &d);
}
