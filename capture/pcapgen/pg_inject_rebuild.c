// SPDX-License-Identifier: GPL-2.0-or-later
/* Injector of group B on the reply side (RR-032): the chunk a Long reply
 * travels in no longer rebuilds into the RPC reply. */
#include "pg_inject_priv.h"

/* An RDMA_NOMSG reply returns its Reply chunk ARG bytes (default 64) short
 * of what the responder wrote: the Payload the requester takes from it is
 * cut and does not decode. */
bool pg_inj_reply_chunk_cut(pg_inj_ctx *c)
{
	pg_chunk *rc = c->msg->reply;
	uint32_t cut = pg_round4(pg_inj_arg(c, 64)), left = cut;
	if (c->is_call || c->msg->proc != RDMA_NOMSG || !rc || !rc->ret || !rc->ret->len || !cut)
		return false;
	for (guint i = rc->ret->len; i-- && left;) {
		pg_seg *s = &g_array_index(rc->ret, pg_seg, i);
		uint32_t n = MIN(s->length, left);
		s->length -= n;
		left -= n;
	}
	if (left == cut)
		return false;
	pg_inj_expect(c, "RR-032");
	return true;
}
