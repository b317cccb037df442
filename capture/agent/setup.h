/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setup.h - setup.c's helpers that netdev.c and the tests share: running
 * an external tool (rdma, modprobe) without a shell, and link creation
 * under a chosen name.  The subcommands use agent.h.
 */
#ifndef AGENT_SETUP_H
#define AGENT_SETUP_H

#include <stdbool.h>
#include <stddef.h>

/* A sentence for the caller, cut to fit (fine for a message). */
void agent_msgf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A path; false when it had to be cut (a cut path would name something else). */
bool agent_pathf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* agent_tool_run() results that are not an exit status. */
#define AGENT_TOOL_FAILED   (-1)   /* fork/pipe failed, or killed by a signal */
#define AGENT_TOOL_MISSING  (-2)   /* execvp: not found or not executable */
#define AGENT_TOOL_TIMEOUT  (-3)   /* still running after timeout_ms; left to finish */

/*
 * Runs argv (argv[0] looked up in PATH, no shell) with stdin on /dev/null
 * and stdout + stderr collected into out (NUL-terminated, truncated to
 * outlen - 1, trailing blanks removed).  Returns the exit status, or one
 * of the AGENT_TOOL_* values above with a sentence in err.
 */
int agent_tool_run(char *const argv[], int timeout_ms, char *out, size_t outlen,
		   char *err, size_t errlen);

/* "rdma", or $RPCRDMA_AGENT_RDMA (a fake that logs its arguments in tests). */
const char *agent_rdma_tool(void);

/*
 * agent_link_create() with a chosen device name (NULL: the first free
 * KIND_agentN).  Does not look at netdev's addresses: the caller decides
 * with agent_netdev_is_test() and its --force.
 */
bool agent_link_create_named(const char *kind, const char *netdev, const char *name,
			     bool run_scoped, char *ibdev, size_t n, char *err, size_t errlen);

/* The state file: $RPCRDMA_AGENT_STATE or /run/rpcrdma-agent/links. */
const char *agent_state_path(void);

#endif
