// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group G, RDMA_ERROR and GARBAGE_ARGS (RR-111..RR-117), and a call too short to trust (RR-113). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

#include <stdlib.h>

/* an ERR_VERS whose body lacks its last word (the high version) */
bool pg_inj_short_err_vers(pg_inj_ctx *c)
{
	GByteArray *w = c->msg->wire;
	if (c->msg->proc != RDMA_ERROR || c->msg->err != 1 || w->len < 28)
		return false;
	g_byte_array_set_size(w, w->len - 4);
	c->op->data = w->data;
	c->op->len = w->len;
	pg_inj_expect(c, "RR-112");
	return true;
}

/* the responder answers GARBAGE_ARGS (RFC 5531 accept_stat 4): the reply
 * is an RPC header and nothing else, sent as the reply shape says */
bool pg_inj_garbage_args(pg_inj_ctx *c)
{
	GByteArray *m;
	uint32_t xid;
	if (c->is_call || !c->rp || c->item->reply.chunked || c->rp->slots->len)
		return false;
	m = c->rp->reply.msg;
	xid = (uint32_t)m->data[0] << 24 | (uint32_t)m->data[1] << 16 |
	      (uint32_t)m->data[2] << 8 | m->data[3];
	g_byte_array_set_size(m, 0);
	pg_rpc_reply_hdr(m, xid);
	pb_put_be32(m, 20, 4); /* GARBAGE_ARGS */
	g_array_set_size(c->rp->reply.ddp, 0);
	pg_ex_flag(c->ex, PG_EXF_GARBAGE, false);
	return true;
}

/* ERR_VERS range: "LOW:HIGH" (default 2:1, i.e. low > high) */
bool pg_inj_err_range(pg_inj_ctx *c)
{
	uint32_t lo = 2, hi = 1;
	if (c->msg->proc != RDMA_ERROR || c->msg->err != 1)
		return false;
	if (c->arg) {
		char *end;
		lo = (uint32_t)strtoul(c->arg, &end, 0);
		hi = *end == ':' ? (uint32_t)strtoul(end + 1, NULL, 0) : lo;
	}
	c->msg->low = lo;
	c->msg->high = hi;
	return true;
}

bool pg_inj_err_code(pg_inj_ctx *c)
{
	uint32_t v = pg_inj_arg(c, 7);
	if (c->msg->proc != RDMA_ERROR || v == 1 || v == 2)
		return false;
	c->msg->err = v;
	pg_inj_expect(c, "RR-117");
	return true;
}

/* reply=none: the responder still RDMA-Reads every read segment of the
 * call, in full (it took the call in), and then never answers */
bool pg_inj_silent_read(pg_inj_ctx *c)
{
	bool any = false;
	if (!c->is_call || !c->item->reply.none)
		return false;
	for (guint i = 0; i < c->plan->read_chunks->len; i++) {
		const pg_chunk *ch = c->plan->read_chunks->pdata[i];
		uint32_t at = 0;
		for (guint k = 0; k < ch->segs->len; k++) {
			const pg_seg *s = &g_array_index(ch->segs, pg_seg, k);
			pg_op op = { 0 };
			if (!s->length || at + s->length > ch->data->len)
				break;
			op.kind = PG_OP_READ;
			op.len = s->length;
			op.data = ch->data->data + at;
			op.rkey = s->handle;
			op.va = s->offset;
			/* the call's own chunk data, as a normal Read: pg_gen.c's OWNER_EXCHANGE
			 * (-2) makes the call's truth name the Read's frames */
			op.owner = -2;
			pg_ex_add_op(c->ex, PG_OPS_READS, &op, NULL);
			at += s->length;
			any = true;
		}
	}
	if (any)
		pg_ex_flag(c->ex, PG_EXF_SILENT_READ, true);
	return any;
}

/* A call Send cut to ARG bytes (default 20; 16..27: the fixed fields stay):
 * shorter than a minimal transport header, which its receiver silently
 * discards (RFC 8166 4.5). Its Payload never crosses the wire. */
static bool short_header_len(pg_inj_ctx *c, uint32_t *n)
{
	*n = pg_inj_arg(c, 20);
	return c->is_call && c->ex && *n >= 16 && *n < 28;
}

bool pg_inj_short_header_mark(pg_inj_ctx *c)
{
	uint32_t n;
	if (!short_header_len(c, &n))
		return false;
	pg_ex_flag(c->ex, PG_EXF_CALL_OFF_WIRE, true);
	return true;
}

bool pg_inj_short_header(pg_inj_ctx *c)
{
	GByteArray *w = c->msg->wire;
	uint32_t n;
	if (!short_header_len(c, &n) || w->len <= n)
		return false;
	g_byte_array_set_size(w, n);
	c->op->data = w->data;
	c->op->len = w->len;
	pg_inj_expect(c, "RR-006");
	return true;
}
