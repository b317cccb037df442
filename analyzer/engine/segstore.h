/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segstore.h - the segment store (segstore.c): segments advertised by
 * calls, the RDMA bytes placed in them, and what an RDMA range hits.
 *
 * Owns, per flow (rr_flow.segs, opaque elsewhere): the live segments of the
 * memory of that flow's sender, by handle.  Per segment: its bytes,
 * coverage, frames and what Read Requests asked of it, behind the public
 * part below.  Per engine (rr_engine.segstore): the calls whose read
 * segments grew during the current event, for engine.c to take.
 */
#ifndef RPCRDMA_SEGSTORE_H
#define RPCRDMA_SEGSTORE_H

#include "engine_int.h"

enum rr_seg_role {
	RR_SEG_READ = 0,
	RR_SEG_WRITE,
	RR_SEG_REPLY,
};

/*
 * A segment as its call advertised it: set by rr_seg_add() and never
 * changed.  The store keeps the rest behind it (read with the functions
 * below).
 */
struct rr_seg {
	struct rr_call *call;     /* the call that advertised it (opaque to the store) */
	uint32_t xid;             /* that call's XID */
	enum rr_seg_role role;
	uint32_t chunk;           /* write chunk index; read: index into hdr reads */
	uint32_t index;           /* segment index inside its chunk */
	struct rr_segment s;
};

/* What an RDMA operation's range hit among the live segments of a flow. */
struct rr_seg_hit {
	bool handle_live;         /* some live segment has the handle */
	bool inside;              /* the whole range lies in one segment */
	const struct rr_seg *seg; /* that segment, or the nearest with the handle */
};

/* The chunk a segment of this role belongs to, as reporters name it (hdr.h). */
enum rr_chunk_role rr_seg_chunk_role(enum rr_seg_role r);

struct rr_segstore *rr_segstore_new(void);
void rr_segstore_free(struct rr_segstore *st);
/* The flow is forgotten: free its table (its segments went with their calls). */
void rr_segstore_flow_free(struct rr_flow *f);

/*
 * A segment like what goes live in the memory of owner's sender (owner: the
 * flow its call was sent on); it stays until rr_seg_remove.
 */
struct rr_seg *rr_seg_add(struct rr_engine *eng, struct rr_flow *owner, const struct rr_seg *what);
void rr_seg_remove(struct rr_engine *eng, struct rr_seg *seg);
/*
 * Place bytes written to or read from the memory of owner's sender.
 * Returns bytes that landed.  A call whose read segment got bytes is
 * queued for rr_segstore_take_ready().
 */
uint64_t rr_seg_place(struct rr_engine *eng, struct rr_flow *owner, uint32_t rkey, uint64_t va,
		      const struct rr_event *ev);
/* A pairing predicate (rr_conn_pair_by_evidence): f's sender advertised the handle. */
bool rr_flow_has_rkey(struct rr_flow *f, void *rkey_ptr);
/* Which live segment of owner's memory [va, va+len) with rkey falls in; counts read requests. */
void rr_seg_lookup(struct rr_flow *owner, uint32_t rkey, uint64_t va, uint64_t len, bool is_read_req,
		   struct rr_seg_hit *hit);

/* Calls whose read segments got bytes, newest first, each once; NULL when none is left. */
struct rr_call *rr_segstore_take_ready(struct rr_engine *eng);
/* The call goes away: take it off that queue. */
void rr_segstore_unready(struct rr_engine *eng, struct rr_call *call);

/* Bytes placed in the segment (its coverage, merged). */
uint64_t rr_seg_covered(const struct rr_seg *seg);
bool rr_seg_complete(const struct rr_seg *seg);
/* Read segments: bytes RDMA Read Requests asked for. */
uint64_t rr_seg_requested(const struct rr_seg *seg);
/* Bytes aimed at it were cut by the snaplen. */
bool rr_seg_cut(const struct rr_seg *seg);
/* The frames that placed bytes in it, sorted; valid until the next placement. */
struct rr_seg_frames rr_seg_frames_of(const struct rr_seg *seg);
/* Copy n bytes of segment data from offset off into dst; missing bytes are zero. Returns false if any was missing. */
bool rr_seg_read(const struct rr_seg *seg, uint64_t off, uint8_t *dst, uint64_t n);

#endif
