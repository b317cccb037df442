// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_stage.h"

GArray *pg_stage_states(const pg_item *it)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(pg_inj_state));
	for (guint i = 0; i < it->injects->len; i++) {
		pg_inj_state st = { 0 };
		st.spec = it->injects->pdata[i];
		st.inj = pg_injector_find(st.spec->name);
		if (!st.inj)
			pg_bug("injector %s", st.spec->name);
		g_array_append_val(a, st);
	}
	return a;
}

typedef bool (*hook_fn)(pg_inj_ctx *c);

static hook_fn stage_hook(const pg_injector *inj, enum pg_stage st)
{
	switch (st) {
	case PG_ST_PREP: return inj->prep;
	case PG_ST_PLAN: return inj->plan;
	case PG_ST_OPS: return inj->ops;
	case PG_ST_HEADER: return inj->header;
	case PG_ST_WIRE: return inj->wire;
	case PG_ST_CAPTURE: return inj->capture;
	}
	return NULL;
}

uint32_t pg_stage_run(pg_exch *ex, enum pg_stage st, bool is_call, pg_rdmamsg *msg, pg_op *op,
		      uint32_t *xid)
{
	uint32_t snap = 0;
	for (guint i = 0; i < ex->inj->len; i++) {
		pg_inj_state *is = &g_array_index(ex->inj, pg_inj_state, i);
		pg_inj_ctx c = { 0 };
		hook_fn fn;
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (!ex->simple && !(is->spec->target & want))
			continue;
		c.s = ex->env->s;
		c.plan = ex->simple ? NULL : &ex->plan;
		c.msg = msg;
		c.is_call = is_call;
		c.arg = is->spec->arg;
		c.op = op;
		c.item = &ex->itc;
		c.rp = ex->simple ? NULL : &ex->rp;
		c.ex = ex;
		c.xid = xid;
		c.cb = ex->cb;
		fn = stage_hook(is->inj, st);
		if (!fn || (st == PG_ST_PLAN && ex->simple))
			continue;
		if (st > PG_ST_PLAN && is->inj->plan && (ex->simple || (is->plan_tried && !is->plan_ok)))
			continue;
		if (fn(&c)) {
			is->applied = true;
			if (st == PG_ST_PLAN)
				is->plan_ok = true;
			if (st == PG_ST_CAPTURE)
				snap = c.snap;
		} else if (st == PG_ST_PLAN) {
			is->plan_tried = true;
		} else if (st == PG_ST_HEADER && is->inj->plan) {
			/* a plan knob that turned out to change nothing */
			is->applied = false;
		}
		if (st == PG_ST_PLAN && is->plan_ok)
			is->plan_tried = true;
	}
	return snap;
}

bool pg_stage_any_applied(GArray *states)
{
	for (guint i = 0; i < states->len; i++)
		if (g_array_index(states, pg_inj_state, i).applied)
			return true;
	return false;
}

bool pg_stage_record(pg_truth *t, GArray *states, int id, bool is_call, bool simple)
{
	bool any = false;
	for (guint i = 0; i < states->len; i++) {
		pg_inj_state *is = &g_array_index(states, pg_inj_state, i);
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (is->applied && (simple || (is->spec->target & want))) {
			pg_truth_inject(t, id, is->spec->name);
			any = true;
		}
	}
	return any;
}
