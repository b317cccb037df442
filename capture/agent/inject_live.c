// SPDX-License-Identifier: GPL-2.0-or-later
/* The generator's injector hooks on live messages (inject_live.h). */
#include "inject_live.h"

#include <string.h>

#include <glib.h>

static void observe(void *ctx, const char *rule, int at)
{
	struct inj_live *lv = ctx;
	if (at != lv->side || strstr(lv->expected, rule))
		return;
	if (*lv->expected)
		g_strlcat(lv->expected, " ", sizeof(lv->expected));
	g_strlcat(lv->expected, rule, sizeof(lv->expected));
}

void inj_live_init(struct inj_live *lv, const pg_scenario *s, uint64_t seed)
{
	memset(lv, 0, sizeof(*lv));
	lv->env.s = s;
	lv->env.audit = NULL;           /* a live exchange: pg_exch.c keeps no frames */
	pg_mem_init(&lv->env.mem, seed);
}

pg_exch *inj_live_exch(struct inj_live *lv, const pg_item *it)
{
	/* the generator has one observer: the exchange being built is this one's (a proxy
	 * builds on both legs and in both directions, one message at a time) */
	pg_ex_live_observe(observe, lv);
	*lv->expected = 0;
	return pg_exch_new(&lv->env, it, g_array_new(FALSE, TRUE, sizeof(pg_inj_state)));
}

unsigned inj_live_ops(const pg_item *it, const char **ops, unsigned max)
{
	unsigned n = 0;

	if (it && it->nfsver == PG_V3 && it->ops && it->ops->len && max)
		ops[n++] = pg_nfs_opname(PG_V3, false, g_array_index(it->ops, pg_nfsop, 0).op);
	for (guint i = 0; it && it->nfsver != PG_V3 && it->ops && i < it->ops->len && n < max; i++)
		ops[n++] = pg_nfs_opname(it->nfsver, false, g_array_index(it->ops, pg_nfsop, i).op);
	return n;
}

void inj_live_prev_xid(struct inj_live *lv, uint32_t xid)
{
	lv->env.prev_xid = xid;
	lv->env.have_prev = true;
}

typedef bool (*hook_fn)(pg_inj_ctx *c);

static hook_fn hook_of(const pg_injector *in, unsigned stage)
{
	switch (stage) {
	case INJ_ST_PREP: return in->prep;
	case INJ_ST_PLAN: return in->plan;
	case INJ_ST_OPS: return in->ops;
	case INJ_ST_HEADER: return in->header;
	case INJ_ST_WIRE: return in->wire;
	default: return NULL;
	}
}

void inj_live_stage(struct inj_live *lv, pg_exch *ex, const struct inj_list *l, const bool *sel,
		    unsigned stage, bool is_call, pg_rdmamsg *msg, uint32_t *xid, bool *applied,
		    bool *failed)
{
	lv->side = is_call ? PG_AT_CALL : PG_AT_REPLY;
	for (unsigned i = 0; i < l->n; i++) {
		const struct inj_spec *sp = &l->v[i];
		const pg_injector *in;
		pg_inj_ctx c;
		pg_op op;
		hook_fn fn;
		unsigned st = inj_def_stages(sp->def, l->role);
		bool back = (st & INJ_ST_BACK) != 0;

		if (!sel[i] || failed[i] || sp->def->agent_only || back != lv->backward ||
		    (!back && !(st & stage)))
			continue;
		in = pg_injector_find(sp->def->name);
		if (!in || !(fn = hook_of(in, stage)))
			continue;
		memset(&c, 0, sizeof(c));
		memset(&op, 0, sizeof(op));
		c.s = lv->env.s;
		c.plan = &ex->plan;
		c.msg = msg;
		c.is_call = is_call;
		c.arg = sp->has_arg ? sp->arg : NULL;
		c.item = &ex->itc;
		c.cb = ex->cb;
		c.rp = ex->rp.call.msg || ex->rp.reply.msg ? &ex->rp : NULL;   /* none built: an error answer */
		c.ex = ex;
		c.xid = xid;
		if (stage == INJ_ST_WIRE) {
			/* the Send of the message: a hook that rewrites its bytes points op at them */
			op.kind = PG_OP_SEND;
			op.data = msg->wire->data;
			op.len = msg->wire->len;
			c.op = &op;
		}
		if (fn(&c))
			applied[i] = true;
		else if (stage == INJ_ST_PLAN)
			failed[i] = true;
		else if (stage == INJ_ST_HEADER && in->plan)
			applied[i] = false;   /* a plan knob that turned out to change nothing */
	}
}
