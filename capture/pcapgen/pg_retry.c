// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_retry.h"

/* One XID's attempts: what a checker that follows a call across
 * connections knows about it. */
typedef struct {
	uint32_t xid;
	GArray *conns;               /* uint32_t: connections that carried it */
	const pg_msginfo *newest;    /* the newest attempt's call */
	bool newest_answered, newest_lost, newest_replay;
	uint32_t successes, failures;
	bool fail_long;
	const pg_msginfo *first_fail; /* the reply of the first failure */
	const pg_msginfo *last;      /* the newest message of the XID: call or answer */
	uint32_t msgs;               /* messages of the XID: a checker keeps the first 32 */
} episode;

/* A call re-sent on a new connection while the attempt before was unanswered. */
typedef struct {
	uint32_t conn;
	const pg_msginfo *call;
} lost_t;

struct pg_retry {
	GHashTable *eps;  /* xid -> episode* */
	GPtrArray *order; /* episode*, in order of their first call */
	GArray *lost;     /* lost_t, in emission order */
};

#define EPISODE_MSGS 32

static void ep_free(gpointer p)
{
	episode *e = p;
	g_array_free(e->conns, TRUE);
	g_free(e);
}

pg_retry *pg_retry_new(void)
{
	pg_retry *r = g_new0(pg_retry, 1);
	r->eps = g_hash_table_new(g_direct_hash, g_direct_equal);
	r->order = g_ptr_array_new_with_free_func(ep_free);
	r->lost = g_array_new(FALSE, FALSE, sizeof(lost_t));
	return r;
}

void pg_retry_free(pg_retry *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->eps);
	g_ptr_array_free(r->order, TRUE);
	g_array_free(r->lost, TRUE);
	g_free(r);
}

static bool has_conn(const episode *e, uint32_t conn)
{
	for (guint i = 0; i < e->conns->len; i++)
		if (g_array_index(e->conns, uint32_t, i) == conn)
			return true;
	return false;
}

static void note_msg(episode *e, const pg_msginfo *mi)
{
	if (e->msgs++ < EPISODE_MSGS)
		e->last = mi;
}

void pg_retry_call(pg_retry *r, const pg_msginfo *mi)
{
	episode *e = g_hash_table_lookup(r->eps, GUINT_TO_POINTER(mi->rdma_xid));
	if (!e) {
		e = g_new0(episode, 1);
		e->xid = mi->rdma_xid;
		e->conns = g_array_new(FALSE, FALSE, sizeof(uint32_t));
		g_hash_table_insert(r->eps, GUINT_TO_POINTER(e->xid), e);
		g_ptr_array_add(r->order, e);
	}
	if (e->newest && e->newest->conn != mi->conn) {
		const pg_msginfo *p = e->newest;
		e->newest_lost = !e->newest_answered;
		e->newest_replay = p->has_seq && mi->has_seq && p->seqid == mi->seqid;
		if (e->newest_lost) {
			lost_t l = { mi->conn, mi };
			g_array_append_val(r->lost, l);
		}
	} else {
		e->newest_lost = e->newest_replay = false;
	}
	e->newest = mi;
	e->newest_answered = false;
	if (!has_conn(e, mi->conn))
		g_array_append_val(e->conns, mi->conn);
	note_msg(e, mi);
}

void pg_retry_answer(pg_retry *r, const pg_msginfo *c, const pg_msginfo *reply, bool failed,
		     bool lng)
{
	episode *e = g_hash_table_lookup(r->eps, GUINT_TO_POINTER(c->rdma_xid));
	if (!e)
		return;
	if (e->newest == c)
		e->newest_answered = true;
	note_msg(e, reply);
	if (!failed) {
		e->successes++;
	} else if (!e->failures++) {
		e->first_fail = reply;
		e->fail_long = lng;
	}
}

guint pg_retry_conns(const pg_retry *r, uint32_t xid)
{
	const episode *e = g_hash_table_lookup(r->eps, GUINT_TO_POINTER(xid));
	return e ? e->conns->len : 0;
}

static void add(GArray *out, const char *rule, const pg_msginfo *at)
{
	pg_retry_finding f = { rule, at };
	if (at && !at->damaged)
		g_array_append_val(out, f);
}

GArray *pg_retry_findings(const pg_retry *r)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(pg_retry_finding));
	GArray *storm_conns = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	bool storm;

	/* One client and one server per capture: the storm counts the
	 * connections that carried a call the connection before left unanswered. */
	for (guint i = 0; i < r->lost->len; i++) {
		uint32_t conn = g_array_index(r->lost, lost_t, i).conn;
		bool seen = false;
		for (guint k = 0; k < storm_conns->len; k++)
			seen |= g_array_index(storm_conns, uint32_t, k) == conn;
		if (!seen)
			g_array_append_val(storm_conns, conn);
	}
	storm = storm_conns->len >= 3;
	if (storm)
		add(out, "RR-233", g_array_index(r->lost, lost_t, r->lost->len - 1).call);
	for (guint i = 0; i < r->order->len; i++) {
		const episode *e = r->order->pdata[i];
		bool in_storm = storm && e->newest_lost;
		bool replay = e->newest_replay && e->conns->len > 1;
		bool loop = e->conns->len >= 3 && !e->failures && !e->successes;
		if (loop)
			add(out, "RR-119", e->last);
		if (replay && !in_storm)
			add(out, "RR-234", e->newest);
		if (e->conns->len > 1 && !(e->failures && e->fail_long) && !loop && !in_storm && !replay)
			add(out, "RR-231", e->first_fail ? e->first_fail : e->last);
	}
	g_array_free(storm_conns, TRUE);
	return out;
}
