// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a check tells the stage and asks of it: findings (to the diag sink,
 * with the severity of the active profile), checks that could not judge
 * (counted as skipped), and the options in force.  The checks call only down to here, never into the
 * dispatcher, so the table (checker.c) -> checks (ck_*.c) -> this file is
 * one way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

/*
 * A message captured whole is not the capture's fault when it does not decode
 * (its chunks do not rebuild it) or when the walker could not follow it (the
 * walker's limit); a message without a Payload (RDMA_ERROR, RDMA_DONE) has
 * nothing a Payload check could skip.
 */
void ck_skip(struct rr_checker *ck, enum rr_rule_id rule)
{
	if (ck->cur_no_payload)
		return;
	ck_skip_why(ck, rule, ck->cur_cut ? RR_SKIP_NOT_CAPTURED : ck->cur_undecoded ? RR_SKIP_UNDECODED :
			      ck->cur_not_understood ? RR_SKIP_NOT_UNDERSTOOD : RR_SKIP_NOT_CAPTURED);
}

bool ck_rule_on(const struct rr_checker *ck, enum rr_rule_id id)
{
	const struct rr_rule *r = rr_rule_get(id);

	return ck->opts.enabled[id] && r->sev[ck->opts.profile] != RR_SEV_OFF;
}

static void emit(struct rr_checker *ck, const struct rr_diag *d)
{
	const struct rr_rule *r = rr_rule_get(d->id);
	struct rr_diag copy = *d;

	copy.severity = r->kind == RR_KIND_RULE ? r->sev[ck->opts.profile] : r->severity;
	ck->n_told++;
	rr_diag_emit(&ck->sink, &copy);
}

void ck_evidence(struct rr_checker *ck, uint64_t frame)
{
	if (ck->n_evidence < CK_EVIDENCE_MAX)
		ck->evidence[ck->n_evidence++] = frame;
}

static int cmp_frame(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t ck_take_evidence(struct rr_checker *ck, const uint64_t *frames, size_t n, uint64_t *out, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < cap; i++)
		out[k++] = frames[i];
	for (unsigned e = 0; e < ck->n_evidence; e++) {
		bool have = false;

		for (size_t i = 0; i < k && !have; i++)
			have = out[i] == ck->evidence[e];
		if (!have && k < cap)
			out[k++] = ck->evidence[e];
	}
	ck->n_evidence = 0;
	qsort(out, k, sizeof(*out), cmp_frame);
	return k;
}

/* Long enough for an outcome finding that weighs several causes (RR-230). */
enum { CK_FINDING_TEXT_MAX = 1024 };

void ck_report(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
	       uint64_t frame, const char *fmt, ...)
{
	char text[CK_FINDING_TEXT_MAX];
	uint64_t *merged = NULL;
	va_list ap;
	struct rr_diag d = { .id = rule, .frame = frame, .text = text };

	if (!ck_rule_on(ck, rule)) {
		ck->n_evidence = 0;
		return;
	}
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
	if (ck->n_evidence) {
		size_t cap = d.n_frames + ck->n_evidence;

		merged = g_new(uint64_t, cap);
		d.n_frames = ck_take_evidence(ck, d.frames, d.n_frames, merged, cap);
		d.frames = merged;
	}
	emit(ck, &d);
	g_free(merged);
}

void ck_report_full(struct rr_checker *ck, enum rr_rule_id rule, uint64_t frame,
		    const uint64_t *frames, size_t n_frames, uint32_t conn_id, bool has_xid,
		    uint32_t xid, const char *fmt, ...)
{
	char text[CK_FINDING_TEXT_MAX];
	va_list ap;
	struct rr_diag d = { .id = rule, .frame = frame, .frames = frames, .n_frames = n_frames,
			     .conn_id = conn_id, .has_xid = has_xid, .xid = xid, .text = text };
	uint64_t *sorted = NULL;
	size_t i, k;

	ck->n_evidence = 0;
	if (!ck_rule_on(ck, rule))
		return;
	/* The evidence is told in ascending order, each frame once, whatever order the rule gathered it in. */
	for (i = 1; i < n_frames && frames[i - 1] < frames[i]; i++)
		;
	if (i < n_frames) {
		sorted = g_memdup2(frames, n_frames * sizeof(*frames));
		qsort(sorted, n_frames, sizeof(*sorted), cmp_frame);
		for (i = k = 0; i < n_frames; i++)
			if (!k || sorted[k - 1] != sorted[i])
				sorted[k++] = sorted[i];
		d.frames = sorted;
		d.n_frames = k;
	}
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	emit(ck, &d);
	g_free(sorted);
}
