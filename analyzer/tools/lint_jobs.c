// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lint_jobs.c - ulb-lint --jobs N: one capture file checked by N worker
 * threads (lint_jobs_worker.c), each on a shard of its host groups
 * (lint_shard_plan.c), their findings merged here into the order of the
 * frames that made them and printed as one thread prints them.
 *
 * Each worker owns a session of its own and shares nothing with the others
 * but the capture's bytes, read-only, so the engine needs no locks.  A
 * classic pcap file is mapped once and read in place by the first pass and
 * by every worker: one set of page tables, no copy, where workers that each
 * read the file would copy it N times over.  Other files (pcapng) are read
 * by each worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_jobs_int.h"

/*
 * A worker whose records queued here pass its share of this waits (its pipe
 * fills) until the others catch up: the merger's memory stays bounded
 * whatever N is.
 */
#define QUEUE_ALL_BYTES (64u << 20)

struct rec {
	struct lint_rec_hdr h;
	uint8_t body[];
};

struct job {
	pthread_t th;
	bool started;
	int fd;                     /* read end; -1 once its stream ended */
	int wfd;                    /* the worker's write end, closed by it when it ends */
	int status;                 /* lint_jobs_worker()'s return */
	GQueue recs;                /* struct rec *, in key order */
	size_t queued;              /* bytes in recs */
	uint64_t progress;          /* the key of the last record read */
	GByteArray *in;             /* bytes read, not yet a whole record */
	GArray *conn;               /* uint32_t: its connection i+1 is conn[i] here */
	bool ended;                 /* REC_END seen */
	struct lint_rec_end end;
	char *end_err;
	/* what the thread runs */
	const struct lint_source *src;
	const struct rr_session_opts *opts;
	const struct lint_shard_plan *plan;
	unsigned shard;
	const atomic_bool *abandon;
};

struct merge {
	struct job job[LINT_JOBS_MAX];
	unsigned n;
	uint32_t conns;             /* connections numbered so far, all workers */
	const struct lint_jobs_out *out;
	atomic_bool abandon;        /* the merge failed: workers decode no more */
};

static void *job_main(void *arg)
{
	struct job *j = arg;
	sigset_t pipe_sig;

	/* A write to a merger that stopped reading fails with EPIPE, in this thread alone. */
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_sig, NULL);
	j->status = lint_jobs_worker(j->src, j->opts, j->plan, j->shard, j->wfd, j->abandon);
	close(j->wfd);
	return NULL;
}

/* Stop and wait for every worker started; the streams are read no more. */
static void stop_all(struct merge *m)
{
	atomic_store(&m->abandon, true);
	for (unsigned i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];

		if (j->fd >= 0) {
			close(j->fd);           /* a worker blocked writing wakes with EPIPE */
			j->fd = -1;
		}
		if (j->started) {
			pthread_join(j->th, NULL);
			j->started = false;
		}
	}
}

static bool spawn(struct merge *m, const struct lint_source *src, const struct rr_session_opts *opts,
		  const struct lint_shard_plan *plan, char *err, size_t errlen)
{
	unsigned i;
	int rc;

	for (i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];

		j->in = g_byte_array_new();
		j->conn = g_array_new(FALSE, FALSE, sizeof(uint32_t));
		g_queue_init(&j->recs);
	}
	for (i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];
		int fds[2];

		if (pipe2(fds, O_CLOEXEC) != 0) {
			g_snprintf(err, errlen, "cannot make a pipe for worker %u: %s", i + 1, g_strerror(errno));
			stop_all(m);
			return false;
		}
		j->fd = fds[0];
		j->wfd = fds[1];
		j->src = src;
		j->opts = opts;
		j->plan = plan;
		j->shard = i;
		j->abandon = &m->abandon;
		rc = pthread_create(&j->th, NULL, job_main, j);
		if (rc) {
			g_snprintf(err, errlen, "cannot start worker %u: %s", i + 1, g_strerror(rc));
			close(fds[1]);
			stop_all(m);
			return false;
		}
		j->started = true;
	}
	return true;
}

/* Whole records out of what was read; false when the stream is not one a worker writes. */
static bool split_records(struct job *j)
{
	size_t at = 0;

	while (j->in->len - at >= sizeof(struct lint_rec_hdr)) {
		struct lint_rec_hdr h;
		struct rec *r;

		memcpy(&h, j->in->data + at, sizeof(h));
		if (h.len > (64u << 20) || h.key < j->progress)
			return false;
		if (j->in->len - at - sizeof(h) < h.len)
			break;
		r = g_malloc(sizeof(*r) + h.len + 1);
		r->h = h;
		memcpy(r->body, j->in->data + at + sizeof(h), h.len);
		r->body[h.len] = 0;
		at += sizeof(h) + h.len;
		j->progress = h.key;
		if (h.type == REC_MARK) {
			g_free(r);
			continue;
		}
		g_queue_push_tail(&j->recs, r);
		j->queued += sizeof(*r) + h.len;
	}
	g_byte_array_remove_range(j->in, 0, (guint)at);
	return true;
}

/* Read what the workers wrote, from every worker not too far ahead; false on a broken stream. */
static bool read_some(struct merge *m, char *err, size_t errlen)
{
	struct pollfd pfd[LINT_JOBS_MAX];
	unsigned idx[LINT_JOBS_MAX], n = 0, i;
	uint8_t buf[64 << 10];

	for (i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];

		if (j->fd < 0 || (j->queued > QUEUE_ALL_BYTES / m->n && j->recs.length))
			continue;
		pfd[n].fd = j->fd;
		pfd[n].events = POLLIN;
		idx[n++] = i;
	}
	if (!n)
		return true;
	if (poll(pfd, n, -1) < 0)
		return errno == EINTR;
	for (i = 0; i < n; i++) {
		struct job *j = &m->job[idx[i]];
		ssize_t got;

		if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = read(j->fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			close(j->fd);
			j->fd = -1;
			j->progress = UINT64_MAX;
			continue;
		}
		g_byte_array_append(j->in, buf, (guint)got);
		if (!split_records(j)) {
			g_snprintf(err, errlen, "worker %u wrote a record the merge cannot read", idx[i] + 1);
			return false;
		}
	}
	return true;
}

/* The worker whose next record comes first, if no worker can still send one before it; -1 if none yet. */
static int next_job(struct merge *m)
{
	int best = -1;
	uint64_t key = 0;
	unsigned i;

	for (i = 0; i < m->n; i++) {
		const struct rec *r = g_queue_peek_head(&m->job[i].recs);

		if (r && (best < 0 || r->h.key < key)) {
			best = (int)i;
			key = r->h.key;
		}
	}
	if (best < 0)
		return -1;
	for (i = 0; i < m->n; i++) {
		const struct job *j = &m->job[i];

		if ((int)i == best || j->recs.length)
			continue;
		/* j may still send a record keyed `progress` or later: before ours if it sorts first. */
		if (j->progress < key || (j->progress == key && (int)i < best))
			return -1;
	}
	return best;
}

static void deliver(struct merge *m, struct job *j, const struct rec *r)
{
	struct lint_rec_finding f;
	struct rr_diag d = { 0 };
	uint32_t id;

	switch (r->h.type) {
	case REC_CONN:
		if (r->h.len < sizeof(id))
			return;
		id = ++m->conns;
		g_array_append_val(j->conn, id);
		return;
	case REC_END:
		if (r->h.len < sizeof(j->end))
			return;
		memcpy(&j->end, r->body, sizeof(j->end));
		j->end_err = g_strdup((const char *)r->body + sizeof(j->end));
		j->ended = true;
		return;
	case REC_FINDING:
		if (r->h.len < sizeof(f))
			return;
		memcpy(&f, r->body, sizeof(f));
		if ((size_t)f.n_frames * sizeof(uint64_t) > r->h.len - sizeof(f) || f.id < 0 ||
		    f.id >= RR_RULE_COUNT || f.severity < 0 || f.severity > RR_SEV_ERROR)
			return;
		d.id = f.id;
		d.severity = f.severity;
		d.frame = f.frame;
		d.frames = (const uint64_t *)(const void *)(r->body + sizeof(f));
		d.n_frames = f.n_frames;
		d.conn_id = f.conn_id && f.conn_id <= j->conn->len ? g_array_index(j->conn, uint32_t, f.conn_id - 1) : 0;
		d.has_xid = f.has_xid;
		d.xid = f.xid;
		d.text = (const char *)r->body + sizeof(f) + f.n_frames * sizeof(uint64_t);
		m->out->finding(m->out->ctx, &d);
		return;
	}
}

static void sum_end(struct lint_jobs_totals *t, const struct lint_rec_end *e, bool first)
{
	const struct rr_decode_stats *d = &e->decode;
	const struct rr_engine_stats *g = &e->engine;

	uint64_t frames = t->decode.frames, parts = t->decode.parts;

	rr_decode_stats_add(&t->decode, d);
	/* Every worker reads every frame and every part: those counts are the first one's. */
	t->decode.frames = first ? d->frames : frames;
	t->decode.parts = first ? d->parts : parts;
	t->engine.events += g->events;
	t->engine.messages += g->messages;
	t->engine.calls += g->calls;
	t->engine.replies += g->replies;
	t->engine.incomplete += g->incomplete;
	t->engine.rdma_unmatched += g->rdma_unmatched;
	t->engine.not_rpcrdma += g->not_rpcrdma;
	t->engine.dup_packets += g->dup_packets;
	t->engine.connections += g->connections;
	t->engine.conn_ids += g->conn_ids;
	for (int i = 0; i < RR_SKIP__COUNT; i++)
		t->skipped[i] += e->skipped[i];
}

/* Wait for every worker; false with a sentence in err when one did not end well. */
static bool reap(struct merge *m, char *err, size_t errlen)
{
	bool ok = true;

	for (unsigned i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];

		if (j->started) {
			pthread_join(j->th, NULL);
			j->started = false;
		}
		if (ok && (!j->ended || j->status != 0)) {
			g_snprintf(err, errlen, "worker %u of %u ended before it finished", i + 1, m->n);
			ok = false;
		}
	}
	return ok;
}

static void free_jobs(struct merge *m)
{
	for (unsigned i = 0; i < m->n; i++) {
		struct job *j = &m->job[i];

		if (j->fd >= 0)
			close(j->fd);
		g_queue_clear_full(&j->recs, g_free);
		if (j->in)
			g_byte_array_free(j->in, TRUE);
		if (j->conn)
			g_array_free(j->conn, TRUE);
		g_free(j->end_err);
	}
}

/*
 * A mapped file's pages stay mapped until the end, and count in the
 * process's resident memory: past this size, or an eighth of the memory,
 * a file is read by each worker instead, a buffer at a time.
 */
#define MAP_MAX (1ull << 30)

static uint64_t map_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	uint64_t eighth = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 8 : MAP_MAX;

	return MIN(MAP_MAX, eighth);
}

/*
 * A split needs room in the address space for the file mapped and, for each
 * worker, a stack and the heap glibc reserves for each thread (64 MiB,
 * reserved whole); where ulimit -v leaves less than that, workers would run
 * out of memory part way (glib aborts) where one thread does not.  What the
 * process holds already counts too, and a margin for the merge.
 */
#define ARENA_RESERVE (64ull << 20)
#define WORKER_EXTRA (16ull << 20)
#define SPLIT_MARGIN (64ull << 20)

static bool room_for_split(const char *path, unsigned jobs, char *err, size_t errlen)
{
	struct rlimit as, stack;
	struct stat st;
	unsigned long long now = 64ull << 20, need, pages;
	uint64_t stack_each = 8ull << 20;
	FILE *f;

	if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY)
		return true;
	if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY)
		stack_each = stack.rlim_cur;
	f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu", &pages) == 1)
			now = pages * (unsigned long long)sysconf(_SC_PAGESIZE);
		fclose(f);
	}
	need = now + (stat(path, &st) == 0 ? (unsigned long long)st.st_size : 0) +
	       jobs * (ARENA_RESERVE + stack_each + WORKER_EXTRA) + SPLIT_MARGIN;
	if ((unsigned long long)as.rlim_cur >= need)
		return true;
	g_snprintf(err, errlen, "the address space is limited to %llu MiB (ulimit -v), and a split over %u "
		   "threads needs about %llu MiB (the file mapped, a heap and a stack for each worker); one "
		   "thread needs less", (unsigned long long)as.rlim_cur >> 20, jobs, need >> 20);
	return false;
}

/*
 * The file mapped when it is a classic pcap no larger than map_max(): the
 * plan's pass and every worker then read the same pages in place.  Else
 * src keeps the path alone.  False when the process has no room left to
 * map it (its address space is limited: ulimit -v): workers that each read
 * the file, each with a heap of its own, would then run out of memory where
 * one thread does not, so the caller reads it with one.
 */
static bool map_source(struct lint_source *src, const char *path)
{
	struct stat st;
	void *at;
	int fd;

	*src = (struct lint_source){ .path = path };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= map_max()) {
		at = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (at == MAP_FAILED && errno == ENOMEM) {
			close(fd);
			return false;
		}
		if (at != MAP_FAILED) {
			struct rr_capture *probe;
			char err[256];

			probe = rr_capture_open_memory(path, at, (size_t)st.st_size, err, sizeof(err));
			if (probe) {
				rr_capture_close(probe);
				src->bytes = at;
				src->len = (size_t)st.st_size;
				(void)madvise(at, src->len, MADV_SEQUENTIAL);
			} else {
				munmap(at, (size_t)st.st_size);
			}
		}
	}
	close(fd);
	return true;
}

/*
 * Mapping the file's pages costs the first pass most of its time (the
 * kernel's page-table work, about what copying the file would cost).  The
 * pass is all the workers wait for, so another CPU maps the file's later
 * part meanwhile: POPULATE_FROM of the way in, so that the pass finds its
 * pages mapped when it gets there.
 */
#define POPULATE_FROM(len) ((len) / 10)
/*
 * It reads one byte in each TOUCH_STEP: a fault maps the pages around it
 * (the kernel's fault-around, 64 KiB unless changed), which costs a third
 * less than MADV_POPULATE_READ's walk page by page (bench/mix.sh's mix,
 * 175 MB: 9 ms against 14 ms).  Where fault-around is smaller, the pass
 * maps what is left itself.  A file cut short meanwhile raises SIGBUS,
 * caught as the pass's own reads are (guard_mapping()).
 */
#define TOUCH_STEP (64u << 10)

struct populate {
	const struct lint_source *src;
	atomic_bool stop;
};

static void *populate(void *arg)
{
	struct populate *pp = arg;
	const volatile uint8_t *b = pp->src->bytes;
	size_t at = POPULATE_FROM(pp->src->len) & ~(size_t)(TOUCH_STEP - 1);

	/* Checked each step, so that a pass that stops early (a file not to split) does not wait for the rest. */
	for (; at < pp->src->len && !atomic_load_explicit(&pp->stop, memory_order_relaxed); at += TOUCH_STEP)
		(void)b[at];
	return NULL;
}

static struct lint_shard_plan *plan_mapped(const struct lint_source *src, unsigned jobs, char *err, size_t errlen)
{
	struct populate pp = { .src = src };
	struct lint_shard_plan *plan;
	pthread_t helper;
	bool helped;

	helped = src->bytes && pthread_create(&helper, NULL, populate, &pp) == 0;
	plan = lint_shard_plan_new(src, jobs, err, errlen);
	if (helped) {
		atomic_store_explicit(&pp.stop, true, memory_order_relaxed);
		pthread_join(helper, NULL);
	}
	return plan;
}

/*
 * Another program may cut a mapped file short while it is read (a capture
 * restarted on the same path): reading its lost pages then raises SIGBUS.
 * While the file is mapped that is caught: the process says what happened
 * and ends with status 2, as a read error ends a run, instead of dying of
 * the signal (findings still in stdout's buffer are lost).  A SIGBUS
 * elsewhere gets the default action, as before.
 */
static const uint8_t *bus_base;
static size_t bus_len;
static char bus_msg[768];
static size_t bus_msg_len;
static struct sigaction bus_was;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	const uint8_t *at = si->si_addr;

	(void)uc;
	if (bus_base && at >= bus_base && at < bus_base + bus_len) {
		ssize_t w = write(STDERR_FILENO, bus_msg, bus_msg_len);

		(void)w;
		_exit(2);
	}
	sigaction(sig, &bus_was, NULL);     /* the faulting access runs again, under the action it had */
}

static void guard_mapping(const struct lint_source *src)
{
	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };

	int n = g_snprintf(bus_msg, sizeof(bus_msg), "ulb-lint: %s: the file was cut short while --jobs read it "
			   "(another program truncated it?): stopped; findings printed before this line may be "
			   "missing some; check it again\n", src->path);

	bus_msg_len = n > 0 ? MIN((size_t)n, sizeof(bus_msg) - 1) : 0;
	bus_base = src->bytes;
	bus_len = src->len;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &bus_was);
}

static void unguard_mapping(void)
{
	sigaction(SIGBUS, &bus_was, NULL);
	bus_base = NULL;
	bus_len = 0;
}

/*
 * The size of a mapped file once it has been read, which another program may
 * have changed meanwhile: cut short to within its last page (cut further,
 * reading a lost page raised SIGBUS), the bytes past its new end were read
 * as zeros; grown, the bytes after the ones mapped were not checked.  False
 * when it cannot be told (the file is gone).
 */
static bool size_after(const struct lint_source *src, uint64_t *size)
{
	struct stat st;

	if (stat(src->path, &st) != 0)
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

int lint_jobs_run(const char *path, unsigned jobs, const struct rr_session_opts *opts,
		  const struct lint_jobs_out *out, struct lint_jobs_totals *tot, char *err, size_t errlen)
{
	struct merge m = { .n = jobs, .out = out };
	struct lint_source src;
	struct rr_session_opts wopts;
	struct lint_shard_plan *plan;
	uint64_t now;
	bool open;
	int rc = 0;
	unsigned i;

	memset(tot, 0, sizeof(*tot));
	if (jobs < 2 || jobs > LINT_JOBS_MAX) {
		g_snprintf(err, errlen, "--jobs takes 1 to %d", LINT_JOBS_MAX);
		return -1;
	}
	for (i = 0; i < jobs; i++)
		m.job[i].fd = -1;       /* no stream yet: free_jobs() closes none */
	if (!room_for_split(path, jobs, err, errlen))
		return -1;
	if (!map_source(&src, path)) {
		g_snprintf(err, errlen, "there is no room to map it (the address space is limited: ulimit -v?), "
			   "and workers that each read it would need more memory than one thread");
		return -1;
	}
	if (src.bytes)
		guard_mapping(&src);
	plan = plan_mapped(&src, jobs, err, errlen);
	if (!plan) {
		rc = -1;
		goto out;
	}
	/* A worker reads in its own thread: a read-ahead thread each would only take turns with the others. */
	wopts = *opts;
	wopts.decode.no_read_ahead = true;
	tot->groups = lint_shard_plan_groups(plan);
	tot->planned = lint_shard_plan_frames(plan);
	for (i = 0; i < jobs; i++)
		tot->shard_frames[i] = lint_shard_frames(plan, i);
	/* No pipe or thread to be had (ulimit -n, -u, -v): nothing was printed yet, so one thread reads it. */
	if (!spawn(&m, &src, &wopts, plan, err, errlen)) {
		rc = -1;
		goto out;
	}
	do {
		int next;

		while ((next = next_job(&m)) >= 0) {
			struct rec *r = g_queue_pop_head(&m.job[next].recs);

			m.job[next].queued -= sizeof(*r) + r->h.len;
			deliver(&m, &m.job[next], r);
			g_free(r);
		}
		open = false;
		for (i = 0; i < jobs; i++)
			open |= m.job[i].fd >= 0;
		if (open && !read_some(&m, err, errlen)) {
			stop_all(&m);
			rc = 2;
			goto out;
		}
	} while (open);
	if (!reap(&m, err, errlen)) {
		rc = 2;
		goto out;
	}
	for (i = 0; i < jobs; i++) {
		tot->unread = MAX(tot->unread, m.job[i].end.decode.frames > tot->planned ?
				  m.job[i].end.decode.frames - tot->planned : 0);
		sum_end(tot, &m.job[i].end, i == 0);
		if (m.job[i].end.rc && !rc) {
			rc = 1;
			g_strlcpy(err, m.job[i].end_err ? m.job[i].end_err : "", errlen);
		}
	}
	tot->decode.others = 0;
	tot->decode.frames = MIN(tot->decode.frames, tot->planned);
	if (src.bytes && size_after(&src, &now)) {
		if (now < src.len) {
			g_snprintf(err, errlen, "the file was cut short while --jobs read it (another program "
				   "truncated it?), to %" G_GUINT64_FORMAT " of its %zu bytes: what followed was read "
				   "as zeros, and findings printed before this line may be wrong; check it again",
				   now, src.len);
			rc = 2;
			goto out;
		}
		tot->unread_bytes = now - src.len;
	}
	if (src.bytes)
		tot->mapped_bytes = src.len;
out:
	free_jobs(&m);
	lint_shard_plan_free(plan);
	if (src.bytes) {
		unguard_mapping();
		munmap((void *)src.bytes, src.len);
	}
	return rc;
}
