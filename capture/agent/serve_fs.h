/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve_fs.h - serve's in-memory file system: what a call asks (the
 * engine's ULP walk and serve_args.h) turned into the description the
 * generator's NFS encoders answer from, and the answer itself.
 *
 * Every regular file is 1 MiB of synthetic data (more when WRITE went
 * past that), made by the generator's data generator for each reply;
 * what WRITE stored (serve_store.h, SS_DEFAULT_LIMIT bytes in all, NOSPC
 * past it) is laid over it, so a READ after a WRITE returns what was
 * written.  READ past the end returns nothing, with eof; at 1 TiB or
 * beyond it fails with INVAL.  Directories have 120 entries (as many as
 * the count allows).  READLINK returns the length of the last
 * SYMLINK/CREATE target.
 *
 * LOOKUP (NFSv3 and NFSv4): every name exists, except those that begin
 * with "missing" (NOENT); a name's handle is derived from the directory's
 * handle and the name, so the same name in the same directory always has
 * the same handle, in both versions.  NFSv4 CREATE gives its new object
 * that handle, GETFH returns the current handle (the one at the last
 * GETFH when a COMPOUND has several), SEQUENCE echoes the call's session
 * and sequence ids.
 */
#ifndef AGENT_SERVE_FS_H
#define AGENT_SERVE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "pg_nfs.h"
#include "serve_store.h"

#define SF_FILE_SIZE (1u << 20)           /* every regular file, before WRITE */
#define SF_MAX_READ (1u << 20)
#define SF_DIR_ENTRIES 120u
#define SF_MAX_OFFSET (1ull << 40)        /* READ at or past it fails (INVAL) */
#define SF_MISSING "missing"              /* LOOKUP of a name beginning so: NOENT */

struct sf_fs {
	pg_nfs_state nfs;
	struct ss_store *store;
	uint32_t symlink_len;
	uint64_t idx;                     /* replies built: each one's data generator */
};

void sf_init(struct sf_fs *fs, uint64_t store_limit);
void sf_free(struct sf_fs *fs);

/* The handle of name in directory dir (fh: SS_MAX_FH bytes); false: no such name. */
bool sf_lookup(const uint8_t *dir, uint32_t dirlen, const uint8_t *name, uint32_t namelen,
	       uint8_t *fh, uint32_t *fhlen);

/*
 * The reply to one call: msg is the whole RPC call (chunks in place), rc
 * and u what the engine read in it.  false: outside the subset (the caller
 * answers PROC_UNAVAIL); else *rp is built (pg_rpc_pair_clear it).
 */
bool sf_answer(struct sf_fs *fs, const uint8_t *msg, size_t len, const struct rr_rpc_call *rc,
	       const struct rr_ulp_info *u, pg_rpc_pair *rp);

/*
 * The same in two steps, for a caller that shows the described call to
 * others before the reply is built (serve's injections select by the
 * procedure and run the generator's plan hooks on the item): NULL when
 * the call is outside the subset; the item lives until sf_reply_free.
 */
struct sf_reply;
struct sf_reply *sf_describe(struct sf_fs *fs, const uint8_t *msg, size_t len,
			     const struct rr_rpc_call *rc, const struct rr_ulp_info *u);
pg_item *sf_item(struct sf_reply *r);
void sf_build(struct sf_reply *r, pg_rpc_pair *rp);
void sf_reply_free(struct sf_reply *r);

#endif
