/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tool.h - what the link and netdev code share at the bottom: sentences
 * and paths into caller buffers, a monotonic clock, and running an
 * external tool (rdma, modprobe) without a shell.
 */
#ifndef AGENT_TOOL_H
#define AGENT_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A sentence for the caller, cut to fit (fine for a message). */
void agent_msgf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A path; false when it had to be cut (a cut path would name something else). */
bool agent_pathf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Milliseconds of CLOCK_MONOTONIC since *t0 (taken with clock_gettime). */
long agent_ms_since(const struct timespec *t0);
/* Sleeps ms milliseconds, signals notwithstanding. */
void agent_sleep_ms(long ms);

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

#endif
