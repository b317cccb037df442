// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group M, the backchannel (RR-192; a Reply chunk offered by a
 * backward call, which RFC 8267 6.5.2 allows). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

/* a backward call sent as a Long Call (RDMA_NOMSG, one-segment PZRC) */
bool pg_inj_cb_long_call(pg_inj_ctx *c)
{
	if (!c->is_call || !c->cb || c->item->call.long_segs)
		return false;
	c->item->call.long_segs = 1;
	return true;
}

bool pg_inj_cb_long_call_check(pg_inj_ctx *c)
{
	return c->msg->proc == RDMA_NOMSG;
}

/* a backward call that offers a Reply chunk: legal, a callback reply may
 * need to be Long (RFC 8267 6.5.2, RFC 8167 5.3); no finding */
bool pg_inj_cb_reply_chunk_plan(pg_inj_ctx *c)
{
	if (!c->cb)
		return false;
	c->plan->knobs.offer_unused_reply_chunk = true;
	return true;
}

bool pg_inj_cb_reply_chunk(pg_inj_ctx *c)
{
	return (c->plan->done & PG_DONE_UNUSED_RC) != 0;
}

/* a backward call of the NFS program (100003 version 4): the side that
 * accepted the connection calls NFS, so the side that connected serves it,
 * and an NFS server never initiates a connection (RFC 8167 2, 5.4). The
 * argument bytes stay those of the CB_COMPOUND. Provable only with the
 * handshake in the capture (who connected). */
bool pg_inj_cb_nfs_program(pg_inj_ctx *c)
{
	GByteArray *m;
	if (!c->cb || !c->is_call || !c->rp)
		return false;
	m = c->rp->call.msg;
	if (m->len < 20)
		return false;
	pb_put_be32(m, 12, 100003);
	pb_put_be32(m, 16, 4);
	if (c->s->handshake)
		pg_inj_expect(c, "RR-195");
	return true;
}
