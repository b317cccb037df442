// SPDX-License-Identifier: GPL-2.0-or-later
/* RPC-over-RDMA v1 transport header codec (RFC 8166 §4.1.2 XDR, §4.2 fixed fields, §4.3 chunk lists). */
#include <string.h>

#include "hdr.h"

static enum rr_hdr_status fail(struct rr_cursor *cur, struct rr_hdr *hdr, size_t at,
			       enum rr_hdr_status st)
{
	hdr->err_offset = at;
	hdr->hdr_len = cur->pos;
	return st;
}

/* A present/absent word: exactly 0 or 1 (RR-020). */
static enum rr_hdr_status get_bool(struct rr_cursor *cur, bool *v)
{
	uint32_t w;

	if (!rr_get_be32(cur, &w))
		return RR_HDR_E_SHORT;
	if (w > 1)
		return RR_HDR_E_BOOL;
	*v = w;
	return RR_HDR_OK;
}

static bool get_segment(struct rr_cursor *cur, struct rr_segment *s)
{
	return rr_get_be32(cur, &s->handle) && rr_get_be32(cur, &s->length) &&
	       rr_get_be64(cur, &s->offset);
}

static enum rr_hdr_status decode_read_list(struct rr_cursor *cur, struct rr_hdr *hdr)
{
	for (;;) {
		size_t at = cur->pos;
		struct rr_read_segment rs;
		enum rr_hdr_status st;
		bool more;

		st = get_bool(cur, &more);
		if (st != RR_HDR_OK)
			return fail(cur, hdr, at, st);
		if (!more)
			return RR_HDR_OK;
		if (!rr_get_be32(cur, &rs.position) || !get_segment(cur, &rs.seg))
			return fail(cur, hdr, at, RR_HDR_E_SHORT);
		if (hdr->n_reads >= RR_HDR_MAX_SEGS)
			return fail(cur, hdr, at, RR_HDR_E_LIMIT);
		hdr->reads[hdr->n_reads++] = rs;
	}
}

/* A counted array of segments: write chunk or reply chunk. */
static enum rr_hdr_status decode_chunk(struct rr_cursor *cur, struct rr_hdr *hdr,
				       struct rr_write_chunk *c)
{
	size_t at = cur->pos;
	uint32_t n, i;

	if (!rr_get_be32(cur, &n))
		return fail(cur, hdr, at, RR_HDR_E_SHORT);
	/* Each segment takes 16 bytes: a count beyond the Send is short, not big. */
	if ((uint64_t)n * 16 > rr_cursor_left(cur))
		return fail(cur, hdr, at, RR_HDR_E_SHORT);
	if (n > RR_HDR_MAX_SEGS - hdr->n_wsegs)
		return fail(cur, hdr, at, RR_HDR_E_LIMIT);
	c->first = hdr->n_wsegs;
	c->count = n;
	for (i = 0; i < n; i++)
		get_segment(cur, &hdr->wsegs[hdr->n_wsegs++]);
	return RR_HDR_OK;
}

static enum rr_hdr_status decode_write_list(struct rr_cursor *cur, struct rr_hdr *hdr)
{
	for (;;) {
		size_t at = cur->pos;
		enum rr_hdr_status st;
		bool more;

		st = get_bool(cur, &more);
		if (st != RR_HDR_OK)
			return fail(cur, hdr, at, st);
		if (!more)
			return RR_HDR_OK;
		if (hdr->n_write_chunks >= RR_HDR_MAX_WRITE_CHUNKS)
			return fail(cur, hdr, at, RR_HDR_E_LIMIT);
		st = decode_chunk(cur, hdr, &hdr->writes[hdr->n_write_chunks]);
		if (st != RR_HDR_OK)
			return st;
		hdr->n_write_chunks++;
	}
}

static enum rr_hdr_status decode_chunk_lists(struct rr_cursor *cur, struct rr_hdr *hdr)
{
	enum rr_hdr_status st;
	size_t at;

	st = decode_read_list(cur, hdr);
	if (st != RR_HDR_OK)
		return st;
	st = decode_write_list(cur, hdr);
	if (st != RR_HDR_OK)
		return st;
	at = cur->pos;
	st = get_bool(cur, &hdr->has_reply);
	if (st != RR_HDR_OK)
		return fail(cur, hdr, at, st);
	if (hdr->has_reply)
		return decode_chunk(cur, hdr, &hdr->reply);
	return RR_HDR_OK;
}

enum rr_hdr_status rr_hdr_decode_cursor(struct rr_cursor *cur, struct rr_hdr *hdr)
{
	enum rr_hdr_status st = RR_HDR_OK;
	size_t start = cur->pos;

	memset(hdr, 0, offsetof(struct rr_hdr, reads));
	hdr->n_reads = hdr->n_write_chunks = hdr->n_wsegs = 0;
	hdr->has_reply = false;
	hdr->err_offset = 0;

	if (!rr_get_be32(cur, &hdr->xid) || !rr_get_be32(cur, &hdr->vers) ||
	    !rr_get_be32(cur, &hdr->credit) || !rr_get_be32(cur, &hdr->proc))
		return fail(cur, hdr, cur->pos, RR_HDR_E_SHORT);

	/* ERR_VERS is laid out the same in every version, so decode it anyway. */
	if (hdr->vers != RR_RPCRDMA_VERSION) {
		uint32_t err;

		if (hdr->proc == RR_RDMA_ERROR && rr_peek_be32(cur, 0, &err) && err == RR_ERR_VERS) {
			rr_skip(cur, 4);
			hdr->err = err;
			rr_get_be32(cur, &hdr->vers_low);
			rr_get_be32(cur, &hdr->vers_high);
		}
		hdr->hdr_len = cur->err ? 16 : cur->pos - start;
		hdr->err_offset = 4;
		return RR_HDR_E_NOT_V1;
	}

	switch (hdr->proc) {
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		st = decode_chunk_lists(cur, hdr);
		break;
	case RR_RDMA_MSGP:
		if (!rr_get_be32(cur, &hdr->align) || !rr_get_be32(cur, &hdr->thresh))
			return fail(cur, hdr, cur->pos, RR_HDR_E_SHORT);
		st = decode_chunk_lists(cur, hdr);
		break;
	case RR_RDMA_DONE:
		break;
	case RR_RDMA_ERROR: {
		size_t at = cur->pos;

		if (!rr_get_be32(cur, &hdr->err))
			return fail(cur, hdr, at, RR_HDR_E_SHORT);
		if (hdr->err == RR_ERR_VERS) {
			if (!rr_get_be32(cur, &hdr->vers_low) || !rr_get_be32(cur, &hdr->vers_high))
				return fail(cur, hdr, at, RR_HDR_E_SHORT);
		} else if (hdr->err != RR_ERR_CHUNK) {
			return fail(cur, hdr, at, RR_HDR_E_ERRCODE);
		}
		break;
	}
	default:
		return fail(cur, hdr, 12, RR_HDR_E_PROC);
	}
	if (st != RR_HDR_OK)
		return st;
	hdr->hdr_len = cur->pos - start;
	return RR_HDR_OK;
}

enum rr_hdr_status rr_hdr_decode(const uint8_t *buf, size_t len, struct rr_hdr *hdr)
{
	struct rr_cursor cur;

	rr_cursor_init(&cur, buf, len);
	return rr_hdr_decode_cursor(&cur, hdr);
}

uint64_t rr_chunk_length(const struct rr_hdr *hdr, const struct rr_write_chunk *c)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < c->count && c->first + i < hdr->n_wsegs; i++)
		sum += rr_hdr_wseg(hdr, c, i)->length;
	return sum;
}

bool rr_hdr_proc_has_chunks(uint32_t proc)
{
	return proc == RR_RDMA_MSG || proc == RR_RDMA_NOMSG || proc == RR_RDMA_MSGP;
}

bool rr_hdr_proc_has_payload(uint32_t proc)
{
	return proc == RR_RDMA_MSG || proc == RR_RDMA_MSGP;
}

const char *rr_hdr_proc_name(uint32_t proc)
{
	static const char *const names[] = {
		"RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE", "RDMA_ERROR",
	};

	return proc < 5 ? names[proc] : "RDMA_UNKNOWN";
}

const char *rr_hdr_status_text(enum rr_hdr_status st)
{
	switch (st) {
	case RR_HDR_OK:
		return "ok";
	case RR_HDR_E_SHORT:
		return "the Send ends inside the transport header";
	case RR_HDR_E_BOOL:
		return "a chunk-list discriminator is neither 0 nor 1";
	case RR_HDR_E_PROC:
		return "unknown message type";
	case RR_HDR_E_ERRCODE:
		return "RDMA_ERROR with an unknown error code";
	case RR_HDR_E_LIMIT:
		return "more chunk segments than the engine holds";
	case RR_HDR_E_NOT_V1:
		return "not RPC-over-RDMA version 1";
	}
	return "?";
}

enum rr_rule_id rr_hdr_status_rule(enum rr_hdr_status st)
{
	switch (st) {
	case RR_HDR_E_SHORT:
		return RR_006_SHORT_HDR;
	case RR_HDR_E_BOOL:
		return RR_020_XDR_BOOL;
	case RR_HDR_E_PROC:
		return RR_005_PROC;
	case RR_HDR_E_ERRCODE:
		return RR_117_BAD_ERR;
	case RR_HDR_E_LIMIT:
		return ENG_LIMIT;
	case RR_HDR_E_NOT_V1:
		return ENG_NOT_V1;
	case RR_HDR_OK:
		break;
	}
	return ENG_LIMIT;
}
