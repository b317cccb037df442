// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_inject_priv.h"

#include <stdlib.h>

uint32_t pg_inj_arg(const pg_inj_ctx *c, uint32_t dflt)
{
	return c->arg ? (uint32_t)strtoul(c->arg, NULL, 0) : dflt;
}

static int at(const pg_inj_ctx *c)
{
	return c->is_call ? PG_AT_CALL : PG_AT_REPLY;
}

void pg_inj_expect(pg_inj_ctx *c, const char *rule)
{
	if (c->ex)
		pg_ex_expect(c->ex, rule, at(c));
}

int pg_inj_binding(const pg_inj_ctx *c)
{
	if (!c->rp)
		return PG_BIND_OTHER;
	if (c->rp->backchannel)
		return PG_BIND_CB;
	if (c->rp->program == PG_PROG_NFSACL)
		return PG_BIND_ACL;
	if (c->rp->program != PG_PROG_NFS)
		return PG_BIND_OTHER;
	return c->rp->version == 4 ? PG_BIND_NFS4 : PG_BIND_NFS3;
}

bool pg_inj_chunk_used(const pg_chunk *ch)
{
	for (guint i = 0; i < ch->ret->len; i++)
		if (g_array_index(ch->ret, pg_seg, i).length)
			return true;
	return false;
}
