// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of a receiver refusing a Send. No Receive posted (group F,
 * RR-107): IB/RoCE answer the Send's first packet with an RNR NAK and the
 * sender sends it again; iWARP sends a Terminate "no buffer available"
 * (the scenario goes on, as after a terminate line). Longer than the
 * Receive posted (group C, what RR-045 infers without the handshake):
 * IB/RoCE answer with a NAK "remote invalid request", iWARP with a
 * Terminate "message too long". */
#include "pg_inject_priv.h"

#include "pg_exch.h"
#include "pg_rpcrdma.h"

static bool refuse(pg_inj_ctx *c, uint8_t how, const char *rule)
{
	if (!c->op || !c->ex || c->op->refuse)
		return false;
	c->op->refuse = how;
	c->op->refused_frame_out = pg_expect_op(c->ex->env->audit, rule);
	return true;
}

bool pg_inj_rnr_nak(pg_inj_ctx *c)
{
	if (!refuse(c, PG_REFUSE_NO_RECEIVE, "RR-107"))
		return false;
	c->op->rnr_timer = (uint8_t)(pg_inj_arg(c, 14) & 0x1f);
	return true;
}

/* The requester refuses an RDMA_MSG reply as too long although it offered
 * a Reply chunk: without the handshake that refusal is the only proof that
 * the reply exceeded its inline threshold (with it, the audit compares
 * sizes with the advertised threshold). */
bool pg_inj_reply_too_long(pg_inj_ctx *c)
{
	uint32_t *slot;
	if (c->is_call || !c->op || !c->ex || c->op->refuse || c->msg->proc != RDMA_MSG ||
	    !c->plan || !c->plan->call.reply)
		return false;
	c->op->refuse = PG_REFUSE_TOO_LONG;
	/* the refusal itself is no finding: its frame goes nowhere */
	slot = (uint32_t *)(void *)pg_ex_scratch(c->ex, sizeof(uint32_t));
	*slot = 0;
	c->op->refused_frame_out = slot;
	if (!c->s->handshake)
		pg_inj_expect(c, "RR-045");
	return true;
}

/* The receiver refuses a Send of at most 1024 bytes as longer than its
 * Receive: it posted Receives smaller than the 1024 bytes every receiver
 * must accept (RR-051, at the Send). The refusal itself anchors no finding. */
bool pg_inj_small_receive(pg_inj_ctx *c)
{
	uint32_t *slot;
	if (!c->op || !c->ex || c->op->refuse || c->op->kind != PG_OP_SEND || c->op->len > 1024)
		return false;
	c->op->refuse = PG_REFUSE_TOO_LONG;
	slot = (uint32_t *)(void *)pg_ex_scratch(c->ex, sizeof(uint32_t));
	*slot = 0;
	c->op->refused_frame_out = slot;
	pg_inj_expect(c, "RR-051");
	return true;
}
