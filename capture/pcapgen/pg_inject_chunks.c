// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group B, header encoding and chunk lists (RR-020..RR-031). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

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

/* an optional-data word that is not an XDR bool: the reply chunk's */
bool pg_inj_bad_discriminator(pg_inj_ctx *c)
{
	uint32_t v = pg_inj_arg(c, 2);
	if (v <= 1 || c->msg->proc > RDMA_MSGP || c->msg->proc == RDMA_DONE)
		return false;
	c->msg->reply_disc = v;
	pg_inj_expect(c, "RR-020");
	if (c->is_call && c->ex)
		pg_ex_flag(c->ex, PG_EXF_MALFORMED, true);
	return true;
}

/* RDMA_NOMSG without any chunk: the Payload has nowhere to be */
bool pg_inj_nomsg_empty(pg_inj_ctx *c)
{
	pg_rdmamsg *m = c->msg;
	if (m->proc != RDMA_MSG || m->reads->len || m->reply || !c->ex)
		return false;
	for (guint i = 0; i < m->writes->len; i++)
		if (c->is_call || pg_inj_chunk_used(m->writes->pdata[i]))
			return false;
	m->proc = RDMA_NOMSG;
	g_ptr_array_set_size(m->writes, 0);
	g_byte_array_set_size(m->inline_payload, 0);
	pg_inj_expect(c, "RR-021");
	if (c->is_call) {
		pg_ex_flag(c->ex, PG_EXF_MALFORMED | PG_EXF_CALL_OFF_WIRE, true);
	} else {
		pg_ex_flag(c->ex, PG_EXF_REPLY_OFF_WIRE, false);
		if (!c->plan->call.reply)
			pg_inj_expect(c, "RR-048");
	}
	return true;
}

/* bytes after a header that carries no Payload stream */
bool pg_inj_trailing_bytes(pg_inj_ctx *c)
{
	uint32_t n = pg_inj_arg(c, 8), at0;
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
	pg_inj_expect(c, "RR-022");
	return true;
}

/* a read chunk Position that is not a multiple of 4 (RFC 8166 3.5.3) */
bool pg_inj_unaligned_position(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || !(ch = first_nonzero_read(c->msg)))
		return false;
	ch->position += pg_inj_arg(c, 2);
	if (!(ch->position & 3))
		return false;
	pg_inj_expect(c, "RR-023");
	/* a Position past the inline bytes that precede it cannot be rebuilt
	 * at all (the first non-zero chunk: nothing was inserted before it) */
	if (ch->position > inline_len(c->msg))
		pg_inj_expect(c, "RR-026");
	return true;
}

/* one Position in two runs of the Read list: its chunk gets a second
 * segment, which is listed after another chunk */
bool pg_inj_split_run_plan(pg_inj_ctx *c)
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

bool pg_inj_split_run(pg_inj_ctx *c)
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
	pg_inj_expect(c, "RR-024");
	/* a Position that comes back after another one: the list descends */
	pg_inj_expect(c, "RR-025");
	return true;
}

/* Read list in descending Position order */
bool pg_inj_descending_positions(pg_inj_ctx *c)
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
	pg_inj_expect(c, "RR-025");
	return true;
}

/* a Position past the end of the Payload stream */
bool pg_inj_position_beyond(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || !c->rp || !(ch = first_nonzero_read(c->msg)))
		return false;
	ch->position = pg_round4(c->rp->call.msg->len) + pg_round4(pg_inj_arg(c, 64));
	pg_inj_expect(c, "RR-026");
	return true;
}

/* The call's Payload no longer rebuilds into the RPC message it was
 * reduced from (RR-032): a responder that processes it anyway processed a
 * chunk at no eligible item (RR-065). */
static bool misplaced(pg_inj_ctx *c, pg_chunk *ch, uint32_t pos)
{
	if (!pos || pos == ch->position)
		return false;
	ch->position = pos;
	pg_inj_expect(c, "RR-032");
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	return true;
}

/* first non-zero Position set to ARG (default 12: the RPC program number),
 * inside the RPC call header */
bool pg_inj_position_in_header(pg_inj_ctx *c)
{
	pg_chunk *ch;
	uint32_t pos = pg_round4(pg_inj_arg(c, 12));
	if (!c->is_call || !c->rp || !c->ex || !(ch = first_nonzero_read(c->msg)) || pos >= 24)
		return false;
	return misplaced(c, ch, pos);
}

/* first non-zero Position moved into the middle of the first non-eligible
 * opaque argument (a file handle), on a 4-byte boundary */
bool pg_inj_position_in_item(pg_inj_ctx *c)
{
	const pg_ddp *fh;
	pg_chunk *ch;
	if (!c->is_call || !c->rp || !c->ex || !c->rp->call.bulk || !c->rp->call.bulk->len ||
	    !(ch = first_nonzero_read(c->msg)))
		return false;
	fh = &g_array_index(c->rp->call.bulk, pg_ddp, 0);
	if (fh->len < 8 || fh->off + fh->len > ch->position)
		return false;
	return misplaced(c, ch, (uint32_t)fh->off + (fh->len / 2 & ~3u));
}

/* RDMA_MSG call with a Position-Zero read segment */
bool pg_inj_msg_pzrc(pg_inj_ctx *c)
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
	pg_inj_expect(c, "RR-028");
	return true;
}

/* a zero-length read segment at an eligible item left inline */
bool pg_inj_zero_length_segment(pg_inj_ctx *c)
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
	pg_inj_expect(c, "RR-031");
	return true;
}

/* an NFSv3 call offering a Write chunk of zero segments (the NFSv4
 * COMPOUND device, RFC 8267 6.4.1); the reply returns it as it came */
bool pg_inj_empty_write_chunk(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (!c->is_call || c->msg->writes->len || pg_inj_binding(c) != PG_BIND_NFS3)
		return false;
	ch = pg_chunk_new();
	ch->data_off = -1;
	g_ptr_array_add(c->plan->extra_chunks, ch);
	g_ptr_array_add(c->msg->writes, ch);
	if (c->plan->reply.proc != RDMA_ERROR)
		g_ptr_array_add(c->plan->reply.writes, ch);
	pg_inj_expect(c, "RR-030");
	return true;
}

/* a Long Call whose Position-Zero segments come in two runs: P=0, P=N, P=0
 * (the Position-Zero chunk is split in two if it has a single segment) */
bool pg_inj_pz_interleave_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call;
	if (!c->is_call || !sh->long_segs || !sh->chunked)
		return false;
	if (sh->long_segs == 1)
		sh->long_segs = 2;
	return true;
}

bool pg_inj_pz_interleave(pg_inj_ctx *c)
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
	pg_inj_expect(c, "RR-027");
	/* Position 0 after a non-zero Position: the list descends */
	pg_inj_expect(c, "RR-025");
	return true;
}
