// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The outcome rules' log of the capture: every forward call as it was sent
 * (its shape, size, time, client and server, NFSv4.1 slot) and the calls
 * that went well, by server, procedure and shape.  A failure is judged
 * against all of it when the capture ends (ck_outcome_evidence.c,
 * ck_outcome_storm.c).  Bounded: CK_NOTES_MAX attempts, the oldest
 * forgotten, and CK_SUCCESS_MAX kinds of success.
 */
#include <stdio.h>
#include <string.h>

#include "ck_outcome.h"
#include "cursor.h"
#include "keymap.h"

#define CK_SUCCESS_MAX 4096
#define CK_SUCCESS_SLOTS 8192     /* the index of successes: a power of two, twice CK_SUCCESS_MAX */
#define CK_PAIR_SLOTS 256         /* connections whose pair is remembered, by connection ID */
#define CK_RECENT_LABELS 8        /* call labels checked before the string chunk is asked */
#define NFS4_OP_SEQUENCE 53
#define NOTE_BLOCK 1024u          /* notes per block of the ring: blocks never move, nor do notes */
#define NOTE_BLOCKS (CK_NOTES_MAX / NOTE_BLOCK)

/* A connection's name and the pair made of it: the pair is made once per connection, not per call. */
struct pair_memo {
	const char *name;             /* interned copy of the connection's name; NULL: empty slot */
	const char *pair;             /* interned */
};

struct ck_outlog {
	/*
	 * The notes: a ring of CK_NOTES_MAX, oldest at first, in blocks made
	 * as it fills; the newest note of the log overwrites its oldest.
	 */
	struct ck_note *block[NOTE_BLOCKS];
	uint32_t first, count;
	struct ck_keymap newest;      /* key -> the newest struct ck_note* of that call */
	GArray *successes;            /* struct ck_success */
	const struct ck_note **view;  /* ck_outlog_notes()' array */
	GHashTable *cache;            /* ck_outlog_cache() */
	GStringChunk *strings;        /* pairs and call labels, each kept once */
	uint16_t success_at[CK_SUCCESS_SLOTS];  /* open addressing: index + 1 in successes, 0 empty */
	struct pair_memo pairs[CK_PAIR_SLOTS];
	/* Call labels interned lately, newest at recent_at: a few kinds of call alternate. */
	const char *recent[CK_RECENT_LABELS];
	unsigned recent_at;
	/* The fact fed last: several rules feed each one. */
	uint64_t fed_frame;
	uint32_t fed_xid;
	int fed_dir;
};

struct ck_outlog *ck_outlog(struct rr_checker *ck)
{
	if (!ck->outlog) {
		ck->outlog = g_new0(struct ck_outlog, 1);
		ck->outlog->successes = g_array_new(FALSE, TRUE, sizeof(struct ck_success));
		ck->outlog->fed_dir = -1;
		ck->outlog->strings = g_string_chunk_new(4096);
	}
	return ck->outlog;
}

void ck_outlog_free(struct ck_outlog *log)
{
	if (!log)
		return;
	for (unsigned i = 0; i < NOTE_BLOCKS; i++)
		g_free(log->block[i]);
	ck_keymap_free(&log->newest, NULL);
	g_array_free(log->successes, TRUE);
	g_string_chunk_free(log->strings);
	g_free(log->view);
	if (log->cache)
		g_hash_table_destroy(log->cache);
	g_free(log);
}

void ck_outlog_prefetch(const struct ck_outlog *log, uint64_t key)
{
	if (log)
		ck_keymap_prefetch(&log->newest, key);
}

const struct ck_note *ck_outlog_note(const struct ck_outlog *log, uint64_t key)
{
	return log ? ck_keymap_get(&log->newest, key) : NULL;
}

/* The ring's i-th slot counted from its start (not from the oldest note). */
static struct ck_note *slot(const struct ck_outlog *log, uint32_t i)
{
	i %= CK_NOTES_MAX;
	return &log->block[i / NOTE_BLOCK][i % NOTE_BLOCK];
}

const struct ck_note *const *ck_outlog_notes(const struct ck_outlog *log, size_t *n)
{
	struct ck_outlog *w = (struct ck_outlog *)log;
	uint32_t i;

	*n = 0;
	if (!log)
		return NULL;
	g_free(w->view);
	w->view = g_new(const struct ck_note *, w->count + 1);
	for (i = 0; i < w->count; i++)
		w->view[i] = slot(w, w->first + i);
	*n = w->count;
	return w->view;
}

GHashTable **ck_outlog_cache(struct ck_outlog *log)
{
	return &log->cache;
}

const struct ck_success *ck_outlog_successes(const struct ck_outlog *log, size_t *n)
{
	*n = log ? log->successes->len : 0;
	return log ? (const struct ck_success *)(void *)log->successes->data : NULL;
}

/*
 * "10.0.0.1 -> 10.0.0.2" from a connection's name ("rocev2 10.0.0.1 qp 0x11
 * <-> 10.0.0.2 qp 0x12", requester first when known): the hosts without
 * QPs or ports, so that every connection between them gives the same pair.
 */
static void pair_of(const char *name, char *out, size_t len)
{
	char side[2][64] = { "?", "?" };
	const char *p = name ? strchr(name, ' ') : NULL;
	const char *mid = p ? strstr(p, " <-> ") : NULL;
	int i;

	if (mid) {
		g_strlcpy(side[0], p + 1, MIN(sizeof(side[0]), (size_t)(mid - p)));
		g_strlcpy(side[1], mid + 5, sizeof(side[1]));
	}
	for (i = 0; i < 2; i++) {
		char *cut = strstr(side[i], " qp ");
		char *colon = strchr(side[i], ':');

		if (cut)
			*cut = 0;
		if ((cut = strstr(side[i], " port ")))
			*cut = 0;
		if (colon && colon == strrchr(side[i], ':'))   /* IPv4 with a port */
			*colon = 0;
	}
	snprintf(out, len, "%s -> %s", side[0], side[1]);
}

/* An NFSv4.1+ COMPOUND's leading SEQUENCE: session, sequence ID and slot (RFC 8881 §18.46). */
static void sequence_of(const struct rr_message *m, struct ck_note *n)
{
	struct rr_cursor c;
	uint32_t taglen, minor, nops, op;

	if (!m->has_rpc || m->call.prog != RR_NFS_PROGRAM || m->call.vers != 4 || m->call.proc != 1 ||
	    !m->payload || m->call.args_off > m->payload_len)
		return;
	rr_cursor_init(&c, m->payload + m->call.args_off, m->payload_len - m->call.args_off);
	if (!rr_get_be32(&c, &taglen) || taglen > 1024 || !rr_skip(&c, taglen + rr_xdr_pad(taglen)) ||
	    !rr_get_be32(&c, &minor) || minor < 1 || !rr_get_be32(&c, &nops) || !nops ||
	    !rr_get_be32(&c, &op) || op != NFS4_OP_SEQUENCE ||
	    !rr_copy_bytes(&c, n->sessionid, sizeof(n->sessionid)) || !rr_get_be32(&c, &n->seqid) ||
	    !rr_get_be32(&c, &n->slotid))
		return;
	n->has_seq = true;
}

/* The oldest note forgotten: its slot is the next note's. */
static void evict(struct ck_outlog *log)
{
	struct ck_note *old = slot(log, log->first);

	if (ck_keymap_get(&log->newest, old->key) == old)
		ck_keymap_take(&log->newest, old->key);
	log->first = (log->first + 1) % CK_NOTES_MAX;
	log->count--;
}

/* Room for the newest note, at the ring's end (its block made when new). */
static struct ck_note *append(struct ck_outlog *log)
{
	uint32_t i = (log->first + log->count) % CK_NOTES_MAX;
	struct ck_note **b = &log->block[i / NOTE_BLOCK];

	if (!*b)
		*b = g_new(struct ck_note, NOTE_BLOCK);
	log->count++;
	return slot(log, i);
}

/* The interned pair of a connection's name, made once per connection. */
static const char *pair_interned(struct ck_outlog *log, uint32_t conn_id, const char *name)
{
	struct pair_memo *pm = &log->pairs[conn_id % CK_PAIR_SLOTS];
	char pair[CK_PAIR_LEN];

	if (pm->name && name && !strcmp(pm->name, name))
		return pm->pair;
	pair_of(name, pair, sizeof(pair));
	if (!name)
		return g_string_chunk_insert_const(log->strings, pair);
	pm->name = g_string_chunk_insert_const(log->strings, name);
	pm->pair = g_string_chunk_insert_const(log->strings, pair);
	return pm->pair;
}

/* The interned copy of a call's label: one of the recent ones, else the string chunk's. */
static const char *label_interned(struct ck_outlog *log, const char *what)
{
	unsigned i, k;

	for (i = 0; i < CK_RECENT_LABELS; i++) {
		k = (log->recent_at + CK_RECENT_LABELS - i) % CK_RECENT_LABELS;
		if (log->recent[k] && !strcmp(log->recent[k], what))
			return log->recent[k];
	}
	log->recent_at = (log->recent_at + 1) % CK_RECENT_LABELS;
	return log->recent[log->recent_at] = g_string_chunk_insert_const(log->strings, what);
}

static void feed_call(struct ck_outlog *log, const struct rr_message *m)
{
	struct ck_note note = { 0 }, *n = &note;
	const struct ck_note *prev;
	char what[48];

	n->key = ck_episode_key(&m->conn, m->xid);
	n->conn_id = m->conn_id;
	n->frame = m->send_frame;
	n->ts_usec = m->ts_usec;
	ck_describe_call(m, what, sizeof(what));
	n->pair = pair_interned(log, m->conn_id, m->conn_name);
	n->what = label_interned(log, what);
	n->long_call = ck_is_long_call(m->hdr);
	n->pz_segs = ck_pz_segments(m->hdr);
	n->reply_segs = m->hdr->has_reply ? m->hdr->reply.count : 0;
	n->size = m->payload_len;
	n->no_answer_due = m->hdr->proc == RR_RDMA_DONE;
	n->rpc = m->has_rpc;
	sequence_of(m, n);
	prev = ck_keymap_get(&log->newest, n->key);
	if (prev && prev->conn_id != n->conn_id) {
		n->retry = true;
		n->lost = !prev->answered;
		n->replay = n->has_seq && prev->has_seq && prev->slotid == n->slotid &&
			    prev->seqid == n->seqid && !memcmp(prev->sessionid, n->sessionid, sizeof(n->sessionid));
	}
	/* Judged against the attempt before it, which may be the oldest note, forgotten now. */
	if (log->count == CK_NOTES_MAX)
		evict(log);
	n = append(log);
	*n = note;
	ck_keymap_put(&log->newest, n->key, n);
}

static bool same_kind(const struct ck_success *s, const struct ck_note *n, bool long_reply)
{
	return s->pair == n->pair && s->what == n->what && s->long_call == n->long_call &&
	       s->pz_segs == n->pz_segs && s->reply_segs == n->reply_segs && s->long_reply == long_reply;
}

/* Where a kind of success sits in the index: its slot, holding it or empty. */
static uint16_t *success_slot(struct ck_outlog *log, const struct ck_note *n, bool long_reply)
{
	uint64_t h = (uint64_t)(uintptr_t)n->pair * 0x9e3779b97f4a7c15u ^ (uint64_t)(uintptr_t)n->what;
	unsigned i;

	h = (h ^ (h >> 29) ^ ((uint64_t)n->pz_segs << 40) ^ ((uint64_t)n->reply_segs << 20) ^
	     (uint64_t)n->long_call << 1 ^ (uint64_t)long_reply) * 0xbf58476d1ce4e5b9u;
	for (i = (unsigned)(h >> 40) % CK_SUCCESS_SLOTS;; i = (i + 1) % CK_SUCCESS_SLOTS) {
		uint16_t *at = &log->success_at[i];

		if (!*at || same_kind(&g_array_index(log->successes, struct ck_success, *at - 1u), n, long_reply))
			return at;
	}
}

static void add_success(struct ck_outlog *log, const struct ck_note *n, bool long_reply, uint64_t frame)
{
	uint16_t *at = success_slot(log, n, long_reply);
	struct ck_success *s;

	if (*at) {
		s = &g_array_index(log->successes, struct ck_success, *at - 1u);
		if (n->size < s->size_min) {
			s->size_min = n->size;
			s->frame_min = frame;
		}
		if (n->size > s->size_max) {
			s->size_max = n->size;
			s->frame_max = frame;
		}
		s->count++;
		return;
	}
	if (log->successes->len >= CK_SUCCESS_MAX)
		return;
	g_array_set_size(log->successes, log->successes->len + 1);
	*at = (uint16_t)log->successes->len;
	s = &g_array_index(log->successes, struct ck_success, log->successes->len - 1);
	s->pair = n->pair;
	s->what = n->what;
	s->long_call = n->long_call;
	s->long_reply = long_reply;
	s->pz_segs = n->pz_segs;
	s->reply_segs = n->reply_segs;
	s->size_min = s->size_max = n->size;
	s->frame_min = s->frame_max = frame;
	s->count = 1;
}

static void feed_reply(struct ck_outlog *log, const struct rr_message *m)
{
	uint64_t key = ck_episode_key(&m->conn, m->xid);
	struct ck_note *n = ck_keymap_get(&log->newest, key);

	if (!n || n->answered)
		return;
	n->answered = true;
	n->answer_frame = m->send_frame;
	n->answered_ok = m->hdr->proc != RR_RDMA_ERROR && ck_reply_ok(m);
	n->nfs_status = m->has_ulp ? m->ulp.status : 0;
	/* The server took the arguments: an NFS error is still an answer to them. */
	if (n->answered_ok)
		add_success(log, n, m->hdr->proc == RR_RDMA_NOMSG, m->send_frame);
}

void ck_outlog_feed(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_outlog *log;

	if (f->kind != RR_FACT_MSG || m->backchannel || !m->hdr)
		return;
	log = ck_outlog(ck);
	if (log->fed_frame == m->send_frame && log->fed_xid == m->xid && log->fed_dir == (int)m->dir)
		return;
	log->fed_frame = m->send_frame;
	log->fed_xid = m->xid;
	log->fed_dir = (int)m->dir;
	if (log->cache)
		g_hash_table_destroy(log->cache);
	log->cache = NULL;
	if (m->dir == RR_DIR_CALL)
		feed_call(log, m);
	else
		feed_reply(log, m);
}
