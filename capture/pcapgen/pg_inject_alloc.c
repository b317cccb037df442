// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group L, reply sizing: a READDIR that asks for more than
 * the reply resources its requester offered (RR-186). */
#include "pg_inject_priv.h"
#include <string.h>

#include "pg_buf.h"

/* Bytes of the chunk as the requester advertised it. */
static uint64_t offered(const pg_chunk *ch)
{
	uint64_t n = 0;
	for (guint k = 0; ch && k < ch->segs->len; k++)
		n += g_array_index(ch->segs, pg_seg, k).length;
	return n;
}

/* Where the READDIR count (NFSv3) or maxcount (NFSv4, a COMPOUND whose
 * READDIR is the last op and succeeds) sits in the call's Payload, or 0. */
static size_t count_at(const pg_inj_ctx *c, const GByteArray *pl)
{
	const pg_item *it = c->item;
	const pg_nfsop *last;

	if (pl->len < 16 || !it->ops->len)
		return 0;
	last = &g_array_index(it->ops, pg_nfsop, it->ops->len - 1);
	switch (pg_inj_binding(c)) {
	case PG_BIND_NFS3:   /* READDIR3args end with count */
		return c->rp->procedure == NFS3_READDIR ? pl->len - 4 : 0;
	case PG_BIND_NFS4:   /* READDIR4args end with maxcount and a two-word bitmap4 */
		for (guint i = 0; i < it->ops->len; i++)
			if (g_array_index(it->ops, pg_nfsop, i).status)
				return 0;
		return c->rp->procedure == 1 && last->op == OP4_READDIR ? pl->len - 16 : 0;
	default:
		return 0;
	}
}

/*
 * The call's READDIR count set to ARG, by default to the reply resources
 * the call offers (the larger of the requester's inline threshold and its
 * Reply chunk, plus its Write chunks), so that the largest reply the count
 * allows (RFC 1813 3.3.16, RFC 7530 16.24: count bounds the resok
 * structure, without the RPC and NFS headers before it) cannot fit
 * (RFC 8166 6.2).  The reply stays as built.  The finding is expected
 * where the requester's threshold is on the wire (the handshake).
 */
bool pg_inj_readdir_count(pg_inj_ctx *c)
{
	GByteArray *pl, *rpc;
	uint64_t alloc, largest;
	uint32_t old, count;
	size_t at;

	if (!c->is_call || !c->plan || !c->rp || c->plan->read_chunks->len)
		return false;
	pl = c->msg->inline_payload;
	rpc = c->rp->call.msg;
	at = count_at(c, pl);
	/* the inline Payload is the whole call, its tail unreduced */
	if (!at || pl->len != rpc->len || memcmp(pl->data + at, rpc->data + at, pl->len - at))
		return false;
	alloc = MAX((uint64_t)c->s->inline_max, offered(c->plan->reply_chunk));
	for (guint k = 0; k < c->plan->write_chunks->len; k++)
		alloc += offered(c->plan->write_chunks->pdata[k]);
	count = pg_inj_arg(c, (uint32_t)MIN(pg_round4((uint32_t)MIN(alloc, G_MAXUINT32 - 3)),
					    G_MAXUINT32 - 3));
	/* pg_nfs.c/pg_nfs4.c set the count to the resok the reply returns: the
	 * reply less that is the RPC and NFS header the largest reply has too */
	old = pb_get_be32(pl->data + at);
	largest = (uint64_t)c->rp->reply.msg->len - old + count;
	pb_put_be32(pl, at, count);
	pb_put_be32(rpc, at, count);   /* the call as the truth file describes it */
	if (c->s->handshake && largest > alloc)
		pg_inj_expect(c, "RR-186");
	return true;
}
