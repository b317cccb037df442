// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_exch.h"

pg_exch *pg_exch_new(pg_exch_env *env, const pg_item *it, GArray *inj)
{
	pg_exch *ex = g_new0(pg_exch, 1);
	ex->env = env;
	ex->it = it;
	ex->itc = *it;
	ex->inj = inj;
	ex->reads = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->writes = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->after = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->scratch = g_ptr_array_new_with_free_func(g_free);
	/* a live exchange (no audit) keeps its facts to itself */
	ex->cmi = env->audit ? pg_audit_info(env->audit) : g_new0(pg_msginfo, 1);
	ex->rmi = env->audit ? pg_audit_info(env->audit) : g_new0(pg_msginfo, 1);
	return ex;
}

void pg_exch_free(pg_exch *ex)
{
	if (!ex)
		return;
	pg_plan_clear(&ex->plan);
	pg_rpc_pair_clear(&ex->rp);
	g_array_free(ex->reads, TRUE);
	g_array_free(ex->writes, TRUE);
	g_array_free(ex->after, TRUE);
	g_array_free(ex->inj, TRUE);
	g_ptr_array_free(ex->scratch, TRUE);
	if (!ex->env->audit) {
		g_free(ex->cmi);
		g_free(ex->rmi);
	}
	g_free(ex);
}

static pg_live_observer live_observer;
static void *live_observer_ctx;

void pg_ex_live_observe(pg_live_observer fn, void *ctx)
{
	live_observer = fn;
	live_observer_ctx = ctx;
}

/* ---- services for the injectors ------------------------------------------ */

void pg_ex_expect(pg_exch *ex, const char *rule, int at)
{
	if (!ex->env->audit) {
		if (live_observer)
			live_observer(live_observer_ctx, rule, at);
		return;
	}
	pg_expect_at(ex->env->audit, rule, at == PG_AT_CALL ? ex->cmi : ex->rmi);
}

void pg_ex_add_op(pg_exch *ex, int when, const pg_op *op, const char *rule)
{
	pg_op o = *op;
	if (o.kind == PG_OP_READ && !o.sink_stag && ex->env->audit) {
		o.sink_stag = pg_mem_key(&ex->env->mem, ex->resp);
		o.sink_to = pg_mem_va(&ex->env->mem, ex->resp, o.len);
	}
	if (rule && ex->env->audit)
		o.frame_out = pg_expect_op(ex->env->audit, rule);
	else if (rule && live_observer)
		live_observer(live_observer_ctx, rule, when == PG_OPS_READS ? PG_AT_CALL : PG_AT_REPLY);
	g_array_append_val(when == PG_OPS_READS ? ex->reads
			   : when == PG_OPS_WRITES ? ex->writes : ex->after, o);
}

bool pg_ex_expect_write(pg_exch *ex, const char *rule, uint32_t handle)
{
	for (guint i = 0; i < ex->writes->len; i++) {
		pg_op *o = &g_array_index(ex->writes, pg_op, i);
		if (o->kind == PG_OP_WRITE && o->rkey == handle && !o->frame_out) {
			if (!ex->env->audit) {
				if (live_observer)
					live_observer(live_observer_ctx, rule, PG_AT_REPLY);
				return true;
			}
			o->frame_out = pg_expect_op(ex->env->audit, rule);
			return true;
		}
	}
	return false;
}

pg_op *pg_ex_op(pg_exch *ex, int when, guint index)
{
	GArray *a = when == PG_OPS_READS ? ex->reads : when == PG_OPS_WRITES ? ex->writes : ex->after;
	return index < a->len ? &g_array_index(a, pg_op, index) : NULL;
}

uint8_t *pg_ex_scratch(pg_exch *ex, uint32_t len)
{
	uint8_t *p = g_malloc0(len ? len : 1);
	g_ptr_array_add(ex->scratch, p);
	return p;
}

void pg_ex_flag(pg_exch *ex, unsigned flags, bool call)
{
	(call ? ex->cmi : ex->rmi)->flags |= flags;
}

bool pg_ex_prev_xid(pg_exch *ex, uint32_t *xid)
{
	*xid = ex->env->prev_xid;
	return ex->env->have_prev && !ex->cb;
}

uint32_t pg_ex_threshold(pg_exch *ex)
{
	if (!ex->env->s)
		return 1024;
	return ex->env->s->handshake ? ex->env->s->inline_max : 1024;
}
