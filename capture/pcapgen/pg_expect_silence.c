// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Answers that must come (RR-121) and answers that must not (RR-133), from
 * the sequence of emitted messages.
 *
 * A call RFC 8166 requires the responder to refuse with RDMA_ERROR (rdma_vers
 * not 1, §4.5.1; a transport header that does not decode, §4.5.2; RDMA_MSGP,
 * §4.6.1; a non-eligible item in a read chunk, §6.1) that gets no answer
 * (reply=none) waits; once its responder answers a call sent after it and
 * then sends anything more on the same connection, its silence is a
 * finding at its Send. In the backward direction the client is the
 * responder (RFC 8167 §2.2). A connection that ends first takes it along.
 * What a rule checker can see decides what counts: a call shorter than a
 * minimal header (28 bytes) is discarded by rule; a backward call whose
 * header does not decode is not recognisable as a call; a non-eligible
 * chunk shows only once the responder pulled it (silent-read); without
 * the handshake the roles are known only after a first message.
 */
#include "pg_expect_silence.h"

typedef struct {
	uint32_t xid;
	bool client;           /* its sender */
	bool reply;            /* a reply whose transport header has errors, not an RDMA_ERROR */
} err_t;

typedef struct {
	const pg_msginfo *call;
	int dir;               /* 0 forward, 1 backward */
	uint32_t seq, witness; /* its place; the answer to a later call (0: none yet) */
} waiting_t;

struct pg_silence {
	const pg_scenario *s;
	GArray *waiting;       /* waiting_t */
	GHashTable *seq_of;    /* call pg_msginfo* -> its place in emission order */
	uint32_t seq;          /* messages so far, all connections */
	uint32_t conn_msgs;    /* ... on the current connection */
	bool done;             /* the last RDMA_DONE, until a call reuses its XID or an answer */
	uint32_t done_xid;
	GArray *errors;        /* err_t: the RDMA_ERRORs on this connection, until one is answered */
	GPtrArray *found;      /* const pg_msginfo*: the silent calls */
	uint32_t unmatched[2]; /* without the handshake: orphan replies on this connection, by direction (RR-003) */
};

pg_silence *pg_silence_new(const pg_scenario *s)
{
	pg_silence *z = g_new0(pg_silence, 1);
	z->s = s;
	z->waiting = g_array_new(FALSE, FALSE, sizeof(waiting_t));
	z->seq_of = g_hash_table_new(g_direct_hash, g_direct_equal);
	z->found = g_ptr_array_new();
	z->errors = g_array_new(FALSE, FALSE, sizeof(err_t));
	return z;
}

void pg_silence_free(pg_silence *z)
{
	g_array_free(z->waiting, TRUE);
	g_hash_table_destroy(z->seq_of);
	g_ptr_array_free(z->found, TRUE);
	g_array_free(z->errors, TRUE);
	g_free(z);
}

void pg_silence_conn(pg_silence *z)
{
	g_array_set_size(z->waiting, 0);
	z->conn_msgs = 0;
	z->unmatched[0] = z->unmatched[1] = 0;
	z->done = false;
	g_array_set_size(z->errors, 0);
}

/* Must the responder refuse this call with RDMA_ERROR, and would a checker know? */
static bool refusal(const pg_silence *z, const pg_msginfo *mi)
{
	if (mi->damaged || mi->wire_len < 28 || (!z->s->handshake && !z->conn_msgs))
		return false;
	/* the header a checker must decode to see a backward call as a call */
	if (mi->backchannel && (mi->vers != 1 || mi->hdr_undecodable ||
				(mi->proc == RDMA_NOMSG && !mi->pz_segs && !mi->npos && !mi->nwrites &&
				 !mi->reply_segs)))
		return false;
	if (mi->vers != 1 || (mi->flags & PG_EXF_MALFORMED))
		return true;
	if (mi->proc == RDMA_MSGP && !z->s->rfc5666)
		return true;
	return (mi->flags & PG_EXF_INELIGIBLE) && (mi->flags & PG_EXF_SILENT_READ);
}

/* A message of the responder of direction dir: waiting calls it answers go, those a later
 * call's answer passed before it are silent. */
static void conclude(pg_silence *z, const pg_msginfo *mi, int dir)
{
	for (guint i = 0; i < z->waiting->len;) {
		waiting_t *w = &g_array_index(z->waiting, waiting_t, i);
		if (w->dir != dir) {
			i++;
			continue;
		}
		if (!mi->call && mi->rdma_xid == w->call->rdma_xid) {
			g_array_remove_index(z->waiting, i);
			continue;
		}
		if (w->witness && z->seq > w->witness) {
			g_ptr_array_add(z->found, (gpointer)w->call);
			g_array_remove_index(z->waiting, i);
			continue;
		}
		i++;
	}
}

/* An answer to a call sent after a waiting one. */
static void witness(pg_silence *z, const pg_msginfo *answered, int dir)
{
	uint32_t at = GPOINTER_TO_UINT(g_hash_table_lookup(z->seq_of, answered));
	for (guint i = 0; at && i < z->waiting->len; i++) {
		waiting_t *w = &g_array_index(z->waiting, waiting_t, i);
		if (w->dir == dir && !w->witness && at > w->seq)
			w->witness = z->seq;
	}
}

/* A reply its receiver silently discards (RFC 8166 4.5, 4.6.1): its transport header has errors. */
static bool faulty_reply(const pg_silence *z, const pg_msginfo *mi)
{
	if (!z->s->handshake && !z->conn_msgs)
		return false;
	return mi->vers != 1 || mi->hdr_undecodable || (mi->proc == RDMA_MSGP && !z->s->rfc5666);
}

void pg_silence_msg(pg_silence *z, const pg_msginfo *mi, const pg_msginfo *answered)
{
	/* who sent it: the client sends forward calls, RDMA_DONE and backward replies */
	bool client = mi->call != mi->backchannel;
	int resp_dir = client ? 1 : 0, dir = mi->backchannel ? 1 : 0;

	z->seq++;
	if (mi->damaged) {
		/* a checker may not see it, nor what it would settle */
		g_array_set_size(z->waiting, 0);
		z->conn_msgs++;
		return;
	}
	conclude(z, mi, resp_dir);
	if (mi->call && mi->proc == RDMA_DONE) {
		z->done = true;
		z->done_xid = mi->rdma_xid;
	} else if (mi->call) {
		g_hash_table_insert(z->seq_of, (gpointer)mi, GUINT_TO_POINTER(z->seq));
		/* the same XID again: the earlier call is no longer told apart */
		for (guint i = 0; i < z->waiting->len; i++) {
			waiting_t *w = &g_array_index(z->waiting, waiting_t, i);
			if (w->dir == dir && w->call->rdma_xid == mi->rdma_xid)
				g_array_remove_index(z->waiting, i--);
		}
		if (z->done && !dir && mi->rdma_xid == z->done_xid)
			z->done = false;
		if (refusal(z, mi)) {
			waiting_t w = { mi, dir, z->seq, 0 };
			g_array_append_val(z->waiting, w);
		}
	} else {
		if (mi->proc == RDMA_ERROR && (z->s->handshake || z->conn_msgs)) {
			err_t e = { mi->rdma_xid, client, false };
			g_array_append_val(z->errors, e);
		} else if (faulty_reply(z, mi)) {
			err_t e = { mi->rdma_xid, client, true };
			g_array_append_val(z->errors, e);
		}
		if (answered)
			witness(z, answered, dir);
		if (z->done && !dir && mi->rdma_xid == z->done_xid && !answered)
			z->done = false;
	}
	z->conn_msgs++;
}

bool pg_silence_answers_done(const pg_silence *z, const pg_msginfo *mi)
{
	return z->done && !mi->call && !mi->backchannel && mi->rdma_xid == z->done_xid;
}

const GPtrArray *pg_silence_found(const pg_silence *z)
{
	return z->found;
}

/* An RDMA_ERROR (reply false) or faulty reply of the peer with this answer's XID, forgotten once
 * answered. */
static bool answers(pg_silence *z, const pg_msginfo *mi, bool reply)
{
	bool client = mi->call != mi->backchannel;
	for (guint i = z->errors->len; i-- > 0;) {
		const err_t *e = &g_array_index(z->errors, err_t, i);
		if (e->client != client && e->xid == mi->rdma_xid && e->reply == reply) {
			g_array_remove_index(z->errors, i);
			return true;
		}
	}
	return false;
}

static const char *orphan_rule(pg_silence *z, const pg_msginfo *mi)
{
	if (pg_silence_answers_done(z, mi))
		return "RR-133";
	/* roles known: with the handshake, or after a connection's first message */
	if ((z->s->handshake || z->conn_msgs) && answers(z, mi, false))
		return "RR-117";
	if (mi->proc != RDMA_ERROR)
		return NULL;
	/* an RDMA_ERROR to a faulty reply: the reply names it, handshake or not */
	return answers(z, mi, true) || z->s->handshake ? "RR-110" : NULL;
}

size_t pg_silence_orphan(pg_silence *z, const pg_msginfo *mi, bool normal, const char **rules)
{
	const char *r = orphan_rule(z, mi);
	size_t n = 0;
	if (mi->damaged)
		return 0;
	/*
	 * Without the handshake a checker takes as many orphan replies of a
	 * connection as the reply grants credits for answers to calls sent
	 * before the capture began (RFC 8166 §3.3.1), and tells the ones after.
	 */
	if (normal && !z->s->handshake && z->unmatched[mi->backchannel ? 1 : 0] < mi->credit)
		z->unmatched[mi->backchannel ? 1 : 0]++;
	else if (normal)
		rules[n++] = "RR-003";
	if (r)
		rules[n++] = r;
	return n;
}
