/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linkstate.h - the soft-RDMA links (rxe, siw) the agent made, as recorded
 * in its state file, and the two acts that keep that record true: adding
 * a link (recorded before anyone can use it) and deleting a recorded one.
 *
 * Every link is a line "NAME KIND NETDEV OWNERPID SCOPE" in the state file
 * ($RPCRDMA_AGENT_STATE, default /run/rpcrdma-agent/links).  SCOPE
 * "persistent" links come from `rpcrdma-agent setup` and stay until
 * `rpcrdma-agent cleanup`; SCOPE "run" links belong to one agent run
 * (runscope.h).  A link that is not in the file is never deleted: the file
 * is the only proof that the agent made it.  Edits happen under
 * flock(STATE.lock) and replace the file atomically (write STATE.tmp.PID,
 * fsync, rename).
 */
#ifndef AGENT_LINKSTATE_H
#define AGENT_LINKSTATE_H

#include <stdbool.h>
#include <stddef.h>

/* Room for an RDMA device or netdev name, with its NUL. */
#define LS_NAME_LEN 64

/* The state file: $RPCRDMA_AGENT_STATE or /run/rpcrdma-agent/links. */
const char *agent_state_path(void);

struct ls_rec {
	char name[LS_NAME_LEN], kind[8], netdev[LS_NAME_LEN];
	long pid;
	bool run;           /* SCOPE run; else persistent */
	char *raw;          /* a line not understood, kept verbatim (the other fields are empty) */
};

/* The state file, locked and loaded. */
struct ls_state {
	int lock_fd;
	bool writable;      /* the lock was taken for writing: ls_save() may replace the file */
	struct ls_rec *recs;
	size_t n, cap;
};

/*
 * Locks and loads the state.  create: make the folder and the lock (setup
 * needs a record it can write before it makes a link).  Without create,
 * a missing state file is simply empty, and a lock that may not be taken
 * (not root) gives a read-only view: recovery can then only report.
 */
bool ls_open(struct ls_state *s, bool create, char *err, size_t errlen);
/* Replaces the file with the records in s (they stay loaded and locked). */
bool ls_save(struct ls_state *s, char *err, size_t errlen);
/* Frees the records and releases the lock. */
void ls_close(struct ls_state *s);
/* Forgets record i (the file changes at the next ls_save()). */
void ls_drop(struct ls_state *s, size_t i);

/* Whether pid is gone, or a zombie (whose files, and so its RDMA devices, are closed). */
bool ls_owner_dead(long pid);

enum ls_del { LS_DEL_REMOVED, LS_DEL_GONE, LS_DEL_NOT_OURS, LS_DEL_FAILED };
/*
 * Deletes a recorded link, unless the device by that name is no longer the
 * one the agent made (it rides on another netdev: someone reused the
 * name).  msg: why, for LS_DEL_NOT_OURS and LS_DEL_FAILED.
 */
enum ls_del ls_link_delete(const struct ls_rec *r, char *msg, size_t msglen);

/*
 * Creates an rxe/siw link (kind "rxe" or "siw") on netdev and records it,
 * SCOPE run when run_scoped, owned by this process.  name NULL: the first
 * free KIND_agentN.  The device name goes into ibdev (n bytes).  Does not
 * look at netdev's addresses: the caller decides with
 * agent_netdev_is_test() and its --force.
 */
bool ls_link_create(const char *kind, const char *netdev, const char *name, bool run_scoped,
		    char *ibdev, size_t n, char *err, size_t errlen);

#endif
