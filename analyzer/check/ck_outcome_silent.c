// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A server that fell silent (RR-235): it answered calls, then answered
 * nothing more, while the calls sent after its last answer waited to the
 * end of a capture that went on for CK_SILENT_USEC after the first of
 * them.  A mount hangs so: the client's RC layer resends, then it tries to
 * reconnect, and nothing comes back (RFC 8166 §4.5.5 leaves the recovery
 * to the RPC layer's retransmission and reconnection).  One unanswered
 * call proves nothing (a server may drop a request, RR-120; a call whose
 * RPC header does not decode may be refused by silence, RR-121), and a capture
 * stopped right after a call is not a silence: the server must have
 * answered before, and every call after its last answer gone unanswered
 * for that long.  Told once per client and server, at the first of those
 * calls, from the outcome log (ck_outcome_log.c), and only of a capture
 * that lost nothing: a lost answer would look like silence.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ck_outcome.h"

#define CK_SILENT_USEC 5000000u   /* the first call after the last answer waited this long, to the end */
#define CK_SILENT_FRAMES 8        /* the calls' Sends the finding names */

struct silence {
	const char *pair;
	uint64_t last_answer;         /* the Send of the server's last answer */
	const struct ck_note *first;  /* the first call sent after it */
	uint32_t attempts, calls;
	uint64_t frames[CK_SILENT_FRAMES];   /* the last answer's Send, then the calls' (ascending) */
	uint32_t n_frames;
	GHashTable *keys;             /* the calls' keys, to count each call once */
};

static void silence_free(gpointer p)
{
	struct silence *s = p;

	g_hash_table_destroy(s->keys);
	g_free(s);
}

static struct silence *silence_of(GHashTable *pairs, const struct ck_note *n)
{
	struct silence *s = g_hash_table_lookup(pairs, n->pair);

	if (!s) {
		s = g_new0(struct silence, 1);
		s->pair = n->pair;
		s->keys = g_hash_table_new(g_int64_hash, g_int64_equal);
		g_hash_table_insert(pairs, (gpointer)s->pair, s);
	}
	return s;
}

static gint by_first_frame(gconstpointer a, gconstpointer b)
{
	const struct silence *x = a, *y = b;

	return x->first->frame < y->first->frame ? -1 : x->first->frame > y->first->frame;
}

static void tell(struct rr_checker *ck, const struct silence *s)
{
	const struct ck_note *n = s->first;
	double waited = (double)(ck->clock_usec - n->ts_usec) / 1e6;
	char attempts[64] = "", calls[160];

	if (s->attempts > s->calls)
		snprintf(attempts, sizeof(attempts), " in %u attempts", s->attempts);
	if (s->calls == 1)
		snprintf(calls, sizeof(calls), "the call sent after it%s, %s (frame %" PRIu64 "), went", attempts,
			 n->what, n->frame);
	else
		snprintf(calls, sizeof(calls), "the %u calls sent from then on%s, the first %s (frame %" PRIu64
			 "), went", s->calls, attempts, n->what, n->frame);
	ck_report_full(ck, RR_235_SERVER_SILENT, n->frame, s->frames, s->n_frames, n->conn_id, false, 0,
		       "%s: the server fell silent: it answered nothing after frame %" PRIu64 ", and %s unanswered "
		       "for the %.1f s to the end of the capture. Possible cause, which the capture does not show: "
		       "the server stopped (a crash, a hang) or the path to it failed", s->pair, s->last_answer,
		       calls, waited);
}

void ck_rr235(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct ck_note *const *notes;
	struct ck_outlog *log;
	GHashTable *pairs;
	GHashTableIter it;
	GList *all, *l;
	gpointer v;
	size_t n, i;

	ck_outlog_feed(ck, f);
	if (f->kind != RR_FACT_END || !(log = ck_outlog(ck)))
		return;
	/*
	 * Checks skip the facts of a connection once the capture lost bytes of
	 * it, and the log with them: the answers may be among what was not
	 * seen, so a capture that lost any is not judged.
	 */
	if (ck->skipped[RR_SKIP_NOT_CAPTURED]) {
		ck_skip(ck, RR_235_SERVER_SILENT);
		return;
	}
	pairs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, silence_free);
	notes = ck_outlog_notes(log, &n);
	for (i = 0; i < n; i++)
		if (notes[i]->answered) {
			struct silence *s = silence_of(pairs, notes[i]);

			if (notes[i]->answer_frame > s->last_answer)
				s->last_answer = notes[i]->answer_frame;
		}
	for (i = 0; i < n; i++) {
		struct silence *s = g_hash_table_lookup(pairs, notes[i]->pair);

		if (!s || !s->last_answer || notes[i]->frame < s->last_answer || notes[i]->answered ||
		    notes[i]->no_answer_due || !notes[i]->rpc || !notes[i]->ts_usec)
			continue;
		if (!s->first) {
			s->first = notes[i];
			s->frames[s->n_frames++] = s->last_answer;
		}
		s->attempts++;
		if (!g_hash_table_contains(s->keys, &notes[i]->key)) {
			g_hash_table_add(s->keys, (gpointer)&notes[i]->key);
			s->calls++;
		}
		if (s->n_frames < CK_SILENT_FRAMES)
			s->frames[s->n_frames++] = notes[i]->frame;
	}
	/* In capture order, whatever the hash table's. */
	all = NULL;
	g_hash_table_iter_init(&it, pairs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const struct silence *s = v;

		if (s->first && ck->clock_usec >= s->first->ts_usec + CK_SILENT_USEC)
			all = g_list_prepend(all, v);
	}
	all = g_list_sort(all, by_first_frame);
	for (l = all; l; l = l->next)
		tell(ck, l->data);
	g_list_free(all);
	g_hash_table_destroy(pairs);
}
