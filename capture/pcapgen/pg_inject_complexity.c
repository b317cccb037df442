// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group K, complexity limits (RR-171). */
#include "pg_inject_priv.h"

/* surplus Write chunks (never used) */
bool pg_inj_extra_write_chunk_plan(pg_inj_ctx *c)
{
	c->plan->knobs.extra_write_chunks = MAX(pg_inj_arg(c, 1), 1u);
	return true;
}

bool pg_inj_extra_write_chunk(pg_inj_ctx *c)
{
	return (c->plan->done & PG_DONE_EXTRAW) != 0;
}
