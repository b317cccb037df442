// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tool.c - messages, paths, a clock, and the external tool runner
 * (tool.h).  Tools run without a shell, so a device or netdev name can
 * never become a command; their output comes back as one line for the
 * caller's sentence.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

void agent_msgf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

bool agent_pathf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return len >= 0 && (size_t)len < n;
}

long agent_ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

void agent_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

const char *agent_rdma_tool(void)
{
	const char *t = getenv("RPCRDMA_AGENT_RDMA");

	return t && *t ? t : "rdma";
}

/* Tool output as one line: line breaks and tabs become blanks, trailing blanks go. */
static void one_line(char *s)
{
	size_t len = strlen(s);
	char *p;

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	for (p = s; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
}

/* The child: stdin /dev/null, stdout and stderr into out_w, then argv. */
static void __attribute__((noreturn)) tool_child(char *const argv[], int out_w, int exec_w)
{
	int devnull = open("/dev/null", O_RDONLY), exec_errno;

	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(out_w, 1);
	dup2(out_w, 2);
	execvp(argv[0], argv);
	/* The exec pipe is close-on-exec: data on it means exec failed. */
	exec_errno = errno;
	if (write(exec_w, &exec_errno, sizeof(exec_errno)) < 0)
		_exit(126);
	_exit(127);
}

/*
 * Starts argv; 0 with its pid and the read end of its output in *out_fd,
 * or AGENT_TOOL_FAILED / AGENT_TOOL_MISSING with a sentence in err.
 */
static int tool_spawn(char *const argv[], pid_t *pid, int *out_fd, char *err, size_t errlen)
{
	int outp[2], execp[2], exec_errno = 0, status;
	ssize_t r;

	if (pipe2(outp, O_CLOEXEC) != 0) {
		agent_msgf(err, errlen, "cannot run %s: pipe: %s", argv[0], strerror(errno));
		return AGENT_TOOL_FAILED;
	}
	if (pipe2(execp, O_CLOEXEC) != 0) {
		agent_msgf(err, errlen, "cannot run %s: pipe: %s", argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		return AGENT_TOOL_FAILED;
	}
	*pid = fork();
	if (*pid < 0) {
		agent_msgf(err, errlen, "cannot run %s: fork: %s", argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		close(execp[0]);
		close(execp[1]);
		return AGENT_TOOL_FAILED;
	}
	if (*pid == 0)
		tool_child(argv, outp[1], execp[1]);
	close(outp[1]);
	close(execp[1]);
	while ((r = read(execp[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(execp[0]);
	if (r == (ssize_t)sizeof(exec_errno)) {
		close(outp[0]);
		while (waitpid(*pid, &status, 0) < 0 && errno == EINTR)
			;
		if (strcmp(argv[0], agent_rdma_tool()) == 0)
			agent_msgf(err, errlen,
				 "the rdma tool of iproute2 could not be run (%s: %s): install iproute2, "
				 "or set RPCRDMA_AGENT_RDMA to its path", argv[0], strerror(exec_errno));
		else
			agent_msgf(err, errlen, "cannot run %s: %s", argv[0], strerror(exec_errno));
		return AGENT_TOOL_MISSING;
	}
	*out_fd = outp[0];
	return 0;
}

/* The tool's output until it closes it or the time is up; what fits goes into out. */
static void tool_collect(int fd, const struct timespec *t0, int timeout_ms, char *out, size_t outlen)
{
	size_t used = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = timeout_ms - agent_ms_since(t0);
		char buf[512];
		ssize_t r;
		int pr;

		if (left <= 0)
			break;
		pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			break;
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;          /* EOF: the tool is done (or closed its output) */
		if (outlen > 1 && used < outlen - 1) {
			size_t take = (size_t)r < outlen - 1 - used ? (size_t)r : outlen - 1 - used;

			memcpy(out + used, buf, take);
			used += take;
			out[used] = '\0';
		}
	}
}

/* Reaps the tool: 0 with its wait status, or AGENT_TOOL_FAILED / AGENT_TOOL_TIMEOUT. */
static int tool_wait(pid_t pid, const char *name, const struct timespec *t0, int timeout_ms,
		     int *status, char *err, size_t errlen)
{
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR) {
			agent_msgf(err, errlen, "%s: waitpid: %s", name, strerror(errno));
			return AGENT_TOOL_FAILED;
		}
		if (agent_ms_since(t0) >= timeout_ms) {
			/* Not killed: a delete blocked in the kernel finishes on its own. */
			agent_msgf(err, errlen, "%s still running after %d s", name, timeout_ms / 1000);
			return AGENT_TOOL_TIMEOUT;
		}
		agent_sleep_ms(10);
	}
}

int agent_tool_run(char *const argv[], int timeout_ms, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	struct timespec t0;
	int fd, status, rc;
	pid_t pid;

	if (outlen)
		out[0] = '\0';
	rc = tool_spawn(argv, &pid, &fd, err, errlen);
	if (rc < 0)
		return rc;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tool_collect(fd, &t0, timeout_ms, out, outlen);
	close(fd);
	rc = tool_wait(pid, argv[0], &t0, timeout_ms, &status, err, errlen);
	if (rc < 0)
		return rc;
	if (outlen)
		one_line(out);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	agent_msgf(err, errlen, "%s was killed by signal %d", argv[0], WTERMSIG(status));
	return AGENT_TOOL_FAILED;
}
