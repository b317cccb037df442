// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors that damage the capture: CRCs and the snap length. They break
 * no rule; the messages they hit get no expected finding. */
#include "pg_inject_priv.h"

bool pg_inj_bad_icrc(pg_inj_ctx *c)
{
	if (c->s->link->iwarp)
		return false;
	c->op->bad_crc = pg_inj_arg(c, 0xdeadbeefu);
	if (c->op->bad_crc && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->op->bad_crc != 0;
}

bool pg_inj_bad_mpa_crc(pg_inj_ctx *c)
{
	if (!c->s->link->iwarp || !c->s->link->mpa_crc)
		return false;
	c->op->bad_crc = pg_inj_arg(c, 0x5a5a5a5au);
	if (c->op->bad_crc && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->op->bad_crc != 0;
}

bool pg_inj_truncate_snaplen(pg_inj_ctx *c)
{
	c->snap = pg_inj_arg(c, 0);
	if (c->snap && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->snap > 0;
}
