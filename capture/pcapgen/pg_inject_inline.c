// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group C, the inline threshold: Long and Short replies (RR-045, RR-049). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

/* an RDMA_MSG reply larger than the threshold although a Reply chunk was
 * offered: the responder ignores the Reply chunk (the sequence checks
 * expect RR-045 when the Send is above the requester's threshold) */
bool pg_inj_long_reply_inline(pg_inj_ctx *c)
{
	if (c->is_call || !c->item->reply.long_segs || c->item->reply.error)
		return false;
	c->item->reply.long_segs = 0;
	c->plan->knobs.offer_unused_reply_chunk = true;
	return true;
}

bool pg_inj_long_reply_inline_check(pg_inj_ctx *c)
{
	return (c->plan->done & PG_DONE_UNUSED_RC) != 0;
}

/* RDMA_MSG reply that also wrote the Payload into the Reply chunk */
bool pg_inj_msg_writes_reply_chunk(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (c->is_call || m->proc != RDMA_NOMSG || !m->reply || !m->reply->data->len)
		return false;
	m->proc = RDMA_MSG;
	g_byte_array_set_size(m->inline_payload, 0);
	pb_bytes(m->inline_payload, m->reply->data->data, m->reply->data->len);
	pg_inj_expect(c, "RR-049");
	return true;
}

/* The call goes inline (RDMA_MSG) however long it is: none of its items in
 * a chunk, no Long Call. Past the receiver's threshold the sequence checks
 * expect RR-040 (handshake) or RR-041 (RFC 8166 3.3.2, 3.3.3). */
bool pg_inj_oversize_send(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call;
	if (!c->is_call || (!sh->chunked && !sh->long_segs))
		return false;
	sh->chunked = false;
	sh->long_segs = 0;
	sh->n = 0;
	return true;
}
