// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls re-sent on new connections, told per client and server instead of
 * per call.  A run of reconnects, each re-sending the XIDs the connection
 * before left unanswered (a call answered, even with an error, and sent
 * again is no lost call: RR-230 tells it) (what a requester does when its connection keeps
 * failing, e.g. when memory registrations run out), is one finding with
 * its counts and rate (RR-233): a storm of them per call says less.  An
 * NFSv4.1 call re-sent with the same session, slot and sequence ID is a
 * replay the server answers from its reply cache (RFC 8881 §2.10.6.2), and
 * is named as one (RR-234).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ck_outcome.h"

#define CK_STORM_RECONNECTS 3     /* new connections that re-sent calls: a storm from this many */

/* What the retries between one client and one server add up to. */
struct storm {
	const char *pair;
	uint32_t reconnects;          /* connections that carried a re-sent call */
	uint32_t xids, attempts, replays, answered;
	uint64_t first_ts, last_ts;
	uint64_t frames[CK_EPISODE_FRAMES];   /* the first re-sent call on each reconnect */
	uint32_t n_frames;
	uint64_t last_frame;
	uint32_t last_conn;
	GHashTable *conns, *keys;     /* only while counting */
};

static void storm_free(gpointer p)
{
	struct storm *s = p;

	if (s->conns)
		g_hash_table_destroy(s->conns);
	if (s->keys)
		g_hash_table_destroy(s->keys);
	g_free(s);
}

static void count(GHashTable *pairs, const struct ck_outlog *log, const struct ck_note *n)
{
	struct storm *s = g_hash_table_lookup(pairs, n->pair);
	const struct ck_note *last;

	if (!s) {
		s = g_new0(struct storm, 1);
		s->pair = n->pair;
		s->conns = g_hash_table_new(g_direct_hash, g_direct_equal);
		s->keys = g_hash_table_new(g_int64_hash, g_int64_equal);
		s->first_ts = n->ts_usec;
		g_hash_table_insert(pairs, (gpointer)s->pair, s);
	}
	s->attempts++;
	s->replays += n->replay;
	s->last_ts = n->ts_usec;
	s->last_frame = n->frame;
	s->last_conn = n->conn_id;
	if (!g_hash_table_contains(s->conns, GUINT_TO_POINTER(n->conn_id))) {
		g_hash_table_add(s->conns, GUINT_TO_POINTER(n->conn_id));
		s->reconnects++;
		if (s->n_frames < CK_EPISODE_FRAMES)
			s->frames[s->n_frames++] = n->frame;
	}
	if (!g_hash_table_contains(s->keys, &n->key)) {
		g_hash_table_add(s->keys, (gpointer)&n->key);
		s->xids++;
		last = ck_outlog_note(log, n->key);
		s->answered += last && last->answered_ok;
	}
}

/* The retries of the capture by client and server pair, counted once per log state. */
static GHashTable *storms(struct rr_checker *ck)
{
	struct ck_outlog *log = ck_outlog(ck);
	GHashTable **cache = ck_outlog_cache(log);
	const struct ck_note *const *notes;
	size_t n, i;

	if (*cache)
		return *cache;
	*cache = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, storm_free);
	notes = ck_outlog_notes(log, &n);
	for (i = 0; i < n; i++)
		if (notes[i]->lost)
			count(*cache, log, notes[i]);
	return *cache;
}

static const struct storm *storm_of(struct rr_checker *ck, const struct ck_note *n)
{
	const struct storm *s = n ? g_hash_table_lookup(storms(ck), n->pair) : NULL;

	return s && s->reconnects >= CK_STORM_RECONNECTS ? s : NULL;
}

bool ck_outcome_in_storm(struct rr_checker *ck, const struct ck_episode *ep)
{
	const struct ck_note *n = ck_outlog_note(ck_outlog(ck), ep->key);

	return n && n->lost && storm_of(ck, n);
}

bool ck_outcome_is_replay(struct rr_checker *ck, const struct ck_episode *ep)
{
	const struct ck_note *n = ck_outlog_note(ck_outlog(ck), ep->key);

	return n && n->replay && ep->n_conns > 1;
}

static void tell_storm(struct rr_checker *ck, const struct storm *s)
{
	double secs = s->last_ts > s->first_ts ? (double)(s->last_ts - s->first_ts) / 1e6 : 0;
	char rate[48] = "", replays[128] = "";

	if (secs > 0)
		snprintf(rate, sizeof(rate), " (%.1f per second)", s->reconnects / secs);
	if (s->replays)
		snprintf(replays, sizeof(replays), ". %u of the re-sent calls were NFSv4.1 SEQUENCE replays "
			 "(same session, slot and sequence ID)", s->replays);
	ck_report_full(ck, RR_233_RECONNECT_STORM, s->last_frame, s->frames, s->n_frames, s->last_conn, false, 0,
		       "%s: %u reconnects in %.1f s%s, each re-sending calls left unanswered: %u XID%s "
		       "retransmitted in %u attempts, %u answered in the end%s. Told once for the pair instead "
		       "of per call; possible cause, which the capture does not show: an endpoint dropping "
		       "connections as it runs out of resources such as memory registrations",
		       s->pair, s->reconnects, secs, rate, s->xids, s->xids == 1 ? "" : "s", s->attempts, s->answered, replays);
}

static gint by_frame(gconstpointer a, gconstpointer b)
{
	const struct storm *x = a, *y = b;

	return x->last_frame < y->last_frame ? -1 : x->last_frame > y->last_frame;
}

void ck_rr233(struct rr_checker *ck, const struct rr_fact *f)
{
	GList *all, *l;

	ck_outlog_feed(ck, f);
	if (f->kind != RR_FACT_END)
		return;
	/* In capture order, whatever the hash table's. */
	all = g_list_sort(g_hash_table_get_values(storms(ck)), by_frame);
	for (l = all; l; l = l->next) {
		const struct storm *s = l->data;

		if (s->reconnects >= CK_STORM_RECONNECTS)
			tell_storm(ck, s);
	}
	g_list_free(all);
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

void ck_rr234(struct rr_checker *ck, const struct rr_fact *f)
{
	GList *l;

	ck_outlog_feed(ck, f);
	if (f->kind != RR_FACT_END)
		return;
	for (l = ck->episode_order.head; l; l = l->next) {
		const struct ck_episode *ep = l->data;
		const struct ck_note *n = ck_outlog_note(ck_outlog(ck), ep->key);
		char sess[33], answer[96], status[48];

		if (!ep->n_frames || !ck_outcome_is_replay(ck, ep) || ck_outcome_in_storm(ck, ep))
			continue;
		if (ep->uncertain) {
			ck_skip(ck, RR_234_SESSION_REPLAY);
			continue;
		}
		hex(n->sessionid, sizeof(n->sessionid), sess);
		if (n->answered_ok && !n->nfs_status)
			snprintf(answer, sizeof(answer), "the server answered it NFS4_OK");
		else if (n->answered_ok)
			snprintf(answer, sizeof(answer), "the server answered it %s (%u)",
				 rr_nfs4_status_name(n->nfs_status, status, sizeof(status)), n->nfs_status);
		else
			snprintf(answer, sizeof(answer), n->answered ? "the server answered it with an error" :
				 "no answer was seen");
		ck_report_full(ck, RR_234_SESSION_REPLAY, n->frame, ep->frames, ep->n_frames, n->conn_id, true,
			       ep->xid, "%s (XID 0x%08x) is a SEQUENCE replay: re-sent on a new connection with "
			       "session %s, slot %u, sequence ID %u. A server answers a replay from its reply "
			       "cache; %s", n->what, ep->xid, sess, n->slotid, n->seqid, answer);
	}
}
