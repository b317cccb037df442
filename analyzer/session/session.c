// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session: capture decoders, the engine and the finding filter, wired
 * once for every tool (session.h).  It holds no protocol knowledge: the
 * decoders and the engine do the work, this file only connects them.
 */
#include <string.h>

#include <glib.h>

#include "session.h"

/* Link types in one file (pcapng interfaces may differ): a file rarely has more than two. */
#define RR_SESSION_MAX_DECODERS 8

struct decoder {
	int dlt;
	struct rr_frame_decoder *dec;
};

struct rr_session {
	struct rr_session_opts opts;
	struct rr_session_sinks sinks;
	struct rr_engine *eng;
	struct decoder dec[RR_SESSION_MAX_DECODERS];
	unsigned n_dec;
	struct rr_capture *cap;          /* opened by rr_session_open_file() */
	struct rr_decode_stats dstats;   /* a file: the capture reader's; frames: summed at finish */
	bool finished;
	bool silent;                     /* replaying kept frames: no sink hears anything */
	/* rr_session_keep_frames(): every frame fed, as struct kept + bytes, while under keep_max. */
	GByteArray *kept;
	size_t keep_max;
	bool keep_overflowed;
	unsigned reopens;
};

/* A kept frame's header; its caplen bytes follow it in s->kept. */
struct kept {
	int dlt;
	uint32_t caplen, wirelen;
	uint64_t frame_no, ts_usec;
};

/* A finding reaches the caller only when the options run its rule and the profile gives it a severity. */
static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct rr_session *s = ctx;

	if (s->silent || d->severity == RR_SEV_OFF || (unsigned)d->id >= RR_RULE_COUNT ||
	    !s->opts.check.enabled[d->id])
		return;
	if (s->sinks.finding)
		s->sinks.finding(s->sinks.ctx, d);
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	struct rr_session *s = ctx;

	rr_engine_feed(s->eng, ev);
	if (s->sinks.event && !s->silent)
		s->sinks.event(s->sinks.ctx, ev);
}

/* The engine's other reports pass through here, so a replay can silence them. */
static void on_message(void *ctx, const struct rr_message *m)
{
	struct rr_session *s = ctx;

	if (s->sinks.message && !s->silent)
		s->sinks.message(s->sinks.ctx, m);
}

static void on_send(void *ctx, const struct rr_send_report *r)
{
	struct rr_session *s = ctx;

	if (s->sinks.send && !s->silent)
		s->sinks.send(s->sinks.ctx, r);
}

static void on_rdma(void *ctx, const struct rr_rdma_report *r)
{
	struct rr_session *s = ctx;

	if (s->sinks.rdma && !s->silent)
		s->sinks.rdma(s->sinks.ctx, r);
}

static struct rr_diag_sink finding_sink(struct rr_session *s)
{
	struct rr_diag_sink sink = { on_finding, s };

	return sink;
}

static void make_engine(struct rr_session *s)
{
	struct rr_diag_sink sink = finding_sink(s);

	s->eng = rr_engine_new(NULL, on_message, s, &sink);
	rr_engine_set_check_opts(s->eng, &s->opts.check);
	rr_engine_set_send_fn(s->eng, on_send, s);
	rr_engine_set_rdma_fn(s->eng, on_rdma, s);
}

struct rr_session *rr_session_new(const struct rr_session_opts *o, const struct rr_session_sinks *sinks)
{
	struct rr_session *s = g_new0(struct rr_session, 1);

	if (o)
		s->opts = *o;
	else
		rr_session_default_opts(&s->opts);
	if (sinks)
		s->sinks = *sinks;
	make_engine(s);
	return s;
}

/* A session takes one input: false, with a sentence naming name in err, once it has one. */
static bool may_open(const struct rr_session *s, const char *name, char *err, size_t errlen)
{
	if (s->cap || s->finished) {
		g_snprintf(err, errlen, "%s: the session already read its input", name);
		return false;
	}
	return true;
}

bool rr_session_open_file(struct rr_session *s, const char *path, char *err, size_t errlen)
{
	if (!may_open(s, path, err, errlen))
		return false;
	s->cap = rr_capture_open(path, err, errlen);
	return s->cap != NULL;
}

bool rr_session_open_memory(struct rr_session *s, const char *name, const uint8_t *bytes, size_t len, char *err,
			    size_t errlen)
{
	if (!may_open(s, name, err, errlen))
		return false;
	s->cap = rr_capture_open_memory(name, bytes, len, err, errlen);
	return s->cap != NULL;
}

int rr_session_run(struct rr_session *s, char *err, size_t errlen)
{
	struct rr_diag_sink sink = finding_sink(s);
	int rc;

	if (!s->cap || s->finished) {
		g_snprintf(err, errlen, "no capture was opened for this session");
		return 1;
	}
	rc = rr_capture_run(s->cap, &s->opts.decode, on_event, s, &sink, &s->dstats, err, errlen);
	s->finished = true;
	rr_engine_finish(s->eng);
	rr_capture_close(s->cap);
	s->cap = NULL;
	return rc ? 1 : 0;
}

int rr_session_run_file(struct rr_session *s, const char *path, char *err, size_t errlen)
{
	if (!rr_session_open_file(s, path, err, errlen))
		return -1;
	return rr_session_run(s, err, errlen);
}

static struct rr_frame_decoder *decoder_for(struct rr_session *s, int dlt)
{
	struct rr_diag_sink sink = finding_sink(s);
	unsigned i;

	for (i = 0; i < s->n_dec; i++)
		if (s->dec[i].dlt == dlt)
			return s->dec[i].dec;
	if (s->n_dec == RR_SESSION_MAX_DECODERS || !rr_frame_decoder_supports(dlt))
		return NULL;
	s->dec[s->n_dec].dlt = dlt;
	s->dec[s->n_dec].dec = rr_frame_decoder_new(dlt, &s->opts.decode, on_event, s, &sink);
	return s->dec[s->n_dec++].dec;
}

void rr_session_keep_frames(struct rr_session *s, size_t max_bytes)
{
	if (!s->kept)
		s->kept = g_byte_array_new();
	s->keep_max = max_bytes;
}

static void keep(struct rr_session *s, int dlt, uint64_t frame_no, uint64_t ts_usec, const uint8_t *pkt,
		 uint32_t caplen, uint32_t wirelen)
{
	struct kept k = { .dlt = dlt, .caplen = caplen, .wirelen = wirelen, .frame_no = frame_no,
			  .ts_usec = ts_usec };

	if (!s->kept || s->keep_overflowed)
		return;
	if (s->kept->len + sizeof(k) + caplen > s->keep_max) {
		/* From here on a finish is final: free what can no longer be replayed. */
		s->keep_overflowed = true;
		g_byte_array_set_size(s->kept, 0);
		return;
	}
	g_byte_array_append(s->kept, (const guint8 *)&k, sizeof(k));
	g_byte_array_append(s->kept, pkt, caplen);
}

static void drop_pipeline(struct rr_session *s)
{
	unsigned i;

	for (i = 0; i < s->n_dec; i++)
		rr_frame_decoder_free(s->dec[i].dec);
	s->n_dec = 0;
	rr_engine_free(s->eng);
	s->eng = NULL;
}

/*
 * A finished session takes a frame again: rebuild the decoders and the
 * engine from the kept frames, silently, so they stand where they stood
 * before the finish.  The decoders and the engine are deterministic: the
 * same frames bring them to the same state.
 */
static bool reopen(struct rr_session *s)
{
	size_t at = 0;

	if (!s->kept || s->keep_overflowed || s->cap)
		return false;
	drop_pipeline(s);
	make_engine(s);
	memset(&s->dstats, 0, sizeof(s->dstats));
	s->silent = true;
	while (at + sizeof(struct kept) <= s->kept->len) {
		struct kept k;
		struct rr_frame_decoder *dec;

		memcpy(&k, s->kept->data + at, sizeof(k));
		at += sizeof(k);
		dec = decoder_for(s, k.dlt);
		if (dec)
			rr_frame_decode(dec, k.frame_no, k.ts_usec, s->kept->data + at, k.caplen, k.wirelen);
		at += k.caplen;
	}
	s->silent = false;
	s->finished = false;
	s->reopens++;
	if (s->sinks.reopen)
		s->sinks.reopen(s->sinks.ctx);
	return true;
}

bool rr_session_can_reopen(const struct rr_session *s)
{
	return s->kept && !s->keep_overflowed && !s->cap;
}

bool rr_session_takes_frames(const struct rr_session *s)
{
	return !s->finished || rr_session_can_reopen(s);
}

unsigned rr_session_reopens(const struct rr_session *s)
{
	return s->reopens;
}

const struct rr_frame_report *rr_session_feed_frame(struct rr_session *s, int dlt, uint64_t frame_no,
						    uint64_t ts_usec, const uint8_t *pkt, uint32_t caplen,
						    uint32_t wirelen)
{
	struct rr_frame_decoder *dec;

	if (s->finished && !reopen(s))
		return NULL;
	dec = decoder_for(s, dlt);
	if (!dec)
		return NULL;
	keep(s, dlt, frame_no, ts_usec, pkt, caplen, wirelen);
	rr_frame_decode(dec, frame_no, ts_usec, pkt, caplen, wirelen);
	return rr_frame_decoder_last(dec);
}

void rr_session_clock(struct rr_session *s, uint64_t ts_usec)
{
	if (!s->finished)
		rr_engine_clock(s->eng, ts_usec);
}

void rr_session_finish(struct rr_session *s)
{
	unsigned i;

	if (s->finished)
		return;
	s->finished = true;
	for (i = 0; i < s->n_dec; i++) {
		rr_frame_decoder_finish(s->dec[i].dec);
		rr_decode_stats_add(&s->dstats, rr_frame_decoder_stats(s->dec[i].dec));
	}
	rr_engine_finish(s->eng);
}

bool rr_session_finished(const struct rr_session *s)
{
	return s->finished;
}

const struct rr_decode_stats *rr_session_decode_stats(const struct rr_session *s)
{
	return &s->dstats;
}

void rr_session_decode_stats_now(const struct rr_session *s, struct rr_decode_stats *out)
{
	unsigned i;

	if (s->finished || s->cap) {
		*out = s->dstats;
		return;
	}
	memset(out, 0, sizeof(*out));
	for (i = 0; i < s->n_dec; i++)
		rr_decode_stats_add(out, rr_frame_decoder_stats(s->dec[i].dec));
}

const struct rr_engine_stats *rr_session_engine_stats(const struct rr_session *s)
{
	return rr_engine_stats(s->eng);
}

uint64_t rr_session_checks_skipped(const struct rr_session *s, enum rr_skip_reason why)
{
	return why == RR_SKIP__COUNT ? rr_engine_checks_skipped(s->eng) : rr_engine_checks_skipped_for(s->eng, why);
}

void rr_session_free(struct rr_session *s)
{
	if (!s)
		return;
	drop_pipeline(s);
	if (s->cap)
		rr_capture_close(s->cap);
	if (s->kept)
		g_byte_array_free(s->kept, TRUE);
	g_free(s);
}
