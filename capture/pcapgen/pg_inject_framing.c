// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group A, framing and the fixed header (RR-001..RR-008). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

#include <stdlib.h>

/* rdma_vers other than 1 (RFC 8166 4.2.2 / ERR_VERS territory). What it
 * breaks depends on the answer, so the sequence checks decide: RR-001 when
 * the call is answered normally, RR-111 when not with ERR_VERS, RR-110 for
 * an RDMA_ERROR whose version differs from the call's. */
bool pg_inj_bad_vers(pg_inj_ctx *c)
{
	c->msg->vers = pg_inj_arg(c, 2);
	return c->msg->vers != 1;
}

/* rdma_xid no longer mirrors the RPC XID (RFC 8166 4.1) */
bool pg_inj_xid_mismatch(pg_inj_ctx *c)
{
	c->msg->xid ^= pg_inj_arg(c, 0x00010000u);
	if (c->msg->proc == RDMA_MSG || c->msg->proc == RDMA_NOMSG || c->msg->proc == RDMA_MSGP) {
		pg_inj_expect(c, "RR-002");
		if (c->is_call && c->ex)
			pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	}
	return true;
}

/* a reply whose XID (transport and RPC) no call ever used */
bool pg_inj_orphan_reply_plan(pg_inj_ctx *c)
{
	uint32_t mask = pg_inj_arg(c, 0x80000000u), x;
	GByteArray *m;
	if (c->is_call || !mask)
		return false;
	m = c->rp->reply.msg;
	x = (uint32_t)m->data[0] << 24 | (uint32_t)m->data[1] << 16 | (uint32_t)m->data[2] << 8 |
	    m->data[3];
	pb_put_be32(m, 0, x ^ mask);
	return true;
}

bool pg_inj_orphan_reply_header(pg_inj_ctx *c)
{
	c->msg->xid ^= pg_inj_arg(c, 0x80000000u);
	return true;
}

/* the call reuses the previous call's XID: while that call is outstanding
 * (dup-xid), or after RDMA_ERROR ended it (resend-xid, group G; retry-xid
 * after ERR_CHUNK, group L) */
bool pg_inj_reuse_xid(pg_inj_ctx *c)
{
	uint32_t prev;
	if (!c->is_call || !pg_ex_prev_xid(c->ex, &prev) || prev == *c->xid)
		return false;
	*c->xid = prev;
	return true;
}

bool pg_inj_bad_proc(pg_inj_ctx *c)
{
	c->msg->proc = pg_inj_arg(c, 7);
	if (c->msg->proc <= RDMA_ERROR)
		return false;
	pg_inj_expect(c, "RR-005");
	if (c->is_call && c->ex)
		pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	return true;
}

/* TCP record marking inside an RPC-over-RDMA Payload (RFC 8166 4.2) */
bool pg_inj_record_mark(pg_inj_ctx *c)
{
	GByteArray *p = c->msg->inline_payload;
	uint8_t rm[4];
	uint32_t len = c->rp ? (c->is_call ? c->rp->call.msg->len : c->rp->reply.msg->len) : p->len;
	if ((c->msg->proc != RDMA_MSG && c->msg->proc != RDMA_MSGP) || p->len < 8)
		return false;
	len |= 0x80000000u;
	rm[0] = (uint8_t)(len >> 24);
	rm[1] = (uint8_t)(len >> 16);
	rm[2] = (uint8_t)(len >> 8);
	rm[3] = (uint8_t)len;
	g_byte_array_prepend(p, rm, 4);
	pg_inj_expect(c, "RR-007");
	return true;
}

/* RPC msg_type other than CALL/REPLY; the Payload as built carries it */
bool pg_inj_bad_msg_type(pg_inj_ctx *c)
{
	GByteArray *m = c->is_call ? c->rp->call.msg : c->rp->reply.msg;
	uint32_t v = pg_inj_arg(c, 2);
	if (m->len < 8 || v <= 1)
		return false;
	pb_put_be32(m, 4, v);
	pg_inj_expect(c, "RR-008");
	return true;
}

/* an RDMA_MSG reply with nothing after its transport header: the Send ends
 * where the RPC message should start */
bool pg_inj_no_rpc(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (c->is_call || !c->ex || m->proc != RDMA_MSG || !m->inline_payload->len || m->reply)
		return false;
	for (guint i = 0; i < m->writes->len; i++)
		if (pg_inj_chunk_used(m->writes->pdata[i]))
			return false;
	g_byte_array_set_size(m->inline_payload, 0);
	pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
	pg_inj_expect(c, "RR-006");
	return true;
}

/* The call sent as RDMA_MSGP (group H, RR-130; RFC 8166 4.6.1 retires it
 * in version 1): its Payload padded to ARG "ALIGN:THRESH" (default 4:4096).
 * The sequence checks expect RR-130 at the call, and RR-131 unless the
 * answer is ERR_CHUNK. */
bool pg_inj_msgp(pg_inj_ctx *c)
{
	uint32_t align = 4, thresh = 4096;
	if (!c->is_call || c->item->msgp)
		return false;
	if (c->arg) {
		char *end;
		align = (uint32_t)strtoul(c->arg, &end, 0);
		thresh = *end == ':' ? (uint32_t)strtoul(end + 1, NULL, 0) : thresh;
	}
	c->item->msgp = true;
	c->item->align = align;
	c->item->thresh = thresh;
	return true;
}
