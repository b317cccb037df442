// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_rpcrdma.h"

#include "pg_buf.h"

#include <string.h>

void pg_mem_init(pg_mem *m, uint64_t seed)
{
	m->rng = pg_rng_derive(seed, 0x4d454d, 0);
	/* Kernel direct-map style addresses, as Linux registers them. */
	m->next_va[PG_CLIENT] = 0xffff888100000000ull + ((uint64_t)pg_rng_range(&m->rng, 1, 0xffff) << 16);
	m->next_va[PG_SERVER] = 0xffff9a4200000000ull + ((uint64_t)pg_rng_range(&m->rng, 1, 0xffff) << 16);
}

uint32_t pg_mem_key(pg_mem *m, int side)
{
	/* index in the upper 24 bits, 8-bit consumer key below (IB R_Key and
	 * iWARP STag share this layout); never 0 */
	uint32_t idx = pg_rng_range(&m->rng, 0x100, 0xffffff);
	uint32_t key = pg_rng_range(&m->rng, 0, 255);
	(void)side;
	return idx << 8 | key;
}

uint64_t pg_mem_va(pg_mem *m, int side, uint32_t len)
{
	uint64_t va = m->next_va[side] + pg_rng_range(&m->rng, 0, 15) * 64;
	m->next_va[side] = (va + len + 0xfff) & ~0xfffull;
	return va;
}

const char *pg_rdma_proc_name(uint32_t proc)
{
	static const char *const n[] = { "RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE",
					 "RDMA_ERROR" };
	return proc < G_N_ELEMENTS(n) ? n[proc] : "RDMA_UNKNOWN";
}

/* Split total bytes into n non-empty pieces, preferring 4-byte multiples. */
static void split_len(uint32_t total, unsigned n, uint32_t *out)
{
	uint32_t base = (total + n - 1) / n, b = pg_round4(base), left = total;
	if ((uint64_t)b * (n - 1) >= total)
		b = base;
	if ((uint64_t)b * (n - 1) >= total) {
		for (unsigned i = 0; i < n; i++)
			out[i] = total / n + (i < total % n ? 1 : 0);
		return;
	}
	for (unsigned i = 0; i + 1 < n; i++) {
		out[i] = b;
		left -= b;
	}
	out[n - 1] = left;
}

pg_chunk *pg_chunk_new(void)
{
	pg_chunk *c = g_new0(pg_chunk, 1);
	c->segs = g_array_new(FALSE, TRUE, sizeof(pg_seg));
	c->ret = g_array_new(FALSE, TRUE, sizeof(pg_seg));
	c->data = g_byte_array_new();
	c->data_off = -1;
	return c;
}

static void chunk_free(gpointer p)
{
	pg_chunk *c = p;
	if (!c)
		return;
	g_array_free(c->segs, TRUE);
	g_array_free(c->ret, TRUE);
	g_byte_array_free(c->data, TRUE);
	g_free(c);
}

/* Lay out n segments of the given lengths in client memory. */
static void place_segs(pg_chunk *c, pg_mem *mem, const uint32_t *lens, unsigned n, bool one_mr)
{
	uint64_t total = 0, va = 0;
	uint32_t key = 0;
	c->one_mr = one_mr;
	for (unsigned i = 0; i < n; i++)
		total += lens[i];
	if (one_mr) {
		key = pg_mem_key(mem, PG_CLIENT);
		va = pg_mem_va(mem, PG_CLIENT, (uint32_t)total);
	}
	for (unsigned i = 0; i < n; i++) {
		pg_seg s;
		if (one_mr) {
			s.handle = key;
			s.offset = va;
			va += lens[i];
		} else {
			s.handle = pg_mem_key(mem, PG_CLIENT);
			s.offset = pg_mem_va(mem, PG_CLIENT, lens[i]);
		}
		s.length = lens[i];
		g_array_append_val(c->segs, s);
	}
}

void pg_chunk_place(pg_chunk *c, pg_mem *mem, int side, const uint32_t *lens, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		pg_seg s;
		s.handle = pg_mem_key(mem, side);
		s.offset = pg_mem_va(mem, side, lens[i]);
		s.length = lens[i];
		g_array_append_val(c->segs, s);
	}
}

/* Fill advertised segments in array order (RFC 8166 3.4.6): returned
 * lengths are what was written, unused segments come back with 0. The
 * first segment may be filled `less` short of its length or `more` beyond
 * it (injected faults). */
static void fill_returned2(pg_chunk *c, uint32_t len, uint32_t less, uint32_t more)
{
	g_array_set_size(c->ret, 0);
	for (guint i = 0; i < c->segs->len; i++) {
		pg_seg s = g_array_index(c->segs, pg_seg, i);
		uint32_t cap = s.length;
		if (i == 0)
			cap = (cap > less ? cap - less : 0) + more;
		s.length = MIN(cap, len);
		len -= s.length;
		g_array_append_val(c->ret, s);
	}
}

static void fill_returned(pg_chunk *c, uint32_t len)
{
	fill_returned2(c, len, 0, 0);
}

static unsigned shape_nseg(const pg_shape *sh, unsigned i)
{
	if (!sh->chunked || !sh->n)
		return 0;
	return sh->nseg[i < sh->n ? i : sh->n - 1u];
}

static void msg_init(pg_rdmamsg *m, uint32_t xid, uint32_t credit)
{
	memset(m, 0, sizeof(*m));
	m->xid = xid;
	m->vers = 1;
	m->credit = credit;
	m->reads = g_ptr_array_new();
	m->writes = g_ptr_array_new();
	m->inline_payload = g_byte_array_new();
	m->wire = g_byte_array_new();
}

/* Remove the reduced data items (and their XDR pad) from a Payload stream. */
static void excise(GByteArray *out, const GByteArray *full, const GArray *cut_off,
		   const GArray *cut_len)
{
	size_t at = 0;
	for (guint i = 0; i < cut_off->len; i++) {
		size_t off = g_array_index(cut_off, size_t, i);
		uint32_t n = pg_round4(g_array_index(cut_len, uint32_t, i));
		pb_bytes(out, full->data + at, off - at);
		at = off + n;
	}
	pb_bytes(out, full->data + at, full->len - at);
}

static bool plan_call(pg_plan *p, const pg_item *it, const pg_rpc_pair *rp, pg_mem *mem,
		      char **err)
{
	const pg_rpcmsg *m = &rp->call;
	GArray *offs = g_array_new(FALSE, FALSE, sizeof(size_t));
	GArray *lens = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	GByteArray *reduced = g_byte_array_new();
	uint32_t seglen[PG_MAX_SEGS];
	bool ok = true;

	for (guint i = 0; ok && i < m->ddp->len; i++) {
		const pg_ddp *d = &g_array_index(m->ddp, pg_ddp, i);
		unsigned n = shape_nseg(&it->call, i);
		pg_chunk *c;
		uint32_t dlen = it->pad ? pg_round4(d->len) : d->len, have;
		if (!n)
			continue;
		if (!p->read_chunks->len && p->knobs.read_trim && dlen > p->knobs.read_trim + n) {
			dlen -= p->knobs.read_trim;
			p->done |= PG_DONE_TRIM;
		}
		if (!p->read_chunks->len && p->knobs.read_extra) {
			dlen = pg_round4(d->len) + p->knobs.read_extra;
			p->done |= PG_DONE_EXTRA;
		}
		if (dlen < n) {
			*err = g_strdup_printf("%u read segments for a %u-byte data item", n, dlen);
			ok = false;
			break;
		}
		c = pg_chunk_new();
		c->position = (uint32_t)d->off;
		c->item_len = d->len;
		have = (uint32_t)MIN((size_t)dlen, m->msg->len - d->off);
		pb_bytes(c->data, m->msg->data + d->off, have);
		pb_zero(c->data, dlen - have);
		split_len(dlen, n, seglen);
		place_segs(c, mem, seglen, n, it->cover == PG_COVER_COALESCE);
		g_ptr_array_add(p->read_chunks, c);
		g_array_append_val(offs, d->off);
		g_array_append_val(lens, d->len);
	}
	if (ok) {
		excise(reduced, m->msg, offs, lens);
		if (it->call.long_segs) {
			unsigned n = it->call.long_segs;
			pg_chunk *c = pg_chunk_new();
			if (reduced->len < n) {
				*err = g_strdup_printf("%u PZRC segments for a %u-byte call", n,
						       reduced->len);
				ok = false;
				chunk_free(c);
			} else {
				pb_bytes(c->data, reduced->data, reduced->len);
				split_len(reduced->len, n, seglen);
				place_segs(c, mem, seglen, n, it->cover == PG_COVER_COALESCE);
				g_ptr_array_insert(p->read_chunks, 0, c);
				p->call.proc = RDMA_NOMSG;
			}
		} else {
			p->call.proc = it->msgp ? RDMA_MSGP : RDMA_MSG;
			pb_bytes(p->call.inline_payload, reduced->data, reduced->len);
		}
	}
	p->call.align = it->align;
	p->call.thresh = it->thresh;
	for (guint i = 0; i < p->read_chunks->len; i++)
		g_ptr_array_add(p->call.reads, p->read_chunks->pdata[i]);
	g_array_free(offs, TRUE);
	g_array_free(lens, TRUE);
	g_byte_array_free(reduced, TRUE);
	return ok;
}

/* Advertise one Write chunk per DDP-eligible result slot, in request order. */
static bool offer_writes(pg_plan *p, const pg_item *it, const pg_rpc_pair *rp, pg_mem *mem,
			 char **err)
{
	uint32_t seglen[PG_MAX_SEGS];
	bool gap = false;
	for (guint k = 0; k < rp->slots->len; k++) {
		unsigned n = shape_nseg(&it->reply, k);
		uint32_t max = g_array_index(rp->slots, uint32_t, k);
		pg_chunk *c;
		if (!n) {
			gap = true;
			continue;
		}
		if (gap) {
			/* Write chunks pair with results by ordinal (RFC 8267 6.4.1),
			 * so a later result cannot have a chunk when an earlier one
			 * has none. */
			*err = g_strdup("reply=write: a 0 entry cannot be followed by a non-zero one");
			return false;
		}
		if (max < n) {
			*err = g_strdup_printf("%u write segments for at most %u bytes", n, max);
			return false;
		}
		c = pg_chunk_new();
		split_len(max, n, seglen);
		if (p->knobs.write_pad_seg && !p->write_chunks->len && n < PG_MAX_SEGS) {
			/* a separate buffer for the XDR pad, as RFC 5666 servers expect */
			seglen[n++] = 4;
			p->done |= PG_DONE_PADSEG;
		}
		place_segs(c, mem, seglen, n, it->cover == PG_COVER_COALESCE);
		g_ptr_array_add(p->write_chunks, c);
	}
	for (uint32_t k = 0; k < p->knobs.extra_write_chunks; k++) {
		uint32_t max = rp->slots->len ? g_array_index(rp->slots, uint32_t,
							      rp->slots->len - 1) : 4096;
		pg_chunk *c = pg_chunk_new();
		max = MAX(max, 4u);
		place_segs(c, mem, &max, 1, it->cover == PG_COVER_COALESCE);
		g_ptr_array_add(p->write_chunks, c);
		p->done |= PG_DONE_EXTRAW;
	}
	return true;
}

/* Reduce the reply: each DDP-eligible result goes into the Write chunk it
 * pairs with (or, as the knobs say, into a reply read chunk, or nowhere);
 * offs and lens collect what leaves the Payload stream. */
static void reduce_results(pg_plan *p, const pg_rpcmsg *m, pg_mem *mem, GArray *offs,
			   GArray *lens)
{
	for (guint i = 0; i < m->ddp->len; i++) {
		const pg_ddp *d = &g_array_index(m->ddp, pg_ddp, i);
		pg_chunk *c;
		uint32_t wlen = d->len, less = 0, more = 0;
		if (d->slot < 0 || (guint)d->slot >= p->write_chunks->len ||
		    p->knobs.reply_inline_despite_write) {
			if (p->knobs.reply_read_chunk && !(p->done & PG_DONE_RREAD) && d->len) {
				/* RFC 5666 Read-Read: the result waits in responder memory */
				uint32_t l = d->len;
				c = pg_chunk_new();
				c->position = (uint32_t)d->off;
				c->item_len = d->len;
				pb_bytes(c->data, m->msg->data + d->off, d->len);
				pg_chunk_place(c, mem, PG_SERVER, &l, 1);
				g_ptr_array_add(p->extra_chunks, c);
				g_ptr_array_add(p->reply.reads, c);
				p->done |= PG_DONE_RREAD;
			} else if (!p->knobs.reply_drop_ddp || !d->len) {
				continue;
			} else {
				p->done |= PG_DONE_DROP;
			}
			g_array_append_val(offs, d->off);
			g_array_append_val(lens, d->len);
			continue;
		}
		c = p->write_chunks->pdata[d->slot];
		if (p->knobs.write_pad)
			wlen = pg_round4(d->len);
		if (c->segs->len > 1 && !(p->done & (PG_DONE_SHORT | PG_DONE_OVER))) {
			uint32_t l0 = g_array_index(c->segs, pg_seg, 0).length, total = 0;
			for (guint k = 0; k < c->segs->len; k++)
				total += g_array_index(c->segs, pg_seg, k).length;
			if (p->knobs.fill_short && p->knobs.fill_short < l0 &&
			    wlen > l0 - p->knobs.fill_short && wlen + p->knobs.fill_short <= total) {
				less = p->knobs.fill_short;
				p->done |= PG_DONE_SHORT;
			}
			if (p->knobs.overfill && wlen > l0) {
				more = MIN(p->knobs.overfill, wlen - l0);
				p->done |= PG_DONE_OVER;
			}
		}
		pb_bytes(c->data, m->msg->data + d->off, wlen);
		c->item_len = d->len;
		c->data_off = (int64_t)d->off;
		fill_returned2(c, wlen, less, more);
		g_array_append_val(offs, d->off);
		g_array_append_val(lens, d->len);
	}
}

/* The reduced reply goes Long, through a Reply chunk the call offers, or
 * Short, inline (with an unused Reply chunk offered, if the knob says so). */
static bool reply_body(pg_plan *p, const pg_item *it, const GByteArray *reduced, pg_mem *mem,
		       char **err)
{
	uint32_t seglen[PG_MAX_SEGS];
	bool ok = true;
	if (it->reply.long_segs) {
		unsigned n = it->reply.long_segs;
		pg_chunk *c;
		if (reduced->len < n) {
			*err = g_strdup_printf("%u Reply chunk segments for a %u-byte reply", n,
					       reduced->len);
			ok = false;
		} else {
			c = pg_chunk_new();
			if (it->reply_size) {
				if (it->reply_size < reduced->len && !it->reply.error) {
					*err = g_strdup_printf("reply-size %u is smaller than the "
							       "%u-byte reply", it->reply_size,
							       reduced->len);
					ok = false;
				}
				split_len(it->reply_size, n, seglen);
			} else {
				split_len(reduced->len, n, seglen);
				/* The requester sizes the Reply chunk for the largest
				 * possible reply, so it is a little larger than needed. */
				seglen[n - 1] += 1024;
			}
			place_segs(c, mem, seglen, n, it->cover == PG_COVER_COALESCE);
			pb_bytes(c->data, reduced->data, reduced->len);
			fill_returned(c, reduced->len);
			p->reply_chunk = c;
			p->reply.reply = c;
			p->call.reply = c;
			p->reply.proc = RDMA_NOMSG;
		}
	} else {
		p->reply.proc = RDMA_MSG;
		pb_bytes(p->reply.inline_payload, reduced->data, reduced->len);
		if (p->knobs.offer_unused_reply_chunk) {
			/* offered for the largest reply; the responder answers Short
			 * (RFC 8166 4.3.3 allows it) and copies the chunk into its
			 * header unused, every length zero (4.3.3 requires the copy) */
			uint32_t l = reduced->len + 1024;
			pg_chunk *c = pg_chunk_new();
			place_segs(c, mem, &l, 1, false);
			fill_returned(c, 0);
			p->reply_chunk = c;
			p->call.reply = c;
			p->reply.reply = c;
			p->done |= PG_DONE_UNUSED_RC;
		}
	}
	return ok;
}

/* The responder rejects the call: nothing is written back. */
static void reply_reject(pg_plan *p, const pg_item *it)
{
	p->reply.proc = RDMA_ERROR;
	p->reply.err = (uint32_t)it->reply.error;
	p->reply.low = p->reply.high = 1;
	g_ptr_array_set_size(p->reply.writes, 0);
	p->reply.reply = NULL;
	g_byte_array_set_size(p->reply.inline_payload, 0);
	for (guint k = 0; k < p->write_chunks->len; k++) {
		pg_chunk *c = p->write_chunks->pdata[k];
		g_byte_array_set_size(c->data, 0);
		fill_returned(c, 0);
	}
	if (p->reply_chunk)
		g_byte_array_set_size(p->reply_chunk->data, 0);
}

static bool plan_reply(pg_plan *p, const pg_item *it, const pg_rpc_pair *rp, pg_mem *mem,
		       char **err)
{
	GArray *offs = g_array_new(FALSE, FALSE, sizeof(size_t));
	GArray *lens = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	GByteArray *reduced = g_byte_array_new();
	bool ok;

	for (guint k = 0; k < p->write_chunks->len; k++)
		fill_returned(p->write_chunks->pdata[k], 0);
	reduce_results(p, &rp->reply, mem, offs, lens);
	excise(reduced, rp->reply.msg, offs, lens);
	for (guint k = 0; k < p->write_chunks->len; k++)
		g_ptr_array_add(p->reply.writes, p->write_chunks->pdata[k]);
	p->reply.returned = true;
	ok = reply_body(p, it, reduced, mem, err);
	if (it->reply.error)
		reply_reject(p, it);
	g_array_free(offs, TRUE);
	g_array_free(lens, TRUE);
	g_byte_array_free(reduced, TRUE);
	return ok;
}

bool pg_plan_build(pg_plan *p, const pg_item *it, const pg_rpc_pair *rp, const pg_plan_opts *o,
		   pg_mem *mem, char **err)
{
	pg_knobs kn = p->knobs;
	memset(p, 0, sizeof(*p));
	p->knobs = kn;
	*err = NULL;
	msg_init(&p->call, o->xid, o->credit_call);
	msg_init(&p->reply, o->xid, o->credit_reply);
	p->read_chunks = g_ptr_array_new_with_free_func(chunk_free);
	p->write_chunks = g_ptr_array_new_with_free_func(chunk_free);
	p->extra_chunks = g_ptr_array_new_with_free_func(chunk_free);
	if (!plan_call(p, it, rp, mem, err) || !offer_writes(p, it, rp, mem, err))
		return false;
	for (guint k = 0; k < p->write_chunks->len; k++)
		g_ptr_array_add(p->call.writes, p->write_chunks->pdata[k]);
	return plan_reply(p, it, rp, mem, err);
}

bool pg_plan_check_inline(const pg_plan *p, const pg_item *it, const pg_plan_opts *o, char **err)
{
	const pg_rdmamsg *m[2] = { &p->call, &p->reply };
	const char *what[2] = { "call", "reply" };
	if (!o->inline_check)
		return true;
	for (int i = 0; i < 2; i++) {
		if (m[i]->wire->len <= o->inline_max)
			continue;
		*err = g_strdup_printf("the %s Send is %u bytes (header %u + inline payload %u), "
				       "above the %u-byte inline threshold: reduce it with %s "
				       "(or set inline-check off)",
				       what[i], m[i]->wire->len, m[i]->hdr_len,
				       m[i]->inline_payload->len, o->inline_max,
				       i == 0 ? "call=read:N or call=pzrc:N"
					      : "reply=write:N or reply=reply:N");
		return false;
	}
	(void)it;
	return true;
}

static void enc_seg(GByteArray *b, const pg_seg *s)
{
	pb_be32(b, s->handle);
	pb_be32(b, s->length);
	pb_be64(b, s->offset);
}

void pg_rdmamsg_encode(pg_rdmamsg *m)
{
	GByteArray *b = m->wire;
	g_byte_array_set_size(b, 0);
	pb_be32(b, m->xid);
	pb_be32(b, m->vers);
	pb_be32(b, m->credit);
	pb_be32(b, m->proc);
	if (m->proc == RDMA_ERROR) {
		pb_be32(b, m->err);
		if (m->err == 1) {
			pb_be32(b, m->low);
			pb_be32(b, m->high);
		}
		m->hdr_len = b->len;
		return;
	}
	if (m->proc == RDMA_DONE) {
		m->hdr_len = b->len;
		return;
	}
	if (m->proc == RDMA_MSGP) {
		pb_be32(b, m->align);
		pb_be32(b, m->thresh);
	}
	for (guint i = 0; i < m->reads->len; i++) {
		const pg_chunk *c = m->reads->pdata[i];
		for (guint k = 0; k < c->segs->len; k++) {
			pb_be32(b, 1);
			pb_be32(b, c->position);
			enc_seg(b, &g_array_index(c->segs, pg_seg, k));
		}
	}
	pb_be32(b, 0);
	for (guint i = 0; i < m->writes->len; i++) {
		const pg_chunk *c = m->writes->pdata[i];
		const GArray *s = m->returned ? c->ret : c->segs;
		pb_be32(b, 1);
		pb_be32(b, s->len);
		for (guint k = 0; k < s->len; k++)
			enc_seg(b, &g_array_index(s, pg_seg, k));
	}
	pb_be32(b, 0);
	if (m->reply) {
		const GArray *s = m->returned ? m->reply->ret : m->reply->segs;
		pb_be32(b, m->reply_disc ? m->reply_disc : 1);
		pb_be32(b, s->len);
		for (guint k = 0; k < s->len; k++)
			enc_seg(b, &g_array_index(s, pg_seg, k));
	} else {
		pb_be32(b, m->reply_disc);
	}
	m->hdr_len = b->len;
	pb_bytes(b, m->inline_payload->data, m->inline_payload->len);
}

void pg_plan_encode(pg_plan *p)
{
	pg_rdmamsg_encode(&p->call);
	pg_rdmamsg_encode(&p->reply);
}

void pg_rdmamsg_simple(pg_rdmamsg *m, uint32_t xid, uint32_t proc, uint32_t credit)
{
	msg_init(m, xid, credit);
	m->proc = proc;
}

void pg_rdmamsg_clear(pg_rdmamsg *m)
{
	if (m->reads)
		g_ptr_array_free(m->reads, TRUE);
	if (m->writes)
		g_ptr_array_free(m->writes, TRUE);
	if (m->inline_payload)
		g_byte_array_free(m->inline_payload, TRUE);
	if (m->wire)
		g_byte_array_free(m->wire, TRUE);
	memset(m, 0, sizeof(*m));
}

void pg_plan_clear(pg_plan *p)
{
	pg_rdmamsg_clear(&p->call);
	pg_rdmamsg_clear(&p->reply);
	if (p->read_chunks)
		g_ptr_array_free(p->read_chunks, TRUE);
	if (p->write_chunks)
		g_ptr_array_free(p->write_chunks, TRUE);
	if (p->extra_chunks)
		g_ptr_array_free(p->extra_chunks, TRUE);
	chunk_free(p->reply_chunk);
	memset(p, 0, sizeof(*p));
}
