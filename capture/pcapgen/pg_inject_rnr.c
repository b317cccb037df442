// SPDX-License-Identifier: GPL-2.0-or-later
/* Injector of group F for the receiver's side of credits (RR-107): the
 * Send finds no Receive posted. IB/RoCE: the receiver answers the Send's
 * first packet with an RNR NAK and the sender sends it again; iWARP: the
 * receiver sends a Terminate "no buffer available" (and the scenario goes
 * on, as after a terminate line). */
#include "pg_inject_priv.h"

#include "pg_exch.h"

bool pg_inj_rnr_nak(pg_inj_ctx *c)
{
	if (!c->op || !c->ex || c->op->rnr_frame_out)
		return false;
	c->op->rnr_timer = (uint8_t)(pg_inj_arg(c, 14) & 0x1f);
	c->op->rnr_frame_out = pg_expect_op(c->ex->env->audit, "RR-107");
	return true;
}
