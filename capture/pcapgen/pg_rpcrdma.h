/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RPC-over-RDMA version 1 (RFC 8166): reduce a Payload stream into chunks
 * and encode the transport header. */
#ifndef PG_RPCRDMA_H
#define PG_RPCRDMA_H

#include "pg_nfs.h"

enum { RDMA_MSG = 0, RDMA_NOMSG = 1, RDMA_MSGP = 2, RDMA_DONE = 3, RDMA_ERROR = 4 };

typedef struct {
	uint32_t handle, length;
	uint64_t offset;
} pg_seg;

typedef struct {
	uint32_t position;  /* read chunks only */
	GArray *segs;       /* pg_seg as the requester advertised them */
	GArray *ret;        /* pg_seg as the responder returns them (write/reply) */
	GByteArray *data;   /* bytes moved by RDMA (reads: incl. pad if requested) */
	uint32_t item_len;  /* the XDR data item's length, without pad */
	int64_t data_off;   /* write chunks: where the item sits in the full Payload, or -1 */
	bool one_mr;        /* all segments in one region (cover=coalesce) */
} pg_chunk;

typedef struct {
	uint32_t xid, vers, credit, proc;
	uint32_t align, thresh;        /* RDMA_MSGP */
	uint32_t err, low, high;       /* RDMA_ERROR */
	GPtrArray *reads;              /* pg_chunk*, not owned */
	GPtrArray *writes;             /* pg_chunk*, not owned */
	pg_chunk *reply;               /* not owned */
	bool returned;                 /* encode ret[] (reply) rather than segs[] (call) */
	uint32_t reply_disc;           /* if non-zero: the reply chunk's optional-data word */
	GByteArray *inline_payload;    /* Payload bytes that follow the header */
	GByteArray *wire;              /* encoded Send: header + inline payload */
	uint32_t hdr_len;
} pg_rdmamsg;

/* Address space of the two peers: R_Keys/STags and virtual addresses. */
typedef struct {
	pg_rng rng;
	uint64_t next_va[2];
} pg_mem;

void pg_mem_init(pg_mem *m, uint64_t seed);
uint32_t pg_mem_key(pg_mem *m, int side);
uint64_t pg_mem_va(pg_mem *m, int side, uint32_t len);

/* Knobs injectors may set before planning (pg_plan_build keeps them). */
typedef struct {
	bool reply_inline_despite_write;
	bool write_pad;
	uint32_t read_trim;         /* first non-zero read chunk carries this many bytes less */
	uint32_t read_extra;        /* ... or this many bytes more (zeros after the item) */
	bool write_pad_seg;         /* first offered Write chunk ends with a 4-byte segment */
	uint32_t extra_write_chunks;/* surplus Write chunks offered (never used) */
	uint32_t fill_short;        /* first segment of the first used multi-segment Write
				     * chunk is filled this many bytes short of its length */
	uint32_t overfill;          /* ... or this many bytes beyond its length */
	bool reply_drop_ddp;        /* eligible results without a Write chunk are removed
				     * from the reply all the same */
	bool reply_read_chunk;      /* the first eligible result without a Write chunk goes
				     * into a read chunk of the reply (Read-Read model) */
	bool offer_unused_reply_chunk; /* the call offers a Reply chunk; a Short reply */
} pg_knobs;

/* What the knobs actually changed (PG_DONE_*). */
enum { PG_DONE_TRIM = 1, PG_DONE_EXTRA = 2, PG_DONE_PADSEG = 4, PG_DONE_EXTRAW = 8,
       PG_DONE_SHORT = 16, PG_DONE_OVER = 32, PG_DONE_DROP = 64, PG_DONE_RREAD = 128,
       PG_DONE_UNUSED_RC = 256 };

/* Everything one RPC exchange moves. Chunks are shared between the call
 * (which advertises them) and the reply (which returns them). */
typedef struct {
	pg_rdmamsg call, reply;
	GPtrArray *read_chunks;  /* owned; PZRC first */
	GPtrArray *write_chunks; /* owned */
	pg_chunk *reply_chunk;   /* owned */
	GPtrArray *extra_chunks; /* owned; chunks no RDMA operation moves */
	pg_knobs knobs;
	unsigned done;           /* PG_DONE_* */
} pg_plan;

typedef struct {
	uint32_t xid, credit_call, credit_reply;
	uint32_t inline_max;
	bool inline_check;
} pg_plan_opts;

bool pg_plan_build(pg_plan *p, const pg_item *it, const pg_rpc_pair *rp, const pg_plan_opts *o,
		   pg_mem *mem, char **err);
void pg_plan_encode(pg_plan *p);
bool pg_plan_check_inline(const pg_plan *p, const pg_item *it, const pg_plan_opts *o, char **err);
void pg_plan_clear(pg_plan *p);
pg_chunk *pg_chunk_new(void);
/* Lay out n segments of the given lengths in one side's memory. */
void pg_chunk_place(pg_chunk *c, pg_mem *mem, int side, const uint32_t *lens, unsigned n);

/* Standalone header-only messages. */
void pg_rdmamsg_simple(pg_rdmamsg *m, uint32_t xid, uint32_t proc, uint32_t credit);
void pg_rdmamsg_encode(pg_rdmamsg *m);
void pg_rdmamsg_clear(pg_rdmamsg *m);
const char *pg_rdma_proc_name(uint32_t proc);

#endif
