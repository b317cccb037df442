// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building and encoding RPC-over-RDMA v1 transport headers (RFC 8166
 * §4.1.2): the inverse of hdr.c's decoder.  The tools only decode; the
 * tests, the fuzz harnesses and anything that sends headers build them
 * here, so a decoder-only program does not carry this file.
 */
#include <string.h>

#include "hdr.h"
#include "wbuf.h"

static bool put_segment(struct rr_wbuf *w, const struct rr_segment *s)
{
	return rr_put_be32(w, s->handle) && rr_put_be32(w, s->length) && rr_put_be64(w, s->offset);
}

static bool put_chunk(struct rr_wbuf *w, const struct rr_hdr *hdr, const struct rr_write_chunk *c)
{
	uint32_t i;

	if (c->first > hdr->n_wsegs || c->count > hdr->n_wsegs - c->first)
		return false;
	if (!rr_put_be32(w, c->count))
		return false;
	for (i = 0; i < c->count; i++)
		if (!put_segment(w, rr_hdr_wseg(hdr, c, i)))
			return false;
	return true;
}

static bool put_chunk_lists(struct rr_wbuf *w, const struct rr_hdr *hdr)
{
	uint32_t i;

	if (hdr->n_reads > RR_HDR_MAX_SEGS || hdr->n_write_chunks > RR_HDR_MAX_WRITE_CHUNKS)
		return false;
	for (i = 0; i < hdr->n_reads; i++) {
		if (!rr_put_be32(w, 1) || !rr_put_be32(w, hdr->reads[i].position) ||
		    !put_segment(w, &hdr->reads[i].seg))
			return false;
	}
	if (!rr_put_be32(w, 0))
		return false;
	for (i = 0; i < hdr->n_write_chunks; i++)
		if (!rr_put_be32(w, 1) || !put_chunk(w, hdr, &hdr->writes[i]))
			return false;
	if (!rr_put_be32(w, 0))
		return false;
	if (!hdr->has_reply)
		return rr_put_be32(w, 0);
	return rr_put_be32(w, 1) && put_chunk(w, hdr, &hdr->reply);
}

bool rr_hdr_encode(const struct rr_hdr *hdr, struct rr_wbuf *w)
{
	if (!rr_put_be32(w, hdr->xid) || !rr_put_be32(w, hdr->vers) ||
	    !rr_put_be32(w, hdr->credit) || !rr_put_be32(w, hdr->proc))
		return false;
	switch (hdr->proc) {
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		return put_chunk_lists(w, hdr);
	case RR_RDMA_MSGP:
		return rr_put_be32(w, hdr->align) && rr_put_be32(w, hdr->thresh) &&
		       put_chunk_lists(w, hdr);
	case RR_RDMA_DONE:
		return true;
	case RR_RDMA_ERROR:
		if (!rr_put_be32(w, hdr->err))
			return false;
		if (hdr->err == RR_ERR_VERS)
			return rr_put_be32(w, hdr->vers_low) && rr_put_be32(w, hdr->vers_high);
		return true;
	}
	/* Unknown procs are encoded as their fixed part only, for tests of decoders. */
	return true;
}

void rr_hdr_init(struct rr_hdr *hdr, uint32_t xid, uint32_t credit, uint32_t proc)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->xid = xid;
	hdr->vers = RR_RPCRDMA_VERSION;
	hdr->credit = credit;
	hdr->proc = proc;
}

bool rr_hdr_add_read(struct rr_hdr *hdr, uint32_t position, uint32_t handle, uint32_t length,
		     uint64_t offset)
{
	struct rr_read_segment *rs;

	if (hdr->n_reads >= RR_HDR_MAX_SEGS)
		return false;
	rs = &hdr->reads[hdr->n_reads++];
	rs->position = position;
	rs->seg.handle = handle;
	rs->seg.length = length;
	rs->seg.offset = offset;
	return true;
}

static struct rr_write_chunk *open_chunk(struct rr_hdr *hdr)
{
	if (hdr->building_reply)
		return &hdr->reply;
	if (hdr->n_write_chunks == 0)
		return NULL;
	return &hdr->writes[hdr->n_write_chunks - 1];
}

bool rr_hdr_add_write_chunk(struct rr_hdr *hdr)
{
	if (hdr->n_write_chunks >= RR_HDR_MAX_WRITE_CHUNKS)
		return false;
	hdr->writes[hdr->n_write_chunks].first = hdr->n_wsegs;
	hdr->writes[hdr->n_write_chunks].count = 0;
	hdr->n_write_chunks++;
	hdr->building_reply = false;
	return true;
}

bool rr_hdr_set_reply_chunk(struct rr_hdr *hdr)
{
	if (hdr->has_reply)
		return false;
	hdr->has_reply = true;
	hdr->reply.first = hdr->n_wsegs;
	hdr->reply.count = 0;
	hdr->building_reply = true;
	return true;
}

bool rr_hdr_add_wseg(struct rr_hdr *hdr, uint32_t handle, uint32_t length, uint64_t offset)
{
	struct rr_write_chunk *c = open_chunk(hdr);
	struct rr_segment *s;

	if (!c || hdr->n_wsegs >= RR_HDR_MAX_SEGS || c->first + c->count != hdr->n_wsegs)
		return false;
	s = &hdr->wsegs[hdr->n_wsegs++];
	s->handle = handle;
	s->length = length;
	s->offset = offset;
	c->count++;
	return true;
}
