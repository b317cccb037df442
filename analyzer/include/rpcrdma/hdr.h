/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hdr.h - the RPC-over-RDMA version 1 transport header (RFC 8166 4.3):
 * decode and encode of all five message types.
 *
 * Wire layout (digest 1.3): xid, vers, credit, proc, then by proc:
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

#endif
