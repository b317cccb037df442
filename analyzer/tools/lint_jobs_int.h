/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint_jobs_int.h - ulb-lint --jobs inside: how a capture is split
 * (lint_shard_plan.c), what a worker thread sends the merging thread
 * (lint_jobs_worker.c), and the merge (lint_jobs.c).
 *
 * The split: frames go to shards by their hosts (rr_frame_hosts), whole
 * groups of hosts that exchanged frames at a time, so no state the engine
 * keeps is cut in two.  Each worker walks the whole file (a classic pcap
 * mapped once and read in place by all), decodes the frames of its shard,
 * and passes the others by, counting them and their time (so joined
 * captures end at the same frames everywhere).
 *
 * The stream: records, each keyed by the frame the worker had read when it
 * made it (twice its number; once the decoder flushes its streams, after
 * that frame, twice its number plus one).  Every worker's keys only grow, so the merger merges them by
 * (key, worker) and prints a finding once no worker can still send one
 * that comes before it.  Connections are numbered in the order they were
 * made, across workers, as one thread numbers them: a worker says when it
 * makes one (REC_CONN), the merger gives it the next number.
 */
#ifndef ULB_LINT_JOBS_INT_H
#define ULB_LINT_JOBS_INT_H

#include <stdatomic.h>
#include <stdint.h>

#include "lint.h"

#define LINT_JOBS_MAX 64

/* The plan of a split (lint_shard_plan.c): which shard decodes a frame. */
struct lint_shard_plan;

/* The capture: its bytes when mapped (a classic pcap, read in place by every worker), else its path. */
struct lint_source {
	const char *path;
	const uint8_t *bytes;
	size_t len;
};

/* A worker's memory of the last frame's hosts (a conversation's frames come in runs). */
struct lint_shard_memo {
	struct rr_hosts_memo hosts_memo;
	struct rr_frame_hosts last;
	unsigned last_shard;
	bool have_last;
};

/*
 * Read the capture once and split its host groups over jobs shards,
 * balancing their frames.  NULL when it cannot be split, with the reason
 * (a sentence without the file's name) in why.
 */
struct lint_shard_plan *lint_shard_plan_new(const struct lint_source *src, unsigned jobs, char *why, size_t whylen);
/*
 * The shard that decodes frame frame_no, whose bytes are pkt: frames
 * without hosts go to shard 0.  By the first pass's record of the frame
 * when it kept one, else by the frame's hosts (m remembers the last ones).
 */
unsigned lint_shard_of(const struct lint_shard_plan *p, struct lint_shard_memo *m, uint64_t frame_no,
		       const uint8_t *pkt, uint32_t caplen);
/* Frames of shard i, and of the capture (the first pass's counts). */
uint64_t lint_shard_frames(const struct lint_shard_plan *p, unsigned i);
uint64_t lint_shard_plan_frames(const struct lint_shard_plan *p);
unsigned lint_shard_plan_groups(const struct lint_shard_plan *p);
void lint_shard_plan_free(struct lint_shard_plan *p);

enum lint_rec_type {
	REC_FINDING = 1,   /* struct lint_rec_finding, its frames (uint64_t each), its text and a NUL */
	REC_CONN,          /* the worker made its next connection (uint32_t: its number there) */
	REC_MARK,          /* nothing: the worker has read up to key */
	REC_END,           /* struct lint_rec_end, then the read error's text and a NUL */
};

struct lint_rec_hdr {
	uint32_t type;
	uint32_t len;      /* bytes after this header */
	uint64_t key;
};

struct lint_rec_finding {
	int32_t id, severity;
	uint64_t frame;
	uint32_t conn_id, has_xid, xid, n_frames;
};

struct lint_rec_end {
	int32_t rc;        /* rr_session_run(): 0 read to the end, 1 a read error part way */
	int32_t pad;
	struct rr_decode_stats decode;
	struct rr_engine_stats engine;
	uint64_t skipped[RR_SKIP__COUNT];
};

/*
 * The worker of shard `shard`, a thread: runs the session and writes its
 * records to fd; returns 0, or 2 when fd broke.  It reads no further once
 * *abandon is set.
 */
int lint_jobs_worker(const struct lint_source *src, const struct rr_session_opts *opts,
		     const struct lint_shard_plan *plan, unsigned shard, int fd, const atomic_bool *abandon);

#endif
