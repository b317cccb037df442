// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_inject.h"

#include "pg_buf.h"
#include "pg_scenario_priv.h"

#include <stdlib.h>
#include <string.h>

static uint32_t arg_u32(const pg_inj_ctx *c, uint32_t dflt)
{
	return c->arg ? (uint32_t)strtoul(c->arg, NULL, 0) : dflt;
}

static int at(const pg_inj_ctx *c)
{
	return c->is_call ? PG_AT_CALL : PG_AT_REPLY;
}

static void expect(pg_inj_ctx *c, const char *rule)
{
	if (c->ex)
		pg_ex_expect(c->ex, rule, at(c));
}

/* The NFS binding the exchange falls under. */
enum { K_NFS3, K_NFS4, K_ACL, K_CB, K_OTHER };
static int binding(const pg_inj_ctx *c)
{
	if (!c->rp)
		return K_OTHER;
	if (c->rp->backchannel)
		return K_CB;
	if (c->rp->program == PG_PROG_NFSACL)
		return K_ACL;
	if (c->rp->program != PG_PROG_NFS)
		return K_OTHER;
	return c->rp->version == 4 ? K_NFS4 : K_NFS3;
}

static pg_chunk *first_nonzero_read(const pg_rdmamsg *m)
{
	for (guint i = 0; i < m->reads->len; i++) {
		pg_chunk *ch = m->reads->pdata[i];
		if (ch->position)
			return ch;
	}
	return NULL;
}

/* Bytes of the Payload the receiver has before any non-zero chunk is
 * inserted: the inline part, or the Position-Zero chunk's data. */
static uint32_t inline_len(const pg_rdmamsg *m)
{
	uint32_t n = 0;
	if (m->proc != RDMA_NOMSG)
		return m->inline_payload->len;
	for (guint i = 0; i < m->reads->len; i++) {
		const pg_chunk *ch = m->reads->pdata[i];
		if (!ch->position)
			for (guint k = 0; k < ch->segs->len; k++)
				n += g_array_index(ch->segs, pg_seg, k).length;
	}
	return n;
}

static bool chunk_used(const pg_chunk *ch)
{
	for (guint i = 0; i < ch->ret->len; i++)
		if (g_array_index(ch->ret, pg_seg, i).length)
			return true;
	return false;
}

/* ---- header fields ---------------------------------------------------- */

/* rdma_vers other than 1 (RFC 8166 4.2.2 / ERR_VERS territory). What it
 * breaks depends on the answer, so the sequence checks decide: RR-001 when
 * the call is answered normally, RR-111 when not with ERR_VERS, RR-110 for
 * an RDMA_ERROR whose version differs from the call's. */
static bool bad_vers(pg_inj_ctx *c)
{
	c->msg->vers = arg_u32(c, 2);
	return c->msg->vers != 1;
}

/* rdma_xid no longer mirrors the RPC XID (RFC 8166 4.1) */
static bool xid_mismatch(pg_inj_ctx *c)
{
	c->msg->xid ^= arg_u32(c, 0x00010000u);
	if (c->msg->proc == RDMA_MSG || c->msg->proc == RDMA_NOMSG || c->msg->proc == RDMA_MSGP) {
		expect(c, "RR-002");
		if (c->is_call && c->ex)
			pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	}
	return true;
}

/* a reply whose XID (transport and RPC) no call ever used */
static bool orphan_reply_plan(pg_inj_ctx *c)
{
	uint32_t mask = arg_u32(c, 0x80000000u), x;
	GByteArray *m;
	if (c->is_call || !mask)
		return false;
	m = c->rp->reply.msg;
	x = (uint32_t)m->data[0] << 24 | (uint32_t)m->data[1] << 16 | (uint32_t)m->data[2] << 8 |
	    m->data[3];
	pb_put_be32(m, 0, x ^ mask);
	return true;
}

static bool orphan_reply_header(pg_inj_ctx *c)
{
	c->msg->xid ^= arg_u32(c, 0x80000000u);
	return true;
}

/* the call reuses the previous call's XID */
static bool reuse_xid(pg_inj_ctx *c)
{
	uint32_t prev;
	if (!c->is_call || !pg_ex_prev_xid(c->ex, &prev) || prev == *c->xid)
		return false;
	*c->xid = prev;
	return true;
}

static bool bad_proc(pg_inj_ctx *c)
{
	c->msg->proc = arg_u32(c, 7);
	if (c->msg->proc <= RDMA_ERROR)
		return false;
	expect(c, "RR-005");
	if (c->is_call && c->ex)
		pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	return true;
}

/* TCP record marking inside an RPC-over-RDMA Payload (RFC 8166 4.2) */
static bool record_mark(pg_inj_ctx *c)
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
	expect(c, "RR-007");
	return true;
}

/* RPC msg_type other than CALL/REPLY; the Payload as built carries it */
static bool bad_msg_type(pg_inj_ctx *c)
{
	GByteArray *m = c->is_call ? c->rp->call.msg : c->rp->reply.msg;
	uint32_t v = arg_u32(c, 2);
	if (m->len < 8 || v <= 1)
		return false;
	pb_put_be32(m, 4, v);
	expect(c, "RR-008");
	return true;
}

/* an optional-data word that is not an XDR bool: the reply chunk's */
static bool bad_discriminator(pg_inj_ctx *c)
{
	uint32_t v = arg_u32(c, 2);
	if (v <= 1 || c->msg->proc > RDMA_MSGP || c->msg->proc == RDMA_DONE)
		return false;
	c->msg->reply_disc = v;
	expect(c, "RR-020");
	if (c->is_call && c->ex)
		pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	return true;
}

/* RDMA_NOMSG without any chunk: the Payload has nowhere to be */
static bool nomsg_empty(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (m->proc != RDMA_MSG || m->reads->len || m->reply || !c->ex)
		return false;
	for (guint i = 0; i < m->writes->len; i++)
		if (c->is_call || chunk_used(m->writes->pdata[i]))
			return false;
	m->proc = RDMA_NOMSG;
	g_ptr_array_set_size(m->writes, 0);
	g_byte_array_set_size(m->inline_payload, 0);
	expect(c, "RR-021");
	if (c->is_call) {
		pg_ex_flag(c->ex, PG_EXF_MALFORMED | PG_EXF_CALL_OFF_WIRE, true);
	} else {
		pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
		if (!c->plan->call.reply)
			expect(c, "RR-048");
	}
	return true;
}

/* bytes after a header that carries no Payload stream */
static bool trailing_bytes(pg_inj_ctx *c)
{
	uint32_t n = arg_u32(c, 8), at0;
	GByteArray *w = c->msg->wire;
	if (!n || n > 4096 || c->msg->proc == RDMA_MSG || c->msg->proc == RDMA_MSGP ||
	    c->msg->proc > RDMA_ERROR)
		return false;
	at0 = w->len;
	g_byte_array_set_size(w, at0 + n);
	for (uint32_t i = 0; i < n; i++)
		w->data[at0 + i] = (uint8_t)(0xa5 ^ i);
	c->op->data = w->data;
	c->op->len = w->len;
	expect(c, "RR-022");
	return true;
}

/* an RDMA_MSG reply with nothing after its transport header: the Send ends
 * where the RPC message should start */
static bool no_rpc(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (c->is_call || !c->ex || m->proc != RDMA_MSG || !m->inline_payload->len || m->reply)
		return false;
	for (guint i = 0; i < m->writes->len; i++)
		if (chunk_used(m->writes->pdata[i]))
			return false;
	g_byte_array_set_size(m->inline_payload, 0);
	pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
	expect(c, "RR-006");
	return true;
}

/* an ERR_VERS whose body lacks its last word (the high version) */
static bool short_err_vers(pg_inj_ctx *c)
{
	GByteArray *w = c->msg->wire;
	if (c->msg->proc != RDMA_ERROR || c->msg->err != 1 || w->len < 28)
		return false;
	g_byte_array_set_size(w, w->len - 4);
	c->op->data = w->data;
	c->op->len = w->len;
	expect(c, "RR-112");
	return true;
}

/* ---- read chunks ------------------------------------------------------ */

/* a read chunk Position that is not a multiple of 4 (RFC 8166 3.5.3) */
static bool unaligned_position(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || !(ch = first_nonzero_read(c->msg)))
		return false;
	ch->position += arg_u32(c, 2);
	if (!(ch->position & 3))
		return false;
	expect(c, "RR-023");
	/* a Position past the inline bytes that precede it cannot be rebuilt
	 * at all (the first non-zero chunk: nothing was inserted before it) */
	if (ch->position > inline_len(c->msg))
		expect(c, "RR-026");
	return true;
}

/* one Position in two runs of the Read list: its chunk gets a second
 * segment, which is listed after another chunk */
static bool split_run_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call;
	if (!c->is_call || !sh->chunked || !sh->n)
		return false;
	for (unsigned i = 0; i < sh->n; i++)
		if (sh->nseg[i]) {
			if (i + 1u == sh->n && i + 1u < PG_MAX_CHUNKS)
				sh->nseg[++sh->n - 1] = sh->nseg[i]; /* keep later items as they were */
			sh->nseg[i]++;
			return true;
		}
	return false;
}

static bool split_run(pg_inj_ctx *c)
{
	GPtrArray *r = c->msg->reads;
	pg_chunk *ch = NULL, *a, *b;
	guint at0 = 0;
	for (guint i = 0; i < r->len; i++) {
		pg_chunk *x = r->pdata[i];
		if (x->position && x->segs->len >= 2) {
			ch = x;
			at0 = i;
			break;
		}
	}
	if (!ch || r->len < 2)
		return false;
	/* two views of the chunk: its first segment, and the rest */
	a = pg_chunk_new();
	b = pg_chunk_new();
	a->position = b->position = ch->position;
	g_array_append_vals(a->segs, ch->segs->data, 1);
	g_array_append_vals(b->segs, &g_array_index(ch->segs, pg_seg, 1), ch->segs->len - 1);
	g_ptr_array_add(c->plan->extra_chunks, a);
	g_ptr_array_add(c->plan->extra_chunks, b);
	g_ptr_array_remove_index(r, at0);
	/* first segment first, then the other chunks, then the rest */
	g_ptr_array_insert(r, 0, a);
	g_ptr_array_add(r, b);
	expect(c, "RR-024");
	/* a Position that comes back after another one: the list descends */
	expect(c, "RR-025");
	return true;
}

/* Read list in descending Position order */
static bool descending_positions(pg_inj_ctx *c)
{
	GPtrArray *r = c->msg->reads;
	bool differ = false;
	if (!c->is_call || r->len < 2)
		return false;
	for (guint i = 1; i < r->len; i++)
		differ |= ((pg_chunk *)r->pdata[i])->position != ((pg_chunk *)r->pdata[0])->position;
	if (!differ)
		return false;
	for (guint i = 0; i < r->len / 2; i++) {
		gpointer t = r->pdata[i];
		r->pdata[i] = r->pdata[r->len - 1 - i];
		r->pdata[r->len - 1 - i] = t;
	}
	expect(c, "RR-025");
	return true;
}

/* a Position past the end of the Payload stream */
static bool position_beyond(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || !c->rp || !(ch = first_nonzero_read(c->msg)))
		return false;
	ch->position = pg_round4(c->rp->call.msg->len) + pg_round4(arg_u32(c, 64));
	expect(c, "RR-026");
	return true;
}

/* RDMA_MSG call with a Position-Zero read segment */
static bool msg_pzrc(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	pg_chunk *pz;
	if (!c->is_call || m->proc != RDMA_NOMSG || !m->reads->len)
		return false;
	pz = m->reads->pdata[0];
	if (pz->position)
		return false;
	m->proc = RDMA_MSG;
	g_byte_array_set_size(m->inline_payload, 0);
	pb_bytes(m->inline_payload, pz->data->data, pz->data->len);
	expect(c, "RR-028");
	return true;
}

/* a zero-length read segment at an eligible item left inline */
static bool zero_length_segment(pg_inj_ctx *c)
{
	pg_chunk *ch;
	pg_seg s = { 0, 0, 0 };
	guint k = 0;
	if (!c->is_call || !c->rp || !c->rp->call.ddp->len)
		return false;
	for (guint i = 0; i < c->msg->reads->len; i++)
		if (((pg_chunk *)c->msg->reads->pdata[i])->position)
			return false;
	ch = pg_chunk_new();
	ch->position = (uint32_t)g_array_index(c->rp->call.ddp, pg_ddp, 0).off;
	s.handle = 0x00a1b2c3u ^ (uint32_t)ch->position << 8;
	s.offset = 0xffff888100000000ull + ((uint64_t)ch->position << 12);
	g_array_append_val(ch->segs, s);
	g_ptr_array_add(c->plan->extra_chunks, ch);
	while (k < c->msg->reads->len && !((pg_chunk *)c->msg->reads->pdata[k])->position)
		k++;
	g_ptr_array_insert(c->msg->reads, (gint)k, ch);
	expect(c, "RR-031");
	return true;
}

/* read chunk shorter than the count left inline */
static bool short_read_chunk_plan(pg_inj_ctx *c)
{
	if (!c->is_call)
		return false;
	c->plan->knobs.read_trim = pg_round4(arg_u32(c, 4));
	return c->plan->knobs.read_trim != 0;
}

static bool short_read_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_TRIM))
		return false;
	expect(c, "RR-062");
	return true;
}

/* read chunk longer than roundup4 of the item */
static bool long_read_chunk_plan(pg_inj_ctx *c)
{
	if (!c->is_call)
		return false;
	c->plan->knobs.read_extra = arg_u32(c, 4);
	return c->plan->knobs.read_extra != 0;
}

static bool long_read_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_EXTRA))
		return false;
	expect(c, "RR-222");
	return true;
}

/* ---- responder RDMA operations ---------------------------------------- */

static const pg_seg *first_read_seg(const pg_plan *p)
{
	for (guint i = 0; i < p->read_chunks->len; i++) {
		const pg_chunk *ch = p->read_chunks->pdata[i];
		if (ch->segs->len && g_array_index(ch->segs, pg_seg, 0).length)
			return &g_array_index(ch->segs, pg_seg, 0);
	}
	return NULL;
}

/* an RDMA Read of 16 bytes just past the end of a read segment */
static bool extra_read(pg_inj_ctx *c)
{
	const pg_seg *s = first_read_seg(c->plan);
	pg_op op = { 0 };
	if (!s || c->plan->reply.proc == RDMA_ERROR)
		return false;
	op.kind = PG_OP_READ;
	op.len = 16;
	op.data = pg_ex_scratch(c->ex, op.len);
	op.rkey = s->handle;
	op.va = s->offset + s->length;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_READS, &op, "RR-066");
	return true;
}

/* the first read segment read again after the reply */
static bool read_after_reply(pg_inj_ctx *c)
{
	const pg_seg *s = first_read_seg(c->plan);
	pg_op op = { 0 };
	uint8_t *d;
	if (!s || c->plan->reply.proc == RDMA_ERROR)
		return false;
	op.kind = PG_OP_READ;
	op.len = MIN(s->length, 64u);
	d = pg_ex_scratch(c->ex, op.len);
	for (guint i = 0; i < c->plan->read_chunks->len; i++) {
		const pg_chunk *ch = c->plan->read_chunks->pdata[i];
		if (ch->segs->len && &g_array_index(ch->segs, pg_seg, 0) == s) {
			uint32_t n = MIN(op.len, ch->data->len);
			memcpy(d, ch->data->data, n);
		}
	}
	op.data = d;
	op.rkey = s->handle;
	op.va = s->offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_AFTER_REPLY, &op, "RR-068");
	return true;
}

static const pg_chunk *first_used_write(const pg_plan *p)
{
	for (guint i = 0; i < p->write_chunks->len; i++) {
		const pg_chunk *ch = p->write_chunks->pdata[i];
		if (ch->data->len && chunk_used(ch))
			return ch;
	}
	if (p->reply_chunk && p->reply_chunk->data->len && chunk_used(p->reply_chunk))
		return p->reply_chunk;
	return NULL;
}

/* an RDMA Write into a chunk after the reply's Send */
static bool write_after_reply(pg_inj_ctx *c)
{
	const pg_chunk *ch = first_used_write(c->plan);
	const pg_seg *s;
	pg_op op = { 0 };
	if (!ch || c->plan->reply.proc == RDMA_ERROR)
		return false;
	s = &g_array_index(ch->ret, pg_seg, 0);
	op.kind = PG_OP_WRITE;
	op.len = MIN(s->length, 64u);
	op.data = ch->data->data;
	op.rkey = s->handle;
	op.va = s->offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_AFTER_REPLY, &op, "RR-092");
	return true;
}

/* the responder pulls D bytes less than the first read segment and still
 * answers normally */
static bool partial_read(pg_inj_ctx *c)
{
	uint32_t d = pg_round4(arg_u32(c, 4));
	pg_op *op = NULL;
	if (!c->is_call || c->plan->reply.proc == RDMA_ERROR || !d)
		return false;
	for (guint i = 0; (op = pg_ex_op(c->ex, PG_OPS_READS, i)); i++)
		if (op->kind == PG_OP_READ && op->len > d)
			break;
	if (!op)
		return false;
	op->len -= d;
	pg_ex_flag(c->ex, PG_EXF_CALL_OFF_WIRE, true);
	pg_ex_expect(c->ex, "RR-067", PG_AT_REPLY);
	return true;
}

/* ---- reply chunks and Write chunks ------------------------------------ */

/* a backward call sent as a Long Call (RDMA_NOMSG, one-segment PZRC) */
static bool cb_long_call(pg_inj_ctx *c)
{
	if (!c->is_call || !c->cb || c->item->call.long_segs)
		return false;
	c->item->call.long_segs = 1;
	return true;
}

static bool cb_long_call_check(pg_inj_ctx *c)
{
	return c->msg->proc == RDMA_NOMSG;
}

/* the responder answers GARBAGE_ARGS (RFC 5531 accept_stat 4): the reply
 * is an RPC header and nothing else, sent as the reply shape says */
static bool garbage_args(pg_inj_ctx *c)
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

/* the call's first read segment uses one handle that stays registered
 * (persistent registration): the same R_Key call after call */
static bool reuse_handle(pg_inj_ctx *c)
{
	pg_chunk *ch = NULL;
	uint32_t key = arg_u32(c, 0x0badf00du), old;
	pg_op *op;
	for (guint i = 0; i < c->plan->read_chunks->len && !ch; i++)
		if (((pg_chunk *)c->plan->read_chunks->pdata[i])->segs->len)
			ch = c->plan->read_chunks->pdata[i];
	if (!c->is_call || !ch)
		return false;
	old = g_array_index(ch->segs, pg_seg, 0).handle;
	g_array_index(ch->segs, pg_seg, 0).handle = key;
	for (guint i = 0; (op = pg_ex_op(c->ex, PG_OPS_READS, i)); i++)
		if (op->rkey == old)
			op->rkey = key;
	pg_ex_flag(c->ex, PG_EXF_HANDLE_REUSED, true);
	return true;
}

/* the reply's Send With Invalidate names a key the call never advertised
 * (pg_gen.c expects RR-215 from what the Send carries) */
static bool wrong_invalidate(pg_inj_ctx *c)
{
	if (c->is_call || !c->op->invalidate)
		return false;
	c->op->inv_rkey ^= arg_u32(c, 0x00c3c300u);
	return true;
}

/* the returned Reply chunk does not copy the offered handle */
static bool reply_chunk_changed(pg_inj_ctx *c)
{
	pg_chunk *ch = c->msg->reply;
	if (c->is_call || !ch || !c->msg->returned || !ch->ret->len)
		return false;
	g_array_index(ch->ret, pg_seg, 0).handle ^= arg_u32(c, 0x00a5a500u);
	expect(c, "RR-093");
	return true;
}

/* an NFSv3 call offering a Write chunk of zero segments (the NFSv4
 * COMPOUND device, RFC 8267 6.4.1); the reply returns it as it came */
static bool empty_write_chunk(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || c->msg->writes->len || binding(c) != K_NFS3)
		return false;
	ch = pg_chunk_new();
	ch->data_off = -1;
	g_ptr_array_add(c->plan->extra_chunks, ch);
	g_ptr_array_add(c->msg->writes, ch);
	if (c->plan->reply.proc != RDMA_ERROR)
		g_ptr_array_add(c->plan->reply.writes, ch);
	expect(c, "RR-030");
	return true;
}


/* responder changes the segment count of a returned Write chunk (8166 3.5.6) */
static bool segcount_changed(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (c->is_call || !c->msg->writes->len)
		return false;
	ch = c->msg->writes->pdata[0];
	if (ch->ret->len > 1) {
		g_array_set_size(ch->ret, ch->ret->len - 1);
	} else {
		pg_seg s = g_array_index(ch->segs, pg_seg, 0);
		s.length = 0;
		s.offset += 4096;
		g_array_append_val(ch->ret, s);
	}
	expect(c, "RR-083");
	return true;
}

/* responder writes the XDR pad into a Write chunk (RFC 8166 3.5.4) */
static bool pad_written(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.write_pad = true;
	return true;
}

static bool pad_written_check(pg_inj_ctx *c)
{
	/* only a data item whose length is not a multiple of 4 has a pad, and
	 * only a chunk with room for it receives it */
	for (guint i = 0; i < c->msg->writes->len; i++) {
		const pg_chunk *ch = c->msg->writes->pdata[i];
		uint32_t sent = 0;
		for (guint k = 0; k < ch->ret->len; k++)
			sent += g_array_index(ch->ret, pg_seg, k).length;
		if (ch->data->len > ch->item_len && sent > ch->item_len) {
			/* the padded length is accepted with a warning (digest 4,
			 * row 5), so not also RR-091 */
			expect(c, "RR-089");
			return true;
		}
	}
	return false;
}

/* data returned inline although the requester offered a Write chunk
 * (RFC 8166 3.6, RFC 8267 5) */
static bool inline_despite_write(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_inline_despite_write = true;
	return true;
}

static bool inline_despite_write_check(pg_inj_ctx *c)
{
	if (!c->msg->writes->len || !c->rp || !c->rp->reply.ddp->len)
		return false;
	expect(c, binding(c) == K_NFS4 ? "RR-162" : "RR-080");
	return true;
}

/* an RDMA_MSG reply larger than the threshold although a Reply chunk was
 * offered: the responder ignores the Reply chunk (the sequence checks
 * expect RR-045 when the Send is above the requester's threshold) */
static bool long_reply_inline(pg_inj_ctx *c)
{
	if (c->is_call || !c->item->reply.long_segs || c->item->reply.error)
		return false;
	c->item->reply.long_segs = 0;
	c->plan->knobs.offer_unused_reply_chunk = true;
	return true;
}

static bool long_reply_inline_check(pg_inj_ctx *c)
{
	return (c->plan->done & PG_DONE_UNUSED_RC) != 0;
}

/* RDMA_MSG reply that also wrote the Payload into the Reply chunk */
static bool msg_writes_reply_chunk(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (c->is_call || m->proc != RDMA_NOMSG || !m->reply || !m->reply->data->len)
		return false;
	m->proc = RDMA_MSG;
	g_byte_array_set_size(m->inline_payload, 0);
	pb_bytes(m->inline_payload, m->reply->data->data, m->reply->data->len);
	expect(c, "RR-049");
	return true;
}

/* a reply carrying a Read list (the RFC 5666 Read-Read model) */
static bool reply_read_list_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_read_chunk = true;
	return true;
}

static bool reply_read_list(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_RREAD))
		return false;
	pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
	expect(c, "RR-069");
	return true;
}

/* the second eligible result goes into the first result's Write chunk and
 * the first result comes back inline */
static bool misdirected_write(pg_inj_ctx *c)
{
	GArray *d = c->rp->reply.ddp;
	pg_ddp *a = NULL, *b = NULL;
	if (c->is_call || !c->item->reply.chunked)
		return false;
	for (guint i = 0; i < d->len; i++) {
		pg_ddp *x = &g_array_index(d, pg_ddp, i);
		if (x->slot < 0)
			continue;
		if (!a)
			a = x;
		else if (!b)
			b = x;
	}
	if (!a || !b || a->slot != 0)
		return false;
	b->slot = a->slot;
	a->slot = -1;
	return true;
}

static uint32_t first_ddp_len(const pg_inj_ctx *c)
{
	return g_array_index(c->rp->reply.ddp, pg_ddp, 0).len;
}

static bool misdirected_write_check(pg_inj_ctx *c)
{
	for (guint i = 0; i < c->msg->writes->len; i++) {
		const pg_chunk *ch = c->msg->writes->pdata[i];
		if (ch->data->len) {
			expect(c, "RR-081");
			/* the first result's data is inline although its chunk is not empty */
			expect(c, binding(c) == K_NFS4 ? "RR-162" : "RR-080");
			/* unless both results have the same length, the chunk's length
			 * is not the first result's length word either */
			if (c->rp->reply.ddp->len && ch->item_len != first_ddp_len(c))
				expect(c, "RR-091");
			return true;
		}
	}
	return false;
}

/* the returned Write chunk does not copy the offered handle */
static bool handle_changed(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (c->is_call || !c->msg->writes->len)
		return false;
	ch = c->msg->writes->pdata[0];
	if (!ch->ret->len)
		return false;
	g_array_index(ch->ret, pg_seg, 0).handle ^= arg_u32(c, 0x00a5a500u);
	expect(c, "RR-084");
	return true;
}

/* the first segment gets more bytes than its length */
static bool write_beyond_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.overfill = pg_round4(arg_u32(c, 16));
	return c->plan->knobs.overfill != 0;
}

static bool write_beyond(pg_inj_ctx *c)
{
	const pg_chunk *ch = first_used_write(c->plan);
	if (!(c->plan->done & PG_DONE_OVER) || !ch)
		return false;
	/* the returned length is larger than the offered one (reply) and the
	 * Write leaves the segment (the operation) */
	pg_ex_expect(c->ex, "RR-085", PG_AT_REPLY);
	pg_ex_expect_write(c->ex, "RR-085", g_array_index(ch->segs, pg_seg, 0).handle);
	return true;
}

/* data in the second segment while the first is not full */
static bool fill_order_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.fill_short = pg_round4(arg_u32(c, 24));
	return c->plan->knobs.fill_short != 0;
}

static bool fill_order(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_SHORT))
		return false;
	expect(c, "RR-086");
	return true;
}

/* a non-zero returned length for a segment nothing was written to */
static bool phantom_length(pg_inj_ctx *c)
{
	uint32_t n = arg_u32(c, 4);
	if (c->is_call || !n)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		for (guint k = 1; k < ch->ret->len; k++) {
			pg_seg *prev = &g_array_index(ch->ret, pg_seg, k - 1);
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			if (prev->length && !s->length &&
			    prev->length == g_array_index(ch->segs, pg_seg, k - 1).length) {
				s->length = MIN(n, g_array_index(ch->segs, pg_seg, k).length);
				expect(c, "RR-087");
				/* the returned lengths no longer add up to the length word */
				expect(c, "RR-091");
				return true;
			}
		}
	}
	return false;
}

/* unused Write chunks come back with the offered lengths (DIMPL 3.8, what
 * one server does), or with ARG bytes per segment */
static bool unused_nonzero(pg_inj_ctx *c)
{
	bool any = false, as_offered = true;
	uint32_t n = arg_u32(c, 0);
	if (c->is_call || c->msg->proc == RDMA_ERROR)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		int state = PG_SLOT_NOT_RUN;
		if (chunk_used(ch) || ch->data->len)
			continue;
		g_array_set_size(ch->ret, 0);
		g_array_append_vals(ch->ret, ch->segs->data, ch->segs->len);
		for (guint k = 0; n && k < ch->ret->len; k++) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			as_offered &= MIN(n, s->length) == s->length;
			s->length = MIN(n, s->length);
		}
		/* the hazard of DIMPL 3.8: exactly the offered chunk comes back */
		if (as_offered)
			expect(c, "RR-243");
		if (c->rp && i < c->rp->slot_state->len)
			state = g_array_index(c->rp->slot_state, int, i);
		if (binding(c) != K_NFS4)
			expect(c, "RR-088");
		else
			expect(c, state == PG_SLOT_FAILED ? "RR-164" : "RR-166");
		any = true;
	}
	return any;
}

/* the requester adds a 4-byte pad segment to the Write chunk */
static bool pad_segment_plan(pg_inj_ctx *c)
{
	c->plan->knobs.write_pad_seg = true;
	return true;
}

static bool pad_segment(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_PADSEG))
		return false;
	pg_ex_expect(c->ex, "RR-090", PG_AT_CALL);
	return true;
}

/* the returned length of the data is not the result's length word */
static bool write_length_lie(pg_inj_ctx *c)
{
	uint32_t d = arg_u32(c, 8);
	if (c->is_call || !d)
		return false;
	for (guint i = 0; i < c->msg->writes->len; i++) {
		pg_chunk *ch = c->msg->writes->pdata[i];
		for (guint k = ch->ret->len; k-- > 0;) {
			pg_seg *s = &g_array_index(ch->ret, pg_seg, k);
			if (s->length > d) {
				s->length -= d;
				expect(c, "RR-091");
				return true;
			}
		}
	}
	return false;
}

/* ---- credits and errors ----------------------------------------------- */

/* rdma_credit 0 (the sequence checks expect RR-100 for a forward reply,
 * RR-101 for any backward message) */
static bool zero_credit(pg_inj_ctx *c)
{
	c->msg->credit = 0;
	return true;
}

/* ERR_VERS range: "LOW:HIGH" (default 2:1, i.e. low > high) */
static bool err_range(pg_inj_ctx *c)
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

static bool err_code(pg_inj_ctx *c)
{
	uint32_t v = arg_u32(c, 7);
	if (c->msg->proc != RDMA_ERROR || v == 1 || v == 2)
		return false;
	c->msg->err = v;
	expect(c, "RR-117");
	return true;
}

/* ---- DDP-eligibility (RFC 8267) --------------------------------------- */

static void insert_ddp(GArray *ddp, pg_ddp d)
{
	guint i = 0;
	while (i < ddp->len && g_array_index(ddp, pg_ddp, i).off < d.off)
		i++;
	g_array_insert_val(ddp, i, d);
}

/* a non-eligible argument (file handle, bitmap, ACL entries) moved into a
 * read chunk at its Position */
static bool ineligible_chunk_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call, old = *sh;
	GArray *bulk = c->rp->call.bulk, *ddp = c->rp->call.ddp;
	uint32_t k = arg_u32(c, 0);
	pg_ddp d;
	guint pos = 0;
	if (!c->is_call || k >= bulk->len)
		return false;
	d = g_array_index(bulk, pg_ddp, k);
	insert_ddp(ddp, d);
	for (guint i = 0; i < ddp->len; i++)
		if (g_array_index(ddp, pg_ddp, i).off == d.off)
			pos = i;
	/* same shape for the other items, one segment for this one */
	sh->chunked = true;
	sh->n = (uint8_t)MIN(ddp->len, PG_MAX_CHUNKS);
	for (guint i = 0, j = 0; i < sh->n; i++) {
		if (i == pos) {
			sh->nseg[i] = 1;
			continue;
		}
		sh->nseg[i] = (uint8_t)(old.chunked && old.n ? old.nseg[j < old.n ? j : old.n - 1u] : 0);
		j++;
	}
	return true;
}

static bool ineligible_chunk(pg_inj_ctx *c)
{
	GHashTable *pos = g_hash_table_new(g_direct_hash, g_direct_equal);
	bool pz = false;
	guint npos;
	const char *rule;
	for (guint i = 0; i < c->msg->reads->len; i++) {
		const pg_chunk *ch = c->msg->reads->pdata[i];
		if (ch->position)
			g_hash_table_add(pos, GUINT_TO_POINTER(ch->position));
		else
			pz = true;
	}
	npos = g_hash_table_size(pos);
	g_hash_table_destroy(pos);
	if (!npos)
		return false;
	if (c->item->gss >= PG_GSS_INIT && c->item->gss <= PG_GSS_DESTROY) {
		/* RPCSEC_GSS context control: RR-151 by the sequence check */
		pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
		return true;
	}
	switch (binding(c)) {
	case K_CB:
		/* NFS callbacks have no eligible item, and RFC 8167 wants all
		 * chunk lists of a backward message empty */
		rule = "RR-147";
		expect(c, "RR-191");
		break;
	case K_ACL: rule = "RR-145"; break;
	case K_NFS4: rule = pz ? "RR-148" : "RR-143"; break;
	case K_NFS3:
		rule = pz ? "RR-148" : npos > 1 ? "RR-142" : "RR-141";
		/* several Positions: the one not at the data is also RR-141 */
		if (!pz && npos > 1)
			expect(c, "RR-141");
		break;
	default: rule = pz ? "RR-148" : "RR-140"; break;
	}
	expect(c, rule);
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	return true;
}

/* a non-eligible result (a READDIR entry name, ACL entries) written into
 * a Write chunk the call offered for it */
static bool ineligible_write_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->reply;
	GArray *bulk = c->rp->reply.bulk;
	uint32_t k = arg_u32(c, 0), nslots = c->rp->slots->len;
	pg_ddp d;
	if (c->is_call || k >= bulk->len || sh->long_segs || sh->error || nslots >= PG_MAX_CHUNKS)
		return false;
	for (guint i = 0; i < nslots; i++) {
		unsigned n = !sh->chunked || !sh->n ? 0 : sh->nseg[i < sh->n ? i : sh->n - 1u];
		if (!n)
			return false; /* an earlier result has no chunk: cannot pair */
		sh->nseg[i] = (uint8_t)n;
	}
	d = g_array_index(bulk, pg_ddp, k);
	d.slot = (int)nslots;
	insert_ddp(c->rp->reply.ddp, d);
	pg_slot_add(c->rp, pg_round4(d.len) + 64, PG_SLOT_DATA);
	sh->chunked = true;
	sh->nseg[nslots] = 1;
	sh->n = (uint8_t)(nslots + 1);
	return true;
}

static bool ineligible_write(pg_inj_ctx *c)
{
	const char *rule;
	if (!c->msg->writes->len || !chunk_used(g_ptr_array_index(c->msg->writes,
								   c->msg->writes->len - 1)))
		return false;
	switch (binding(c)) {
	case K_ACL: rule = "RR-145"; break;
	case K_NFS4: rule = "RR-143"; break;
	case K_NFS3: rule = "RR-141"; break;
	default: rule = "RR-140"; break;
	}
	expect(c, rule);
	return true;
}

/* COMPOUND minorversion the binding does not cover */
static bool minorversion(pg_inj_ctx *c)
{
	uint32_t v = arg_u32(c, 3);
	if (!c->is_call || !c->rp->minorversion_off || v <= 2)
		return false;
	pb_put_be32(c->rp->call.msg, c->rp->minorversion_off, v);
	expect(c, "RR-150");
	return true;
}

/* eligible results without a Write chunk are left out of the reply */
static bool data_missing_plan(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->knobs.reply_drop_ddp = true;
	return true;
}

static bool data_missing(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_DROP))
		return false;
	/* no Write list: RR-160; results beyond the Write chunks: RR-165 */
	expect(c, c->plan->write_chunks->len ? "RR-165" : "RR-160");
	return true;
}

/* surplus Write chunks (never used) */
static bool extra_write_chunk_plan(pg_inj_ctx *c)
{
	c->plan->knobs.extra_write_chunks = MAX(arg_u32(c, 1), 1u);
	return true;
}

static bool extra_write_chunk(pg_inj_ctx *c)
{
	return (c->plan->done & PG_DONE_EXTRAW) != 0;
}

static bool null_write_chunk_plan(pg_inj_ctx *c)
{
	if (c->item->proc != 0 || c->item->nfsver == PG_V3 || c->item->kind != PG_ITEM_RPC)
		return false;
	c->plan->knobs.extra_write_chunks = 1;
	return true;
}

static bool null_write_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_EXTRAW))
		return false;
	pg_ex_expect(c->ex, "RR-168", PG_AT_CALL);
	return true;
}

/* a backward call that offers a Reply chunk (any chunk list is a
 * violation in the backward direction, RFC 8167 4.3) */
static bool cb_reply_chunk_plan(pg_inj_ctx *c)
{
	if (!c->cb)
		return false;
	c->plan->knobs.offer_unused_reply_chunk = true;
	return true;
}

static bool cb_reply_chunk(pg_inj_ctx *c)
{
	if (!(c->plan->done & PG_DONE_UNUSED_RC))
		return false;
	pg_ex_expect(c->ex, "RR-191", PG_AT_CALL);
	return true;
}

/* ---- rule scenarios that need one more shape -------------------------- */

/* a Long Call whose Position-Zero segments come in two runs: P=0, P=N, P=0
 * (the Position-Zero chunk is split in two if it has a single segment) */
static bool pz_interleave_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call;
	if (!c->is_call || !sh->long_segs || !sh->chunked)
		return false;
	if (sh->long_segs == 1)
		sh->long_segs = 2;
	return true;
}

static bool pz_interleave(pg_inj_ctx *c)
{
	GPtrArray *r = c->msg->reads;
	pg_chunk *pz, *a, *b;
	guint nz = 0;
	if (!c->is_call || c->msg->proc != RDMA_NOMSG || r->len < 2)
		return false;
	pz = r->pdata[0];
	if (pz->position || pz->segs->len < 2)
		return false;
	while (nz < r->len && !((pg_chunk *)r->pdata[nz])->position)
		nz++;
	if (nz >= r->len)
		return false;
	a = pg_chunk_new();
	b = pg_chunk_new();
	g_array_append_vals(a->segs, pz->segs->data, 1);
	g_array_append_vals(b->segs, &g_array_index(pz->segs, pg_seg, 1), pz->segs->len - 1);
	g_ptr_array_add(c->plan->extra_chunks, a);
	g_ptr_array_add(c->plan->extra_chunks, b);
	/* first Position-Zero segment, the first non-zero chunk, the rest of
	 * the Position-Zero segments, the other chunks */
	r->pdata[0] = a;
	g_ptr_array_insert(r, (gint)nz + 1, b);
	expect(c, "RR-027");
	/* Position 0 after a non-zero Position: the list descends */
	expect(c, "RR-025");
	return true;
}

/* a second read chunk whose Position lies inside the data of the first
 * non-zero read chunk; it carries the same bytes as the part of the first
 * chunk it overlaps (another handle onto them), and the responder reads it */
static bool overlap_chunk(pg_inj_ctx *c)
{
	uint32_t d = pg_round4(arg_u32(c, 8)), n;
	pg_chunk *ch = NULL, *b;
	const pg_seg *s0;
	pg_seg s;
	pg_op op = { 0 };
	guint at0 = 0;
	if (!c->is_call || c->plan->reply.proc == RDMA_ERROR || c->item->reply.none)
		return false;
	for (guint i = 0; i < c->plan->call.reads->len && !ch; i++)
		if (((pg_chunk *)c->plan->call.reads->pdata[i])->position) {
			ch = c->plan->call.reads->pdata[i];
			at0 = i;
		}
	if (!ch || !ch->segs->len || !d)
		return false;
	s0 = &g_array_index(ch->segs, pg_seg, 0);
	if (s0->length < d + 8)
		return false;
	n = MIN(8u, s0->length - d);
	b = pg_chunk_new();
	b->position = ch->position + d;
	s.handle = s0->handle ^ 0x00e1e100u;
	s.offset = s0->offset + d;
	s.length = n;
	g_array_append_val(b->segs, s);
	g_byte_array_append(b->data, ch->data->data + d, n);
	b->item_len = n;
	g_ptr_array_add(c->plan->extra_chunks, b);
	g_ptr_array_insert(c->plan->call.reads, (gint)at0 + 1, b);
	op.kind = PG_OP_READ;
	op.len = n;
	op.data = b->data->data;
	op.rkey = s.handle;
	op.va = s.offset;
	op.owner = -1;
	pg_ex_add_op(c->ex, PG_OPS_READS, &op, NULL);
	expect(c, "RR-224");
	/* the extra chunk reduces no eligible item, and the call has read
	 * chunks at two non-zero Positions (the binding's rules, another
	 * document's view of the same chunk); a normal answer processed it */
	switch (binding(c)) {
	case K_NFS3: expect(c, "RR-141"); expect(c, "RR-142"); break;
	case K_NFS4: expect(c, "RR-143"); break; /* RR-170 comes from the sequence check */
	case K_ACL: expect(c, "RR-145"); break;
	case K_CB: expect(c, "RR-147"); expect(c, "RR-191"); break;
	default: expect(c, "RR-140"); break;
	}
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	return true;
}

/* an NFSv4 call offers a Write chunk of zero length (its segments' lengths
 * are 0) and the responder writes the READ data into it all the same: the
 * returned length exceeds the offered one and the Write leaves the segment */
static bool empty_chunk_used(pg_inj_ctx *c)
{
	pg_chunk *ch = NULL;
	if (!c->is_call || binding(c) != K_NFS4 || c->plan->reply.proc == RDMA_ERROR)
		return false;
	for (guint i = 0; i < c->plan->write_chunks->len && !ch; i++) {
		pg_chunk *w = c->plan->write_chunks->pdata[i];
		if (w->data->len && chunk_used(w) && w->segs->len == 1)
			ch = w;
	}
	if (!ch)
		return false;
	g_array_index(ch->segs, pg_seg, 0).length = 0;
	pg_ex_expect(c->ex, "RR-163", PG_AT_REPLY);
	pg_ex_expect(c->ex, "RR-085", PG_AT_REPLY);
	pg_ex_expect_write(c->ex, "RR-085", g_array_index(ch->segs, pg_seg, 0).handle);
	return true;
}

/* ---- capture damage --------------------------------------------------- */

static bool bad_icrc(pg_inj_ctx *c)
{
	if (c->s->link->iwarp)
		return false;
	c->op->bad_crc = arg_u32(c, 0xdeadbeefu);
	if (c->op->bad_crc && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->op->bad_crc != 0;
}

static bool bad_mpa_crc(pg_inj_ctx *c)
{
	if (!c->s->link->iwarp || !c->s->link->mpa_crc)
		return false;
	c->op->bad_crc = arg_u32(c, 0x5a5a5a5au);
	if (c->op->bad_crc && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->op->bad_crc != 0;
}

static bool truncate_snaplen(pg_inj_ctx *c)
{
	c->snap = arg_u32(c, 0);
	if (c->snap && c->ex)
		pg_ex_flag(c->ex, PG_EXF_DAMAGED, c->is_call);
	return c->snap > 0;
}

#define INJ(n, a, r, h, ...) { .name = n, .needs_arg = a, .rules = r, .help = h, __VA_ARGS__ }

static const pg_injector table[] = {
	INJ("bad-vers", false, "RR-001 RR-110 RR-111", "rdma_vers set to ARG (default 2)",
	    .header = bad_vers),
	INJ("xid-mismatch", false, "RR-002", "rdma_xid XORed with ARG (default 0x10000)",
	    .header = xid_mismatch),
	INJ("orphan-reply", false, "RR-003", "the reply's XID (header and RPC) XORed with ARG "
	    "(default 0x80000000): no call has it", .plan = orphan_reply_plan,
	    .header = orphan_reply_header),
	INJ("dup-xid", false, "RR-004", "the call reuses the previous call's XID while that one "
	    "is still outstanding (pipeline=on)", .prep = reuse_xid),
	INJ("bad-proc", false, "RR-005", "message type set to ARG (default 7)", .header = bad_proc),
	INJ("record-mark", false, "RR-007", "the inline Payload starts with a TCP record mark",
	    .header = record_mark),
	INJ("bad-msg-type", false, "RR-008", "RPC msg_type set to ARG (default 2)",
	    .plan = bad_msg_type),
	INJ("bad-discriminator", false, "RR-020", "the reply chunk's optional-data word set to "
	    "ARG (default 2)", .header = bad_discriminator),
	INJ("nomsg-empty", false, "RR-021 RR-048", "RDMA_NOMSG with no chunk lists: the Payload "
	    "is not sent", .header = nomsg_empty),
	INJ("trailing-bytes", false, "RR-022", "ARG bytes (default 8) after an RDMA_NOMSG, "
	    "RDMA_ERROR or RDMA_DONE header", .wire = trailing_bytes),
	INJ("unaligned-position", false, "RR-023 RR-026",
	    "first non-zero read chunk Position += ARG (default 2)", .header = unaligned_position),
	INJ("split-run", false, "RR-024", "the first non-zero read chunk gets one more segment, "
	    "listed after the other chunks", .plan = split_run_plan, .header = split_run),
	INJ("descending-positions", false, "RR-025", "the Read list in reverse order",
	    .header = descending_positions),
	INJ("position-beyond", false, "RR-026", "first non-zero Position set ARG (default 64) "
	    "bytes past the end of the Payload", .header = position_beyond),
	INJ("msg-pzrc", false, "RR-028", "a Long Call sent as RDMA_MSG with its Payload inline "
	    "and its Position-Zero chunk", .header = msg_pzrc),
	INJ("zero-length-segment", false, "RR-031", "a zero-length read segment at the first "
	    "eligible argument (left inline)", .header = zero_length_segment),
	INJ("long-reply-inline", false, "RR-045", "the reply is sent inline (RDMA_MSG) although "
	    "the call offered a Reply chunk", .plan = long_reply_inline,
	    .header = long_reply_inline_check),
	INJ("msg-writes-reply-chunk", false, "RR-049", "RDMA_MSG reply that also wrote its "
	    "Payload into the Reply chunk", .header = msg_writes_reply_chunk),
	INJ("short-read-chunk", false, "RR-062", "first non-zero read chunk carries ARG bytes "
	    "(default 4) less than the count left inline", .plan = short_read_chunk_plan,
	    .header = short_read_chunk),
	INJ("extra-read", false, "RR-066", "the responder also RDMA-Reads 16 bytes past the end "
	    "of a read segment", .ops = extra_read),
	INJ("read-after-reply", false, "RR-068", "the responder RDMA-Reads a read segment again "
	    "after its reply", .ops = read_after_reply),
	INJ("reply-read-list", false, "RR-069", "the reply carries an eligible result in a read "
	    "chunk (Read-Read model)", .plan = reply_read_list_plan, .header = reply_read_list),
	INJ("inline-despite-write", false, "RR-080 RR-162", "reply carries the data inline and "
	    "leaves the Write chunk empty", .plan = inline_despite_write,
	    .header = inline_despite_write_check),
	INJ("misdirected-write", false, "RR-081", "the second eligible result is written into "
	    "the first result's Write chunk, the first returns inline",
	    .plan = misdirected_write, .header = misdirected_write_check),
	INJ("segcount-changed", false, "RR-083", "reply's first Write chunk returns a different "
	    "segment count", .header = segcount_changed),
	INJ("handle-changed", false, "RR-084", "reply's first returned segment handle XORed "
	    "with ARG (default 0xa5a500)", .header = handle_changed),
	INJ("write-beyond", false, "RR-085", "the first segment of a multi-segment Write chunk "
	    "gets ARG bytes (default 16) more than its length", .plan = write_beyond_plan,
	    .ops = write_beyond),
	INJ("fill-order", false, "RR-086", "the first segment of a multi-segment Write chunk is "
	    "filled ARG bytes (default 24) short, the rest goes on", .plan = fill_order_plan,
	    .header = fill_order),
	INJ("phantom-length", false, "RR-087", "an unwritten segment after a full one returns "
	    "length ARG (default 4)", .header = phantom_length),
	INJ("unused-nonzero", false, "RR-088 RR-164 RR-166 RR-243", "unused Write chunks return "
	    "their offered lengths, or ARG bytes per segment", .header = unused_nonzero),
	INJ("pad-written", false, "RR-089", "responder RDMA-Writes the XDR pad into Write chunks",
	    .plan = pad_written, .header = pad_written_check),
	INJ("pad-segment", false, "RR-090", "the first offered Write chunk ends with a 4-byte "
	    "pad segment", .plan = pad_segment_plan, .header = pad_segment),
	INJ("write-length-lie", false, "RR-091", "a returned Write chunk length ARG bytes "
	    "(default 8) short of what was written and of the result's length",
	    .header = write_length_lie),
	INJ("write-after-reply", false, "RR-092", "the responder RDMA-Writes into a chunk again "
	    "after its reply", .ops = write_after_reply),
	INJ("zero-credit", false, "RR-100 RR-101", "rdma_credit 0", .header = zero_credit),
	INJ("err-range", false, "RR-111", "ERR_VERS range LOW:HIGH (default 2:1)",
	    .header = err_range),
	INJ("resend-xid", false, "RR-116", "the call reuses the XID of the previous call, which "
	    "RDMA_ERROR completed", .prep = reuse_xid),
	INJ("err-code", false, "RR-117", "RDMA_ERROR error code set to ARG (default 7)",
	    .header = err_code),
	INJ("ineligible-chunk", false, "RR-140 RR-141 RR-142 RR-143 RR-145 RR-147 RR-148",
	    "non-eligible argument number ARG (default 0: file handle, GETATTR bitmap, ACL "
	    "entries) moved into a read chunk", .plan = ineligible_chunk_plan,
	    .header = ineligible_chunk),
	INJ("ineligible-write", false, "RR-140 RR-141 RR-143 RR-145", "non-eligible result number "
	    "ARG (default 0: first READDIR name, ACL entries) written into an extra Write chunk",
	    .plan = ineligible_write_plan, .header = ineligible_write),
	INJ("minorversion", false, "RR-150", "COMPOUND minorversion set to ARG (default 3)",
	    .plan = minorversion),
	INJ("data-missing", false, "RR-160 RR-165", "eligible results without a Write chunk are "
	    "left out of the reply", .plan = data_missing_plan, .header = data_missing),
	INJ("null-write-chunk", false, "RR-168", "NFSv4 NULL call offering a Write chunk",
	    .plan = null_write_chunk_plan, .header = null_write_chunk),
	INJ("extra-write-chunk", false, "RR-171", "ARG (default 1) surplus Write chunks offered",
	    .plan = extra_write_chunk_plan, .header = extra_write_chunk),
	INJ("retry-xid", false, "RR-180", "the call reuses the XID of the previous call, which "
	    "ERR_CHUNK completed (a short-Reply-chunk retry)", .prep = reuse_xid),
	INJ("cb-reply-chunk", false, "RR-191", "backward call offering a Reply chunk",
	    .plan = cb_reply_chunk_plan, .header = cb_reply_chunk),
	INJ("long-read-chunk", false, "RR-222", "first non-zero read chunk carries ARG bytes "
	    "(default 4) beyond roundup4 of its item", .plan = long_read_chunk_plan,
	    .header = long_read_chunk),
	INJ("no-rpc", false, "RR-006", "an RDMA_MSG reply with nothing after its transport "
	    "header", .header = no_rpc),
	INJ("short-err-vers", false, "RR-112", "an ERR_VERS body one word short",
	    .wire = short_err_vers),
	INJ("partial-read", false, "RR-067", "the responder RDMA-Reads ARG bytes (default 4) less "
	    "than the first read segment and answers normally", .ops = partial_read),
	INJ("reply-chunk-changed", false, "RR-093", "the returned Reply chunk's first handle "
	    "XORed with ARG (default 0xa5a500)", .header = reply_chunk_changed),
	INJ("empty-write-chunk", false, "RR-030", "an NFSv3 call offers a Write chunk of zero "
	    "segments", .header = empty_write_chunk),
	INJ("wrong-invalidate", false, "RR-215", "the reply's Send With Invalidate (invalidate=on) "
	    "names the key XOR ARG (default 0xc3c300)", .wire = wrong_invalidate),
	INJ("cb-long-call", false, "RR-192", "a backward call sent as a Long Call (one-segment "
	    "Position-Zero read chunk)", .plan = cb_long_call, .header = cb_long_call_check),
	INJ("garbage-args", false, "RR-114 RR-230", "the reply is RPC GARBAGE_ARGS (sent in the "
	    "reply's shape: reply=reply:N makes it RDMA_NOMSG)", .plan = garbage_args),
	INJ("reuse-handle", false, "RR-210", "the call's first read segment has the handle ARG "
	    "(default 0x0badf00d), the same for every call", .ops = reuse_handle),
	INJ("pz-interleave", false, "RR-027", "a Long Call's Position-Zero segments in two runs "
	    "around the first non-zero chunk (P=0, P=N, P=0)", .plan = pz_interleave_plan,
	    .header = pz_interleave),
	INJ("overlap-chunk", false, "RR-224", "an extra 8-byte read chunk at a Position ARG bytes "
	    "(default 8) inside the first non-zero read chunk's data", .ops = overlap_chunk),
	INJ("empty-chunk-used", false, "RR-163", "an NFSv4 call's one-segment Write chunk offered "
	    "with length 0; the READ data is written into it all the same", .ops = empty_chunk_used),
	INJ("bad-icrc", false, "", "IB/RoCE: ICRC of the message's first Send packet XORed with "
	    "ARG", .wire = bad_icrc),
	INJ("bad-mpa-crc", false, "", "iWARP with CRC: MPA CRC of the message's first FPDU "
	    "XORed with ARG", .wire = bad_mpa_crc),
	INJ("truncate-snaplen", true, "", "frames carrying the message captured with only ARG "
	    "bytes", .capture = truncate_snaplen),
};

const pg_injector *pg_injector_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const pg_injector *pg_injector_at(size_t i)
{
	return i < G_N_ELEMENTS(table) ? &table[i] : NULL;
}

bool pg_known_injector(const char *name, bool *needs_arg)
{
	const pg_injector *in = pg_injector_find(name);
	if (in)
		*needs_arg = in->needs_arg;
	return in != NULL;
}
