// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group O, memory registration (RR-210, RR-215). */
#include "pg_inject_priv.h"

/* the call's first read segment uses one handle that stays registered
 * (persistent registration): the same R_Key call after call */
bool pg_inj_reuse_handle(pg_inj_ctx *c)
{
	pg_chunk *ch = NULL;
	uint32_t key = pg_inj_arg(c, 0x0badf00du), old;
	pg_op *op;
	for (guint i = 0; i < c->plan->read_chunks->len && !ch; i++)
		if (((pg_chunk *)c->plan->read_chunks->pdata[i])->segs->len)
			ch = c->plan->read_chunks->pdata[i];
	if (!c->is_call || !ch)
		return false;
	old = g_array_index(ch->segs, pg_seg, 0).handle;
	g_array_index(ch->segs, pg_seg, 0).handle = key;
	for (guint i = 0; (op = pg_ex_op(c->ex, PG_OPS_READS, i)); i++)
		if (op->rkey == old)
			op->rkey = key;
	pg_ex_flag(c->ex, PG_EXF_HANDLE_REUSED, true);
	return true;
}

/* the reply's Send With Invalidate names a key the call never advertised
 * (pg_gen.c expects RR-215 from what the Send carries) */
bool pg_inj_wrong_invalidate(pg_inj_ctx *c)
{
	if (c->is_call || !c->op->invalidate)
		return false;
	c->op->inv_rkey ^= pg_inj_arg(c, 0x00c3c300u);
	return true;
}
