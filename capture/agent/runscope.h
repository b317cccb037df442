/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runscope.h - links an agent run makes for itself (SCOPE run in the state
 * file, linkstate.h) and making sure they go away with it: at exit, on
 * SIGINT/SIGTERM, or, when the run died, at the next start.
 *
 * The kernel does not delete an rxe/siw device while a process still has
 * it open (uverbs has no disassociate for soft devices: `rdma link delete`
 * waits for the last close).  So a run cannot delete its own links while
 * librdmacm holds them, which it does until its destructor, after atexit.
 * When this process has /dev/infiniband open at exit, and always on a
 * signal, the deletion is handed to a reaper: a new session running
 * "/proc/self/exe cleanup --reap PID", which waits for PID to be gone and
 * then removes the dead owner's links like the next start would.  That
 * needs the program to dispatch "cleanup" to agent_cmd_cleanup()
 * (setup.h), as rpcrdma-agent does.
 */
#ifndef AGENT_RUNSCOPE_H
#define AGENT_RUNSCOPE_H

#include <stdbool.h>
#include <stddef.h>

/* Removes the run links of owners that are gone; call first in every subcommand that touches RDMA. */
void agent_recover_stale(void);
/* SIGINT/SIGTERM: hand this run's links to the reaper, then exit 128+sig. */
void agent_install_signal_cleanup(void);
/*
 * Creates an rxe/siw link on netdev (kind "rxe" or "siw"); its name goes
 * into ibdev.  run_scoped: it is this run's, removed when the run ends;
 * otherwise persistent, like `rpcrdma-agent setup`'s.
 */
bool agent_link_create(const char *kind, const char *netdev, bool run_scoped,
		       char *ibdev, size_t n, char *err, size_t errlen);
/* Removes this run's links now (atexit-safe; also registered by agent_link_create). */
void agent_cleanup_run(void);

/*
 * The reaper's part: waits for pid to be gone (a minute at most), then
 * recovers its links.  0 done, 1 pid did not exit (said on stderr).
 */
int agent_reap(long pid);

#endif
