// SPDX-License-Identifier: GPL-2.0-or-later
/* The relay's chunk arithmetic (proxy_map.h). */
#include "proxy_map.h"

unsigned px_read_chunks(const struct rr_hdr *h, struct px_rchunk *out, unsigned max, bool *ok)
{
	unsigned n = 0;

	*ok = true;
	for (uint32_t i = 0; i < h->n_reads; i++) {
		const struct rr_read_segment *r = &h->reads[i];
		if (!n || out[n - 1].position != r->position) {
			if (n == max) {
				*ok = false;
				return n;
			}
			out[n].position = r->position;
			out[n].first = i;
			out[n].count = 0;
			out[n].length = 0;
			n++;
		}
		out[n - 1].count++;
		out[n - 1].length += r->seg.length;
	}
	return n;
}

pg_chunk *px_offer(uint32_t position, uint32_t handle, uint32_t length, uint64_t offset)
{
	pg_chunk *c = pg_chunk_new();
	pg_seg s = { handle, length, offset };
	c->position = position;
	g_array_append_val(c->segs, s);
	return c;
}

uint64_t px_returned(const struct rr_hdr *reply, uint32_t k)
{
	return k < reply->n_write_chunks ? rr_chunk_length(reply, &reply->writes[k]) : 0;
}

uint64_t px_returned_reply(const struct rr_hdr *reply)
{
	return reply->has_reply ? rr_chunk_length(reply, &reply->reply) : 0;
}

bool px_fill(const struct rr_hdr *h, const struct rr_write_chunk *c, uint64_t used, pg_chunk *out)
{
	for (uint32_t j = 0; j < c->count; j++) {
		const struct rr_segment *s = rr_hdr_wseg(h, c, j);
		pg_seg offered = { s->handle, s->length, s->offset };
		pg_seg filled = { s->handle, (uint32_t)MIN((uint64_t)s->length, used), s->offset };
		g_array_append_val(out->segs, offered);
		g_array_append_val(out->ret, filled);
		used -= filled.length;
	}
	return used == 0;
}

static void chunk_free(gpointer p)
{
	pg_chunk *c = p;
	g_array_free(c->segs, TRUE);
	g_array_free(c->ret, TRUE);
	g_byte_array_free(c->data, TRUE);
	g_free(c);
}

GPtrArray *px_chunks_new(void)
{
	return g_ptr_array_new_with_free_func(chunk_free);
}

void px_chunks_free(GPtrArray *own)
{
	g_ptr_array_free(own, TRUE);
}

bool px_returned_chunks(pg_rdmamsg *m, const struct rr_hdr *h, const uint64_t *wused, uint64_t rused,
			GPtrArray *own)
{
	bool ok = true;

	m->returned = true;
	for (uint32_t k = 0; k < h->n_write_chunks; k++) {
		pg_chunk *c = pg_chunk_new();
		ok &= px_fill(h, &h->writes[k], wused[k], c);
		g_ptr_array_add(own, c);
		g_ptr_array_add(m->writes, c);
	}
	m->reply = NULL;
	if (h->has_reply) {
		pg_chunk *c = pg_chunk_new();
		ok &= px_fill(h, &h->reply, rused, c);
		g_ptr_array_add(own, c);
		m->reply = c;
	} else {
		ok &= rused == 0;
	}
	return ok;
}

size_t px_reply_hdr_len(const struct rr_hdr *h)
{
	/* xid, vers, credits, proc; the read list's end; per write chunk its
	 * present flag and count and 16 bytes a segment; the write list's end;
	 * the reply chunk's flag, and its count and segments when present */
	size_t n = 4 * 4 + 4 + 4 + 4;

	for (uint32_t k = 0; k < h->n_write_chunks; k++)
		n += 8 + 16 * (size_t)h->writes[k].count;
	if (h->has_reply)
		n += 4 + 16 * (size_t)h->reply.count;
	return n;
}
