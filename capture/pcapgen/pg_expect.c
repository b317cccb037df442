// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_expect.h"
#include "pg_expect_back.h"
#include "pg_expect_credit.h"

#include "pg_expect_silence.h"
#include "pg_expect_chunks.h"
#include "pg_retry.h"

#include <string.h>

typedef struct {
	char rule[16];
	const pg_msginfo *msg; /* anchor: its Send; or NULL: frame (an RDMA operation) */
	uint32_t frame;
} expect_t;

struct pg_audit {
	const pg_scenario *s;
	GPtrArray *infos;      /* pg_msginfo*, owned */
	GPtrArray *expects;    /* expect_t*, owned */
	/* sequence state of the forward direction */
	GPtrArray *outstanding; /* pg_msginfo* of calls without an answer */
	GPtrArray *cb_outstanding; /* the same for backward calls */
	GPtrArray *errdone;     /* pg_msginfo* pairs: call, the RDMA_ERROR that completed it */
	int64_t granted;        /* last granted credit, -1: none seen */
	bool reply_seen;
	int64_t cb_granted;     /* the client's last backward grant, -1: none seen */
	int64_t grant_seen[2];  /* last non-zero grant per direction (RR-106), -1: none */
	bool grant_change_told[2], inline_default_told[2], reserve_told, nfs4_seen, retry_run_told, port_told;
	char err_chunk_what[64];/* the request ERR_CHUNK last refused (RR-181, RR-182) */
	uint64_t err_chunk_rc;  /* ... and the Reply chunk it offered */
	uint32_t err_chunk_retries;
	GHashTable *xid_sends;  /* forward rdma_xid -> calls sent (RR-232) */
	GHashTable *long_failed;/* forward rdma_xids told under RR-230 */
	GHashTable *handle_calls;/* read segment handle -> calls that advertised it (RR-210) */
	bool handle_told;
	bool nfs41_seen, back_bound, unbound_told; /* RR-193 */
	uint32_t fore_maxresp;  /* a CREATE_SESSION's fore ca_maxresponsesize, 0: none (RR-184) */
	uint32_t conn;          /* the current connection */
	pg_audit_back back;     /* its session and backward credits (RR-108, RR-192) */
	pg_audit_credit credit; /* calls that no longer count as outstanding (RR-102) */
	pg_retry *retry;        /* calls re-sent on new connections (RR-119, RR-231, RR-233, RR-234) */
	pg_silence *silence;    /* answers that must come or must not (RR-121, RR-133) */
	/* RR-235: the server's last answer to a forward call, and the first call sent after it */
	const pg_msginfo *last_answer, *after;
	bool lossy;             /* a message was damaged: a checker skips facts, and does not judge RR-235 */
};

pg_audit *pg_audit_new(const pg_scenario *s)
{
	pg_audit *a = g_new0(pg_audit, 1);
	a->s = s;
	a->infos = g_ptr_array_new_with_free_func(g_free);
	a->expects = g_ptr_array_new_with_free_func(g_free);
	a->outstanding = g_ptr_array_new();
	a->cb_outstanding = g_ptr_array_new();
	a->errdone = g_ptr_array_new();
	a->granted = -1;
	a->cb_granted = a->grant_seen[0] = a->grant_seen[1] = -1;
	a->xid_sends = g_hash_table_new(g_direct_hash, g_direct_equal);
	a->long_failed = g_hash_table_new(g_direct_hash, g_direct_equal);
	a->handle_calls = g_hash_table_new(g_direct_hash, g_direct_equal);
	a->retry = pg_retry_new();
	a->silence = pg_silence_new(s);
	pg_credit_init(&a->credit);
	return a;
}

void pg_audit_conn(pg_audit *a, uint32_t conn)
{
	a->conn = conn;
	/* the old connection's calls and credits die with it */
	g_ptr_array_set_size(a->outstanding, 0);
	g_ptr_array_set_size(a->cb_outstanding, 0);
	g_ptr_array_set_size(a->errdone, 0);
	g_hash_table_remove_all(a->xid_sends);
	a->granted = a->cb_granted = -1;
	a->reply_seen = false;
	/* RFC 8167 7: a new connection's back channel is bound anew */
	a->back_bound = a->unbound_told = false;
	pg_silence_conn(a->silence);
	pg_back_conn(&a->back);
	pg_credit_conn(&a->credit);
}

void pg_audit_free(pg_audit *a)
{
	g_ptr_array_free(a->infos, TRUE);
	g_ptr_array_free(a->expects, TRUE);
	g_ptr_array_free(a->outstanding, TRUE);
	g_ptr_array_free(a->cb_outstanding, TRUE);
	g_ptr_array_free(a->errdone, TRUE);
	g_hash_table_destroy(a->xid_sends);
	g_hash_table_destroy(a->long_failed);
	g_hash_table_destroy(a->handle_calls);
	pg_retry_free(a->retry);
	pg_silence_free(a->silence);
	pg_credit_free(&a->credit);
	g_free(a);
}

pg_msginfo *pg_audit_info(pg_audit *a)
{
	pg_msginfo *mi = g_new0(pg_msginfo, 1);
	g_ptr_array_add(a->infos, mi);
	return mi;
}

void pg_expect_at(pg_audit *a, const char *rule, const pg_msginfo *mi)
{
	expect_t *e = g_new0(expect_t, 1);
	g_strlcpy(e->rule, rule, sizeof(e->rule));
	e->msg = mi;
	g_ptr_array_add(a->expects, e);
}

uint32_t *pg_expect_op(pg_audit *a, const char *rule)
{
	expect_t *e = g_new0(expect_t, 1);
	g_strlcpy(e->rule, rule, sizeof(e->rule));
	g_ptr_array_add(a->expects, e);
	return &e->frame;
}

/* Frames are known once everything is written: anchors become numbers. */
static void retry_findings(const pg_audit *a, pg_truth *t)
{
	GArray *f = pg_retry_findings(a->retry);
	for (guint i = 0; i < f->len; i++) {
		const pg_retry_finding *e = &g_array_index(f, pg_retry_finding, i);
		if (e->at->emitted && e->at->send_frame)
			pg_truth_expect(t, e->rule, e->at->send_frame);
	}
	g_array_free(f, TRUE);
}

/*
 * RR-235: the server answered, then none of the calls sent after its last
 * answer, and the capture's last frame came 5 s or more after the first of
 * them (as ulb-lint measures it: from that call's Send to the end).
 */
static void silence_finding(const pg_audit *a, pg_truth *t, const pg_cap *cap)
{
	uint32_t last = pg_cap_count(cap);

	if (!a->lossy && a->last_answer && a->after && a->after->emitted && a->after->send_frame &&
	    pg_cap_frame_usec(cap, last) >= pg_cap_frame_usec(cap, a->after->send_frame) + 5000000u)
		pg_truth_expect(t, "RR-235", a->after->send_frame);
}

void pg_audit_write(const pg_audit *a, pg_truth *t, bool any_injected, const pg_cap *cap)
{
	if (!a->s->expect_always && !any_injected)
		return;
	pg_truth_expect_enable(t);
	for (guint i = 0; i < a->expects->len; i++) {
		const expect_t *e = a->expects->pdata[i];
		uint32_t frame = e->msg ? e->msg->send_frame : e->frame;
		if (e->msg && !e->msg->emitted)
			continue; /* aimed at a message that was never sent */
		if (!frame)
			pg_bug("expectation %s without a frame", e->rule);
		pg_truth_expect(t, e->rule, frame);
	}
	retry_findings(a, t);
	silence_finding(a, t, cap);
	for (guint i = 0; i < pg_silence_found(a->silence)->len; i++) {
		const pg_msginfo *mi = pg_silence_found(a->silence)->pdata[i];
		if (mi->emitted && mi->send_frame)
			pg_truth_expect(t, "RR-121", mi->send_frame);
	}
}

/* ---- helpers of the sequence checks ------------------------------------ */

/* A reply or RDMA_ERROR that answers no outstanding call (pg_expect_silence.c says which rules). */
static void orphan(pg_audit *a, const pg_msginfo *mi, bool normal)
{
	const char *rules[2];
	size_t n = pg_silence_orphan(a->silence, mi, normal, rules);
	for (size_t i = 0; i < n; i++)
		pg_expect_at(a, rules[i], mi);
}

static uint32_t threshold(const pg_audit *a)
{
	return a->s->handshake ? a->s->inline_max : 1024;
}

static bool has_ulb(const pg_msginfo *mi)
{
	switch (mi->program) {
	case 100003: return mi->version >= 2 && mi->version <= 4;
	case 100005: case 100021: case 100024: case 100227: return true;
	default: return false;
	}
}

/* Above the threshold: RR-040 (RR-194 backward) against the handshake's; without it,
 * RR-041 once per sender, as ulb-lint tells it. */
static void audit_size(pg_audit *a, const pg_msginfo *mi)
{
	int client = mi->call != mi->backchannel;
	if (mi->damaged || mi->wire_len <= threshold(a))
		return;
	if (a->s->handshake)
		pg_expect_at(a, mi->backchannel ? "RR-194" : "RR-040", mi);
	else if (!a->inline_default_told[client]) {
		a->inline_default_told[client] = true;
		pg_expect_at(a, "RR-041", mi);
	}
}

/* Is a finding (of this rule; NULL: any) expected at this message's Send already? */
static bool expected_at(const pg_audit *a, const pg_msginfo *mi, const char *rule)
{
	for (guint i = 0; i < a->expects->len; i++) {
		const expect_t *e = a->expects->pdata[i];
		if (e->msg == mi && (!rule || !strcmp(e->rule, rule)))
			return true;
	}
	return false;
}

/* Was this XID completed by an RDMA_ERROR (a re-send, not a new XID)? */
static bool xid_errdone(const pg_audit *a, uint32_t xid)
{
	for (guint i = 0; i + 1 < a->errdone->len; i += 2)
		if (((const pg_msginfo *)a->errdone->pdata[i])->rdma_xid == xid)
			return true;
	return false;
}

/* A grant different from the previous one, once per direction (RR-106). */
static void grant_change(pg_audit *a, const pg_msginfo *mi, int dir)
{
	if (a->grant_seen[dir] >= 0 && a->grant_seen[dir] != (int64_t)mi->credit &&
	    !a->grant_change_told[dir] && !mi->damaged) {
		a->grant_change_told[dir] = true;
		pg_expect_at(a, "RR-106", mi);
	}
	a->grant_seen[dir] = mi->credit;
}

/* ---- calls -------------------------------------------------------------- */

/* A backward call: credits (RR-101, RR-104), NFSv4.0 callbacks (RR-196),
 * Long Calls (RR-192). */
static void cb_call(pg_audit *a, pg_msginfo *mi)
{
	if (!mi->credit && !mi->damaged)
		pg_expect_at(a, "RR-101", mi);
	if (mi->cb40 && !mi->damaged)
		pg_expect_at(a, "RR-196", mi);
	if (mi->proc == RDMA_NOMSG && mi->pz_segs && !mi->damaged && pg_back_long_forbidden(&a->back, a->s))
		pg_expect_at(a, "RR-192", mi);
	if (pg_back_call_early(&a->back, a->s) && !mi->damaged)
		pg_expect_at(a, "RR-108", mi);
	if (mi->vers != 1 && !mi->damaged)   /* the forward calls carry 1 (RFC 8167 5.1) */
		pg_expect_at(a, "RR-197", mi);
	/* before the client bound the back channel (RFC 8167 7), once per connection */
	if (a->s->handshake && !a->back_bound && !a->unbound_told && !mi->damaged &&
	    (mi->cb_compound ? !mi->cb40 : a->nfs41_seen)) {
		a->unbound_told = true;
		pg_expect_at(a, "RR-193", mi);
	}
	if (a->cb_granted >= 0) {
		int64_t limit = MIN(mi->credit ? (int64_t)mi->credit : a->cb_granted,
				    a->cb_granted);
		if ((int64_t)a->cb_outstanding->len + 1 > limit)
			pg_expect_at(a, "RR-104", mi);
	}
	g_ptr_array_add(a->cb_outstanding, mi);
}

/* RPCSEC_GSS (RFC 8166 8.2.2): context control messages are never reduced;
 * with integrity or privacy no item is DDP-eligible, and large messages go
 * Long. A normal answer then processed a call with a non-eligible chunk
 * (RR-065). */
static void call_gss(pg_audit *a, pg_msginfo *mi)
{
	if (mi->gss >= PG_GSS_INIT && mi->gss <= PG_GSS_DESTROY && (mi->npos || mi->nwrites)) {
		pg_expect_at(a, "RR-151", mi);
		mi->flags |= PG_EXF_INELIGIBLE;
	}
	if ((mi->gss == PG_GSS_INTEG || mi->gss == PG_GSS_PRIV) && mi->npos) {
		pg_expect_at(a, "RR-152", mi);
		mi->flags |= PG_EXF_INELIGIBLE;
	}
	if ((mi->gss == PG_GSS_INTEG || mi->gss == PG_GSS_PRIV) && mi->proc == RDMA_NOMSG &&
	    mi->pz_segs)
		pg_expect_at(a, "RR-153", mi);
}

/* The shape of an undamaged forward call: interop hazards and the NFSv4
 * limits (RR-029, RR-170..172, RR-240, RR-241), deprecated types (RR-130,
 * each time), no ULB (RR-149), chunks where the binding has no eligible item
 * (RR-146, RR-151..153), bulk left in a Long Call (RR-050), a handle
 * advertised again and again (RR-210). */
static void call_shape(pg_audit *a, pg_msginfo *mi)
{
	if (mi->proc == RDMA_MSGP)
		pg_expect_at(a, "RR-130", mi);
	if (mi->reply_segs > 1)
		pg_expect_at(a, "RR-029", mi);
	if (mi->pz_segs > 1)
		pg_expect_at(a, "RR-240", mi);
	if (mi->max_at_nzpos > 1)
		pg_expect_at(a, "RR-241", mi);
	if (mi->has_rpc && mi->program == 100003 && mi->version == 4) {
		if (mi->npos > 1 || mi->pz_split)
			pg_expect_at(a, "RR-170", mi);
		if (mi->nwrites > 1)
			pg_expect_at(a, "RR-171", mi);
		if (mi->max_at_pos > 16 || mi->max_wsegs > 16 || mi->reply_segs > 16)
			pg_expect_at(a, "RR-172", mi);
		mi->over_limit = mi->npos > 1 || mi->pz_split || mi->nwrites > 1 ||
				 mi->max_at_pos > 16 || mi->max_wsegs > 16 || mi->reply_segs > 16;
	}
	if (mi->has_rpc && !has_ulb(mi))
		pg_expect_at(a, "RR-149", mi);
	if (mi->aux)
		pg_expect_at(a, "RR-146", mi);
	if (mi->pz_bulk >= 1024)
		pg_expect_at(a, "RR-050", mi);
	if (mi->handle32)
		pg_expect_at(a, "RR-210", mi);
	call_gss(a, mi);
}

/* NFSv4 on a server port other than 20049, where the capture shows the
 * port: the CM REQ's service ID, or every iWARP TCP segment (RR-200); the
 * request ERR_CHUNK refused, again with a larger Reply chunk (RR-181,
 * RR-182). */
static void call_retry(pg_audit *a, pg_msginfo *mi)
{
	if (mi->nfs4)
		a->nfs4_seen = true;
	if (mi->nfs4 && !a->port_told && a->s->port != PG_NFS_RDMA_PORT_DEFAULT &&
	    (a->s->handshake || a->s->link->iwarp) && !mi->damaged) {
		a->port_told = true;
		pg_expect_at(a, "RR-200", mi);
	}
	if (!mi->damaged && a->err_chunk_what[0] && mi->reply_segs &&
	    !strcmp(mi->what, a->err_chunk_what) && mi->reply_total > a->err_chunk_rc) {
		a->err_chunk_rc = mi->reply_total;
		if (!mi->named_retry && !xid_errdone(a, mi->rdma_xid))
			pg_expect_at(a, "RR-181", mi);
		if (++a->err_chunk_retries >= 4 && !a->retry_run_told) {
			a->retry_run_told = true;
			pg_expect_at(a, "RR-182", mi);
		}
	}
}

/* XID reuse: while outstanding (RR-004), after RDMA_ERROR ended it (RR-116,
 * RR-175, RR-180); and how often it was sent (RR-232, at the answer). */
static void call_xid(pg_audit *a, pg_msginfo *mi)
{
	mi->sends = GPOINTER_TO_UINT(g_hash_table_lookup(a->xid_sends,
							 GUINT_TO_POINTER(mi->rdma_xid))) + 1;
	g_hash_table_insert(a->xid_sends, GUINT_TO_POINTER(mi->rdma_xid),
			    GUINT_TO_POINTER(mi->sends));
	for (guint i = 0; i < a->outstanding->len; i++) {
		const pg_msginfo *o = a->outstanding->pdata[i];
		if (o->rdma_xid == mi->rdma_xid) {
			pg_expect_at(a, "RR-004", mi);
			break;
		}
	}
	for (guint i = 0; i + 1 < a->errdone->len; i += 2) {
		const pg_msginfo *c = a->errdone->pdata[i], *e = a->errdone->pdata[i + 1];
		if (c->rdma_xid != mi->rdma_xid)
			continue;
		/* a rule about the re-sent call: reported at its Send (e, the error, ended the XID) */
		pg_expect_at(a, e->err == 2 && c->over_limit ? "RR-175" :
			     e->err == 2 && mi->reply_total > c->reply_total ? "RR-180" : "RR-116", mi);
		g_ptr_array_remove_range(a->errdone, i, 2);
		break;
	}
}

/* Credits (RR-102, RR-103) and the NFSv4 client's reserve (RR-105). */
static void call_credits(pg_audit *a, pg_msginfo *mi)
{
	if (a->s->handshake && !a->reply_seen && a->outstanding->len) {
		pg_expect_at(a, "RR-103", mi);
	} else if (a->granted >= 0) {
		int64_t limit = MIN((int64_t)mi->credit, a->granted);
		if ((int64_t)a->outstanding->len - pg_credit_stale(&a->credit, a->outstanding, limit) + 1 > limit)
			pg_expect_at(a, "RR-102", mi);
	}
	/* an NFSv4 client that uses its whole grant keeps no credit for a probe */
	if (a->nfs4_seen && a->granted >= 2 && !a->reserve_told &&
	    (int64_t)a->outstanding->len + 1 >= a->granted) {
		a->reserve_told = true;
		pg_expect_at(a, "RR-105", mi);
	}
}

void pg_audit_call(pg_audit *a, pg_msginfo *mi)
{
	a->lossy |= mi->damaged;
	audit_size(a, mi);
	if (mi->backchannel) {
		cb_call(a, mi);
		pg_silence_msg(a->silence, mi, NULL);
		return;
	}
	a->nfs41_seen |= mi->nfs41;
	a->back_bound |= mi->binds_back;
	if (mi->getattr_mixed && !mi->damaged)
		pg_expect_at(a, "RR-183", mi);
	if (!mi->damaged)
		call_shape(a, mi);
	call_retry(a, mi);
	call_xid(a, mi);
	mi->conn = a->conn;
	pg_retry_call(a->retry, mi);
	call_credits(a, mi);
	pg_credit_call(&a->credit, mi);
	g_ptr_array_add(a->outstanding, mi);
	if (!mi->damaged && mi->has_rpc && !(mi->flags & PG_EXF_MALFORMED) && a->last_answer && !a->after)
		a->after = mi;
	pg_silence_msg(a->silence, mi, NULL);
}

void pg_audit_done(pg_audit *a, pg_msginfo *mi)
{
	audit_size(a, mi);
	if (!mi->damaged)
		pg_expect_at(a, "RR-132", mi);
	pg_silence_msg(a->silence, mi, NULL);
}

/* ---- replies and RDMA_ERROR --------------------------------------------- */

/* How a normal answer returned its call's chunks (pg_expect_chunks.c). */
static void answer_chunks(pg_audit *a, const pg_msginfo *c, const pg_msginfo *mi)
{
	const char *rules[PG_ANSWER_CHUNK_RULES_MAX];
	size_t n = pg_answer_chunk_rules(c, mi, rules);
	for (size_t i = 0; i < n; i++)
		pg_expect_at(a, rules[i], mi);
}

/* A backward reply: XIDs of the two directions are separate spaces (RFC
 * 8166 7.1); credits (RR-101, RR-106), what a normal answer processed
 * (RR-065, RR-113). */
static void reply_versions(pg_audit *a, const pg_msginfo *c, const pg_msginfo *mi, bool normal,
			   bool errvers);

static const pg_msginfo *cb_reply(pg_audit *a, pg_msginfo *mi, bool normal)
{
	const pg_msginfo *answered = NULL;
	pg_back_reply(&a->back);
	if (!mi->credit && !mi->damaged)
		pg_expect_at(a, "RR-101", mi);
	for (guint i = 0; (normal || mi->proc == RDMA_ERROR) && i < a->cb_outstanding->len; i++) {
		pg_msginfo *o = a->cb_outstanding->pdata[i];
		if (o->rdma_xid != mi->rdma_xid)
			continue;
		g_ptr_array_remove_index(a->cb_outstanding, i);
		answered = o;
		/* the client answers backward calls as a responder does (RFC 8166 4.5, 4.5.1) */
		if (!mi->damaged && !o->damaged)
			reply_versions(a, o, mi, normal, mi->proc == RDMA_ERROR && mi->err == 1);
		if (normal && (o->flags & PG_EXF_MALFORMED) && !mi->damaged)
			pg_expect_at(a, "RR-113", mi);
		/* a backward reply carries its call's version (RFC 8167 5.2) */
		if (normal && mi->vers != o->vers && !mi->damaged)
			pg_expect_at(a, "RR-197", mi);
		if (normal && (o->flags & PG_EXF_INELIGIBLE) && !mi->damaged)
			pg_expect_at(a, "RR-065", mi);
		answer_chunks(a, o, mi);
		break;
	}
	if (normal && mi->credit) {
		a->cb_granted = mi->credit;
		grant_change(a, mi, 1);
	}
	return answered;
}

/* The outstanding call this reply answers (no longer outstanding), or NULL. */
static pg_msginfo *answered_call(pg_audit *a, const pg_msginfo *mi)
{
	for (guint i = 0; i < a->outstanding->len; i++) {
		pg_msginfo *o = a->outstanding->pdata[i];
		if (o->rdma_xid == mi->rdma_xid) {
			g_ptr_array_remove_index(a->outstanding, i);
			pg_credit_answer(&a->credit, o);
			return o;
		}
	}
	return NULL;
}

/* Outcomes, at the answer: a Long Call or a reply through the Reply chunk
 * that failed with RDMA_ERROR or GARBAGE_ARGS (RR-230, once per XID); else
 * a call that went out three or more times before this answer ended its
 * XID (RR-232). */
static void reply_outcome(pg_audit *a, const pg_msginfo *c, const pg_msginfo *mi)
{
	gpointer n = g_hash_table_lookup(a->xid_sends, GUINT_TO_POINTER(c->rdma_xid));
	gpointer key = GUINT_TO_POINTER(c->rdma_xid);
	bool failed = mi->proc == RDMA_ERROR || (mi->flags & PG_EXF_GARBAGE);
	bool lng = (c->proc == RDMA_NOMSG && c->pz_segs) || mi->proc == RDMA_NOMSG;
	if (failed && lng && !mi->damaged && !g_hash_table_contains(a->long_failed, key)) {
		g_hash_table_add(a->long_failed, key);
		pg_expect_at(a, "RR-230", mi);
	}
	pg_retry_answer(a->retry, c, mi, failed, lng);
	/* a run on one connection; across connections it is a reconnect retry */
	if (GPOINTER_TO_UINT(n) >= 3 && !mi->damaged && !g_hash_table_contains(a->long_failed, key) &&
	    pg_retry_conns(a->retry, c->rdma_xid) < 2)
		pg_expect_at(a, "RR-232", mi);
	g_hash_table_remove(a->xid_sends, GUINT_TO_POINTER(c->rdma_xid));
}

/* The version a call had and how it was answered (RR-001, RR-110, RR-111). */
static void reply_versions(pg_audit *a, const pg_msginfo *c, const pg_msginfo *mi, bool normal,
			   bool errvers)
{
	if (c->vers != 1) {
		if (normal)
			pg_expect_at(a, "RR-001", c);
		if (!errvers)
			pg_expect_at(a, "RR-111", mi);
	} else if (errvers) {
		pg_expect_at(a, "RR-111", mi);
	}
	if (errvers && c->vers != 1 &&
	    (mi->low > mi->high || (mi->low <= c->vers && c->vers <= mi->high)))
		pg_expect_at(a, "RR-111", mi);
	if (mi->proc == RDMA_ERROR && mi->vers != c->vers)
		pg_expect_at(a, "RR-110", mi);
}

/* A normal answer to a call it should have refused (RR-065, RR-113,
 * RR-131, RR-174) or in the wrong shape (RR-045, RR-046, RR-094, RR-114);
 * RR-149 is told at the call only. */
static void normal_answer(pg_audit *a, const pg_msginfo *c, const pg_msginfo *mi)
{
	if (c->flags & PG_EXF_MALFORMED)
		pg_expect_at(a, "RR-113", mi);
	if (c->flags & PG_EXF_INELIGIBLE)
		pg_expect_at(a, "RR-065", mi);
	if (c->proc == RDMA_MSGP && !a->s->rfc5666)
		pg_expect_at(a, "RR-131", mi);
	/* arguments a read chunk cut short (RR-062) do not parse: GARBAGE_ARGS is due (RFC 8166 4.5.2) */
	if (expected_at(a, c, "RR-062") && !(c->flags & (PG_EXF_INELIGIBLE | PG_EXF_PART_PAD)) &&
	    !(mi->flags & PG_EXF_GARBAGE))
		pg_expect_at(a, "RR-114", mi);
	/* RFC 5666 3.6: a Reply chunk offered means a Long reply */
	if (a->s->rfc5666 && c->reply_segs && mi->proc == RDMA_MSG)
		pg_expect_at(a, "RR-046", mi);
	if (c->over_limit && mi->nfs4_status &&
	    (mi->nfs4_status == 10018 || mi->nfs4_status == 10065 ||
	     mi->nfs4_status == 10070))
		pg_expect_at(a, "RR-174", mi);
	if (mi->rc_read >= 1024 && !c->nwrites && mi->proc == RDMA_NOMSG)
		pg_expect_at(a, "RR-094", mi);
	if ((mi->flags & PG_EXF_GARBAGE) && mi->proc == RDMA_NOMSG)
		pg_expect_at(a, "RR-114", mi);
	answer_chunks(a, c, mi);
	/* Only against a threshold the capture shows: 1024 is merely assumed without it. */
	if (c->reply_total && mi->proc == RDMA_MSG && mi->wire_len > threshold(a) && a->s->handshake)
		pg_expect_at(a, "RR-045", mi);
}

/* What an answer says about refusals: a used Write chunk under RPCSEC_GSS
 * integrity or privacy (RR-152), ERR_CHUNK to a call that broke nothing
 * (RR-044, RR-173); the refusal the later retries are measured against
 * (RR-181, RR-182) and the XID it ended (RR-116, RR-175, RR-180). */
static void reply_refusal(pg_audit *a, pg_msginfo *c, pg_msginfo *mi, bool normal)
{
	if (normal && !mi->damaged && mi->writes_used &&
	    (c->gss == PG_GSS_INTEG || c->gss == PG_GSS_PRIV))
		pg_expect_at(a, "RR-152", mi);
	if (mi->proc == RDMA_ERROR && mi->err == 2 && !mi->damaged && !c->damaged) {
		if (!c->reply_segs && c->big_reply)
			pg_expect_at(a, "RR-044", mi);
		else if (c->nfs4 && !c->over_limit && !(c->flags & (PG_EXF_MALFORMED | PG_EXF_INELIGIBLE)) &&
			 !expected_at(a, c, NULL))
			pg_expect_at(a, "RR-173", mi);
	}
	if (mi->proc == RDMA_ERROR && mi->err == 2) {
		if (strcmp(c->what, a->err_chunk_what)) {
			g_strlcpy(a->err_chunk_what, c->what, sizeof(a->err_chunk_what));
			a->err_chunk_retries = 0;
			a->retry_run_told = false;
		}
		a->err_chunk_rc = c->reply_total;
	} else if (normal && !strcmp(c->what, a->err_chunk_what)) {
		a->err_chunk_what[0] = 0;
	}
	if (mi->proc == RDMA_ERROR) {
		g_ptr_array_add(a->errdone, c);
		g_ptr_array_add(a->errdone, mi);
	}
}

/* A reply or RDMA_ERROR: which call it answers (RR-003) and how (RR-001,
 * RR-045, RR-065, RR-100, RR-110, RR-111, RR-113, RR-131, RR-149). */
void pg_audit_reply(pg_audit *a, pg_msginfo *mi)
{
	pg_msginfo *c;
	bool normal = mi->proc == RDMA_MSG || mi->proc == RDMA_NOMSG || mi->proc == RDMA_MSGP;
	bool errvers = mi->proc == RDMA_ERROR && mi->err == 1;
	a->lossy |= mi->damaged;
	audit_size(a, mi);
	if (mi->backchannel) {
		const pg_msginfo *o = cb_reply(a, mi, normal);
		if (!o)
			orphan(a, mi, normal);
		pg_silence_msg(a->silence, mi, o);
		return;
	}
	if (mi->proc > RDMA_ERROR || mi->proc == RDMA_DONE) {
		pg_silence_msg(a->silence, mi, NULL);
		return; /* not a reply that a checker can recognise */
	}
	c = answered_call(a, mi);
	if (c)
		reply_outcome(a, c, mi);
	if (c && !c->damaged && !mi->damaged) {
		a->last_answer = mi;
		a->after = NULL;
	}
	if (!c)
		orphan(a, mi, normal);
	else if (!mi->damaged && !c->damaged) {
		/* a call shorter than a minimal header is silently discarded (RFC 8166 4.5) */
		if (c->wire_len < 28)
			pg_expect_at(a, "RR-113", mi);
		reply_versions(a, c, mi, normal, errvers);
		if (normal)
			normal_answer(a, c, mi);
	}
	if (c)
		reply_refusal(a, c, mi, normal);
	if (normal && mi->over_maxresp && !mi->damaged && c && !c->damaged)
		pg_expect_at(a, "RR-184", mi);
	if (normal) {
		if (!mi->credit && !mi->damaged)
			pg_expect_at(a, "RR-100", mi);
		a->granted = mi->credit;
		a->reply_seen = true;
		if (mi->credit)
			grant_change(a, mi, 0);
	}
	pg_silence_msg(a->silence, mi, c);
}

/* ---- Send With Invalidate ----------------------------------------------- */

static bool call_advertised(const pg_plan *p, uint32_t handle)
{
	const pg_rdmamsg *m = &p->call;
	for (guint i = 0; i < m->reads->len + m->writes->len + (m->reply ? 1 : 0); i++) {
		const pg_chunk *c = i < m->reads->len ? m->reads->pdata[i]
				    : i < m->reads->len + m->writes->len
					? m->writes->pdata[i - m->reads->len] : m->reply;
		for (guint k = 0; k < c->segs->len; k++)
			if (g_array_index(c->segs, pg_seg, k).handle == handle)
				return true;
	}
	return false;
}

/* Send With Invalidate of a handle the call never advertised, or (where
 * the handshake shows the RFC 8797 flags) against them */
void pg_audit_invalidate(pg_audit *a, const pg_msginfo *rmi, const pg_plan *p, const pg_op *op)
{
	if (op->invalidate && !(rmi->flags & PG_EXF_DAMAGED) &&
	    (!call_advertised(p, op->inv_rkey) || (a->s->handshake && !a->s->remote_inv)))
		pg_expect_at(a, "RR-215", rmi);
}

/* ---- facts -------------------------------------------------------------- */

/* The request's identity (retries), the reply size class (RR-044), the
 * NFS binding's limits and eligible items (RR-146, RR-174). */
static void rpc_identity(pg_msginfo *c, pg_msginfo *r, const pg_item *it, const pg_rpc_pair *rp,
			 const pg_plan *plan, bool *read, bool *readlink)
{
	GString *w = g_string_new(NULL);
	bool v4 = rp->program == PG_PROG_NFS && rp->version == 4 && !rp->backchannel;
	bool getattr = false;

	c->gss = r->gss = it->gss;
	g_string_printf(w, "%u/%u/%u", rp->program, rp->version, rp->procedure);
	for (guint i = 0; rp->opnames && i < rp->opnames->len; i++)
		g_string_append_printf(w, "%s%s", i ? "," : ":", (const char *)rp->opnames->pdata[i]);
	g_strlcpy(c->what, w->str, sizeof(c->what));
	g_string_free(w, TRUE);
	c->nfs4 = v4;
	c->cb40 = rp->backchannel && it->nfsver == PG_V40;
	c->cb_compound = rp->backchannel && rp->procedure == 1;
	c->nfs41 = v4 && rp->procedure == 1 && it->nfsver != PG_V40;
	for (guint i = 0; i < it->ops->len; i++) {
		uint32_t op = g_array_index(it->ops, pg_nfsop, i).op;
		if (v4 && (op == OP4_GETATTR || op == OP4_READDIR || op == OP4_READLINK))
			c->big_reply = true;
		getattr |= v4 && op == OP4_GETATTR;
		/* BIND_CONN_TO_SESSION is sent with CDFC4_BACK_OR_BOTH, CREATE_SESSION with
		 * CONN_BACK_CHAN (pg_nfs4.c) */
		c->binds_back |= v4 && (op == OP4_BIND_CONN || op == OP4_CREATE_SESSION);
		*read |= v4 && op == OP4_READ;
		*readlink |= v4 && op == OP4_READLINK;
		if (v4 && op && !r->nfs4_status && plan->reply.proc != RDMA_ERROR)
			r->nfs4_status = g_array_index(it->ops, pg_nfsop, i).status;
	}
	if (rp->program == PG_PROG_NFS && (rp->version == 2 || rp->version == 3) && !rp->backchannel)
		c->big_reply = rp->procedure == NFS3_READLINK || rp->procedure == NFS3_READDIR ||
			       rp->procedure == 17;
	if (rp->program == PG_PROG_NFSACL)
		c->big_reply = c->named_retry = rp->procedure == ACL3_GETACL;
	if (v4 && getattr && it->nfsver == PG_V40)
		c->named_retry = true;
	/* MOUNT, NLM, NSM have no DDP-eligible item (RFC 8267 5) */
	if ((rp->program == 100005 || rp->program == 100021 || rp->program == 100024) && c->npos) {
		c->aux = true;
		c->flags |= PG_EXF_INELIGIBLE;
	}
}

/* NFSv4 sessions: a GETATTR of acl beside a non-idempotent op in NFSv4.0 (RR-183);
 * replies longer than the fore channel's ca_maxresponsesize that a CREATE_SESSION
 * granted (RR-184), which GETATTR(len=N) asks for and CREATE_SESSION(len=N) sets. */
static void session_facts(pg_audit *a, pg_msginfo *c, pg_msginfo *r, const pg_item *it,
			  const pg_rpc_pair *rp, const pg_plan *plan)
{
	bool acl = false, changes = false, executed = true;

	if (rp->backchannel || rp->program != PG_PROG_NFS || rp->version != 4 || rp->procedure != 1)
		return;
	if (a->fore_maxresp && it->nfsver != PG_V40 && plan->reply.proc != RDMA_ERROR &&
	    rp->reply.msg->len > a->fore_maxresp)
		r->over_maxresp = true;
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		acl |= op->op == OP4_GETATTR && op->len;
		changes |= op->op == OP4_WRITE || op->op == OP4_CREATE;
		if (executed && op->op == OP4_CREATE_SESSION && !op->status && plan->reply.proc != RDMA_ERROR) {
			a->fore_maxresp = op->len ? op->len : 1049480;
			pg_back_session(&a->back);
		}
		executed &= !op->status;
	}
	c->getattr_mixed = it->nfsver == PG_V40 && acl && changes;
}

void pg_audit_facts(pg_audit *a, pg_msginfo *c, pg_msginfo *r, const pg_item *it,
		    const pg_rpc_pair *rp, const pg_plan *plan)
{
	bool read = false, readlink = false;

	rpc_identity(c, r, it, rp, plan, &read, &readlink);
	if (pg_call_pad_in_read_chunk(c, plan))
		pg_expect_at(a, "RR-071", c);
	session_facts(a, c, r, it, rp, plan);
	/* a read segment handle advertised again and again (RR-210) */
	for (guint i = 0; !rp->backchannel && i < plan->call.reads->len; i++) {
		const pg_chunk *ch = plan->call.reads->pdata[i];
		for (guint k = 0; k < ch->segs->len; k++) {
			gpointer h = GUINT_TO_POINTER(g_array_index(ch->segs, pg_seg, k).handle);
			uint32_t n = GPOINTER_TO_UINT(g_hash_table_lookup(a->handle_calls, h)) + 1;
			g_hash_table_insert(a->handle_calls, h, GUINT_TO_POINTER(n));
			if (n >= 32 && !a->handle_told) {
				a->handle_told = true;
				c->handle32 = true;
			}
		}
	}
	/* eligible arguments left inside the Position-Zero read chunk */
	if (plan->call.proc == RDMA_NOMSG && c->pz_segs) {
		for (guint i = 0; i < rp->call.ddp->len; i++) {
			const pg_shape *sh = &it->call;
			unsigned k = sh->n ? MIN(i, (unsigned)sh->n - 1) : 0;
			bool reduced = sh->chunked && sh->n && sh->nseg[k];
			if (!reduced)
				c->pz_bulk = MAX(c->pz_bulk, g_array_index(rp->call.ddp, pg_ddp, i).len);
		}
	}
	/* READ data returned through the Reply chunk */
	if (plan->reply.proc == RDMA_NOMSG && plan->reply.reply &&
	    ((rp->program == PG_PROG_NFS && rp->version == 3 && rp->procedure == NFS3_READ) ||
	     (read && !readlink)))
		for (guint i = 0; i < rp->reply.ddp->len; i++)
			r->rc_read = MAX(r->rc_read, g_array_index(rp->reply.ddp, pg_ddp, i).len);
}
