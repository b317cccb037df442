// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the items of a decoded transport header sit on the wire (hdr.h,
 * rr_hdr_layout).  The walk follows the same XDR layout rr_hdr_decode()
 * reads and rr_hdr_encode() writes; a unit test holds the three together.
 */
#include "rpcrdma/hdr.h"

struct walk {
	rr_hdr_span_fn fn;
	void *ctx;
	size_t at;
	enum rr_chunk_role role;   /* of the chunk being walked */
};

const char *rr_chunk_role_name(enum rr_chunk_role r)
{
	switch (r) {
	case RR_ROLE_READ:
		return "read";
	case RR_ROLE_PZRC:
		return "pzrc";
	case RR_ROLE_WRITE:
		return "write";
	case RR_ROLE_REPLY:
		return "reply";
	default:
		return "";
	}
}

/* A group announces its extent; the items inside it then advance the position. */
static void group(struct walk *w, enum rr_hdr_span_kind kind, enum rr_hdr_list list, uint32_t depth,
		  size_t len, uint32_t chunk, uint32_t seg, uint64_t value)
{
	struct rr_hdr_span sp = {
		.kind = kind, .list = list, .depth = depth, .offset = w->at, .len = len,
		.chunk = chunk, .seg = seg, .value = value, .role = w->role,
	};

	w->fn(w->ctx, &sp);
}

static void item(struct walk *w, enum rr_hdr_span_kind kind, enum rr_hdr_list list, uint32_t depth,
		 size_t len, uint32_t chunk, uint32_t seg, uint64_t value)
{
	group(w, kind, list, depth, len, chunk, seg, value);
	w->at += len;
}

static void segment(struct walk *w, enum rr_hdr_list list, uint32_t depth, uint32_t chunk,
		    uint32_t idx, const struct rr_segment *s)
{
	group(w, RR_HS_SEGMENT, list, depth, 16, chunk, idx, s->length);
	item(w, RR_HS_HANDLE, list, depth + 1, 4, chunk, idx, s->handle);
	item(w, RR_HS_LENGTH, list, depth + 1, 4, chunk, idx, s->length);
	item(w, RR_HS_OFFSET, list, depth + 1, 8, chunk, idx, s->offset);
}

static void read_list(struct walk *w, const struct rr_hdr *hdr)
{
	uint32_t i;

	group(w, RR_HS_LIST, RR_HL_READ, 0, (size_t)hdr->n_reads * 24 + 4, 0, 0, hdr->n_reads);
	for (i = 0; i < hdr->n_reads; i++) {
		const struct rr_read_segment *r = &hdr->reads[i];

		w->role = r->position ? RR_ROLE_READ : RR_ROLE_PZRC;

		group(w, RR_HS_SEGMENT, RR_HL_READ, 1, 24, 0, i, r->seg.length);
		item(w, RR_HS_PRESENT, RR_HL_READ, 2, 4, 0, i, 1);
		item(w, RR_HS_POSITION, RR_HL_READ, 2, 4, 0, i, r->position);
		item(w, RR_HS_HANDLE, RR_HL_READ, 2, 4, 0, i, r->seg.handle);
		item(w, RR_HS_LENGTH, RR_HL_READ, 2, 4, 0, i, r->seg.length);
		item(w, RR_HS_OFFSET, RR_HL_READ, 2, 8, 0, i, r->seg.offset);
	}
	w->role = RR_ROLE_NONE;
	item(w, RR_HS_PRESENT, RR_HL_READ, 1, 4, 0, 0, 0);
}

static size_t chunk_len(const struct rr_write_chunk *c)
{
	return 8 + (size_t)c->count * 16;
}

static void chunk(struct walk *w, const struct rr_hdr *hdr, enum rr_hdr_list list, uint32_t depth,
		  uint32_t idx, const struct rr_write_chunk *c)
{
	uint32_t i;

	group(w, RR_HS_CHUNK, list, depth, chunk_len(c), idx, c->first, c->count);
	item(w, RR_HS_PRESENT, list, depth + 1, 4, idx, c->first, 1);
	item(w, RR_HS_COUNT, list, depth + 1, 4, idx, c->first, c->count);
	for (i = 0; i < c->count; i++)
		segment(w, list, depth + 1, idx, c->first + i, rr_hdr_wseg(hdr, c, i));
}

static void write_list(struct walk *w, const struct rr_hdr *hdr)
{
	size_t len = 4;
	uint32_t i;

	for (i = 0; i < hdr->n_write_chunks; i++)
		len += chunk_len(&hdr->writes[i]);
	group(w, RR_HS_LIST, RR_HL_WRITE, 0, len, 0, 0, hdr->n_write_chunks);
	w->role = RR_ROLE_WRITE;
	for (i = 0; i < hdr->n_write_chunks; i++)
		chunk(w, hdr, RR_HL_WRITE, 1, i, &hdr->writes[i]);
	w->role = RR_ROLE_NONE;
	item(w, RR_HS_PRESENT, RR_HL_WRITE, 1, 4, 0, 0, 0);
}

static void reply_chunk(struct walk *w, const struct rr_hdr *hdr)
{
	if (!hdr->has_reply) {
		group(w, RR_HS_LIST, RR_HL_REPLY, 0, 4, 0, 0, 0);
		item(w, RR_HS_PRESENT, RR_HL_REPLY, 1, 4, 0, 0, 0);
		return;
	}
	/* The reply chunk is one optional chunk: its flag is the chunk's own. */
	group(w, RR_HS_LIST, RR_HL_REPLY, 0, chunk_len(&hdr->reply), 0, 0, 1);
	w->role = RR_ROLE_REPLY;
	chunk(w, hdr, RR_HL_REPLY, 1, 0, &hdr->reply);
	w->role = RR_ROLE_NONE;
}

void rr_hdr_layout(const struct rr_hdr *hdr, enum rr_hdr_status st, size_t send_len,
		   rr_hdr_span_fn fn, void *ctx)
{
	struct walk w = { .fn = fn, .ctx = ctx };

	if (st == RR_HDR_E_SHORT && send_len < 16) {
		if (send_len)
			item(&w, RR_HS_UNDECODED, RR_HL_NONE, 0, send_len, 0, 0, 0);
		return;
	}
	item(&w, RR_HS_XID, RR_HL_NONE, 0, 4, 0, 0, hdr->xid);
	item(&w, RR_HS_VERS, RR_HL_NONE, 0, 4, 0, 0, hdr->vers);
	item(&w, RR_HS_CREDIT, RR_HL_NONE, 0, 4, 0, 0, hdr->credit);
	item(&w, RR_HS_PROC, RR_HL_NONE, 0, 4, 0, 0, hdr->proc);
	if (st == RR_HDR_E_NOT_V1 && hdr->err == RR_ERR_VERS && hdr->hdr_len >= 28) {
		item(&w, RR_HS_ERR, RR_HL_NONE, 0, 4, 0, 0, hdr->err);
		item(&w, RR_HS_VERS_LOW, RR_HL_NONE, 0, 4, 0, 0, hdr->vers_low);
		item(&w, RR_HS_VERS_HIGH, RR_HL_NONE, 0, 4, 0, 0, hdr->vers_high);
	}
	if (st != RR_HDR_OK) {
		if (st != RR_HDR_E_NOT_V1 && send_len > w.at)
			item(&w, RR_HS_UNDECODED, RR_HL_NONE, 0, send_len - w.at, 0, 0, 0);
		return;
	}
	switch (hdr->proc) {
	case RR_RDMA_MSGP:
		item(&w, RR_HS_ALIGN, RR_HL_NONE, 0, 4, 0, 0, hdr->align);
		item(&w, RR_HS_THRESH, RR_HL_NONE, 0, 4, 0, 0, hdr->thresh);
		/* fall through */
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		read_list(&w, hdr);
		write_list(&w, hdr);
		reply_chunk(&w, hdr);
		break;
	case RR_RDMA_ERROR:
		item(&w, RR_HS_ERR, RR_HL_NONE, 0, 4, 0, 0, hdr->err);
		if (hdr->err == RR_ERR_VERS) {
			item(&w, RR_HS_VERS_LOW, RR_HL_NONE, 0, 4, 0, 0, hdr->vers_low);
			item(&w, RR_HS_VERS_HIGH, RR_HL_NONE, 0, 4, 0, 0, hdr->vers_high);
		}
		break;
	default:
		break;
	}
}
