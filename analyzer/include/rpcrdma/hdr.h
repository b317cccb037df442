/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hdr.h - the RPC-over-RDMA version 1 transport header (RFC 8166 §4):
 * decode and encode of all five message types.
 *
 * Wire layout (RFC 8166 §4.1.2, §4.2): xid, vers, credit, proc, then by proc:
 *   RDMA_MSG / RDMA_NOMSG: read list, write list, reply chunk
 *   RDMA_MSGP:             align, thresh, read list, write list, reply chunk
 *   RDMA_DONE:             nothing
 *   RDMA_ERROR:            err; ERR_VERS adds vers_low, vers_high
 *
 * The decoded header holds its segments in fixed arrays inside the struct:
 * no allocation, and a header with more segments than RR_HDR_MAX_SEGS is
 * refused with RR_HDR_E_LIMIT instead of being believed.
 *
 * A header whose vers is not 1 is decoded only through the four fixed
 * words (RFC 8166 4.2: only those, and the ERR_VERS arm, are fixed for all
 * versions); the status is RR_HDR_E_NOT_V1 and the fixed fields are valid.
 */
#ifndef RPCRDMA_HDR_H
#define RPCRDMA_HDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "rules.h"
#include "wbuf.h"

/*
 * RFC 8166 §3.3.3: the inline threshold a peer may assume of the other when
 * nothing (RFC 8797 private data, configuration) says more, which is also
 * the least every implementation must accept.
 */
#define RR_DEFAULT_INLINE_THRESHOLD 1024u

#define RR_RPCRDMA_VERSION 1u

enum rr_rdma_proc {
	RR_RDMA_MSG = 0,
	RR_RDMA_NOMSG = 1,
	RR_RDMA_MSGP = 2,
	RR_RDMA_DONE = 3,
	RR_RDMA_ERROR = 4,
};

enum rr_rdma_errcode {
	RR_ERR_VERS = 1,
	RR_ERR_CHUNK = 2,
};

#define RR_HDR_MAX_SEGS 256        /* segments in one header, all lists together */
#define RR_HDR_MAX_WRITE_CHUNKS 64

struct rr_segment {
	uint32_t handle;   /* R_Key / STag */
	uint32_t length;
	uint64_t offset;   /* VA / tagged offset */
};

struct rr_read_segment {
	uint32_t position;
	struct rr_segment seg;
};

struct rr_write_chunk {
	uint32_t first;    /* index of its first segment in hdr->wsegs */
	uint32_t count;
};

enum rr_hdr_status {
	RR_HDR_OK = 0,
	RR_HDR_E_SHORT,        /* the Send ends inside the header */
	RR_HDR_E_BOOL,         /* a list discriminator is not 0 or 1 */
	RR_HDR_E_PROC,         /* proc > 4 */
	RR_HDR_E_ERRCODE,      /* RDMA_ERROR with an unknown err */
	RR_HDR_E_LIMIT,        /* more segments or chunks than we hold */
	RR_HDR_E_NOT_V1,       /* vers != 1: fixed part only */
};

struct rr_hdr {
	uint32_t xid;
	uint32_t vers;
	uint32_t credit;
	uint32_t proc;

	uint32_t align, thresh;            /* RDMA_MSGP */
	uint32_t err;                      /* RDMA_ERROR */
	uint32_t vers_low, vers_high;      /* ERR_VERS */

	uint32_t n_reads;
	struct rr_read_segment reads[RR_HDR_MAX_SEGS];

	uint32_t n_write_chunks;
	struct rr_write_chunk writes[RR_HDR_MAX_WRITE_CHUNKS];

	bool has_reply;
	struct rr_write_chunk reply;

	/* Segments of write chunks and of the reply chunk. */
	uint32_t n_wsegs;
	struct rr_segment wsegs[RR_HDR_MAX_SEGS];

	size_t hdr_len;        /* bytes of transport header; the Payload (if any) follows */
	bool building_reply;   /* builders: rr_hdr_add_wseg() extends the reply chunk */
	size_t err_offset;     /* where decoding stopped when status != OK */
};

/* Decode from the start of a Send.  Returns the status; hdr is filled as far as decoding went. */
enum rr_hdr_status rr_hdr_decode(const uint8_t *buf, size_t len, struct rr_hdr *hdr);
enum rr_hdr_status rr_hdr_decode_cursor(struct rr_cursor *cur, struct rr_hdr *hdr);

/* Encode; false when the header is inconsistent (counts beyond arrays) or the buffer is capped. */
bool rr_hdr_encode(const struct rr_hdr *hdr, struct rr_wbuf *w);

/* Builders for encoders and tests. */
void rr_hdr_init(struct rr_hdr *hdr, uint32_t xid, uint32_t credit, uint32_t proc);
bool rr_hdr_add_read(struct rr_hdr *hdr, uint32_t position, uint32_t handle, uint32_t length, uint64_t offset);
/* Start a write chunk; then rr_hdr_add_wseg() appends to the newest chunk. */
bool rr_hdr_add_write_chunk(struct rr_hdr *hdr);
bool rr_hdr_set_reply_chunk(struct rr_hdr *hdr);
/* Appends a segment to the reply chunk when it was the last one opened, else to the newest write chunk. */
bool rr_hdr_add_wseg(struct rr_hdr *hdr, uint32_t handle, uint32_t length, uint64_t offset);

static inline const struct rr_segment *rr_hdr_wseg(const struct rr_hdr *hdr,
						   const struct rr_write_chunk *c, uint32_t i)
{
	return &hdr->wsegs[c->first + i];
}

/* Sum of a chunk's segment lengths (64-bit: 256 x 4 GiB does not wrap). */
uint64_t rr_chunk_length(const struct rr_hdr *hdr, const struct rr_write_chunk *c);

bool rr_hdr_proc_has_chunks(uint32_t proc);
bool rr_hdr_proc_has_payload(uint32_t proc);   /* inline Payload follows the header */
const char *rr_hdr_proc_name(uint32_t proc);   /* "RDMA_MSG" ... or "RDMA_PROC_<n>" style "unknown" */
const char *rr_hdr_status_text(enum rr_hdr_status st);
/* The catalog entry a failed decode breaks. */
enum rr_rule_id rr_hdr_status_rule(enum rr_hdr_status st);

/*
 * Where each item of a decoded header sits in the Send, for a reporter that
 * draws the header over its bytes (the plugin) without knowing the XDR
 * layout.  rr_hdr_layout() calls fn for every item in wire order: a GROUP
 * span (a list, a chunk, a segment) comes before the items inside it, with
 * depth one less.  A header that did not decode (status not OK) gets its
 * fixed words (and the ERR_VERS arm of another version) and then one
 * RR_HS_UNDECODED span from where decoding stopped to the end of the Send.
 */
enum rr_hdr_span_kind {
	RR_HS_XID, RR_HS_VERS, RR_HS_CREDIT, RR_HS_PROC,
	RR_HS_ALIGN, RR_HS_THRESH,                  /* RDMA_MSGP */
	RR_HS_ERR, RR_HS_VERS_LOW, RR_HS_VERS_HIGH, /* RDMA_ERROR */
	RR_HS_LIST,          /* group: the read list, the write list or the reply chunk */
	RR_HS_CHUNK,         /* group: one write or reply chunk (present flag, count, segments) */
	RR_HS_SEGMENT,       /* group: one segment (a read segment has its present flag and position) */
	RR_HS_PRESENT,       /* an XDR optional-data flag: 1 = an item follows, 0 = the list ends */
	RR_HS_COUNT,         /* a chunk's segment count */
	RR_HS_POSITION, RR_HS_HANDLE, RR_HS_LENGTH, RR_HS_OFFSET,
	RR_HS_UNDECODED,     /* bytes after the point where decoding stopped */
};

enum rr_hdr_list { RR_HL_NONE = 0, RR_HL_READ, RR_HL_WRITE, RR_HL_REPLY };

/* What a chunk carries (RFC 8166 3.5): for segments and chunks. */
enum rr_chunk_role {
	RR_ROLE_NONE = 0,
	RR_ROLE_READ,        /* a read chunk at a non-zero Position */
	RR_ROLE_PZRC,        /* a Position-Zero read chunk: the RPC message itself */
	RR_ROLE_WRITE,       /* a write chunk (its index in .chunk) */
	RR_ROLE_REPLY,       /* the reply chunk */
};
const char *rr_chunk_role_name(enum rr_chunk_role r);   /* "read", "pzrc", "write", "reply" */

struct rr_hdr_span {
	enum rr_hdr_span_kind kind;
	enum rr_hdr_list list;   /* the list it belongs to, RR_HL_NONE for the fixed words */
	uint32_t depth;          /* 0 for top-level items */
	size_t offset, len;      /* in the Send */
	uint32_t chunk;          /* write chunk index (RR_HL_WRITE) */
	uint32_t seg;            /* index into hdr->reads (RR_HL_READ) or hdr->wsegs */
	uint64_t value;          /* the item's value (words, handles, lengths, offsets, counts) */
	enum rr_chunk_role role; /* segments and chunks (and their items) */
};
typedef void (*rr_hdr_span_fn)(void *ctx, const struct rr_hdr_span *sp);
/* send_len: bytes of the Send (bounds RR_HS_UNDECODED). */
void rr_hdr_layout(const struct rr_hdr *hdr, enum rr_hdr_status st, size_t send_len,
		   rr_hdr_span_fn fn, void *ctx);

#endif
