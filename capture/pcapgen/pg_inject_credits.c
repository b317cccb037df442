// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group F, credits (RR-100, RR-101). */
#include "pg_inject_priv.h"

/* rdma_credit 0 (the sequence checks expect RR-100 for a forward reply,
 * RR-101 for any backward message) */
bool pg_inj_zero_credit(pg_inj_ctx *c)
{
	c->msg->credit = 0;
	return true;
}
