// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setup.c - the soft-RDMA links (rxe, siw) the agent creates, and making
 * sure they go away again, and only they.
 *
 * Every link made here is a line "NAME KIND NETDEV OWNERPID SCOPE" in the
 * state file (default /run/rpcrdma-agent/links).  SCOPE "persistent" links
 * come from `rpcrdma-agent setup` and stay until `rpcrdma-agent cleanup`;
 * SCOPE "run" links belong to one agent run and are removed when it exits,
 * on SIGINT/SIGTERM, or by the next start when it died.  A link that is
 * not in the file is never deleted: the file is the only proof that we
 * made it.  Edits happen under flock(STATE.lock) and replace the file
 * atomically (write STATE.tmp.PID, fsync, rename).
 *
 * The kernel does not delete an rxe/siw device while a process still has
 * it open (uverbs has no disassociate for soft devices: `rdma link delete`
 * waits for the last close).  So a run cannot delete its own links while
 * librdmacm holds them, which it does until its destructor, after atexit.
 * When this process has /dev/infiniband open at exit, and always on a
 * signal, the deletion is handed to a reaper: a new session running
 * "/proc/self/exe cleanup --reap PID", which waits for PID to be gone and
 * then removes the dead owner's links like the next start would.  That
 * needs the program to dispatch "cleanup" to agent_cmd_cleanup(), as
 * rpcrdma-agent does.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "netdev.h"
#include "setup.h"

extern char **environ;

/* A sentence for the caller; cut to fit, which is fine for a message. */
void agent_msgf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

/* A path, where a cut one would name something else: false then. */
bool agent_pathf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return len >= 0 && (size_t)len < n;
}

#define STATE_DEFAULT "/run/rpcrdma-agent/links"
#define NAME_LEN 64
#define ADD_TIMEOUT_MS 30000
/* Long enough for a real delete; a longer wait means someone holds the device. */
#define DELETE_TIMEOUT_MS 10000
#define REAP_WAIT_MS 60000

/* ---- running tools ---- */

const char *agent_rdma_tool(void)
{
	const char *t = getenv("RPCRDMA_AGENT_RDMA");

	return t && *t ? t : "rdma";
}

/* Test-only: RPCRDMA_AGENT_MODPROBE replaces modprobe(8). */
static const char *modprobe_tool(void)
{
	const char *t = getenv("RPCRDMA_AGENT_MODPROBE");

	return t && *t ? t : "modprobe";
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Tool output as one line: newlines become "; ", trailing blanks go. */
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

int agent_tool_run(char *const argv[], int timeout_ms, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	int outp[2], execp[2], exec_errno = 0, status;
	size_t used = 0;
	struct timespec t0;
	ssize_t r;
	pid_t pid;

	if (outlen)
		out[0] = '\0';
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
	pid = fork();
	if (pid < 0) {
		agent_msgf(err, errlen, "cannot run %s: fork: %s", argv[0], strerror(errno));
		close(outp[0]);
		close(outp[1]);
		close(execp[0]);
		close(execp[1]);
		return AGENT_TOOL_FAILED;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(outp[1], 1);
		dup2(outp[1], 2);
		execvp(argv[0], argv);
		/* The exec pipe is close-on-exec: data on it means exec failed. */
		exec_errno = errno;
		if (write(execp[1], &exec_errno, sizeof(exec_errno)) < 0)
			_exit(126);
		_exit(127);
	}
	close(outp[1]);
	close(execp[1]);
	while ((r = read(execp[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(execp[0]);
	if (r == (ssize_t)sizeof(exec_errno)) {
		close(outp[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (strcmp(argv[0], agent_rdma_tool()) == 0)
			agent_msgf(err, errlen,
				 "the rdma tool of iproute2 could not be run (%s: %s): install iproute2, "
				 "or set RPCRDMA_AGENT_RDMA to its path", argv[0], strerror(exec_errno));
		else
			agent_msgf(err, errlen, "cannot run %s: %s", argv[0], strerror(exec_errno));
		return AGENT_TOOL_MISSING;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = outp[0], .events = POLLIN };
		long left = timeout_ms - ms_since(&t0);
		char buf[512];
		int pr;

		if (left <= 0)
			break;
		pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			break;
		r = read(outp[0], buf, sizeof(buf));
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
	close(outp[0]);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			agent_msgf(err, errlen, "%s: waitpid: %s", argv[0], strerror(errno));
			return AGENT_TOOL_FAILED;
		}
		if (ms_since(&t0) >= timeout_ms) {
			/* Not killed: a delete blocked in the kernel finishes on its own. */
			agent_msgf(err, errlen, "%s still running after %d s", argv[0], timeout_ms / 1000);
			return AGENT_TOOL_TIMEOUT;
		}
		sleep_ms(10);
	}
	if (outlen)
		one_line(out);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	agent_msgf(err, errlen, "%s was killed by signal %d", argv[0], WTERMSIG(status));
	return AGENT_TOOL_FAILED;
}

/* ---- the state file ---- */

const char *agent_state_path(void)
{
	const char *p = getenv("RPCRDMA_AGENT_STATE");

	return p && *p ? p : STATE_DEFAULT;
}

struct link_rec {
	char name[NAME_LEN], kind[8], netdev[NAME_LEN];
	long pid;
	bool run;           /* SCOPE run; else persistent */
	char *raw;          /* a line we do not understand, kept verbatim */
};

struct state {
	int lock_fd;
	bool writable;
	struct link_rec *recs;
	size_t n, cap;
};

static bool mkdir_parents(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	char *p;

	if (strlen(path) >= sizeof(dir)) {
		agent_msgf(err, errlen, "%s: path too long", path);
		return false;
	}
	strcpy(dir, path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return true;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
				agent_msgf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
				return false;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	return true;
}

static bool rec_push(struct state *s, const struct link_rec *r)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct link_rec *n = realloc(s->recs, cap * sizeof(*n));

		if (!n)
			return false;
		s->recs = n;
		s->cap = cap;
	}
	s->recs[s->n++] = *r;
	return true;
}

static void rec_drop(struct state *s, size_t i)
{
	free(s->recs[i].raw);
	memmove(&s->recs[i], &s->recs[i + 1], (s->n - i - 1) * sizeof(s->recs[0]));
	s->n--;
}

static bool parse_rec(const char *line, struct link_rec *r)
{
	char scope[16], extra[2];

	memset(r, 0, sizeof(*r));
	if (sscanf(line, "%63s %7s %63s %ld %15s %1s", r->name, r->kind, r->netdev, &r->pid, scope,
		   extra) != 5)
		return false;
	if (strcmp(r->kind, "rxe") != 0 && strcmp(r->kind, "siw") != 0)
		return false;
	if (r->pid <= 0)
		return false;
	if (strcmp(scope, "run") == 0)
		r->run = true;
	else if (strcmp(scope, "persistent") != 0)
		return false;
	return true;
}

static bool state_load(struct state *s, char *err, size_t errlen)
{
	FILE *f = fopen(agent_state_path(), "re");
	char line[512];

	if (!f) {
		if (errno == ENOENT)
			return true;
		agent_msgf(err, errlen, "cannot read %s: %s", agent_state_path(), strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		struct link_rec r;
		char *p = line;

		line[strcspn(line, "\n")] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (!parse_rec(p, &r)) {
			memset(&r, 0, sizeof(r));
			r.raw = strdup(line);
			if (!r.raw)
				break;
		}
		if (!rec_push(s, &r)) {
			free(r.raw);
			fclose(f);
			agent_msgf(err, errlen, "out of memory reading %s", agent_state_path());
			return false;
		}
	}
	fclose(f);
	return true;
}

static void state_close(struct state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->recs[i].raw);
	free(s->recs);
	s->recs = NULL;
	s->n = s->cap = 0;
	if (s->lock_fd >= 0)
		close(s->lock_fd);      /* releases the flock */
	s->lock_fd = -1;
}

/*
 * Locks and loads the state.  create: make the folder and the lock (setup
 * needs a record it can write before it makes a link).  Without create,
 * a missing state file is simply empty, and a lock we may not take (not
 * root) gives a read-only view: recovery can then only report.
 */
static bool state_open(struct state *s, bool create, char *err, size_t errlen)
{
	char lock[PATH_MAX];
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->lock_fd = -1;
	if (!agent_pathf(lock, sizeof(lock), "%s.lock", agent_state_path())) {
		agent_msgf(err, errlen, "%s: path too long", agent_state_path());
		return false;
	}
	if (create) {
		if (!mkdir_parents(agent_state_path(), err, errlen))
			return false;
	} else if (stat(agent_state_path(), &st) != 0) {
		return true;
	}
	s->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	s->writable = s->lock_fd >= 0;
	if (s->lock_fd < 0 && create) {
		agent_msgf(err, errlen, "cannot lock %s: %s", lock, strerror(errno));
		return false;
	}
	if (s->lock_fd < 0)
		s->lock_fd = open(lock, O_RDONLY | O_CLOEXEC);
	if (s->lock_fd >= 0) {
		while (flock(s->lock_fd, LOCK_EX) != 0) {
			if (errno != EINTR) {
				agent_msgf(err, errlen, "cannot lock %s: %s", lock, strerror(errno));
				state_close(s);
				return false;
			}
		}
	}
	if (!state_load(s, err, errlen)) {
		state_close(s);
		return false;
	}
	return true;
}

static bool state_save(struct state *s, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	size_t i;
	FILE *f;
	int fd;

	if (!agent_pathf(tmp, sizeof(tmp), "%s.tmp.%ld", agent_state_path(), (long)getpid())) {
		agent_msgf(err, errlen, "%s: path too long", agent_state_path());
		return false;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		agent_msgf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	fprintf(f, "# rpcrdma-agent links: NAME KIND NETDEV OWNERPID SCOPE\n"
		   "# run: removed when its owner exits or dies; persistent: by `rpcrdma-agent cleanup`\n");
	for (i = 0; i < s->n; i++) {
		const struct link_rec *r = &s->recs[i];

		if (r->raw)
			fprintf(f, "%s\n", r->raw);
		else
			fprintf(f, "%s %s %s %ld %s\n", r->name, r->kind, r->netdev, r->pid,
				r->run ? "run" : "persistent");
	}
	if (fflush(f) != 0 || fsync(fd) != 0) {
		agent_msgf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		return false;
	}
	if (fclose(f) != 0 || rename(tmp, agent_state_path()) != 0) {
		agent_msgf(err, errlen, "cannot replace %s: %s", agent_state_path(), strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

/* ---- devices and owners ---- */

/* 1 the RDMA device exists, 0 it does not, -1 sysfs cannot tell. */
static int device_exists(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!agent_pathf(path, sizeof(path), "%s/class/infiniband/%s", agent_sysfs_root(), name))
		return -1;
	if (stat(path, &st) == 0)
		return 1;
	if (!agent_pathf(path, sizeof(path), "%s/class", agent_sysfs_root()))
		return -1;
	return stat(path, &st) == 0 ? 0 : -1;
}

/* Gone, or a zombie (whose files, and so its RDMA devices, are closed). */
static bool owner_dead(long pid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t r;
	int fd;

	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return true;
	agent_msgf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

enum del_result { DEL_REMOVED, DEL_GONE, DEL_NOT_OURS, DEL_FAILED };

/*
 * Deletes a recorded link, unless the device by that name is no longer the
 * one we made (it rides on another netdev: someone else reused the name).
 */
static enum del_result link_delete(const struct link_rec *r, char *msg, size_t msglen)
{
	char *argv[] = { (char *)agent_rdma_tool(), "link", "delete", (char *)r->name, NULL };
	char out[512], err[512], nd[NAME_LEN];
	int rc;

	msg[0] = '\0';
	if (device_exists(r->name) == 0)
		return DEL_GONE;
	if (agent_netdev_for_device(r->name, nd, sizeof(nd), err, sizeof(err)) &&
	    strcmp(nd, r->netdev) != 0) {
		agent_msgf(msg, msglen, "%s now rides on %s, not on %s as recorded: not the link we made",
			 r->name, nd, r->netdev);
		return DEL_NOT_OURS;
	}
	rc = agent_tool_run(argv, DELETE_TIMEOUT_MS, out, sizeof(out), err, sizeof(err));
	if (rc == 0)
		return DEL_REMOVED;
	if (rc > 0 && device_exists(r->name) == 0)
		return DEL_GONE;
	if (rc == AGENT_TOOL_TIMEOUT)
		agent_msgf(msg, msglen, "`%s link delete %s` is still waiting after %d s: a process still "
			 "has the device open; it completes when that process exits",
			 argv[0], r->name, DELETE_TIMEOUT_MS / 1000);
	else if (rc < 0)
		agent_msgf(msg, msglen, "%s", err);
	else
		agent_msgf(msg, msglen, "`%s link delete %s` failed (exit %d): %s", argv[0], r->name, rc,
			 out[0] ? out : "no message");
	return DEL_FAILED;
}

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
 * Hands this process's links to a reaper that outlives it (see the top of
 * the file).  Only async-signal-safe calls: it runs in the signal handler.
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
	struct state s;
	size_t i;

	/* Not in a forked child that calls exit(): those links are the parent's. */
	if (run_owner != getpid() || run_links == 0)
		return;
	if (holds_rdma_files()) {
		spawn_reaper();
		return;
	}
	if (!state_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": cannot remove this run's RDMA links: %s\n", err);
		return;
	}
	for (i = 0; i < s.n;) {
		struct link_rec *r = &s.recs[i];

		if (r->raw || !r->run || r->pid != (long)run_owner) {
			i++;
			continue;
		}
		switch (link_delete(r, msg, sizeof(msg))) {
		case DEL_FAILED:
			fprintf(stderr, AGENT_NAME ": cannot remove %s: %s (the next start retries)\n",
				r->name, msg);
			i++;
			continue;
		case DEL_NOT_OURS:
			fprintf(stderr, AGENT_NAME ": forgetting %s: %s\n", r->name, msg);
			break;
		default:
			break;
		}
		rec_drop(&s, i);
		changed = true;
	}
	if (changed && (!s.writable || !state_save(&s, err, sizeof(err))))
		fprintf(stderr, AGENT_NAME ": cannot update %s: %s\n", agent_state_path(),
			s.writable ? err : "not writable");
	run_links = 0;
	state_close(&s);
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
	struct state s;
	size_t i;

	if (!state_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": cannot check for stale RDMA links: %s\n", err);
		return;
	}
	for (i = 0; i < s.n;) {
		struct link_rec *r = &s.recs[i];

		if (r->raw || !r->run || !owner_dead(r->pid)) {
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
		switch (link_delete(r, msg, sizeof(msg))) {
		case DEL_REMOVED:
			fprintf(stderr, AGENT_NAME ": removed stale link %s (%s on %s) of pid %ld, which is gone\n",
				r->name, r->kind, r->netdev, r->pid);
			break;
		case DEL_GONE:
			break;
		case DEL_NOT_OURS:
			fprintf(stderr, AGENT_NAME ": forgetting stale record %s: %s\n", r->name, msg);
			break;
		case DEL_FAILED:
			fprintf(stderr, AGENT_NAME ": cannot remove stale link %s: %s\n", r->name, msg);
			i++;
			continue;
		}
		rec_drop(&s, i);
		changed = true;
	}
	if (changed && !state_save(&s, err, sizeof(err)))
		fprintf(stderr, AGENT_NAME ": %s\n", err);
	state_close(&s);
}

/* ---- creating links ---- */

static bool valid_link_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len >= NAME_LEN || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	/* '%' would let the kernel pick the number, and we must know the name. */
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static bool recorded(const struct state *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!s->recs[i].raw && strcmp(s->recs[i].name, name) == 0)
			return true;
	return false;
}

/* Loads rdma_rxe / siw when sysfs does not show it; a failure is only a hint. */
static void ensure_module(const char *kind, char *hint, size_t hintlen)
{
	const char *mod = strcmp(kind, "rxe") == 0 ? "rdma_rxe" : "siw";
	char *argv[] = { (char *)modprobe_tool(), (char *)mod, NULL };
	char path[PATH_MAX], out[256], err[256];
	struct stat st;
	int rc;

	hint[0] = '\0';
	if (agent_pathf(path, sizeof(path), "%s/module/%s", agent_sysfs_root(), mod) && stat(path, &st) == 0)
		return;
	rc = agent_tool_run(argv, ADD_TIMEOUT_MS, out, sizeof(out), err, sizeof(err));
	if (rc < 0)
		agent_msgf(hint, hintlen, " (modprobe %s: %s)", mod, err);
	else if (rc > 0)
		agent_msgf(hint, hintlen, " (`%s %s` failed: %s)", argv[0], mod, out[0] ? out : "no message");
}

bool agent_link_create_named(const char *kind, const char *netdev, const char *name,
			     bool run_scoped, char *ibdev, size_t n, char *err, size_t errlen)
{
	char chosen[NAME_LEN], out[512], why[512], hint[400];
	char *argv[] = { (char *)agent_rdma_tool(), "link", "add", chosen, "type", (char *)kind,
			 "netdev", (char *)netdev, NULL };
	struct link_rec rec;
	struct state s;
	int rc, i;

	if (!kind || (strcmp(kind, "rxe") != 0 && strcmp(kind, "siw") != 0)) {
		agent_msgf(err, errlen, "unknown link type \"%s\" (rxe or siw)", kind ? kind : "");
		return false;
	}
	if (!netdev || !valid_link_name(netdev) || strlen(netdev) >= 16) {
		agent_msgf(err, errlen, "\"%s\" is not a netdev name", netdev ? netdev : "");
		return false;
	}
	if (name && !valid_link_name(name)) {
		agent_msgf(err, errlen, "\"%s\" is not a usable RDMA device name (letters, digits, _ - .; "
			 "at most %d)", name, NAME_LEN - 1);
		return false;
	}
	if (!state_open(&s, true, why, sizeof(why))) {
		agent_msgf(err, errlen, "cannot record the link in %s, so it would never be removed: %s "
			 "(run as root, or set RPCRDMA_AGENT_STATE)", agent_state_path(), why);
		return false;
	}
	if (name) {
		if (recorded(&s, name) || device_exists(name) == 1) {
			agent_msgf(err, errlen, "an RDMA device named %s already exists%s; choose another --name",
				 name, recorded(&s, name) ? " (made by rpcrdma-agent)" : "");
			state_close(&s);
			return false;
		}
		strcpy(chosen, name);   /* valid_link_name: shorter than NAME_LEN */
	} else {
		for (i = 0; i < 100; i++) {
			agent_msgf(chosen, sizeof(chosen), "%s_agent%d", kind, i);
			if (!recorded(&s, chosen) && device_exists(chosen) != 1)
				break;
		}
		if (i == 100) {
			agent_msgf(err, errlen, "%s_agent0 to %s_agent99 are all taken; "
				 "`rpcrdma-agent cleanup` removes those it made", kind, kind);
			state_close(&s);
			return false;
		}
	}
	if (strlen(chosen) >= n) {
		agent_msgf(err, errlen, "device name buffer too small for %s", chosen);
		state_close(&s);
		return false;
	}

	ensure_module(kind, hint, sizeof(hint));
	rc = agent_tool_run(argv, ADD_TIMEOUT_MS, out, sizeof(out), why, sizeof(why));
	if (rc != 0) {
		if (rc < 0)
			agent_msgf(err, errlen, "%s", why);
		else
			agent_msgf(err, errlen, "`%s link add %s type %s netdev %s` failed (exit %d): %s%s",
				 argv[0], chosen, kind, netdev, rc, out[0] ? out : "no message", hint);
		state_close(&s);
		return false;
	}

	memset(&rec, 0, sizeof(rec));
	strcpy(rec.name, chosen);
	strcpy(rec.kind, kind);
	strcpy(rec.netdev, netdev);
	rec.pid = (long)getpid();
	rec.run = run_scoped;
	if (!rec_push(&s, &rec) || !state_save(&s, why, sizeof(why))) {
		/* An unrecorded link could never be removed safely: undo it now. */
		char *del[] = { argv[0], "link", "delete", chosen, NULL };
		char derr[256];

		agent_tool_run(del, DELETE_TIMEOUT_MS, out, sizeof(out), derr, sizeof(derr));
		agent_msgf(err, errlen, "created %s but could not record it, so removed it again: %s",
			 chosen, why);
		state_close(&s);
		return false;
	}
	state_close(&s);
	if (run_scoped)
		run_register();
	strcpy(ibdev, chosen);
	return true;
}

bool agent_link_create(const char *kind, const char *netdev, bool run_scoped,
		       char *ibdev, size_t n, char *err, size_t errlen)
{
	return agent_link_create_named(kind, netdev, NULL, run_scoped, ibdev, n, err, errlen);
}

/* ---- the subcommands ---- */

/*
 * "--opt VALUE" or "--opt=VALUE" at argv[*i]: 1 (and *val), 0 not this
 * option, -1 the value is missing.
 */
static int opt_value(int argc, char **argv, int *i, const char *opt, const char **val)
{
	size_t len = strlen(opt);

	if (strncmp(argv[*i], opt, len) != 0)
		return 0;
	if (argv[*i][len] == '=') {
		*val = argv[*i] + len + 1;
		return **val ? 1 : -1;
	}
	if (argv[*i][len] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

static void setup_usage(FILE *f)
{
	fprintf(f, "usage: " AGENT_NAME " setup --rxe NETDEV | --siw NETDEV [--name IBDEV] [--force]\n"
		   "Creates a soft-RDMA link on NETDEV with `rdma link add`, records it in %s\n"
		   "and prints its name; `" AGENT_NAME " cleanup` removes it.  NETDEV must carry only test\n"
		   "addresses (RFC 1918/5737/2544, loopback, link-local, ULA) unless --force.\n",
		agent_state_path());
}

int agent_cmd_setup(int argc, char **argv)
{
	const char *kind = NULL, *netdev = NULL, *name = NULL, *v;
	char ibdev[NAME_LEN], err[1024];
	bool force = false;
	int i, m;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			setup_usage(stdout);
			return 0;
		}
		if (strcmp(a, "--force") == 0) {
			force = true;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--rxe", &v)) != 0 ||
		    (m = opt_value(argc, argv, &i, "--siw", &v)) != 0) {
			const char *k = strncmp(a, "--rxe", 5) == 0 ? "rxe" : "siw";

			if (m < 0) {
				fprintf(stderr, AGENT_NAME " setup: --%s needs a NETDEV\n", k);
				return 2;
			}
			if (kind) {
				fprintf(stderr, AGENT_NAME " setup: give one of --rxe and --siw, once\n");
				return 2;
			}
			kind = k;
			netdev = v;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--name", &v)) != 0) {
			if (m < 0) {
				fprintf(stderr, AGENT_NAME " setup: --name needs an RDMA device name\n");
				return 2;
			}
			name = v;
			continue;
		}
		fprintf(stderr, AGENT_NAME " setup: %s \"%s\"\n",
			a[0] == '-' ? "unknown option" : "unexpected argument", a);
		setup_usage(stderr);
		return 2;
	}
	if (!kind) {
		fprintf(stderr, AGENT_NAME " setup: say which link to make: --rxe NETDEV or --siw NETDEV\n");
		setup_usage(stderr);
		return 2;
	}

	agent_recover_stale();
	if (!force && !agent_netdev_is_test(netdev, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " setup: refusing: %s\n", err);
		return 1;
	}
	if (!agent_link_create_named(kind, netdev, name, false, ibdev, sizeof(ibdev), err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " setup: %s\n", err);
		return 1;
	}
	printf("%s\n", ibdev);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* The reaper: wait for the owner to be gone, then recover its links. */
static int reap(const char *pidtext)
{
	struct timespec t0;
	sigset_t none;
	char *end;
	long pid = strtol(pidtext, &end, 10);

	if (*end || pid <= 0) {
		fprintf(stderr, AGENT_NAME " cleanup: --reap needs a pid\n");
		return 2;
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!owner_dead(pid)) {
		if (ms_since(&t0) > REAP_WAIT_MS) {
			fprintf(stderr, AGENT_NAME ": pid %ld did not exit; its RDMA links are left to "
				"the next start or `" AGENT_NAME " cleanup`\n", pid);
			return 1;
		}
		sleep_ms(20);
	}
	agent_recover_stale();
	return 0;
}

static void cleanup_usage(FILE *f)
{
	fprintf(f, "usage: " AGENT_NAME " cleanup [--all]\n"
		   "Removes the RDMA links recorded in %s: those of `setup`, and those of\n"
		   "agent runs that are gone.  --all also removes the links of running agents.\n"
		   "Links not recorded there are never touched.\n",
		agent_state_path());
}

int agent_cmd_cleanup(int argc, char **argv)
{
	bool all = false, recover = false;
	char err[512], msg[512];
	const char *reap_pid = NULL;
	int i, m, status = 0;
	size_t k, seen = 0;
	struct state s;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			cleanup_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--all") == 0) {
			all = true;
			continue;
		}
		/* Hidden: what every start does (tests), and the reaper (spawn_reaper). */
		if (strcmp(argv[i], "--recover") == 0) {
			recover = true;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--reap", &reap_pid)) != 0) {
			if (m < 0) {
				fprintf(stderr, AGENT_NAME " cleanup: --reap needs a pid\n");
				return 2;
			}
			continue;
		}
		fprintf(stderr, AGENT_NAME " cleanup: %s \"%s\"\n",
			argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
		cleanup_usage(stderr);
		return 2;
	}
	if (reap_pid)
		return reap(reap_pid);
	if (recover) {
		agent_recover_stale();
		return 0;
	}

	if (!state_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " cleanup: %s\n", err);
		return 1;
	}
	if (!s.writable && s.n) {
		fprintf(stderr, AGENT_NAME " cleanup: cannot lock %s.lock (run as root)\n", agent_state_path());
		state_close(&s);
		return 1;
	}
	for (k = 0; k < s.n;) {
		struct link_rec *r = &s.recs[k];

		if (r->raw) {
			fprintf(stderr, AGENT_NAME " cleanup: %s: line not understood, kept: %s\n",
				agent_state_path(), r->raw);
			k++;
			continue;
		}
		seen++;
		if (r->run && !all && !owner_dead(r->pid)) {
			printf("%s: in use by the running agent pid %ld, left (--all removes it)\n",
			       r->name, r->pid);
			k++;
			continue;
		}
		switch (link_delete(r, msg, sizeof(msg))) {
		case DEL_REMOVED:
			printf("removed %s (%s on %s)\n", r->name, r->kind, r->netdev);
			break;
		case DEL_GONE:
			printf("%s: already gone\n", r->name);
			break;
		case DEL_NOT_OURS:
			printf("%s: left alone, forgotten: %s\n", r->name, msg);
			break;
		case DEL_FAILED:
			fprintf(stderr, AGENT_NAME " cleanup: cannot remove %s: %s\n", r->name, msg);
			status = 1;
			k++;
			continue;
		}
		rec_drop(&s, k);
	}
	if (seen == 0)
		printf("no RDMA links recorded in %s\n", agent_state_path());
	else if (!state_save(&s, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " cleanup: %s\n", err);
		status = 1;
	}
	state_close(&s);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
