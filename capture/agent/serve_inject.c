// SPDX-License-Identifier: GPL-2.0-or-later
/* The injections serve makes on a reply, and the requester's reaction (serve_inject.h). */
#include "react.h"
#include "serve_inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "pg_exch.h"
#include "verbs.h"

void serve_inj_begin(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, uint64_t k,
		     uint32_t xid, const pg_item *it)
{
	const char *ops[32];
	unsigned n = inj_live_ops(it, ops, G_N_ELEMENTS(ops));
	pg_item none;

	memset(si, 0, sizeof(*si));
	memset(&none, 0, sizeof(none));
	for (unsigned i = 0; i < r->inj.n; i++)
		si->sel[i] = inj_selects(&r->inj.v[i], INJ_RESP, k, xid, ops, n);
	si->ex = inj_live_exch(lv, it ? it : &none);
}

void serve_inj_stage(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, unsigned stage,
		     pg_rdmamsg *msg)
{
	for (unsigned i = 0; i < r->inj.n; i++) {
		const struct inj_spec *sp = &r->inj.v[i];
		if (!si->sel[i] || !sp->def->agent_only || stage != INJ_ST_HEADER || !msg)
			continue;
		if (!strcmp(sp->def->name, "grant-above")) {
			msg->credit += sp->has_arg ? (uint32_t)strtoul(sp->arg, NULL, 0) : 32;
			si->applied[i] = true;
		}
	}
	/* one item at a time, so that each inject line names its own findings */
	for (unsigned i = 0; si->ex && i < r->inj.n; i++) {
		bool one[INJ_MAX_SPECS] = { false };
		if (!si->sel[i] || r->inj.v[i].def->agent_only)
			continue;
		one[i] = true;
		*lv->expected = 0;
		inj_live_stage(lv, si->ex, &r->inj, one, stage, false, msg, NULL, si->applied, si->failed);
		inj_add_rules(si->expected[i], sizeof(si->expected[i]), lv->expected, "");
	}
}

bool serve_inj_any(const struct serve_inj *si)
{
	for (unsigned i = 0; i < INJ_MAX_SPECS; i++)
		if (si->applied[i])
			return true;
	return false;
}

bool serve_inj_agent(struct agent_run *r, struct serve_inj *si, const char *name)
{
	for (unsigned i = 0; si && i < r->inj.n; i++)
		if (si->sel[i] && !strcmp(r->inj.v[i].def->name, name)) {
			si->applied[i] = true;
			return true;
		}
	return false;
}

void serve_chunk_free(gpointer p)
{
	pg_chunk *c = p;
	g_array_free(c->segs, TRUE);
	g_array_free(c->ret, TRUE);
	g_byte_array_free(c->data, TRUE);
	g_free(c);
}

void serve_inj_ops(struct agent_run *r, struct inj_live *lv, struct serve_inj *si,
		   const struct rr_hdr *h, GPtrArray *writes)
{
	pg_plan *p;
	if (!si || !si->ex)
		return;
	p = &si->ex->plan;
	if (!p->read_chunks) {
		/* one chunk per Position, its segments as offered (RFC 8166 3.4.5) */
		p->read_chunks = g_ptr_array_new_with_free_func(serve_chunk_free);
		for (uint32_t i = 0; i < h->n_reads; i++) {
			pg_seg sg = { h->reads[i].seg.handle, h->reads[i].seg.length, h->reads[i].seg.offset };
			pg_chunk *c = p->read_chunks->len ? p->read_chunks->pdata[p->read_chunks->len - 1] : NULL;
			if (!c || c->position != h->reads[i].position) {
				c = pg_chunk_new();
				c->position = h->reads[i].position;
				g_ptr_array_add(p->read_chunks, c);
			}
			g_array_append_val(c->segs, sg);
		}
		/* the reply's chunks belong to serve's own list: the plan only points at them */
		p->write_chunks = g_ptr_array_new();
		for (guint i = 0; i < writes->len; i++)
			g_ptr_array_add(p->write_chunks, writes->pdata[i]);
		p->reply.proc = RDMA_MSG;
	}
	serve_inj_stage(r, lv, si, INJ_ST_OPS, NULL);
}

bool serve_inj_run_ops(struct agent_run *r, struct serve_inj *si, struct vb_conn *c, uint32_t xid,
		       int when, bool *refused)
{
	GArray *ops;
	char err[512];

	if (!si || !si->ex)
		return true;
	ops = when == PG_OPS_READS ? si->ex->reads : si->ex->after;
	for (guint i = 0; i < ops->len; i++) {
		const pg_op *op = &g_array_index(ops, pg_op, i);
		struct vb_mr m;
		bool ok;
		int st;
		if ((op->kind != PG_OP_READ && op->kind != PG_OP_WRITE) || !op->len ||
		    !vb_reg(c, &m, op->len, false, false))
			continue;
		if (op->kind == PG_OP_WRITE && op->data)
			memcpy(m.buf, op->data, op->len);
		ok = vb_rdma(c, op->kind == PG_OP_WRITE, &m, 0, op->len, op->rkey, op->va, &st, err,
			     sizeof(err));
		vb_dereg(&m);
		if (!ok) {
			agent_mf_event(r, "remote-access-error", xid, "injected RDMA %s of %u bytes: %s",
				       op->kind == PG_OP_WRITE ? "Write" : "Read", op->len, err);
			*refused = st != -1;   /* a completion error, not a disconnect */
			return false;
		}
	}
	return true;
}

pg_knobs *serve_inj_knobs(struct serve_inj *si)
{
	return si && si->ex ? &si->ex->plan.knobs : NULL;
}

void serve_inj_done(struct serve_inj *si, unsigned done)
{
	if (si && si->ex)
		si->ex->plan.done |= done;
}

/* Rules a conforming engine may add to a broken reply's finding: the
 * returned chunks' other rules, the grant's, an answer no call matches. */
#define ALSO_REPLY "RR-001,RR-003,RR-045,RR-080,RR-086,RR-087,RR-088,RR-091,RR-092,RR-101,RR-102,RR-106," \
		   "RR-162,RR-164,RR-166,RR-243"

void serve_inj_sent(struct agent_run *r, struct serve_inj *si, struct serve_pending *p, uint32_t xid,
		    uint32_t credit)
{
	bool any = false;
	for (unsigned i = 0; i < r->inj.n; i++) {
		const struct inj_spec *sp = &r->inj.v[i];
		/* the first finding the hook named, else the first rule of the entry */
		/* GARBAGE_ARGS is an answer a responder may give (RFC 8166 4.5.2): what a checker
		 * says of it depends on its shape, so no inject line */
		const char *rules = !strcmp(sp->def->name, "garbage-args") ? "" :
				    *si->expected[i] ? si->expected[i] : inj_def_rules(sp->def);
		char rule[16], note[256], also[128];
		size_t n = strcspn(rules, " ,");
		if (!si->applied[i])
			continue;
		any = true;
		g_strlcpy(p->rule[i], n ? rules : sp->def->name, MIN(sizeof(p->rule[i]), n ? n + 1 : 16));
		/* a reply of another version: the engine reports the version itself (as drive's call) */
		if (!strcmp(sp->def->name, "bad-vers"))
			g_strlcpy(p->rule[i], "ENG-NOT-V1", sizeof(p->rule[i]));
		if (!n)
			continue;   /* an entry that breaks no rule (legal on purpose) */
		g_strlcpy(rule, p->rule[i], sizeof(rule));
		snprintf(note, sizeof(note), "%s: %s", sp->def->name, inj_def_help(sp->def));
		*also = 0;
		inj_add_rules(also, sizeof(also), rules, rule);
		inj_add_rules(also, sizeof(also), inj_def_rules(sp->def), rule);
		inj_add_rules(also, sizeof(also), ALSO_REPLY, rule);
		agent_mf_inject(r, rule, xid, true, also, note, si->send_failed);
	}
	if (!any)
		return;
	p->on = true;
	p->xid = xid;
	p->credit = credit;
	memcpy(p->applied, si->applied, sizeof(p->applied));
	p->t0 = g_get_monotonic_time();
}

void serve_inj_react(struct agent_run *r, struct serve_pending *p, enum jd_answer a)
{
	struct jd_reaction jr = { .answer = a, .credit = p->credit };

	if (!p->on)
		return;
	p->on = false;
	jr.elapsed_ms = (uint32_t)((g_get_monotonic_time() - p->t0) / 1000);
	jr.retransmits = a == JD_RETRANSMIT;
	g_strlcpy(jr.app_error, a == JD_ACCESS_ERROR ? "an RDMA operation on the requester's memory failed: "
		  "remote access error" : a == JD_REFUSED ? "the reply's Send failed: the requester "
		  "refused it" : "", sizeof(jr.app_error));
	for (unsigned i = 0; i < r->inj.n; i++) {
		const struct inj_spec *sp = &r->inj.v[i];

		if (p->applied[i])
			inj_react_record(r->mf, sp->def->name, INJ_RESP,
					 strcmp(p->rule[i], "ENG-NOT-V1") ? p->rule[i] : "RR-001", p->xid, true, &jr);
	}
}

void serve_inj_end(struct serve_inj *si)
{
	pg_exch_free(si->ex);
	si->ex = NULL;
}
