/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve_args.h - the arguments serve acts on, from a whole call (its
 * chunks put back in place), for serve's subset of NFS: per NFSv3
 * procedure or NFSv4 op, the file handle it names, READ/WRITE offsets,
 * WRITE's data, the name LOOKUP, SYMLINK or CREATE gives and SEQUENCE's
 * session id and sequence id.  The engine reads them
 * (rr_ulp_walk_call_args, rpcrdma/ulp.h); this is serve's view of them.
 */
#ifndef AGENT_SERVE_ARGS_H
#define AGENT_SERVE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SA_MAX_OPS 32u

struct sa_op {
	uint32_t op;                /* NFSv3 procedure or NFSv4 op */
	const uint8_t *fh;          /* NFSv3: the handle argument; PUTFH: its handle */
	uint32_t fhlen;
	uint64_t offset;            /* READ, WRITE */
	const uint8_t *data;        /* WRITE: its data; LOOKUP, SYMLINK, CREATE: the name;
				     * SEQUENCE: the session id */
	uint32_t len;
	uint32_t target_len;        /* SYMLINK's path, CREATE(NF4LNK)'s linkdata: its length */
	uint32_t seqid;             /* SEQUENCE: sa_sequenceid */
};

struct sa_call {
	unsigned n;
	struct sa_op op[SA_MAX_OPS];
	bool complete;              /* every op was read (false: one outside the subset, or bad XDR) */
};

/* args: the call's arguments (after the RPC header); vers 3, or 4 for COMPOUND (proc 1). */
void sa_decode(const uint8_t *args, size_t len, uint32_t vers, uint32_t proc, struct sa_call *out);

#endif
