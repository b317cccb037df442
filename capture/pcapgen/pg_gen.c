// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_gen.h"

#include "pg_stage.h"

#include <stdio.h>
#include <string.h>

typedef struct {
	const pg_scenario *s;
	pg_exch_env env;       /* the audit, memory keys, the previous XID */
	pg_xctx xctx;
	pg_xport *x;
	pg_truth *truth;
	pg_nfs_state nfs;
	uint32_t next_xid[2];  /* forechannel (client) and backchannel (server) XIDs */
	uint32_t last_xid;
	uint32_t msg_index;
	uint64_t total;
	char **err;
	GPtrArray *pending;    /* pg_exch* whose reply waits (pipeline=on) */
	uint32_t conn;         /* connections opened before the current one */
	GHashTable *seqs;      /* forward XID -> its last attempt's SEQUENCE (seq_t*) */
	bool any_injected;
} gen;

static bool gfail(gen *g, const pg_item *it, char *msg)
{
	*g->err = g_strdup_printf("%s:%d: %s", g->s->path, it->line, msg);
	g_free(msg);
	return false;
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
			op.sink_stag = pg_mem_key(&g->env.mem, PG_SERVER);
			op.sink_to = pg_mem_va(&g->env.mem, PG_SERVER, total);
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
			sink = pg_mem_key(&g->env.mem, PG_SERVER);
			sink_to = pg_mem_va(&g->env.mem, PG_SERVER, s->length);
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

/* The SEQUENCE of a forward NFSv4.1+ call's last attempt. */
typedef struct {
	uint32_t conn, seqid;
} seq_t;

static bool leads_with_sequence(const pg_item *it)
{
	return it->kind == PG_ITEM_RPC && it->nfsver >= PG_V41 && it->proc == 1 && !it->acl &&
	       it->ops->len && g_array_index(it->ops, pg_nfsop, 0).op == OP4_SEQUENCE;
}

/* Build the RPC messages. A call re-sent with its XID on a new connection
 * repeats the slot and sequence ID of the attempt before (RFC 8881
 * 2.10.6.2), which the server answers from its reply cache. */
static void build_rpc(gen *g, pg_exch *ex, uint32_t xid, pg_rng *data_rng)
{
	bool seq = !ex->cb && leads_with_sequence(&ex->itc);
	seq_t *prev = seq ? g_hash_table_lookup(g->seqs, GUINT_TO_POINTER(xid)) : NULL;
	uint32_t next = g->nfs.seqid;
	if (prev && prev->conn != g->conn)
		g->nfs.seqid = prev->seqid;
	ex->cmi->has_seq = seq;
	ex->cmi->seqid = g->nfs.seqid;
	pg_nfs_build(&g->nfs, &ex->itc, xid, data_rng, &ex->rp);
	if (prev && prev->conn != g->conn)
		g->nfs.seqid = next;
	if (seq) {
		seq_t *n = g_new(seq_t, 1);
		n->conn = g->conn;
		n->seqid = ex->cmi->seqid;
		g_hash_table_replace(g->seqs, GUINT_TO_POINTER(xid), n);
	}
}

static pg_exch *exch_new(gen *g, const pg_item *it)
{
	return pg_exch_new(&g->env, it, pg_stage_states(it));
}

static void record_injected(gen *g, GArray *states, int id, bool is_call, bool simple)
{
	if (pg_stage_record(g->truth, states, id, is_call, simple))
		g->any_injected = true;
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
	pg_stage_run(ex, PG_ST_PREP, true, NULL, NULL, &xid);
	if (fresh && xid == x0)
		g->next_xid[cb]++;
	ex->xid = o.xid = xid;
	build_rpc(g, ex, xid, &data_rng);
	g->total += ex->rp.call.msg->len + ex->rp.reply.msg->len;
	if (g->total > PG_MAX_TOTAL_DATA) {
		gfail(g, it, g_strdup_printf("the scenario moves more than %u MiB",
					     PG_MAX_TOTAL_DATA >> 20));
		pg_exch_free(ex);
		return NULL;
	}
	pg_stage_run(ex, PG_ST_PLAN, true, NULL, NULL, NULL);
	pg_stage_run(ex, PG_ST_PLAN, false, NULL, NULL, NULL);
	if (!pg_plan_build(&ex->plan, &ex->itc, &ex->rp, &o, &g->env.mem, &perr)) {
		gfail(g, it, perr);
		pg_exch_free(ex);
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
	pg_stage_run(ex, PG_ST_OPS, true, NULL, NULL, NULL);
	pg_stage_run(ex, PG_ST_OPS, false, NULL, NULL, NULL);
	pg_stage_run(ex, PG_ST_HEADER, true, &ex->plan.call, NULL, NULL);
	/* RDMA_ERROR copies the failing message's rdma_vers (RFC 8166 4.5) */
	if (ex->plan.reply.proc == RDMA_ERROR)
		ex->plan.reply.vers = ex->plan.call.vers;
	pg_stage_run(ex, PG_ST_HEADER, false, &ex->plan.reply, NULL, NULL);
	pg_plan_encode(&ex->plan);
	if (!pg_stage_any_applied(ex->inj) && !pg_plan_check_inline(&ex->plan, it, &o, &perr)) {
		gfail(g, it, perr);
		pg_exch_free(ex);
		return NULL;
	}

	/* unless the responder pulled the chunks all the same (silent-read) */
	off_wire = ((ex->plan.reply.proc == RDMA_ERROR || none) && ex->plan.read_chunks->len &&
		    !(ex->cmi->flags & PG_EXF_SILENT_READ)) ||
		   (ex->cmi->flags & PG_EXF_CALL_OFF_WIRE);
	ex->cid = add_truth(g, it, &ex->plan.call, &ex->rp, xid, true, ex->req, off_wire);
	if ((snap = pg_stage_run(ex, PG_ST_CAPTURE, true, &ex->plan.call, NULL, NULL)))
		pg_truth_set_snap(g->truth, ex->cid, snap);
	set_owner(ex->reads, ex->cid);

	op = send_op(&ex->plan.call, ex->cid);
	set_dup(&op, it, PG_TGT_CALL);
	pg_stage_run(ex, PG_ST_WIRE, true, &ex->plan.call, &op, NULL);
	pg_audit_fill(ex->cmi, &ex->plan.call, &ex->rp, true, cb, op.len);
	pg_audit_facts(g->env.audit, ex->cmi, ex->rmi, &ex->itc, &ex->rp, &ex->plan);
	ex->cmi->damaged |= (ex->cmi->flags & PG_EXF_DAMAGED) != 0;
	ex->cmi->emitted = true;
	op.frame_out = &ex->cmi->send_frame;
	g->x->burst(g->x, ex->req, &op, 1);
	pg_audit_call(g->env.audit, ex->cmi);
	if (ex->reads->len)
		g->x->burst(g->x, ex->resp, (pg_op *)(void *)ex->reads->data, ex->reads->len);
	if (!cb) {
		g->last_xid = xid;
		g->env.prev_xid = xid;
		g->env.have_prev = true;
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
	if ((snap = pg_stage_run(ex, PG_ST_CAPTURE, false, &ex->plan.reply, NULL, NULL)))
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
	pg_stage_run(ex, PG_ST_WIRE, false, &ex->plan.reply, &op, NULL);
	pg_audit_fill(ex->rmi, &ex->plan.reply, &ex->rp, false, ex->cb, op.len);
	pg_audit_invalidate(g->env.audit, ex->rmi, &ex->plan, &op);
	ex->rmi->damaged |= (ex->rmi->flags & PG_EXF_DAMAGED) != 0;
	ex->rmi->emitted = true;
	op.frame_out = &ex->rmi->send_frame;
	g_array_append_val(ex->writes, op);
	pg_cap_gap(g->xctx.cap, 30);
	g->x->burst(g->x, ex->resp, (pg_op *)(void *)ex->writes->data, ex->writes->len);
	pg_audit_reply(g->env.audit, ex->rmi);
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
		pg_exch_free(ex);
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
	pg_exch_free(ex);
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
	pg_stage_run(ex, PG_ST_HEADER, done, &m, NULL, NULL);
	pg_rdmamsg_encode(&m);
	id = add_truth(g, it, &m, NULL, xid, done, from, false);
	if ((snap = pg_stage_run(ex, PG_ST_CAPTURE, done, &m, NULL, NULL)))
		pg_truth_set_snap(g->truth, id, snap);
	op = send_op(&m, id);
	pg_stage_run(ex, PG_ST_WIRE, done, &m, &op, NULL);
	pg_audit_fill(ex->cmi, &m, NULL, done, false, op.len);
	ex->cmi->damaged |= (ex->cmi->flags & PG_EXF_DAMAGED) != 0;
	ex->cmi->emitted = true;
	op.frame_out = &ex->cmi->send_frame;
	g->x->burst(g->x, from, &op, 1);
	if (done)
		pg_audit_done(g->env.audit, ex->cmi);
	else
		pg_audit_reply(g->env.audit, ex->cmi);
	record_injected(g, ex->inj, id, done, true);
	pg_rdmamsg_clear(&m);
	pg_exch_free(ex);
	return true;
}


/* Open a connection: the first one's framer is seeded by the scenario's
 * seed; every later one by a seed of its own, so it gets new QPNs (IB,
 * RoCE) or a new TCP source port (iWARP), and new PSNs, ISNs and MSNs. */
static void open_conn(gen *g)
{
	pg_conninfo ci;
	if (g->conn) {
		pg_rng r = pg_rng_derive(g->s->seed, 0x52434e, g->conn);
		g->xctx.seed = pg_rng_next(&r);
	}
	g->x = g->s->link->iwarp ? pg_iwarp_new(&g->xctx) : pg_ib_new(&g->xctx);
	g->x->conninfo(g->x, &ci);
	pg_truth_conn(g->truth, &ci);
	pg_audit_conn(g->env.audit, g->conn);
	g->x->connect(g->x);
}

/* "reconnect": replies still pending go out first, the connection ends
 * (CM DREQ/DREP or the TCP FIN exchange, as "disconnect" allows) and a new
 * one opens between the same hosts. */
static void reconnect(gen *g)
{
	flush_pending(g);
	g->x->disconnect(g->x);
	g->x->destroy(g->x);
	g->conn++;
	pg_cap_gap(g->xctx.cap, 2000);
	open_conn(g);
}

/* Every item of the scenario, in order. Returns false on a scenario error. */
static bool run_items(gen *g, pg_rng *r)
{
	bool ok = true;
	for (guint i = 0; ok && i < g->s->items->len; i++) {
		const pg_item *it = g->s->items->pdata[i];
		switch (it->kind) {
		case PG_ITEM_RPC:
		case PG_ITEM_CB:
			for (uint32_t k = 0; ok && k < it->repeat; k++) {
				ok = do_rpc(g, it, k);
				pg_cap_gap(g->xctx.cap, pg_rng_range(r, 40, 400));
			}
			break;
		case PG_ITEM_DONE:
		case PG_ITEM_ERROR:
			ok = do_simple(g, it);
			break;
		case PG_ITEM_TERMINATE:
			flush_pending(g);
			g->x->terminate(g->x, PG_SERVER);
			break;
		case PG_ITEM_RECONNECT:
			reconnect(g);
			break;
		case PG_ITEM_PAUSE:
			flush_pending(g);
			pg_cap_gap(g->xctx.cap, it->pause_ms * 1000u);
			break;
		}
	}
	return ok;
}

int pg_generate(const pg_scenario *s, const char *pcap_path, const char *truth_path, char **err)
{
	gen g;
	pg_rng r = pg_rng_derive(s->seed, 0x584944, 0);
	bool ok;
	int rc = 0;
	uint32_t nframes;

	memset(&g, 0, sizeof(g));
	*err = NULL;
	g.s = s;
	g.err = err;
	g.truth = pg_truth_new();
	g.pending = g_ptr_array_new();
	g.seqs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	g.env.s = s;
	g.env.audit = pg_audit_new(s);
	pg_nfs_state_init(&g.nfs, s->seed);
	pg_mem_init(&g.env.mem, s->seed);
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
		pg_audit_free(g.env.audit);
		g_ptr_array_free(g.pending, TRUE);
		g_hash_table_destroy(g.seqs);
		pg_truth_free(g.truth);
		return 1;
	}
	open_conn(&g);
	ok = run_items(&g, &r);
	if (ok)
		flush_pending(&g);
	for (guint i = 0; i < g.pending->len; i++)
		pg_exch_free(g.pending->pdata[i]);
	if (ok)
		g.x->disconnect(g.x);
	nframes = pg_cap_count(g.xctx.cap);
	if (ok)
		pg_audit_write(g.env.audit, g.truth, g.any_injected, g.xctx.cap);
	if (!ok) {
		char *dummy = NULL;
		pg_cap_close(g.xctx.cap, &dummy);
		g_free(dummy);
		(void)remove(pcap_path);
		rc = 2;
	} else if (!pg_cap_close(g.xctx.cap, err) ||
		   !pg_truth_write(g.truth, truth_path, s, nframes, err)) {
		rc = 1;
	}
	g.x->destroy(g.x);
	pg_truth_free(g.truth);
	g_ptr_array_free(g.pending, TRUE);
	g_hash_table_destroy(g.seqs);
	pg_audit_free(g.env.audit);
	return rc;
}
