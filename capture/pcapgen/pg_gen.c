// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_gen.h"

#include "pg_inject.h"
#include "pg_rpcrdma.h"
#include "pg_xport.h"

#include <stdio.h>
#include <string.h>

/* What the expectation checks need to know about one emitted message. */
typedef struct {
	uint32_t send_frame;   /* first frame of its Send, filled by the framer */
	bool emitted, call, backchannel, damaged;
	unsigned flags;        /* PG_EXF_* */
	uint32_t rdma_xid, vers, credit, proc, err, low, high, wire_len;
	uint32_t program, version;
	bool has_rpc;
	/* the chunk lists it carries (calls: as offered) */
	uint64_t reply_total;
	uint32_t reply_segs, pz_segs, npos, max_at_pos, max_at_nzpos, nwrites, max_wsegs;
	bool pz_split;
	/* facts about the RPC it carries (exch_facts) */
	char what[64];         /* program/version/procedure or op list: "the same request" */
	bool nfs4, big_reply, named_retry, over_limit, cb40, aux, handle32;
	uint32_t pz_bulk;      /* call: largest eligible argument left inside the PZRC */
	uint32_t rc_read;      /* reply: READ data bytes returned through the Reply chunk */
	uint32_t nfs4_status;  /* reply: COMPOUND status */
	uint32_t sends;        /* calls: how many times this XID was sent before an answer */
	int gss;               /* PG_GSS_* of the exchange */
	bool writes_used;      /* reply: a returned Write chunk with a non-zero length */
} msginfo;

typedef struct {
	char rule[16];
	const msginfo *msg; /* anchor: its Send; or NULL: frame (an RDMA operation) */
	uint32_t frame;
} expect_t;

typedef struct pending_s pending_t;

typedef struct {
	const pg_scenario *s;
	pg_xctx xctx;
	pg_xport *x;
	pg_truth *truth;
	pg_nfs_state nfs;
	pg_mem mem;
	uint32_t next_xid[2];  /* forechannel (client) and backchannel (server) XIDs */
	uint32_t last_xid;
	bool have_prev;
	uint32_t prev_xid;     /* the last forechannel call's XID */
	uint32_t msg_index;
	uint64_t total;
	char **err;
	GPtrArray *pending;    /* pg_exch* whose reply waits (pipeline=on) */
	GPtrArray *infos;      /* msginfo*, owned */
	GPtrArray *expects;    /* expect_t*, owned */
	bool any_injected;
	/* sequence state of the forward direction */
	GPtrArray *outstanding; /* msginfo* of calls without an answer */
	GPtrArray *cb_outstanding; /* the same for backward calls */
	GPtrArray *errdone;     /* msginfo* pairs: call, the RDMA_ERROR that completed it */
	int64_t granted;        /* last granted credit, -1: none seen */
	bool reply_seen;
	int64_t cb_granted;     /* the client's last backward grant, -1: none seen */
	int64_t grant_seen[2];  /* last non-zero grant per direction (RR-106), -1: none */
	bool grant_change_told[2], reserve_told, nfs4_seen, retry_run_told, port_told;
	unsigned refused_types; /* header types refused with ERR_CHUNK (RR-134) */
	char err_chunk_what[64];/* the request ERR_CHUNK last refused (RR-181, RR-182) */
	uint64_t err_chunk_rc;  /* ... and the Reply chunk it offered */
	uint32_t err_chunk_retries;
	GHashTable *xid_sends;  /* forward rdma_xid -> calls sent (RR-232) */
	GHashTable *long_failed;/* forward rdma_xids told under RR-230 */
	GHashTable *handle_calls;/* read segment handle -> calls that advertised it (RR-210) */
	bool handle_told;
} gen;

struct pg_exch {
	gen *g;
	const pg_item *it;
	pg_item itc;           /* the scenario line as injectors may reshape it */
	pg_rpc_pair rp;
	pg_plan plan;
	GArray *inj;
	GArray *reads, *writes, *after; /* pg_op */
	GPtrArray *scratch;
	msginfo *cmi, *rmi;
	int cid;
	uint32_t xid;
	bool cb, simple;
	int req, resp;
};

static bool gfail(gen *g, const pg_item *it, char *msg)
{
	*g->err = g_strdup_printf("%s:%d: %s", g->s->path, it->line, msg);
	g_free(msg);
	return false;
}

static msginfo *info_new(gen *g)
{
	msginfo *mi = g_new0(msginfo, 1);
	g_ptr_array_add(g->infos, mi);
	return mi;
}

static void expect_at(gen *g, const char *rule, const msginfo *mi)
{
	expect_t *e = g_new0(expect_t, 1);
	g_strlcpy(e->rule, rule, sizeof(e->rule));
	e->msg = mi;
	g_ptr_array_add(g->expects, e);
}

static expect_t *expect_op(gen *g, const char *rule)
{
	expect_t *e = g_new0(expect_t, 1);
	g_strlcpy(e->rule, rule, sizeof(e->rule));
	g_ptr_array_add(g->expects, e);
	return e;
}

/* ---- services for the injectors --------------------------------------- */

void pg_ex_expect(pg_exch *ex, const char *rule, int at)
{
	expect_at(ex->g, rule, at == PG_AT_CALL ? ex->cmi : ex->rmi);
}

void pg_ex_add_op(pg_exch *ex, int when, const pg_op *op, const char *rule)
{
	pg_op o = *op;
	if (o.kind == PG_OP_READ && !o.sink_stag) {
		o.sink_stag = pg_mem_key(&ex->g->mem, ex->resp);
		o.sink_to = pg_mem_va(&ex->g->mem, ex->resp, o.len);
	}
	if (rule)
		o.frame_out = &expect_op(ex->g, rule)->frame;
	g_array_append_val(when == PG_OPS_READS ? ex->reads
			   : when == PG_OPS_WRITES ? ex->writes : ex->after, o);
}

bool pg_ex_expect_write(pg_exch *ex, const char *rule, uint32_t handle)
{
	for (guint i = 0; i < ex->writes->len; i++) {
		pg_op *o = &g_array_index(ex->writes, pg_op, i);
		if (o->kind == PG_OP_WRITE && o->rkey == handle && !o->frame_out) {
			o->frame_out = &expect_op(ex->g, rule)->frame;
			return true;
		}
	}
	return false;
}

pg_op *pg_ex_op(pg_exch *ex, int when, guint index)
{
	GArray *a = when == PG_OPS_READS ? ex->reads : when == PG_OPS_WRITES ? ex->writes : ex->after;
	return index < a->len ? &g_array_index(a, pg_op, index) : NULL;
}

uint8_t *pg_ex_scratch(pg_exch *ex, uint32_t len)
{
	uint8_t *p = g_malloc0(len ? len : 1);
	g_ptr_array_add(ex->scratch, p);
	return p;
}

void pg_ex_flag(pg_exch *ex, unsigned flags, bool call)
{
	(call ? ex->cmi : ex->rmi)->flags |= flags;
}

bool pg_ex_prev_xid(pg_exch *ex, uint32_t *xid)
{
	*xid = ex->g->prev_xid;
	return ex->g->have_prev && !ex->cb;
}

uint32_t pg_ex_threshold(pg_exch *ex)
{
	return ex->g->s->handshake ? ex->g->s->inline_max : 1024;
}

/* ---- injectors ------------------------------------------------------- */

typedef struct {
	const pg_injector *inj;
	const pg_inject_spec *spec;
	bool applied;
	bool plan_tried, plan_ok; /* later hooks run only if the plan hook did */
} inj_state;

static GArray *inj_states(const pg_item *it)
{
	GArray *a = g_array_new(FALSE, TRUE, sizeof(inj_state));
	for (guint i = 0; i < it->injects->len; i++) {
		inj_state st = { 0 };
		st.spec = it->injects->pdata[i];
		st.inj = pg_injector_find(st.spec->name);
		if (!st.inj)
			pg_bug("injector %s", st.spec->name);
		g_array_append_val(a, st);
	}
	return a;
}

enum stage { ST_PREP, ST_PLAN, ST_OPS, ST_HEADER, ST_WIRE, ST_CAPTURE };

/* Run one stage of every injector aimed at this message. Returns the
 * capture snap length requested, if any. */
static uint32_t run_stage(pg_exch *ex, enum stage st, bool is_call, pg_rdmamsg *msg, pg_op *op,
			  uint32_t *xid)
{
	uint32_t snap = 0;
	for (guint i = 0; i < ex->inj->len; i++) {
		inj_state *is = &g_array_index(ex->inj, inj_state, i);
		pg_inj_ctx c = { 0 };
		bool (*fn)(pg_inj_ctx *) = NULL;
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (!ex->simple && !(is->spec->target & want))
			continue;
		c.s = ex->g->s;
		c.plan = ex->simple ? NULL : &ex->plan;
		c.msg = msg;
		c.is_call = is_call;
		c.arg = is->spec->arg;
		c.op = op;
		c.item = &ex->itc;
		c.rp = ex->simple ? NULL : &ex->rp;
		c.ex = ex;
		c.xid = xid;
		c.cb = ex->cb;
		switch (st) {
		case ST_PREP: fn = is->inj->prep; break;
		case ST_PLAN: fn = is->inj->plan; break;
		case ST_OPS: fn = is->inj->ops; break;
		case ST_HEADER: fn = is->inj->header; break;
		case ST_WIRE: fn = is->inj->wire; break;
		case ST_CAPTURE: fn = is->inj->capture; break;
		}
		if (!fn || (st == ST_PLAN && ex->simple))
			continue;
		if (st > ST_PLAN && is->inj->plan && (ex->simple || (is->plan_tried && !is->plan_ok)))
			continue;
		if (fn(&c)) {
			is->applied = true;
			if (st == ST_PLAN)
				is->plan_ok = true;
			if (st == ST_CAPTURE)
				snap = c.snap;
		} else if (st == ST_PLAN) {
			is->plan_tried = true;
		} else if (st == ST_HEADER && is->inj->plan) {
			/* a plan knob that turned out to change nothing */
			is->applied = false;
		}
		if (st == ST_PLAN && is->plan_ok)
			is->plan_tried = true;
	}
	return snap;
}

static void record_injected(gen *g, GArray *states, int id, bool is_call, bool simple)
{
	for (guint i = 0; i < states->len; i++) {
		inj_state *is = &g_array_index(states, inj_state, i);
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (is->applied && (simple || (is->spec->target & want))) {
			pg_truth_inject(g->truth, id, is->spec->name);
			g->any_injected = true;
		}
	}
}

static bool any_applied(GArray *states)
{
	for (guint i = 0; i < states->len; i++)
		if (g_array_index(states, inj_state, i).applied)
			return true;
	return false;
}

/* ---- expectations computed from the sequence of messages -------------- */

static uint32_t threshold(const gen *g)
{
	return g->s->handshake ? g->s->inline_max : 1024;
}

static bool has_ulb(const msginfo *mi)
{
	switch (mi->program) {
	case 100003: return mi->version >= 2 && mi->version <= 4;
	case 100005: case 100021: case 100024: case 100227: return true;
	default: return false;
	}
}

static void audit_size(gen *g, const msginfo *mi)
{
	if (!mi->damaged && mi->wire_len > threshold(g))
		expect_at(g, !g->s->handshake ? "RR-041" : mi->backchannel ? "RR-194" : "RR-040", mi);
}

/* Is any finding expected at this message's Send already? */
static bool expected_at(const gen *g, const msginfo *mi)
{
	for (guint i = 0; i < g->expects->len; i++)
		if (((const expect_t *)g->expects->pdata[i])->msg == mi)
			return true;
	return false;
}

/* Was this XID completed by an RDMA_ERROR (a re-send, not a new XID)? */
static bool xid_errdone(const gen *g, uint32_t xid)
{
	for (guint i = 0; i + 1 < g->errdone->len; i += 2)
		if (((const msginfo *)g->errdone->pdata[i])->rdma_xid == xid)
			return true;
	return false;
}

/* A grant different from the previous one, once per direction (RR-106). */
static void grant_change(gen *g, const msginfo *mi, int dir)
{
	if (g->grant_seen[dir] >= 0 && g->grant_seen[dir] != (int64_t)mi->credit &&
	    !g->grant_change_told[dir] && !mi->damaged) {
		g->grant_change_told[dir] = true;
		expect_at(g, "RR-106", mi);
	}
	g->grant_seen[dir] = mi->credit;
}

/* A call's Send: credits (RR-102, RR-103), XID reuse (RR-004, RR-116,
 * RR-180), shapes that are interop hazards or above the NFSv4 limits
 * (RR-029, RR-170..172, RR-240, RR-241), deprecated types (RR-130), no ULB
 * (RR-149). */
static void audit_call(gen *g, msginfo *mi)
{
	audit_size(g, mi);
	if (mi->backchannel) {
		if (!mi->credit && !mi->damaged)
			expect_at(g, "RR-101", mi);
		if (mi->cb40 && !mi->damaged)
			expect_at(g, "RR-196", mi);
		if (mi->proc == RDMA_NOMSG && mi->pz_segs && !mi->damaged)
			expect_at(g, "RR-192", mi);
		if (g->cb_granted >= 0) {
			int64_t limit = MIN(mi->credit ? (int64_t)mi->credit : g->cb_granted,
					    g->cb_granted);
			if ((int64_t)g->cb_outstanding->len + 1 > limit)
				expect_at(g, "RR-104", mi);
		}
		g_ptr_array_add(g->cb_outstanding, mi);
		return;
	}
	if (!mi->damaged) {
		if (mi->proc == RDMA_MSGP)
			expect_at(g, "RR-130", mi);
		if (mi->reply_segs > 1)
			expect_at(g, "RR-029", mi);
		if (mi->pz_segs > 1)
			expect_at(g, "RR-240", mi);
		if (mi->max_at_nzpos > 1)
			expect_at(g, "RR-241", mi);
		if (mi->has_rpc && mi->program == 100003 && mi->version == 4) {
			if (mi->npos > 1 || mi->pz_split)
				expect_at(g, "RR-170", mi);
			if (mi->nwrites > 1)
				expect_at(g, "RR-171", mi);
			if (mi->max_at_pos > 16 || mi->max_wsegs > 16 || mi->reply_segs > 16)
				expect_at(g, "RR-172", mi);
			mi->over_limit = mi->npos > 1 || mi->pz_split || mi->nwrites > 1 ||
					 mi->max_at_pos > 16 || mi->max_wsegs > 16 || mi->reply_segs > 16;
		}
		if (mi->has_rpc && !has_ulb(mi))
			expect_at(g, "RR-149", mi);
		if (mi->aux)
			expect_at(g, "RR-146", mi);
		if (mi->pz_bulk >= 1024)
			expect_at(g, "RR-050", mi);
		if (mi->handle32)
			expect_at(g, "RR-210", mi);
		/* RPCSEC_GSS (RFC 8166 8.2.2): context control messages are never
		 * reduced; with integrity or privacy no item is DDP-eligible, and
		 * large messages go Long. A normal answer then processed a call
		 * with a non-eligible chunk (RR-065). */
		if (mi->gss >= PG_GSS_INIT && mi->gss <= PG_GSS_DESTROY && (mi->npos || mi->nwrites)) {
			expect_at(g, "RR-151", mi);
			mi->flags |= PG_EXF_INELIGIBLE;
		}
		if ((mi->gss == PG_GSS_INTEG || mi->gss == PG_GSS_PRIV) && mi->npos) {
			expect_at(g, "RR-152", mi);
			mi->flags |= PG_EXF_INELIGIBLE;
		}
		if ((mi->gss == PG_GSS_INTEG || mi->gss == PG_GSS_PRIV) && mi->proc == RDMA_NOMSG &&
		    mi->pz_segs)
			expect_at(g, "RR-153", mi);
		if (mi->proc < 32 && (g->refused_types & (1u << mi->proc)))
			expect_at(g, "RR-134", mi);
	}
	if (mi->nfs4)
		g->nfs4_seen = true;
	/* NFSv4 on a server port other than 20049, where the capture shows the
	 * port: the CM REQ's service ID, or every iWARP TCP segment */
	if (mi->nfs4 && !g->port_told && g->s->port != PG_NFS_RDMA_PORT_DEFAULT &&
	    (g->s->handshake || g->s->link->iwarp) && !mi->damaged) {
		g->port_told = true;
		expect_at(g, "RR-200", mi);
	}
	if (!mi->damaged && g->err_chunk_what[0] && mi->reply_segs &&
	    !strcmp(mi->what, g->err_chunk_what) && mi->reply_total > g->err_chunk_rc) {
		/* the request ERR_CHUNK refused, again with a larger Reply chunk */
		g->err_chunk_rc = mi->reply_total;
		if (!mi->named_retry && !xid_errdone(g, mi->rdma_xid))
			expect_at(g, "RR-181", mi);
		if (++g->err_chunk_retries >= 4 && !g->retry_run_told) {
			g->retry_run_told = true;
			expect_at(g, "RR-182", mi);
		}
	}
	mi->sends = GPOINTER_TO_UINT(g_hash_table_lookup(g->xid_sends,
							 GUINT_TO_POINTER(mi->rdma_xid))) + 1;
	g_hash_table_insert(g->xid_sends, GUINT_TO_POINTER(mi->rdma_xid),
			    GUINT_TO_POINTER(mi->sends));
	for (guint i = 0; i < g->outstanding->len; i++) {
		const msginfo *o = g->outstanding->pdata[i];
		if (o->rdma_xid == mi->rdma_xid) {
			expect_at(g, "RR-004", mi);
			break;
		}
	}
	for (guint i = 0; i + 1 < g->errdone->len; i += 2) {
		const msginfo *c = g->errdone->pdata[i], *e = g->errdone->pdata[i + 1];
		if (c->rdma_xid != mi->rdma_xid)
			continue;
		/* a rule about the re-sent call: reported at its Send (e, the error, ended the XID) */
		(void)e;
		expect_at(g, e->err == 2 && c->over_limit ? "RR-175" :
			     e->err == 2 && mi->reply_total > c->reply_total ? "RR-180" : "RR-116", mi);
		g_ptr_array_remove_range(g->errdone, i, 2);
		break;
	}
	if (g->s->handshake && !g->reply_seen && g->outstanding->len) {
		expect_at(g, "RR-103", mi);
	} else if (g->granted >= 0) {
		int64_t limit = MIN((int64_t)mi->credit, g->granted);
		if ((int64_t)g->outstanding->len + 1 > limit)
			expect_at(g, "RR-102", mi);
	}
	/* an NFSv4 client that uses its whole grant keeps no credit for a probe */
	if (g->nfs4_seen && g->granted >= 2 && !g->reserve_told &&
	    (int64_t)g->outstanding->len + 1 >= g->granted) {
		g->reserve_told = true;
		expect_at(g, "RR-105", mi);
	}
	g_ptr_array_add(g->outstanding, mi);
}

/* A reply or RDMA_ERROR: which call it answers (RR-003) and how (RR-001,
 * RR-045, RR-065, RR-100, RR-110, RR-111, RR-113, RR-131, RR-149). */
static void audit_reply(gen *g, msginfo *mi)
{
	msginfo *c = NULL;
	bool normal = mi->proc == RDMA_MSG || mi->proc == RDMA_NOMSG || mi->proc == RDMA_MSGP;
	bool errvers = mi->proc == RDMA_ERROR && mi->err == 1;
	audit_size(g, mi);
	if (mi->backchannel) {
		/* XIDs of the two directions are separate spaces (RFC 8166 7.1) */
		if (!mi->credit && !mi->damaged)
			expect_at(g, "RR-101", mi);
		for (guint i = 0; normal && i < g->cb_outstanding->len; i++) {
			msginfo *o = g->cb_outstanding->pdata[i];
			if (o->rdma_xid != mi->rdma_xid)
				continue;
			g_ptr_array_remove_index(g->cb_outstanding, i);
			if ((o->flags & PG_EXF_MALFORMED) && !mi->damaged)
				expect_at(g, "RR-113", mi);
			if ((o->flags & PG_EXF_INELIGIBLE) && !mi->damaged)
				expect_at(g, "RR-065", mi);
			break;
		}
		if (normal && mi->credit) {
			g->cb_granted = mi->credit;
			grant_change(g, mi, 1);
		}
		return;
	}
	if (mi->proc > RDMA_ERROR || mi->proc == RDMA_DONE)
		return; /* not a reply that a checker can recognise */
	for (guint i = 0; i < g->outstanding->len; i++) {
		msginfo *o = g->outstanding->pdata[i];
		if (o->rdma_xid == mi->rdma_xid) {
			c = o;
			g_ptr_array_remove_index(g->outstanding, i);
			break;
		}
	}
	if (c) {
		/* outcomes, at the answer: a Long Call or a reply through the
		 * Reply chunk that failed with RDMA_ERROR or GARBAGE_ARGS (RR-230,
		 * once per XID); else a call that went out three or more times
		 * before this answer ended its XID (RR-232) */
		gpointer n = g_hash_table_lookup(g->xid_sends, GUINT_TO_POINTER(c->rdma_xid));
		gpointer key = GUINT_TO_POINTER(c->rdma_xid);
		bool failed = mi->proc == RDMA_ERROR || (mi->flags & PG_EXF_GARBAGE);
		bool lng = (c->proc == RDMA_NOMSG && c->pz_segs) || mi->proc == RDMA_NOMSG;
		if (failed && lng && !mi->damaged && !g_hash_table_contains(g->long_failed, key)) {
			g_hash_table_add(g->long_failed, key);
			expect_at(g, "RR-230", mi);
		}
		if (GPOINTER_TO_UINT(n) >= 3 && !mi->damaged && !g_hash_table_contains(g->long_failed, key))
			expect_at(g, "RR-232", mi);
		g_hash_table_remove(g->xid_sends, GUINT_TO_POINTER(c->rdma_xid));
	}
	if (!c) {
		if (!mi->damaged)
			expect_at(g, "RR-003", mi);
	} else if (!mi->damaged && !c->damaged) {
		if (c->vers != 1) {
			if (normal)
				expect_at(g, "RR-001", c);
			if (!errvers)
				expect_at(g, "RR-111", mi);
		} else if (errvers) {
			expect_at(g, "RR-111", mi);
		}
		if (errvers && c->vers != 1 &&
		    (mi->low > mi->high || (mi->low <= c->vers && c->vers <= mi->high)))
			expect_at(g, "RR-111", mi);
		if (mi->proc == RDMA_ERROR && mi->vers != c->vers)
			expect_at(g, "RR-110", mi);
		if (normal) {
			if (c->flags & PG_EXF_MALFORMED)
				expect_at(g, "RR-113", mi);
			if (c->flags & PG_EXF_INELIGIBLE)
				expect_at(g, "RR-065", mi);
			if (c->proc == RDMA_MSGP && !g->s->rfc5666)
				expect_at(g, "RR-131", mi);
			/* RFC 5666 3.6: a Reply chunk offered means a Long reply */
			if (g->s->rfc5666 && c->reply_segs && mi->proc == RDMA_MSG)
				expect_at(g, "RR-046", mi);
			if (c->over_limit && mi->nfs4_status &&
			    (mi->nfs4_status == 10018 || mi->nfs4_status == 10065 ||
			     mi->nfs4_status == 10070))
				expect_at(g, "RR-174", mi);
			if (mi->rc_read >= 1024 && !c->nwrites && mi->proc == RDMA_NOMSG)
				expect_at(g, "RR-094", mi);
			if ((mi->flags & PG_EXF_GARBAGE) && mi->proc == RDMA_NOMSG)
				expect_at(g, "RR-114", mi);
			if (mi->has_rpc && !has_ulb(mi))
				expect_at(g, "RR-149", mi);
			/* Only against a threshold the capture shows: 1024 is merely assumed without it. */
			if (c->reply_total && mi->proc == RDMA_MSG && mi->wire_len > threshold(g) && g->s->handshake)
				expect_at(g, "RR-045", mi);
		}
	}
	if (c && normal && !mi->damaged && mi->writes_used &&
	    (c->gss == PG_GSS_INTEG || c->gss == PG_GSS_PRIV))
		expect_at(g, "RR-152", mi);
	if (c && mi->proc == RDMA_ERROR && mi->err == 2 && !mi->damaged && !c->damaged) {
		if (!c->reply_segs && c->big_reply)
			expect_at(g, "RR-044", mi);
		else if (c->nfs4 && !c->over_limit && !(c->flags & (PG_EXF_MALFORMED | PG_EXF_INELIGIBLE)) &&
			 !expected_at(g, c))
			expect_at(g, "RR-173", mi);
	}
	if (c && mi->proc == RDMA_ERROR && mi->err == 2) {
		if (c->proc == RDMA_MSGP)
			g->refused_types |= 1u << RDMA_MSGP;
		if (strcmp(c->what, g->err_chunk_what)) {
			g_strlcpy(g->err_chunk_what, c->what, sizeof(g->err_chunk_what));
			g->err_chunk_retries = 0;
			g->retry_run_told = false;
		}
		g->err_chunk_rc = c->reply_total;
	} else if (c && normal && !strcmp(c->what, g->err_chunk_what)) {
		g->err_chunk_what[0] = 0;
	}
	if (c && mi->proc == RDMA_ERROR) {
		g_ptr_array_add(g->errdone, c);
		g_ptr_array_add(g->errdone, mi);
	}
	if (normal) {
		if (!mi->credit && !mi->damaged)
			expect_at(g, "RR-100", mi);
		g->granted = mi->credit;
		g->reply_seen = true;
		if (mi->credit)
			grant_change(g, mi, 0);
	}
}

/* Record what a message carries once it is final. */
static void fill_info(msginfo *mi, const pg_rdmamsg *m, const pg_rpc_pair *rp, bool call,
		      bool backchannel, uint32_t wire_len)
{
	GHashTable *pos = g_hash_table_new(g_direct_hash, g_direct_equal);
	bool pz_ended = false;
	mi->call = call;
	mi->backchannel = backchannel;
	mi->rdma_xid = m->xid;
	mi->vers = m->vers;
	mi->credit = m->credit;
	mi->proc = m->proc;
	mi->err = m->err;
	mi->low = m->low;
	mi->high = m->high;
	mi->wire_len = wire_len;
	mi->has_rpc = rp && m->proc != RDMA_ERROR && m->proc != RDMA_DONE;
	if (mi->has_rpc) {
		mi->program = rp->program;
		mi->version = rp->version;
	}
	if (m->proc == RDMA_ERROR || m->proc == RDMA_DONE) {
		g_hash_table_destroy(pos);
		return;
	}
	for (guint i = 0; i < m->reads->len; i++) {
		const pg_chunk *c = m->reads->pdata[i];
		uint32_t n = c->segs->len;
		if (!c->position) {
			mi->pz_split |= pz_ended && n;
			mi->pz_segs += n;
		} else if (mi->pz_segs) {
			pz_ended = true;
		}
		n += GPOINTER_TO_UINT(g_hash_table_lookup(pos, GUINT_TO_POINTER(c->position + 1)));
		g_hash_table_insert(pos, GUINT_TO_POINTER(c->position + 1), GUINT_TO_POINTER(n));
		mi->max_at_pos = MAX(mi->max_at_pos, n);
		if (c->position)
			mi->max_at_nzpos = MAX(mi->max_at_nzpos, n);
		if (c->position && n == (uint32_t)c->segs->len)
			mi->npos++;
	}
	g_hash_table_destroy(pos);
	mi->nwrites = m->writes->len;
	for (guint i = 0; i < m->writes->len; i++) {
		const pg_chunk *c = m->writes->pdata[i];
		mi->max_wsegs = MAX(mi->max_wsegs, (m->returned ? c->ret : c->segs)->len);
		for (guint k = 0; m->returned && k < c->ret->len; k++)
			mi->writes_used |= g_array_index(c->ret, pg_seg, k).length != 0;
	}
	if (m->reply) {
		const GArray *s = m->returned ? m->reply->ret : m->reply->segs;
		mi->reply_segs = s->len;
		for (guint i = 0; i < s->len; i++)
			mi->reply_total += g_array_index(s, pg_seg, i).length;
	}
}

/* What the RPC of an exchange is, for the checks that look past the
 * transport header: the request's identity (retries), the reply size
 * class (RR-044), the NFS binding limits, bulk data inside Long messages. */
static void exch_facts(pg_exch *ex)
{
	const pg_rpc_pair *rp = &ex->rp;
	const pg_item *it = &ex->itc;
	msginfo *c = ex->cmi, *r = ex->rmi;
	GString *w = g_string_new(NULL);
	bool v4 = rp->program == PG_PROG_NFS && rp->version == 4 && !rp->backchannel;
	bool getattr = false, read = false, readlink = false;

	c->gss = r->gss = it->gss;
	g_string_printf(w, "%u/%u/%u", rp->program, rp->version, rp->procedure);
	for (guint i = 0; rp->opnames && i < rp->opnames->len; i++)
		g_string_append_printf(w, "%s%s", i ? "," : ":", (const char *)rp->opnames->pdata[i]);
	g_strlcpy(c->what, w->str, sizeof(c->what));
	g_string_free(w, TRUE);
	c->nfs4 = v4;
	c->cb40 = rp->backchannel && it->nfsver == PG_V40;
	for (guint i = 0; i < it->ops->len; i++) {
		uint32_t op = g_array_index(it->ops, pg_nfsop, i).op;
		if (v4 && (op == OP4_GETATTR || op == OP4_READDIR || op == OP4_READLINK))
			c->big_reply = true;
		getattr |= v4 && op == OP4_GETATTR;
		read |= v4 && op == OP4_READ;
		readlink |= v4 && op == OP4_READLINK;
		if (v4 && op && !r->nfs4_status && ex->plan.reply.proc != RDMA_ERROR)
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
	/* a read segment handle advertised again and again (RR-210) */
	for (guint i = 0; !rp->backchannel && i < ex->plan.call.reads->len; i++) {
		const pg_chunk *ch = ex->plan.call.reads->pdata[i];
		for (guint k = 0; k < ch->segs->len; k++) {
			gpointer h = GUINT_TO_POINTER(g_array_index(ch->segs, pg_seg, k).handle);
			uint32_t n = GPOINTER_TO_UINT(g_hash_table_lookup(ex->g->handle_calls, h)) + 1;
			g_hash_table_insert(ex->g->handle_calls, h, GUINT_TO_POINTER(n));
			if (n >= 32 && !ex->g->handle_told) {
				ex->g->handle_told = true;
				c->handle32 = true;
			}
		}
	}
	/* eligible arguments left inside the Position-Zero read chunk */
	if (ex->plan.call.proc == RDMA_NOMSG && c->pz_segs) {
		for (guint i = 0; i < rp->call.ddp->len; i++) {
			const pg_shape *sh = &it->call;
			unsigned k = sh->n ? MIN(i, (unsigned)sh->n - 1) : 0;
			bool reduced = sh->chunked && sh->n && sh->nseg[k];
			if (!reduced)
				c->pz_bulk = MAX(c->pz_bulk, g_array_index(rp->call.ddp, pg_ddp, i).len);
		}
	}
	/* READ data returned through the Reply chunk */
	if (ex->plan.reply.proc == RDMA_NOMSG && ex->plan.reply.reply &&
	    ((rp->program == PG_PROG_NFS && rp->version == 3 && rp->procedure == NFS3_READ) ||
	     (read && !readlink)))
		for (guint i = 0; i < rp->reply.ddp->len; i++)
			r->rc_read = MAX(r->rc_read, g_array_index(rp->reply.ddp, pg_ddp, i).len);
}

/* ---- RDMA operations ------------------------------------------------- */

#define OWNER_EXCHANGE (-2) /* the message the exchange's chunk belongs to */

/* Reads or Writes that move a chunk's bytes, covering its segments one
 * op per segment, one op for the whole (contiguous) chunk, or K ops per
 * segment. lengths: the bytes actually in each segment. */
static void chunk_ops(gen *g, const pg_item *it, const pg_chunk *c, const GArray *segs, int kind,
		      int owner, GArray *ops)
{
	const uint8_t *data = c->data->data;
	uint32_t at = 0, total = 0;
	for (guint i = 0; i < segs->len; i++)
		total += g_array_index(segs, pg_seg, i).length;
	if (!total)
		return;
	if (it->cover == PG_COVER_COALESCE && c->one_mr) {
		const pg_seg *s0 = &g_array_index(segs, pg_seg, 0);
		pg_op op = { .kind = kind, .data = data, .len = total, .rkey = s0->handle,
			     .va = s0->offset, .owner = owner };
		if (kind == PG_OP_READ) {
			op.sink_stag = pg_mem_key(&g->mem, PG_SERVER);
			op.sink_to = pg_mem_va(&g->mem, PG_SERVER, total);
		}
		g_array_append_val(ops, op);
		return;
	}
	for (guint i = 0; i < segs->len; i++) {
		const pg_seg *s = &g_array_index(segs, pg_seg, i);
		uint32_t k = it->cover == PG_COVER_SPLIT ? MIN(it->split, s->length) : 1, off = 0;
		uint32_t sink = 0;
		uint64_t sink_to = 0;
		if (!s->length)
			continue;
		if (kind == PG_OP_READ) {
			sink = pg_mem_key(&g->mem, PG_SERVER);
			sink_to = pg_mem_va(&g->mem, PG_SERVER, s->length);
		}
		for (uint32_t p = 0; p < k; p++) {
			uint32_t n = s->length / k + (p < s->length % k ? 1 : 0);
			pg_op op = { .kind = kind, .data = data + at + off, .len = n,
				     .rkey = s->handle, .va = s->offset + off, .owner = owner,
				     .sink_stag = sink, .sink_to = sink_to + off };
			g_array_append_val(ops, op);
			off += n;
		}
		at += s->length;
	}
}

static pg_op send_op(const pg_rdmamsg *m, int owner)
{
	pg_op op = { .kind = PG_OP_SEND, .data = m->wire->data, .len = m->wire->len, .owner = owner };
	return op;
}

static uint32_t invalidate_key(const pg_plan *p)
{
	/* Linux's server invalidates the MR of the first chunk it used */
	for (guint i = 0; i < p->write_chunks->len; i++) {
		const pg_chunk *c = p->write_chunks->pdata[i];
		if (c->segs->len)
			return g_array_index(c->segs, pg_seg, 0).handle;
	}
	if (p->reply_chunk)
		return g_array_index(p->reply_chunk->segs, pg_seg, 0).handle;
	if (p->read_chunks->len)
		return g_array_index(((pg_chunk *)p->read_chunks->pdata[0])->segs, pg_seg, 0).handle;
	return 0;
}


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

static void set_dup(pg_op *op, const pg_item *it, unsigned tgt)
{
	op->dup = (it->dup & tgt) != 0;
	op->reorder = (it->reorder & tgt) != 0;
}

static void set_owner(GArray *ops, int id)
{
	for (guint i = 0; i < ops->len; i++) {
		pg_op *o = &g_array_index(ops, pg_op, i);
		if (o->owner == OWNER_EXCHANGE)
			o->owner = id;
	}
}

static uint32_t be32_at(const GByteArray *b)
{
	return b->len < 4 ? 0 : (uint32_t)b->data[0] << 24 | (uint32_t)b->data[1] << 16 |
				    (uint32_t)b->data[2] << 8 | b->data[3];
}

static int add_truth(gen *g, const pg_item *it, const pg_rdmamsg *m, const pg_rpc_pair *rp,
		     uint32_t xid, bool call, int sender, bool not_on_wire)
{
	pg_tmsg_info ti = { 0 };
	GPtrArray *reply_ops = NULL;
	int id;
	ti.xid = xid;
	ti.rdma_xid = m->xid;
	ti.call = call;
	ti.sender = sender;
	ti.rdma_proc = pg_rdma_proc_name(m->proc);
	ti.credit = m->credit;
	ti.has_rpc = rp && m->proc != RDMA_ERROR && m->proc != RDMA_DONE;
	if (ti.has_rpc) {
		ti.program = rp->program;
		ti.version = rp->version;
		ti.procedure = rp->procedure;
		ti.opnames = rp->opnames;
		if (!call && rp->opnames && rp->reply_nops < rp->opnames->len) {
			/* The reply names the ops it answers: up to the first failure. */
			reply_ops = g_ptr_array_new();
			for (guint k = 0; k < rp->reply_nops; k++)
				g_ptr_array_add(reply_ops, rp->opnames->pdata[k]);
			ti.opnames = reply_ops;
		}
		ti.payload = call ? rp->call.msg : rp->reply.msg;
		/* the RPC XID is the one in the Payload (an injector may change it) */
		ti.xid = be32_at(ti.payload);
		ti.backchannel = rp->backchannel;
	}
	ti.line = it->line;
	ti.not_on_wire = not_on_wire;
	id = pg_truth_add(g->truth, &ti);
	if (reply_ops)
		g_ptr_array_free(reply_ops, TRUE);
	pg_truth_chunks(g->truth, id, m);
	return id;
}

static void exch_free(pg_exch *ex)
{
	if (!ex)
		return;
	pg_plan_clear(&ex->plan);
	pg_rpc_pair_clear(&ex->rp);
	g_array_free(ex->reads, TRUE);
	g_array_free(ex->writes, TRUE);
	g_array_free(ex->after, TRUE);
	g_array_free(ex->inj, TRUE);
	g_ptr_array_free(ex->scratch, TRUE);
	g_free(ex);
}

static pg_exch *exch_new(gen *g, const pg_item *it)
{
	pg_exch *ex = g_new0(pg_exch, 1);
	ex->g = g;
	ex->it = it;
	ex->itc = *it;
	ex->inj = inj_states(it);
	ex->reads = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->writes = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->after = g_array_new(FALSE, TRUE, sizeof(pg_op));
	ex->scratch = g_ptr_array_new_with_free_func(g_free);
	ex->cmi = info_new(g);
	ex->rmi = info_new(g);
	return ex;
}

/* The call half of an exchange: the call's Send and the responder's RDMA
 * Reads. Returns NULL (with *g->err set) on a scenario error. */
static pg_exch *exch_call(gen *g, const pg_item *it, uint32_t rep)
{
	pg_exch *ex = exch_new(g, it);
	bool cb = it->kind == PG_ITEM_CB, fresh = !it->has_xid, none = it->reply.none;
	uint32_t xid = it->has_xid ? it->xid + rep : g->next_xid[cb], x0 = xid, snap;
	uint32_t credit = it->credits ? it->credits : g->s->credits;
	pg_rng data_rng = pg_rng_derive(g->s->seed, 0x444154, g->msg_index++);
	pg_plan_opts o = { 0, credit, credit, g->s->inline_max, g->s->inline_check };
	pg_op op;
	char *perr = NULL;
	bool off_wire;

	ex->cb = cb;
	ex->req = cb ? PG_SERVER : PG_CLIENT;
	ex->resp = !ex->req;
	run_stage(ex, ST_PREP, true, NULL, NULL, &xid);
	if (fresh && xid == x0)
		g->next_xid[cb]++;
	ex->xid = o.xid = xid;
	pg_nfs_build(&g->nfs, &ex->itc, xid, &data_rng, &ex->rp);
	g->total += ex->rp.call.msg->len + ex->rp.reply.msg->len;
	if (g->total > PG_MAX_TOTAL_DATA) {
		gfail(g, it, g_strdup_printf("the scenario moves more than %u MiB",
					     PG_MAX_TOTAL_DATA >> 20));
		exch_free(ex);
		return NULL;
	}
	run_stage(ex, ST_PLAN, true, NULL, NULL, NULL);
	run_stage(ex, ST_PLAN, false, NULL, NULL, NULL);
	if (!pg_plan_build(&ex->plan, &ex->itc, &ex->rp, &o, &g->mem, &perr)) {
		gfail(g, it, perr);
		exch_free(ex);
		return NULL;
	}
	/* Data movement follows the plan; header injectors that lie about
	 * it must not change what is actually transferred. A responder that
	 * rejects the call (or never answers) never pulls its chunks. */
	if (ex->plan.reply.proc != RDMA_ERROR && !none) {
		for (guint i = 0; i < ex->plan.read_chunks->len; i++) {
			const pg_chunk *c = ex->plan.read_chunks->pdata[i];
			chunk_ops(g, &ex->itc, c, c->segs, PG_OP_READ, OWNER_EXCHANGE, ex->reads);
		}
		for (guint i = 0; i < ex->plan.write_chunks->len; i++) {
			const pg_chunk *c = ex->plan.write_chunks->pdata[i];
			chunk_ops(g, &ex->itc, c, c->ret, PG_OP_WRITE, OWNER_EXCHANGE, ex->writes);
		}
		if (ex->plan.reply_chunk)
			chunk_ops(g, &ex->itc, ex->plan.reply_chunk, ex->plan.reply_chunk->ret,
				  PG_OP_WRITE, OWNER_EXCHANGE, ex->writes);
	}
	run_stage(ex, ST_OPS, true, NULL, NULL, NULL);
	run_stage(ex, ST_OPS, false, NULL, NULL, NULL);
	run_stage(ex, ST_HEADER, true, &ex->plan.call, NULL, NULL);
	/* RDMA_ERROR copies the failing message's rdma_vers (RFC 8166 4.5) */
	if (ex->plan.reply.proc == RDMA_ERROR)
		ex->plan.reply.vers = ex->plan.call.vers;
	run_stage(ex, ST_HEADER, false, &ex->plan.reply, NULL, NULL);
	pg_plan_encode(&ex->plan);
	if (!any_applied(ex->inj) && !pg_plan_check_inline(&ex->plan, it, &o, &perr)) {
		gfail(g, it, perr);
		exch_free(ex);
		return NULL;
	}

	off_wire = ((ex->plan.reply.proc == RDMA_ERROR || none) && ex->plan.read_chunks->len) ||
		   (ex->cmi->flags & PG_EXF_CALL_OFF_WIRE);
	ex->cid = add_truth(g, it, &ex->plan.call, &ex->rp, xid, true, ex->req, off_wire);
	if ((snap = run_stage(ex, ST_CAPTURE, true, &ex->plan.call, NULL, NULL)))
		pg_truth_set_snap(g->truth, ex->cid, snap);
	set_owner(ex->reads, ex->cid);

	op = send_op(&ex->plan.call, ex->cid);
	set_dup(&op, it, PG_TGT_CALL);
	run_stage(ex, ST_WIRE, true, &ex->plan.call, &op, NULL);
	fill_info(ex->cmi, &ex->plan.call, &ex->rp, true, cb, op.len);
	exch_facts(ex);
	ex->cmi->damaged |= (ex->cmi->flags & PG_EXF_DAMAGED) != 0;
	ex->cmi->emitted = true;
	op.frame_out = &ex->cmi->send_frame;
	g->x->burst(g->x, ex->req, &op, 1);
	audit_call(g, ex->cmi);
	if (ex->reads->len)
		g->x->burst(g->x, ex->resp, (pg_op *)(void *)ex->reads->data, ex->reads->len);
	if (!cb) {
		g->last_xid = xid;
		g->prev_xid = xid;
		g->have_prev = true;
	}
	return ex;
}

/* The reply half: RDMA Writes, the reply's Send, late operations. */
static void exch_reply(gen *g, pg_exch *ex)
{
	const pg_item *it = ex->it;
	uint32_t snap;
	int rid;
	pg_op op;

	if (ex->it->reply.none) {
		record_injected(g, ex->inj, ex->cid, true, false);
		return;
	}
	rid = add_truth(g, it, &ex->plan.reply, &ex->rp, ex->xid, false, ex->resp,
			(ex->rmi->flags & PG_EXF_REPLY_OFF_WIRE) != 0);
	if ((snap = run_stage(ex, ST_CAPTURE, false, &ex->plan.reply, NULL, NULL)))
		pg_truth_set_snap(g->truth, rid, snap);
	set_owner(ex->writes, rid);
	set_owner(ex->after, -1);

	op = send_op(&ex->plan.reply, rid);
	set_dup(&op, it, PG_TGT_REPLY);
	op.solicited = it->se;
	if (it->invalidate && !ex->cb && ex->plan.reply.proc != RDMA_ERROR) {
		op.inv_rkey = invalidate_key(&ex->plan);
		op.invalidate = op.inv_rkey != 0;
	}
	run_stage(ex, ST_WIRE, false, &ex->plan.reply, &op, NULL);
	fill_info(ex->rmi, &ex->plan.reply, &ex->rp, false, ex->cb, op.len);
	/* Send With Invalidate of a handle the call never advertised, or
	 * (where the handshake shows the RFC 8797 flags) against them */
	if (op.invalidate && !(ex->rmi->flags & PG_EXF_DAMAGED) &&
	    (!call_advertised(&ex->plan, op.inv_rkey) || (g->s->handshake && !g->s->remote_inv)))
		expect_at(g, "RR-215", ex->rmi);
	ex->rmi->damaged |= (ex->rmi->flags & PG_EXF_DAMAGED) != 0;
	ex->rmi->emitted = true;
	op.frame_out = &ex->rmi->send_frame;
	g_array_append_val(ex->writes, op);
	pg_cap_gap(g->xctx.cap, 30);
	g->x->burst(g->x, ex->resp, (pg_op *)(void *)ex->writes->data, ex->writes->len);
	audit_reply(g, ex->rmi);
	if (ex->after->len) {
		pg_cap_gap(g->xctx.cap, 20);
		g->x->burst(g->x, ex->resp, (pg_op *)(void *)ex->after->data, ex->after->len);
	}
	record_injected(g, ex->inj, ex->cid, true, false);
	record_injected(g, ex->inj, rid, false, false);
}

static void flush_pending(gen *g)
{
	for (guint i = 0; i < g->pending->len; i++) {
		pg_exch *ex = g->pending->pdata[i];
		exch_reply(g, ex);
		exch_free(ex);
	}
	g_ptr_array_set_size(g->pending, 0);
}

static bool do_rpc(gen *g, const pg_item *it, uint32_t rep)
{
	pg_exch *ex = exch_call(g, it, rep);
	if (!ex)
		return false;
	if (it->pipeline) {
		/* its reply waits for the next call that is not pipelined */
		g_ptr_array_add(g->pending, ex);
		return true;
	}
	flush_pending(g);
	exch_reply(g, ex);
	exch_free(ex);
	return true;
}

/* RDMA_DONE from the requester or a standalone RDMA_ERROR from the
 * responder: header-only Sends. */
static bool do_simple(gen *g, const pg_item *it)
{
	bool done = it->kind == PG_ITEM_DONE;
	int from = done ? PG_CLIENT : PG_SERVER, id;
	uint32_t xid = it->has_xid ? it->xid : g->last_xid, snap;
	pg_exch *ex;
	pg_rdmamsg m;
	pg_op op;

	flush_pending(g);
	ex = exch_new(g, it);
	ex->simple = true;
	ex->rmi = ex->cmi; /* one message: both anchors are its Send */
	ex->resp = !from;
	pg_rdmamsg_simple(&m, xid, done ? RDMA_DONE : RDMA_ERROR,
			  it->credits ? it->credits : g->s->credits);
	m.err = (uint32_t)it->err_code;
	m.low = it->err_low;
	m.high = it->err_high;
	run_stage(ex, ST_HEADER, done, &m, NULL, NULL);
	pg_rdmamsg_encode(&m);
	id = add_truth(g, it, &m, NULL, xid, done, from, false);
	if ((snap = run_stage(ex, ST_CAPTURE, done, &m, NULL, NULL)))
		pg_truth_set_snap(g->truth, id, snap);
	op = send_op(&m, id);
	run_stage(ex, ST_WIRE, done, &m, &op, NULL);
	fill_info(ex->cmi, &m, NULL, done, false, op.len);
	ex->cmi->damaged |= (ex->cmi->flags & PG_EXF_DAMAGED) != 0;
	ex->cmi->emitted = true;
	op.frame_out = &ex->cmi->send_frame;
	g->x->burst(g->x, from, &op, 1);
	if (done) {
		audit_size(g, ex->cmi);
		if (!ex->cmi->damaged)
			expect_at(g, "RR-132", ex->cmi);
	} else {
		audit_reply(g, ex->cmi);
	}
	record_injected(g, ex->inj, id, done, true);
	pg_rdmamsg_clear(&m);
	exch_free(ex);
	return true;
}

/* Frames are known once everything is written: anchors become numbers. */
static void write_expectations(gen *g)
{
	if (!g->s->expect_always && !g->any_injected)
		return;
	pg_truth_expect_enable(g->truth);
	for (guint i = 0; i < g->expects->len; i++) {
		const expect_t *e = g->expects->pdata[i];
		uint32_t frame = e->msg ? e->msg->send_frame : e->frame;
		if (e->msg && !e->msg->emitted)
			continue; /* aimed at a message that was never sent */
		if (!frame)
			pg_bug("expectation %s without a frame", e->rule);
		pg_truth_expect(g->truth, e->rule, frame);
	}
}

int pg_generate(const pg_scenario *s, const char *pcap_path, const char *truth_path, char **err)
{
	gen g;
	pg_rng r = pg_rng_derive(s->seed, 0x584944, 0);
	pg_conninfo ci;
	bool ok = true;
	int rc = 0;
	uint32_t nframes;

	memset(&g, 0, sizeof(g));
	*err = NULL;
	g.s = s;
	g.err = err;
	g.truth = pg_truth_new();
	g.pending = g_ptr_array_new();
	g.infos = g_ptr_array_new_with_free_func(g_free);
	g.expects = g_ptr_array_new_with_free_func(g_free);
	g.outstanding = g_ptr_array_new();
	g.cb_outstanding = g_ptr_array_new();
	g.errdone = g_ptr_array_new();
	g.granted = -1;
	g.cb_granted = g.grant_seen[0] = g.grant_seen[1] = -1;
	g.xid_sends = g_hash_table_new(g_direct_hash, g_direct_equal);
	g.long_failed = g_hash_table_new(g_direct_hash, g_direct_equal);
	g.handle_calls = g_hash_table_new(g_direct_hash, g_direct_equal);
	pg_nfs_state_init(&g.nfs, s->seed);
	pg_mem_init(&g.mem, s->seed);
	g.next_xid[0] = pg_rng_u32(&r);
	g.next_xid[1] = pg_rng_u32(&r);
	g.last_xid = g.next_xid[0];
	g.xctx.s = s;
	g.xctx.seed = s->seed;
	g.xctx.inline_max = s->inline_max;
	g.xctx.remote_inv = s->remote_inv;
	pg_net_init(&g.xctx.net, s->link, s->seed);
	g.xctx.cap = pg_cap_open(pcap_path, s, g.truth, err);
	if (!g.xctx.cap) {
		pg_truth_free(g.truth);
		return 1;
	}
	g.x = s->link->iwarp ? pg_iwarp_new(&g.xctx) : pg_ib_new(&g.xctx);
	g.x->connect(g.x);
	for (guint i = 0; ok && i < s->items->len; i++) {
		const pg_item *it = s->items->pdata[i];
		switch (it->kind) {
		case PG_ITEM_RPC:
		case PG_ITEM_CB:
			for (uint32_t k = 0; ok && k < it->repeat; k++) {
				ok = do_rpc(&g, it, k);
				pg_cap_gap(g.xctx.cap, pg_rng_range(&r, 40, 400));
			}
			break;
		case PG_ITEM_DONE:
		case PG_ITEM_ERROR:
			ok = do_simple(&g, it);
			break;
		case PG_ITEM_TERMINATE:
			flush_pending(&g);
			g.x->terminate(g.x, PG_SERVER);
			break;
		}
	}
	if (ok)
		flush_pending(&g);
	for (guint i = 0; i < g.pending->len; i++)
		exch_free(g.pending->pdata[i]);
	if (ok)
		g.x->disconnect(g.x);
	g.x->conninfo(g.x, &ci);
	nframes = pg_cap_count(g.xctx.cap);
	if (ok)
		write_expectations(&g);
	if (!ok) {
		char *dummy = NULL;
		pg_cap_close(g.xctx.cap, &dummy);
		g_free(dummy);
		(void)remove(pcap_path);
		rc = 2;
	} else if (!pg_cap_close(g.xctx.cap, err) ||
		   !pg_truth_write(g.truth, truth_path, s, &ci, nframes, err)) {
		rc = 1;
	}
	g.x->destroy(g.x);
	pg_truth_free(g.truth);
	g_ptr_array_free(g.pending, TRUE);
	g_ptr_array_free(g.infos, TRUE);
	g_ptr_array_free(g.expects, TRUE);
	g_ptr_array_free(g.outstanding, TRUE);
	g_ptr_array_free(g.cb_outstanding, TRUE);
	g_ptr_array_free(g.errdone, TRUE);
	g_hash_table_destroy(g.xid_sends);
	g_hash_table_destroy(g.long_failed);
	g_hash_table_destroy(g.handle_calls);
	return rc;
}
