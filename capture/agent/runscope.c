// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runscope.c - a run's own links: recorded with its pid, removed at exit,
 * by the reaper after a signal, or by a later start (runscope.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "linkstate.h"
#include "runscope.h"
#include "tool.h"

#define REAP_WAIT_MS 60000

extern char **environ;

/* ---- this run's links: atexit and signals ---- */

static volatile sig_atomic_t run_links;      /* run-scoped links of ours still recorded */
static volatile sig_atomic_t reaper_spawned;
static pid_t run_owner;

static void fmt_long(long v, char *buf)     /* async-signal-safe */
{
	char tmp[24];
	int i = 0, j = 0;

	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i < (int)sizeof(tmp));
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = '\0';
}

/*
 * Hands this process's links to a reaper that outlives it (runscope.h).
 * Only async-signal-safe calls: it runs in the signal handler.
 */
static void spawn_reaper(void)
{
	char pid[24];
	char *argv[] = { AGENT_NAME, "cleanup", "--reap", pid, NULL };
	pid_t child;

	if (reaper_spawned)
		return;
	reaper_spawned = 1;
	fmt_long((long)getpid(), pid);
	child = fork();
	if (child == 0) {
		sigset_t none;
		int fd, devnull;

		/* Its own session: the Ctrl-C that stops the agent must not stop it. */
		setsid();
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
		}
		/* Holding the agent's /dev/infiniband files would block the delete forever. */
#ifdef SYS_close_range
		if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
			for (fd = 3; fd < 4096; fd++)
				close(fd);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve("/proc/self/exe", argv, environ);
		_exit(127);
	}
}

static void on_signal(int sig)
{
	static const char msg[] = AGENT_NAME ": interrupted: removing this run's RDMA links\n";

	if (run_owner == getpid() && run_links > 0) {
		if (write(2, msg, sizeof(msg) - 1) < 0) {
			/* nothing to do about it */
		}
		spawn_reaper();
	}
	_exit(128 + sig);
}

void agent_install_signal_cleanup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Whether this process has an RDMA device (uverbs, rdma_cm) open. */
static bool holds_rdma_files(void)
{
	char path[64], target[PATH_MAX];
	struct dirent *de;
	bool held = false;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return false;   /* cannot tell: the delete's timeout bounds the wait */
	while (!held && (de = readdir(d)) != NULL) {
		ssize_t len;

		if (de->d_name[0] == '.')
			continue;
		if (!agent_pathf(path, sizeof(path), "/proc/self/fd/%s", de->d_name))
			continue;
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		held = strncmp(target, "/dev/infiniband/", 16) == 0;
	}
	closedir(d);
	return held;
}

void agent_cleanup_run(void)
{
	char err[512], msg[512];
	bool changed = false;
	struct ls_state s;
	size_t i;

	/* Not in a forked child that calls exit(): those links are the parent's. */
	if (run_owner != getpid() || run_links == 0)
		return;
	if (holds_rdma_files()) {
		spawn_reaper();
		return;
	}
	if (!ls_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": cannot remove this run's RDMA links: %s\n", err);
		return;
	}
	for (i = 0; i < s.n;) {
		struct ls_rec *r = &s.recs[i];

		if (r->raw || !r->run || r->pid != (long)run_owner) {
			i++;
			continue;
		}
		switch (ls_link_delete(r, msg, sizeof(msg))) {
		case LS_DEL_FAILED:
			fprintf(stderr, AGENT_NAME ": cannot remove %s: %s (the next start retries)\n",
				r->name, msg);
			i++;
			continue;
		case LS_DEL_NOT_OURS:
			fprintf(stderr, AGENT_NAME ": forgetting %s: %s\n", r->name, msg);
			break;
		default:
			break;
		}
		ls_drop(&s, i);
		changed = true;
	}
	if (changed && (!s.writable || !ls_save(&s, err, sizeof(err))))
		fprintf(stderr, AGENT_NAME ": cannot update %s: %s\n", agent_state_path(),
			s.writable ? err : "not writable");
	run_links = 0;
	ls_close(&s);
}

static void run_register(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (run_owner != getpid()) {
		run_owner = getpid();
		run_links = 0;
		reaper_spawned = 0;
		atexit(agent_cleanup_run);
	}
	run_links++;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- recovery ---- */

void agent_recover_stale(void)
{
	char err[512], msg[512];
	bool changed = false;
	struct ls_state s;
	size_t i;

	if (!ls_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": cannot check for stale RDMA links: %s\n", err);
		return;
	}
	for (i = 0; i < s.n;) {
		struct ls_rec *r = &s.recs[i];

		if (r->raw || !r->run || !ls_owner_dead(r->pid)) {
			i++;
			continue;
		}
		if (!s.writable) {
			fprintf(stderr, AGENT_NAME ": stale link %s of pid %ld (gone) is left: %s is not "
				"writable (run as root, or `rpcrdma-agent cleanup`)\n",
				r->name, r->pid, agent_state_path());
			i++;
			continue;
		}
		switch (ls_link_delete(r, msg, sizeof(msg))) {
		case LS_DEL_REMOVED:
			fprintf(stderr, AGENT_NAME ": removed stale link %s (%s on %s) of pid %ld, which is gone\n",
				r->name, r->kind, r->netdev, r->pid);
			break;
		case LS_DEL_GONE:
			break;
		case LS_DEL_NOT_OURS:
			fprintf(stderr, AGENT_NAME ": forgetting stale record %s: %s\n", r->name, msg);
			break;
		case LS_DEL_FAILED:
			fprintf(stderr, AGENT_NAME ": cannot remove stale link %s: %s\n", r->name, msg);
			i++;
			continue;
		}
		ls_drop(&s, i);
		changed = true;
	}
	if (changed && !ls_save(&s, err, sizeof(err)))
		fprintf(stderr, AGENT_NAME ": %s\n", err);
	ls_close(&s);
}

/* ---- creating links and reaping them ---- */

bool agent_link_create(const char *kind, const char *netdev, bool run_scoped,
		       char *ibdev, size_t n, char *err, size_t errlen)
{
	if (!ls_link_create(kind, netdev, NULL, run_scoped, ibdev, n, err, errlen))
		return false;
	if (run_scoped)
		run_register();
	return true;
}

int agent_reap(long pid)
{
	struct timespec t0;
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!ls_owner_dead(pid)) {
		if (agent_ms_since(&t0) > REAP_WAIT_MS) {
			fprintf(stderr, AGENT_NAME ": pid %ld did not exit; its RDMA links are left to "
				"the next start or `" AGENT_NAME " cleanup`\n", pid);
			return 1;
		}
		agent_sleep_ms(20);
	}
	agent_recover_stale();
	return 0;
}
