// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_gen.h"

#include "pg_inject.h"
#include "pg_rpcrdma.h"
#include "pg_xport.h"

#include <stdio.h>
#include <string.h>

typedef struct {
	const pg_scenario *s;
	pg_xctx xctx;
	pg_xport *x;
	pg_truth *truth;
	pg_nfs_state nfs;
	pg_mem mem;
	uint32_t next_xid[2];  /* forechannel (client) and backchannel (server) XIDs */
	uint32_t last_xid;
	uint32_t msg_index;
	uint64_t total;
	char **err;
} gen;

static bool gfail(gen *g, const pg_item *it, char *msg)
{
	*g->err = g_strdup_printf("%s:%d: %s", g->s->path, it->line, msg);
	g_free(msg);
	return false;
}

/* ---- injectors ------------------------------------------------------- */

typedef struct {
	const pg_injector *inj;
	const pg_inject_spec *spec;
	bool applied;
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

enum stage { ST_PLAN, ST_HEADER, ST_WIRE, ST_CAPTURE };

/* Run one stage of every injector aimed at this message. Returns the
 * capture snap length requested, if any. */
static uint32_t run_stage(gen *g, GArray *states, enum stage st, bool is_call, pg_plan *plan,
			  pg_rdmamsg *msg, pg_op *op, bool simple)
{
	uint32_t snap = 0;
	for (guint i = 0; i < states->len; i++) {
		inj_state *is = &g_array_index(states, inj_state, i);
		pg_inj_ctx c = { g->s, plan, msg, is_call, NULL, op, 0 };
		bool (*fn)(pg_inj_ctx *) = NULL;
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (!simple && !(is->spec->target & want))
			continue;
		c.arg = is->spec->arg;
		switch (st) {
		case ST_PLAN: fn = is->inj->plan; break;
		case ST_HEADER: fn = is->inj->header; break;
		case ST_WIRE: fn = is->inj->wire; break;
		case ST_CAPTURE: fn = is->inj->capture; break;
		}
		if (!fn || (st == ST_PLAN && !plan))
			continue;
		if (fn(&c)) {
			is->applied = true;
			if (st == ST_CAPTURE)
				snap = c.snap;
		} else if (st == ST_HEADER && is->inj->plan) {
			/* a plan knob that turned out to change nothing */
			is->applied = false;
		}
	}
	return snap;
}

static void record_injected(gen *g, GArray *states, int id, bool is_call, bool simple)
{
	for (guint i = 0; i < states->len; i++) {
		inj_state *is = &g_array_index(states, inj_state, i);
		unsigned want = is_call ? PG_TGT_CALL : PG_TGT_REPLY;
		if (is->applied && (simple || (is->spec->target & want)))
			pg_truth_inject(g->truth, id, is->spec->name);
	}
}

/* ---- RDMA operations ------------------------------------------------- */

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


static void set_dup(pg_op *op, const pg_item *it, unsigned tgt)
{
	op->dup = (it->dup & tgt) != 0;
	op->reorder = (it->reorder & tgt) != 0;
}

static bool any_applied(GArray *states)
{
	for (guint i = 0; i < states->len; i++)
		if (g_array_index(states, inj_state, i).applied)
			return true;
	return false;
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

static bool do_rpc(gen *g, const pg_item *it, uint32_t rep)
{
	bool cb = it->kind == PG_ITEM_CB, ok = false;
	int req = cb ? PG_SERVER : PG_CLIENT, resp = !req, cid, rid;
	uint32_t xid = it->has_xid ? it->xid + rep : g->next_xid[cb]++;
	uint32_t credit = it->credits ? it->credits : g->s->credits, snap;
	pg_rng data_rng = pg_rng_derive(g->s->seed, 0x444154, g->msg_index++);
	pg_rpc_pair rp;
	pg_plan plan;
	pg_plan_opts o = { xid, credit, credit, g->s->inline_max, g->s->inline_check };
	GArray *inj = inj_states(it);
	GArray *reads = g_array_new(FALSE, TRUE, sizeof(pg_op));
	GArray *writes = g_array_new(FALSE, TRUE, sizeof(pg_op));
	pg_op op;
	char *perr = NULL;

	memset(&plan, 0, sizeof(plan));
	pg_nfs_build(&g->nfs, it, xid, &data_rng, &rp);
	g->total += rp.call.msg->len + rp.reply.msg->len;
	if (g->total > PG_MAX_TOTAL_DATA) {
		gfail(g, it, g_strdup_printf("the scenario moves more than %u MiB",
					     PG_MAX_TOTAL_DATA >> 20));
		goto out;
	}
	run_stage(g, inj, ST_PLAN, true, &plan, NULL, NULL, false);
	run_stage(g, inj, ST_PLAN, false, &plan, NULL, NULL, false);
	if (!pg_plan_build(&plan, it, &rp, &o, &g->mem, &perr)) {
		gfail(g, it, perr);
		goto out;
	}
	/* Data movement follows the plan; header injectors that lie about
	 * it must not change what is actually transferred. */
	if (plan.reply.proc != RDMA_ERROR) {
		/* a responder that rejects the call never pulls its chunks */
		for (guint i = 0; i < plan.read_chunks->len; i++) {
			const pg_chunk *c = plan.read_chunks->pdata[i];
			chunk_ops(g, it, c, c->segs, PG_OP_READ, -1, reads);
		}
		for (guint i = 0; i < plan.write_chunks->len; i++) {
			const pg_chunk *c = plan.write_chunks->pdata[i];
			chunk_ops(g, it, c, c->ret, PG_OP_WRITE, -1, writes);
		}
		if (plan.reply_chunk)
			chunk_ops(g, it, plan.reply_chunk, plan.reply_chunk->ret, PG_OP_WRITE, -1,
				  writes);
	}
	run_stage(g, inj, ST_HEADER, true, &plan, &plan.call, NULL, false);
	run_stage(g, inj, ST_HEADER, false, &plan, &plan.reply, NULL, false);
	pg_plan_encode(&plan);
	if (!any_applied(inj) && !pg_plan_check_inline(&plan, it, &o, &perr)) {
		gfail(g, it, perr);
		goto out;
	}

	/* a call rejected with RDMA_ERROR never has its read chunks pulled */
	cid = add_truth(g, it, &plan.call, &rp, xid, true, req,
			plan.reply.proc == RDMA_ERROR && plan.read_chunks->len);
	rid = add_truth(g, it, &plan.reply, &rp, xid, false, resp, false);
	if ((snap = run_stage(g, inj, ST_CAPTURE, true, &plan, &plan.call, NULL, false)))
		pg_truth_set_snap(g->truth, cid, snap);
	if ((snap = run_stage(g, inj, ST_CAPTURE, false, &plan, &plan.reply, NULL, false)))
		pg_truth_set_snap(g->truth, rid, snap);
	for (guint i = 0; i < reads->len; i++)
		g_array_index(reads, pg_op, i).owner = cid;
	for (guint i = 0; i < writes->len; i++)
		g_array_index(writes, pg_op, i).owner = rid;

	op = send_op(&plan.call, cid);
	set_dup(&op, it, PG_TGT_CALL);
	run_stage(g, inj, ST_WIRE, true, &plan, &plan.call, &op, false);
	g->x->burst(g->x, req, &op, 1);
	if (reads->len)
		g->x->burst(g->x, resp, (pg_op *)(void *)reads->data, reads->len);
	op = send_op(&plan.reply, rid);
	set_dup(&op, it, PG_TGT_REPLY);
	op.solicited = it->se;
	if (it->invalidate && !cb && plan.reply.proc != RDMA_ERROR) {
		op.inv_rkey = invalidate_key(&plan);
		op.invalidate = op.inv_rkey != 0;
	}
	run_stage(g, inj, ST_WIRE, false, &plan, &plan.reply, &op, false);
	g_array_append_val(writes, op);
	pg_cap_gap(g->xctx.cap, 30);
	g->x->burst(g->x, resp, (pg_op *)(void *)writes->data, writes->len);
	record_injected(g, inj, cid, true, false);
	record_injected(g, inj, rid, false, false);
	if (!cb)
		g->last_xid = xid;
	ok = true;
out:
	pg_plan_clear(&plan);
	pg_rpc_pair_clear(&rp);
	g_array_free(reads, TRUE);
	g_array_free(writes, TRUE);
	g_array_free(inj, TRUE);
	return ok;
}

/* RDMA_DONE from the requester or a standalone RDMA_ERROR from the
 * responder: header-only Sends. */
static bool do_simple(gen *g, const pg_item *it)
{
	bool done = it->kind == PG_ITEM_DONE;
	int from = done ? PG_CLIENT : PG_SERVER, id;
	uint32_t xid = it->has_xid ? it->xid : g->last_xid, snap;
	pg_rdmamsg m;
	GArray *inj = inj_states(it);
	pg_op op;

	pg_rdmamsg_simple(&m, xid, done ? RDMA_DONE : RDMA_ERROR,
			  it->credits ? it->credits : g->s->credits);
	m.err = (uint32_t)it->err_code;
	m.low = it->err_low;
	m.high = it->err_high;
	run_stage(g, inj, ST_HEADER, done, NULL, &m, NULL, true);
	pg_rdmamsg_encode(&m);
	id = add_truth(g, it, &m, NULL, xid, done, from, false);
	if ((snap = run_stage(g, inj, ST_CAPTURE, done, NULL, &m, NULL, true)))
		pg_truth_set_snap(g->truth, id, snap);
	op = send_op(&m, id);
	run_stage(g, inj, ST_WIRE, done, NULL, &m, &op, true);
	g->x->burst(g->x, from, &op, 1);
	record_injected(g, inj, id, done, true);
	pg_rdmamsg_clear(&m);
	g_array_free(inj, TRUE);
	return true;
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
			g.x->terminate(g.x, PG_SERVER);
			break;
		}
	}
	if (ok)
		g.x->disconnect(g.x);
	g.x->conninfo(g.x, &ci);
	nframes = pg_cap_count(g.xctx.cap);
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
	return rc;
}
