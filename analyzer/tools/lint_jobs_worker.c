// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lint_jobs_worker.c - one worker thread of ulb-lint --jobs: the whole
 * session on the frames of its shard, its findings and connections written
 * to the merging thread as records (lint_jobs_int.h), never to stdout.
 */
#include <errno.h>
#include <glib.h>
#include <string.h>
#include <unistd.h>

#include "lint_jobs_int.h"

/* A mark at least this often (frames read), so the merger can print what came before. */
#define MARK_EVERY 8192u
#define OUT_BUF (256u << 10)

struct worker {
	struct rr_session *s;
	const struct lint_shard_plan *plan;
	struct lint_shard_memo memo;
	unsigned shard;
	int fd;
	bool broken;                /* fd broke: the merger reads no more */
	const atomic_bool *abandon;
	uint64_t now, marked;       /* the frame last read; the frame of the last mark */
	uint64_t key;               /* 2 x now while a frame is decoded, 2 x now + 1 once the decoder flushes */
	uint64_t conns;             /* connections announced */
	uint64_t planned;           /* frames the first pass read */
	uint8_t *buf;
	size_t len;
};

static void flush_out(struct worker *w)
{
	size_t at = 0;

	while (at < w->len && !w->broken) {
		ssize_t n = write(w->fd, w->buf + at, w->len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->broken = true;       /* the merger reads no more: nothing is left to do */
		else
			at += (size_t)n;
	}
	w->len = 0;
}

static void put(struct worker *w, const void *p, size_t n)
{
	if (w->len + n > OUT_BUF)
		flush_out(w);
	if (n > OUT_BUF) {          /* cannot happen: a record is a finding, at most a few KiB */
		w->broken = true;
		return;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void rec(struct worker *w, enum lint_rec_type type, const void *body, size_t n, const void *tail,
		size_t tail_n)
{
	struct lint_rec_hdr h = { .type = type, .len = (uint32_t)(n + tail_n), .key = w->key };

	put(w, &h, sizeof(h));
	if (n)
		put(w, body, n);
	if (tail_n)
		put(w, tail, tail_n);
}

/* Connections the engine made since the last look, announced before anything that names them. */
static void announce_conns(struct worker *w)
{
	uint64_t made = rr_session_engine_stats(w->s)->conn_ids;

	while (w->conns < made) {
		uint32_t id = (uint32_t)++w->conns;

		rec(w, REC_CONN, &id, sizeof(id), NULL, 0);
	}
}

static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct worker *w = ctx;
	struct lint_rec_finding f = { .id = d->id, .severity = d->severity, .frame = d->frame,
				      .conn_id = d->conn_id, .has_xid = d->has_xid, .xid = d->xid,
				      .n_frames = (uint32_t)d->n_frames };
	const char *text = d->text ? d->text : "";
	size_t tn = strlen(text) + 1, fn = d->n_frames * sizeof(uint64_t);
	struct lint_rec_hdr h = { .type = REC_FINDING, .len = (uint32_t)(sizeof(f) + fn + tn), .key = w->key };

	announce_conns(w);
	put(w, &h, sizeof(h));
	put(w, &f, sizeof(f));
	if (fn)
		put(w, d->frames, fn);
	put(w, text, tn);
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	(void)ev;
	announce_conns(ctx);
}

/* Every frame read passes here first: the key moves on, and only this shard's frames are decoded. */
static enum rr_take take(void *ctx, uint64_t frame_no, const uint8_t *pkt, uint32_t caplen)
{
	struct worker *w = ctx;

	w->now = frame_no;
	w->key = 2 * frame_no;
	if (w->now - w->marked >= MARK_EVERY) {
		w->marked = w->now;
		rec(w, REC_MARK, NULL, 0, NULL, 0);
		flush_out(w);
	}
	if (w->broken || atomic_load_explicit(w->abandon, memory_order_relaxed))
		return RR_TAKE_STOP;        /* nobody reads what this worker finds */
	/* Frames the first pass did not see (the file grew since) are nobody's: the merger says so. */
	if (frame_no > w->planned)
		return RR_TAKE_PASS;
	return lint_shard_of(w->plan, &w->memo, frame_no, pkt, caplen) == w->shard ? RR_TAKE_DECODE : RR_TAKE_PASS;
}

/*
 * The decoder flushes its streams (a joined capture's next part begins, or
 * the capture ends): connections and findings made now come after the
 * frame last read, as they do in one thread, whatever worker reads it.
 */
static void flushing(void *ctx)
{
	struct worker *w = ctx;

	w->key = 2 * w->now + 1;
}

int lint_jobs_worker(const struct lint_source *src, const struct rr_session_opts *opts,
		     const struct lint_shard_plan *plan, unsigned shard, int fd, const atomic_bool *abandon)
{
	struct rr_session_opts o = *opts;
	struct worker w = { .plan = plan, .shard = shard, .fd = fd, .abandon = abandon,
			    .planned = lint_shard_plan_frames(plan) };
	bool opened;
	struct rr_session_sinks sinks = { .ctx = &w, .finding = on_finding, .event = on_event };
	struct lint_rec_end end = { 0 };
	char err[512] = "";
	int i;

	w.buf = g_malloc(OUT_BUF);
	o.decode.take = take;
	o.decode.flushing = flushing;
	o.decode.take_ctx = &w;
	o.decode.joins_told_elsewhere = shard != 0;
	w.s = rr_session_new(&o, &sinks);
	opened = src->bytes ? rr_session_open_memory(w.s, src->path, src->bytes, src->len, err, sizeof(err)) :
			      rr_session_open_file(w.s, src->path, err, sizeof(err));
	if (!opened)
		end.rc = -1;
	else
		end.rc = rr_session_run(w.s, err, sizeof(err));
	announce_conns(&w);
	end.decode = *rr_session_decode_stats(w.s);
	end.engine = *rr_session_engine_stats(w.s);
	for (i = 0; i < RR_SKIP__COUNT; i++)
		end.skipped[i] = rr_session_checks_skipped(w.s, i);
	rec(&w, REC_END, &end, sizeof(end), err, strlen(err) + 1);
	flush_out(&w);
	rr_session_free(w.s);
	g_free(w.buf);
	return w.broken ? 2 : 0;
}
