// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group M, the backchannel (RR-192, RR-195; a Reply chunk
 * offered by a backward call, which RFC 8267 6.5.2 allows), and of group N,
 * rpcbind carried over RPC-over-RDMA (RR-201, RR-203). */
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

/* ---- group N: rpcbind carried over RPC-over-RDMA (RR-201, RR-203) ---- */

static uint32_t get32(const GByteArray *b, size_t off)
{
	const uint8_t *p = b->data + off;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Where an opaque_auth (flavor, length, body) that starts at off ends. */
static size_t skip_auth(const GByteArray *b, size_t off)
{
	uint32_t n;
	if (off + 8 > b->len)
		return 0;
	n = get32(b, off + 4);
	return off + 8 + ((n + 3u) & ~3u) <= b->len ? off + 8 + ((n + 3u) & ~3u) : 0;
}

/* Make an exchange an rpcbind GETPORT (version 2) or GETADDR (versions 3,
 * 4): procedure 3, new arguments, new results. The line names program
 * 100000 (prog=100000:V on an NFSv3 GETATTR line, whose argument and result
 * bytes nothing else refers to). */
static bool rpcb_rewrite(pg_inj_ctx *c, uint32_t prog, uint32_t vers, const char *uaddr, uint32_t port)
{
	GByteArray *q, *r;
	size_t a, res;
	uint32_t v;
	if (!c->is_call || c->cb || !c->rp || c->rp->program != 100000 || c->rp->call.ddp->len ||
	    c->rp->reply.ddp->len)
		return false;
	q = c->rp->call.msg;
	r = c->rp->reply.msg;
	a = q->len >= 24 ? skip_auth(q, 24) : 0;
	a = a ? skip_auth(q, a) : 0;
	res = r->len >= 12 ? skip_auth(r, 12) : 0;
	if (!a || !res || res + 4 > r->len || get32(r, 8) || get32(r, res))
		return false;
	v = c->rp->version;
	pb_put_be32(q, 20, 3);
	c->rp->procedure = 3;
	g_byte_array_set_size(q, a);
	pb_be32(q, prog);
	pb_be32(q, vers);
	if (v == 2) {
		pb_be32(q, 6);     /* IPPROTO_TCP */
		pb_be32(q, 0);
	} else {
		pb_xdr_string(q, "tcp");
		pb_xdr_string(q, "");
		pb_xdr_string(q, "");
	}
	g_byte_array_set_size(r, res + 4);
	if (v == 2)
		pb_be32(r, port);
	else
		pb_xdr_string(r, uaddr);
	return true;
}

/* an NFSv4 client asks rpcbind where NFS version 4 listens (RR-201) */
bool pg_inj_rpcb_nfs4(pg_inj_ctx *c)
{
	if (!rpcb_rewrite(c, 100003, 4, "10.1.0.2.78.81", 20049))
		return false;
	pg_inj_expect(c, "RR-201");
	return true;
}

/* a TCP query for MOUNT version 3 answered with port ARG (default 0: not
 * offered over TCP, RR-203 at the reply) */
bool pg_inj_rpcb_mount(pg_inj_ctx *c)
{
	uint32_t port = pg_inj_arg(c, 0);
	if (!rpcb_rewrite(c, 100005, 3, port ? "10.1.0.2.78.80" : "", port))
		return false;
	if (!port)
		pg_ex_expect(c->ex, "RR-203", PG_AT_REPLY);
	return true;
}
