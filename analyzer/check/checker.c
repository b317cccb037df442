// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check stage's dispatcher: the table of checks (expanded from
 * rules.def), profiles, enabling, and where findings go.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"

/* Every check function, declared from the table. */
#define RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, evidence, example) \
	void check(struct rr_checker *ck, const struct rr_fact *f);
#include "rpcrdma/rules.def"

static const rr_check_fn check_of[RR_RULE_COUNT] = {
#define RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, evidence, example) [sym] = check,
#include "rpcrdma/rules.def"
};

void rr_check_default_opts(struct rr_check_opts *o)
{
	unsigned i;

	memset(o, 0, sizeof(*o));
	o->profile = RR_PROFILE_RFC8166;
	for (i = 0; i < RR_RULE_COUNT; i++)
		o->enabled[i] = true;
	o->credit_slack = 0;
}

static bool rule_on(const struct rr_checker *ck, enum rr_rule_id id);

/* Which checks run on which kind of fact, so a fact costs only its own checks. */
static void plan(struct rr_checker *ck)
{
	unsigned k, i;

	for (k = 0; k < 5; k++) {
		ck->n_run[k] = 0;
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (check_of[i] && (rr_rule_get(i)->facts & (1u << k)) && rule_on(ck, i))
				ck->run[k][ck->n_run[k]++] = (uint16_t)i;
	}
}

struct rr_checker *rr_checker_new(const struct rr_diag_sink *sink)
{
	struct rr_checker *ck = g_new0(struct rr_checker, 1);

	if (sink)
		ck->sink = *sink;
	rr_check_default_opts(&ck->opts);
	ck_state_init(ck);
	plan(ck);
	return ck;
}

void rr_checker_set_opts(struct rr_checker *ck, const struct rr_check_opts *o)
{
	ck->opts = *o;
	plan(ck);
}

const struct rr_check_opts *rr_checker_opts(const struct rr_checker *ck)
{
	return &ck->opts;
}

const struct rr_check_opts *ck_opts(const struct rr_checker *ck)
{
	return &ck->opts;
}

enum rr_profile ck_profile(const struct rr_checker *ck)
{
	return ck->opts.profile;
}

uint64_t rr_checker_skipped(const struct rr_checker *ck, enum rr_skip_reason why)
{
	return why < RR_SKIP__COUNT ? ck->skipped[why] : 0;
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

static bool rule_on(const struct rr_checker *ck, enum rr_rule_id id)
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

/* The record of a message arrived: the findings of its Send join it. */
static void collect(struct rr_checker *ck, struct rr_message *m)
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

	if (!rule_on(ck, rule))
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

	if (!rule_on(ck, rule))
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	emit(ck, NULL, &d);
}

/* The bit index of each fact kind in the table's facts (F_SEND is bit 0 ...). */
static unsigned fact_index(enum rr_fact_kind k)
{
	switch (k) {
	case RR_FACT_SEND:
		return 0;
	case RR_FACT_MSG:
		return 1;
	case RR_FACT_RDMA:
		return 2;
	case RR_FACT_END:
		return 4;
	case RR_FACT_CONN_DOWN:
		break;
	}
	return 3;
}

/*
 * Whether the fact rests on bytes the capture does not hold: its own (a
 * Send cut by the snaplen, a message that lost bytes), or, on a connection
 * where a header or the handshake's private data was cut, anything (the
 * chunks, XIDs and thresholds later facts are judged against may be what
 * was cut).  Such facts still update the state; their checks are skipped
 * and counted, never run on zeros.
 */
static bool fact_not_captured(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_conn_info *ci = NULL;
	uint32_t id;
	bool own = false;
	struct ck_conn_state *cs;

	switch (f->kind) {
	case RR_FACT_SEND:
		id = f->send->conn_id;
		own = f->send->truncated;
		ci = &f->send->conn;
		break;
	case RR_FACT_MSG:
		id = f->msg->conn_id;
		own = f->msg->capture_loss || f->msg->call_capture_loss;
		ci = &f->msg->conn;
		break;
	case RR_FACT_RDMA:
		id = f->rdma->conn_id;
		break;
	default:
		return false;
	}
	cs = g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(id));
	if (ci && ci->capture_cut) {
		cs = ck_conn(ck, id);
		cs->cut = true;
	}
	return own || (cs && cs->cut);
}

void rr_checker_fact(struct rr_checker *ck, const struct rr_fact *f)
{
	unsigned k = fact_index(f->kind), i;
	bool cut = fact_not_captured(ck, f);

	ck->cur_cut = cut;
	if (f->kind == RR_FACT_SEND)
		ck->last_outstanding = 0;

	ck_state_before(ck, f);
	if (f->kind == RR_FACT_MSG && ck->pending.length)
		collect(ck, f->msg);
	if (cut)
		ck->skipped[RR_SKIP_NOT_CAPTURED] += ck->n_run[k];
	else
		for (i = 0; i < ck->n_run[k]; i++)
			check_of[ck->run[k][i]](ck, f);
	ck_state_after(ck, f);
}

uint32_t rr_checker_last_outstanding(const struct rr_checker *ck)
{
	return ck->last_outstanding;
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

void rr_checker_free(struct rr_checker *ck)
{
	if (!ck)
		return;
	while (!g_queue_is_empty(&ck->pending))
		pending_free(g_queue_pop_head(&ck->pending));
	ck_state_free(ck);
	g_free(ck);
}
