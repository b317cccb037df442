// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linkstate.c - the state file of the links the agent made, and adding and
 * deleting links so that the file stays the truth (linkstate.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linkstate.h"
#include "netdev.h"
#include "tool.h"

#define STATE_DEFAULT "/run/rpcrdma-agent/links"
#define ADD_TIMEOUT_MS 30000
/* Long enough for a real delete; a longer wait means someone holds the device. */
#define DELETE_TIMEOUT_MS 10000

/* ---- the state file ---- */

const char *agent_state_path(void)
{
	const char *p = getenv("RPCRDMA_AGENT_STATE");

	return p && *p ? p : STATE_DEFAULT;
}

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

static bool rec_push(struct ls_state *s, const struct ls_rec *r)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct ls_rec *n = realloc(s->recs, cap * sizeof(*n));

		if (!n)
			return false;
		s->recs = n;
		s->cap = cap;
	}
	s->recs[s->n++] = *r;
	return true;
}

void ls_drop(struct ls_state *s, size_t i)
{
	free(s->recs[i].raw);
	memmove(&s->recs[i], &s->recs[i + 1], (s->n - i - 1) * sizeof(s->recs[0]));
	s->n--;
}

static bool parse_rec(const char *line, struct ls_rec *r)
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

static bool state_load(struct ls_state *s, char *err, size_t errlen)
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
		struct ls_rec r;
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

void ls_close(struct ls_state *s)
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

bool ls_open(struct ls_state *s, bool create, char *err, size_t errlen)
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
				ls_close(s);
				return false;
			}
		}
	}
	if (!state_load(s, err, errlen)) {
		ls_close(s);
		return false;
	}
	return true;
}

bool ls_save(struct ls_state *s, char *err, size_t errlen)
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
		const struct ls_rec *r = &s->recs[i];

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

bool ls_owner_dead(long pid)
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

enum ls_del ls_link_delete(const struct ls_rec *r, char *msg, size_t msglen)
{
	char *argv[] = { (char *)agent_rdma_tool(), "link", "delete", (char *)r->name, NULL };
	char out[512], err[512], nd[LS_NAME_LEN];
	int rc;

	msg[0] = '\0';
	if (device_exists(r->name) == 0)
		return LS_DEL_GONE;
	if (agent_netdev_for_device(r->name, nd, sizeof(nd), err, sizeof(err)) &&
	    strcmp(nd, r->netdev) != 0) {
		agent_msgf(msg, msglen, "%s now rides on %s, not on %s as recorded: not the link we made",
			 r->name, nd, r->netdev);
		return LS_DEL_NOT_OURS;
	}
	rc = agent_tool_run(argv, DELETE_TIMEOUT_MS, out, sizeof(out), err, sizeof(err));
	if (rc == 0)
		return LS_DEL_REMOVED;
	if (rc > 0 && device_exists(r->name) == 0)
		return LS_DEL_GONE;
	if (rc == AGENT_TOOL_TIMEOUT)
		agent_msgf(msg, msglen, "`%s link delete %s` is still waiting after %d s: a process still "
			 "has the device open; it completes when that process exits",
			 argv[0], r->name, DELETE_TIMEOUT_MS / 1000);
	else if (rc < 0)
		agent_msgf(msg, msglen, "%s", err);
	else
		agent_msgf(msg, msglen, "`%s link delete %s` failed (exit %d): %s", argv[0], r->name, rc,
			 out[0] ? out : "no message");
	return LS_DEL_FAILED;
}

/* ---- creating links ---- */

/* Test-only: RPCRDMA_AGENT_MODPROBE replaces modprobe(8). */
static const char *modprobe_tool(void)
{
	const char *t = getenv("RPCRDMA_AGENT_MODPROBE");

	return t && *t ? t : "modprobe";
}

static bool valid_link_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len >= LS_NAME_LEN || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	/* '%' would let the kernel pick the number, and we must know the name. */
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static bool recorded(const struct ls_state *s, const char *name)
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

/* The new link's name: name when it is free, else the first free KIND_agentN. */
static bool choose_name(const struct ls_state *s, const char *kind, const char *name,
			char chosen[LS_NAME_LEN], char *err, size_t errlen)
{
	int i;

	if (name) {
		if (recorded(s, name) || device_exists(name) == 1) {
			agent_msgf(err, errlen, "an RDMA device named %s already exists%s; choose another --name",
				 name, recorded(s, name) ? " (made by rpcrdma-agent)" : "");
			return false;
		}
		strcpy(chosen, name);   /* valid_link_name: shorter than LS_NAME_LEN */
		return true;
	}
	for (i = 0; i < 100; i++) {
		agent_msgf(chosen, LS_NAME_LEN, "%s_agent%d", kind, i);
		if (!recorded(s, chosen) && device_exists(chosen) != 1)
			return true;
	}
	agent_msgf(err, errlen, "%s_agent0 to %s_agent99 are all taken; "
		 "`rpcrdma-agent cleanup` removes those it made", kind, kind);
	return false;
}

bool ls_link_create(const char *kind, const char *netdev, const char *name, bool run_scoped,
		    char *ibdev, size_t n, char *err, size_t errlen)
{
	char chosen[LS_NAME_LEN], out[512], why[512], hint[400];
	char *argv[] = { (char *)agent_rdma_tool(), "link", "add", chosen, "type", (char *)kind,
			 "netdev", (char *)netdev, NULL };
	struct ls_rec rec;
	struct ls_state s;
	int rc;

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
			 "at most %d)", name, LS_NAME_LEN - 1);
		return false;
	}
	if (!ls_open(&s, true, why, sizeof(why))) {
		agent_msgf(err, errlen, "cannot record the link in %s, so it would never be removed: %s "
			 "(run as root, or set RPCRDMA_AGENT_STATE)", agent_state_path(), why);
		return false;
	}
	if (!choose_name(&s, kind, name, chosen, err, errlen)) {
		ls_close(&s);
		return false;
	}
	if (strlen(chosen) >= n) {
		agent_msgf(err, errlen, "device name buffer too small for %s", chosen);
		ls_close(&s);
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
		ls_close(&s);
		return false;
	}

	memset(&rec, 0, sizeof(rec));
	strcpy(rec.name, chosen);
	strcpy(rec.kind, kind);
	strcpy(rec.netdev, netdev);
	rec.pid = (long)getpid();
	rec.run = run_scoped;
	if (!rec_push(&s, &rec) || !ls_save(&s, why, sizeof(why))) {
		/* An unrecorded link could never be removed safely: undo it now. */
		char *del[] = { argv[0], "link", "delete", chosen, NULL };
		char derr[256];

		agent_tool_run(del, DELETE_TIMEOUT_MS, out, sizeof(out), derr, sizeof(derr));
		agent_msgf(err, errlen, "created %s but could not record it, so removed it again: %s",
			 chosen, why);
		ls_close(&s);
		return false;
	}
	ls_close(&s);
	strcpy(ibdev, chosen);
	return true;
}
