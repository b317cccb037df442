// SPDX-License-Identifier: GPL-2.0-or-later
/* The proxy's own backward calls to the client, broken on purpose (proxy_back.h). */
#include "react.h"
#include "proxy_back.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/hdr.h>
#include <rpcrdma/rpc.h>

#include "agent.h"
#include "proxy_inject.h"
#include "proxy_sinject.h"

/* The scenario the generator's hooks see: the capture holds the handshake
 * (the proxy captures its client leg from before the client connects). */
static const pg_scenario live_back = { .handshake = true };

/* XIDs of the proxy's backward calls: apart from the server's (a collision
 * would mean the client answered the server's call to us). */
#define PXB_XID_BASE 0xcb0a0000u

void px_back_init(struct px_back *b, const struct px_back_mem *mem)
{
	memset(b, 0, sizeof(*b));
	inj_live_init(&b->lv, &live_back, 0xcb0a);
	b->lv.backward = true;
	pg_nfs_state_init(&b->nfs, 0xcb0a);
	b->mem = *mem;
	b->next_xid = PXB_XID_BASE;
	b->item = -1;
}

static void call_free(struct px_back *b, struct px_back_call *c)
{
	for (unsigned i = 0; i < c->n_chunks; i++)
		b->mem.dereg(b->mem.ctx, &c->chunk[i]);
	if (c->wire)
		g_byte_array_free(c->wire, TRUE);
	if (c->payload)
		g_byte_array_free(c->payload, TRUE);
	memset(c, 0, sizeof(*c));
}

static void calls_free(struct px_back *b)
{
	for (unsigned i = 0; i < b->n; i++)
		call_free(b, &b->calls[i]);
	b->n = b->n_sent = b->n_answered = 0;
	b->item = -1;
	b->t0 = 0;
	b->judged = false;
}

void px_back_connection(struct px_back *b)
{
	calls_free(b);
	b->ready = false;
	b->have_grant = false;
	b->grant = 0;
	b->server_out = 0;
}

void px_back_replied(struct px_back *b, const struct rr_ulp_info *call, const uint8_t *rpc, size_t len)
{
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	struct rr_ulp_info out;

	if (!call)
		return;
	for (unsigned i = 0; i < call->n_ops && i < RR_ULP_MAX_OPS; i++)
		/* DESTROY_SESSION (RFC 8881 §18.37): the back channel goes with the session. */
		if (call->vers == 4 && call->ops[i] == RR_NFS4_OP_DESTROY_SESSION)
			b->ready = false;
	if (!call->sess.create_session && !call->sess.bind_conn)
		return;
	/* what the server granted, not what the client asked: csr_flags, bctsr_dir
	 * (RFC 8881 §18.36.3, §18.34.3), in a reply that succeeded */
	rr_cursor_init(&c, rpc, len);
	memset(&out, 0, sizeof(out));
	if (!rr_rpc_decode_reply(&c, &rep) || rep.reply_stat || rep.accept_stat ||
	    rr_ulp_walk_reply(call, &rep, &c, NULL, NULL, &out) != RR_ULP_OK || out.status)
		return;
	if ((out.sess.create_session && (out.sess.cs_flags & RR_NFS4_SESSION_CONN_BACK_CHAN)) ||
	    (out.sess.bind_conn && (out.sess.bind_dir & RR_NFS4_CHANNEL_DIR_BACK)))
		b->ready = true;
}

void px_back_server_call(struct px_back *b)
{
	b->server_out++;
}

static void learn_grant(struct px_back *b, uint32_t credit)
{
	b->have_grant = true;
	b->grant = credit;
}

void px_back_client_reply(struct px_back *b, uint32_t credit)
{
	learn_grant(b, credit);
	if (b->server_out)
		b->server_out--;
}

/* One chunk of the plan in memory the client may read (its data) or write. */
static bool map_chunk(struct px_back *b, struct px_back_call *bc, pg_chunk *c, bool remote_write)
{
	struct vb_mr *m = &bc->chunk[bc->n_chunks];
	uint64_t total = 0, off = 0;

	for (guint k = 0; k < c->segs->len; k++)
		total += g_array_index(c->segs, pg_seg, k).length;
	if (bc->n_chunks >= G_N_ELEMENTS(bc->chunk) || !total || total > PG_MAX_PAYLOAD ||
	    !b->mem.reg(b->mem.ctx, m, (size_t)total, remote_write))
		return false;
	bc->n_chunks++;
	if (!remote_write)
		memcpy(m->buf, c->data->data, MIN((size_t)total, (size_t)c->data->len));
	for (guint k = 0; k < c->segs->len; k++) {
		pg_seg *s = &g_array_index(c->segs, pg_seg, k);
		s->handle = m->mr->rkey;
		s->offset = (uint64_t)(uintptr_t)(m->buf + off);
		off += s->length;
	}
	return true;
}

/*
 * CB_NULL as the generator builds it, broken by --inject item i (none for
 * the agent's own entries): planned, its chunks registered, encoded.
 * credit: the credits it asks for.  false: the hook found nothing to
 * change, or the memory could not be registered (said).
 */
static bool build(struct px_back *b, struct agent_run *cl, int i, uint32_t credit, uint32_t cl_inline,
		  struct px_back_call *bc, char *expected, size_t explen)
{
	const struct inj_spec *sp = &cl->inj.v[i];
	pg_item it = { .kind = PG_ITEM_CB, .nfsver = PG_V41, .proc = 0 };
	bool sel[INJ_MAX_SPECS] = { false }, applied[INJ_MAX_SPECS] = { false };
	bool failed[INJ_MAX_SPECS] = { false }, ok = true;
	uint32_t xid = b->next_xid++;
	pg_rng rng = pg_rng_derive(0xcb0a, 0, xid);
	pg_plan_opts o = { xid, credit, credit, cl_inline, false };
	char *perr = NULL;
	pg_exch *ex;

	memset(bc, 0, sizeof(*bc));
	bc->xid = xid;
	ex = inj_live_exch(&b->lv, &it);
	ex->cb = true;
	sel[i] = !sp->def->agent_only;
	pg_nfs_build(&b->nfs, &ex->itc, xid, &rng, &ex->rp);
	inj_live_stage(&b->lv, ex, &cl->inj, sel, INJ_ST_PLAN, true, NULL, &xid, applied, failed);
	if (!pg_plan_build(&ex->plan, &ex->itc, &ex->rp, &o, &b->lv.env.mem, &perr)) {
		agent_mf_event(cl, "backward-not-built", xid, "%s: %s", sp->def->name, perr);
		g_free(perr);
		pg_exch_free(ex);
		return false;
	}
	inj_live_stage(&b->lv, ex, &cl->inj, sel, INJ_ST_OPS, true, NULL, &xid, applied, failed);
	for (guint k = 0; ok && k < ex->plan.read_chunks->len; k++)
		ok = map_chunk(b, bc, ex->plan.read_chunks->pdata[k], false);
	bc->reply_chunk = -1;
	if (ok && ex->plan.reply_chunk) {
		bc->reply_chunk = (int)bc->n_chunks;
		ok = map_chunk(b, bc, ex->plan.reply_chunk, true);
	}
	if (!ok) {
		agent_mf_event(cl, "backward-not-built", xid, "%s: its chunk memory could not be "
			       "registered", sp->def->name);
		pg_exch_free(ex);
		call_free(b, bc);
		return false;
	}
	inj_live_stage(&b->lv, ex, &cl->inj, sel, INJ_ST_HEADER, true, &ex->plan.call, &xid, applied, failed);
	pg_plan_encode(&ex->plan);
	inj_live_stage(&b->lv, ex, &cl->inj, sel, INJ_ST_WIRE, true, &ex->plan.call, &xid, applied, failed);
	g_strlcpy(expected, b->lv.expected, explen);
	bc->wire = g_byte_array_new_take(g_memdup2(ex->plan.call.wire->data, ex->plan.call.wire->len),
					 ex->plan.call.wire->len);
	bc->payload = g_byte_array_new_take(g_memdup2(ex->rp.call.msg->data, ex->rp.call.msg->len),
					    ex->rp.call.msg->len);
	/* a Long Call's Payload is in the chunk the client may never read */
	bc->rebuilt = !ex->plan.read_chunks->len;
	pg_exch_free(ex);
	if (sel[i] && !applied[i]) {
		agent_mf_event(cl, "backward-not-built", xid, "%s changed nothing on a CB_NULL",
			       sp->def->name);
		call_free(b, bc);
		return false;
	}
	return true;
}

/* The first entry of INJ_ST_BACK due after this reply. */
static int due_item(struct px_back *b, const struct agent_run *cl, uint64_t k, uint32_t xid,
		    const struct rr_ulp_info *info)
{
	const char *ops[RR_ULP_MAX_OPS];
	pg_item it;
	/* the call as the generator's item, named as for the replies' injections */
	unsigned n = px_inj_item(info, &it) ? inj_live_ops(&it, ops, G_N_ELEMENTS(ops)) : 0;

	px_inj_item_clear(&it);
	for (unsigned i = 0; i < cl->inj.n; i++) {
		const struct inj_spec *sp = &cl->inj.v[i];
		if (!(inj_def_stages(sp->def, INJ_RESP) & INJ_ST_BACK) || (!sp->n_when && b->fired[i]))
			continue;
		if (inj_selects(sp, INJ_RESP, k, xid, ops, n))
			return (int)i;
	}
	return -1;
}

unsigned px_back_due(struct px_back *b, struct agent_run *cl, uint64_t k, uint32_t xid,
		     const struct rr_ulp_info *info, uint32_t cl_inline)
{
	int i;
	const struct inj_spec *sp;
	unsigned want = 1;
	uint32_t grant, arg;
	bool over;
	char expected[160] = "";

	/* not while the server's own backward calls hold the client's credits */
	if (!b->ready || px_back_waiting(b) || b->server_out || (i = due_item(b, cl, k, xid, info)) < 0)
		return 0;
	calls_free(b);   /* the last injection's calls, kept for late answers */
	sp = &cl->inj.v[i];
	over = !strcmp(sp->def->name, "cb-over-grant");
	b->fired[i] = true;
	/* one credit until a backward reply grants more (RFC 8167 §4.1, RFC 8166 §3.3.3) */
	grant = b->have_grant ? b->grant : 1;
	b->probe = over && !b->have_grant;
	if (over && !b->probe) {
		arg = sp->has_arg ? (uint32_t)MIN(strtoul(sp->arg, NULL, 0), PXB_MAX_CALLS) : 1;
		if (!grant || !arg || grant + arg > PXB_MAX_CALLS) {
			/* no credit to exceed (nothing may go, RFC 8166 §3.3.1), or more than it sends */
			agent_mf_event(cl, "backward-not-sent", xid, "cb-over-grant: the client's backward "
				       "grant is %u; %s", grant, grant ? "the proxy sends at most "
				       G_STRINGIFY(PXB_MAX_CALLS) " calls at once" : "no call may go");
			return 0;
		}
		want = grant + arg;
	}
	/* a probe learns the grant with one call within the credit every requester has; the
	 * calls beyond it go after the next reply selected */
	for (unsigned j = 0; j < want; j++) {
		/* cb-over-grant asks for as many credits as it sends: only the grant limits them */
		if (!build(b, cl, i, want, cl_inline, &b->calls[j], expected, sizeof(expected))) {
			calls_free(b);
			return 0;
		}
		b->n++;
	}
	b->item = i;
	b->within = MIN(grant, want);
	b->granted = grant;
	if (b->probe)
		*b->rule = 0;   /* legal: no finding to expect */
	else if (over)
		g_strlcpy(b->rule, "RR-104", sizeof(b->rule));
	else
		g_strlcpy(b->rule, *expected ? expected : inj_def_rules(sp->def), sizeof(b->rule));
	b->rule[strcspn(b->rule, " ,")] = 0;
	return b->n;
}

void px_back_sent(struct px_back *b, struct agent_run *cl, unsigned n_sent)
{
	const struct inj_spec *sp;
	char note[256], also[128] = "";

	if (b->item < 0 || b->t0)
		return;   /* none built, or these went out already */
	sp = &cl->inj.v[b->item];
	if (!n_sent) {
		calls_free(b);   /* the connection failed under the first: nothing to wait for */
		return;
	}
	b->n_sent = n_sent;
	b->t0 = g_get_monotonic_time();
	fprintf(stderr, AGENT_NAME ": proxy: %s: %u backward call%s to the client (grant %u%s)%s\n",
		sp->def->name, n_sent, n_sent == 1 ? "" : "s", b->granted,
		b->have_grant ? "" : ", none granted yet", b->probe ? ", to learn the grant" : "");
	if (!*b->rule)
		return;   /* legal on purpose (cb-reply-chunk): no finding to expect */
	snprintf(note, sizeof(note), "%s: %s", sp->def->name, inj_def_help(sp->def));
	inj_add_rules(also, sizeof(also), inj_def_rules(sp->def), b->rule);
	/* the over-grant call is the first beyond the grant; the others' own lines name them */
	agent_mf_inject(cl, b->rule, b->calls[MIN(b->within, n_sent - 1)].xid, false, also, note, false);
}

/* The reaction: reaction and verdict lines for the waiting injection.  The calls are
 * kept (their memory registered) for late answers until the next injection. */
static void react(struct px_back *b, struct agent_run *cl, enum jd_answer final)
{
	const struct inj_spec *sp = &cl->inj.v[b->item];
	unsigned within = MIN(b->within, b->n_sent), answered = 0;
	enum jd_answer first = JD_NONE;
	struct jd_reaction jr;

	b->judged = true;
	/* the calls within the grant are owed an answer; the first of them is the answer */
	for (unsigned i = 0; i < within; i++)
		if (b->calls[i].answered && answered++ == 0)
			first = b->calls[i].answer;
	memset(&jr, 0, sizeof(jr));
	jr.answer = final == JD_DISCONNECT ? JD_DISCONNECT : answered < within ? JD_TIMEOUT : first;
	jr.credit = b->have_grant ? b->grant : 0;
	jr.elapsed_ms = (uint32_t)((g_get_monotonic_time() - b->t0) / 1000);
	if (b->probe && jr.answer == JD_REPLY && b->have_grant) {
		b->fired[b->item] = false;   /* the grant is known: the injection itself comes next */
		return;
	}
	if (jr.answer == JD_DISCONNECT)
		snprintf(jr.app_error, sizeof(jr.app_error), "the client's connection went down %u ms "
			 "after the call%s, %u of %u answered", jr.elapsed_ms, b->n_sent > 1 ? "s" : "",
			 b->n_answered, b->n_sent);
	else if (b->n_sent > 1)
		snprintf(jr.app_error, sizeof(jr.app_error), "%u of %u backward calls answered "
			 "(%u within the grant of %u)", b->n_answered, b->n_sent, within, b->granted);
	else if (b->probe)
		snprintf(jr.app_error, sizeof(jr.app_error), "the call sent to learn the backward "
			 "grant, within any grant, got %s", jd_answer_text(jr.answer));
	inj_react_record(cl->mf, sp->def->name, INJ_RESP, *b->rule ? b->rule : sp->def->name,
			 b->calls[MIN(within, b->n_sent - 1)].xid, false, &jr);
}

/* The proxy's call msg answers, if it does: an RDMA_ERROR, an RDMA_MSG whose RPC message
 * is a REPLY (a CALL with that XID is the client's own, RFC 8167 §2.4.1), or an RDMA_NOMSG
 * into the Reply chunk the call offered. */
static struct px_back_call *answered_call(struct px_back *b, const uint8_t *msg, size_t len,
					  struct rr_hdr *h, enum rr_hdr_status *st)
{
	struct px_back_call *c = NULL;
	struct rr_cursor cur;
	uint32_t xid, type;

	*st = rr_hdr_decode(msg, len, h);
	if (b->item < 0 || (*st != RR_HDR_OK && *st != RR_HDR_E_NOT_V1))
		return NULL;
	for (unsigned i = 0; i < b->n_sent && !c; i++)
		if (b->calls[i].xid == h->xid)
			c = &b->calls[i];
	if (!c || h->proc == RR_RDMA_ERROR)
		return c;
	if (*st != RR_HDR_OK)
		return NULL;
	if (h->proc == RR_RDMA_NOMSG)
		return c->reply_chunk >= 0 ? c : NULL;
	if (h->proc != RR_RDMA_MSG)
		return NULL;
	rr_cursor_init(&cur, msg + h->hdr_len, len - h->hdr_len);
	return rr_rpc_peek(&cur, &xid, &type) && type == 1 ? c : NULL;
}

bool px_back_owns(struct px_back *b, const uint8_t *msg, size_t len)
{
	struct rr_hdr h;
	enum rr_hdr_status st;

	return answered_call(b, msg, len, &h, &st) != NULL;
}

bool px_back_answer(struct px_back *b, struct agent_run *cl, const uint8_t *msg, size_t len)
{
	struct rr_hdr h;
	enum rr_hdr_status st;
	struct px_back_call *c = answered_call(b, msg, len, &h, &st);
	const uint8_t *rpc = NULL;
	size_t rpc_len = 0;

	if (!c)
		return false;
	if (b->judged || c->answered)
		return true;   /* late, or again: the proxy's, but judged already */
	if (st == RR_HDR_OK && h.proc == RR_RDMA_MSG) {
		rpc = msg + h.hdr_len;
		rpc_len = len - h.hdr_len;
	} else if (st == RR_HDR_OK && h.proc == RR_RDMA_NOMSG) {
		/* a Long Reply, written into the Reply chunk the call offered */
		rpc = c->chunk[c->reply_chunk].buf;
		rpc_len = MIN(c->chunk[c->reply_chunk].len, (size_t)rr_chunk_length(&h, &h.reply));
	}
	c->answer = px_sinj_classify(msg, len, rpc, rpc_len, &c->credit);
	/* a REPLY's credit is the client's backward grant; an RDMA_ERROR's says nothing of it */
	if (rpc)
		learn_grant(b, c->credit);
	c->answered = true;
	if (++b->n_answered == b->n_sent)
		react(b, cl, JD_NONE);
	return true;
}

bool px_back_waiting(const struct px_back *b)
{
	return b->item >= 0 && b->n_sent > 0 && !b->judged;
}

int px_back_left_ms(const struct px_back *b, uint32_t timeout_ms)
{
	gint64 left = (gint64)timeout_ms - (g_get_monotonic_time() - b->t0) / 1000;

	return left > 0 ? (int)left : 0;
}

void px_back_silence(struct px_back *b, struct agent_run *cl)
{
	if (!px_back_waiting(b))
		return;
	agent_mf_event(cl, "timeout", b->calls[0].xid, "%u of %u backward calls unanswered",
		       b->n_sent - b->n_answered, b->n_sent);
	react(b, cl, JD_TIMEOUT);
}

void px_back_gone(struct px_back *b, struct agent_run *cl, bool client_left)
{
	if (px_back_waiting(b) && client_left)
		react(b, cl, JD_DISCONNECT);
	else if (px_back_waiting(b))
		agent_mf_event(cl, "no-reaction", b->calls[0].xid, "the relay ended on the server's "
			       "side before the client answered the backward calls");
	calls_free(b);
}
