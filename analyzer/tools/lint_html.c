// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ulb-lint --report: what the page needs of a capture, kept as the session
 * delivers it (lint_html.h).  An RPC opens at its call's Send (the send
 * sink reports it before any RDMA Read of the call and before its message),
 * gathers its RDMA packets by the call they served (the engine names the
 * XID of the call whose segment each one hit), and closes with its reply's
 * message, found by the call's Send frame the engine gives the reply.
 */
#include <errno.h>
#include <string.h>

#include "lint_html.h"
#include "lint_html_int.h"
#include "lint_outfile.h"

#define PROC_UNSEEN 7

static void conn_free(gpointer p)
{
	struct html_conn *c = p;

	g_free(c->name);
	g_free(c);
}

struct lint_html *lint_html_open(const char *path, const char *input, char *err, size_t errlen)
{
	struct lint_outfile *out = lint_outfile_open(path, input, err, errlen);
	struct lint_html *h;

	if (!out)
		return NULL;
	h = g_new0(struct lint_html, 1);
	h->out = out;

	h->rpcs = g_array_new(FALSE, TRUE, sizeof(struct html_rpc));
	h->runs = g_array_new(FALSE, TRUE, sizeof(struct html_run));
	h->by_frame = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	h->by_xid = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	h->conns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, conn_free);
	h->op_index = g_hash_table_new(g_str_hash, g_str_equal);
	h->ops = g_ptr_array_new_with_free_func(g_free);
	h->findings = g_array_new(FALSE, TRUE, sizeof(struct html_finding));
	return h;
}

void lint_html_free(struct lint_html *h)
{
	guint i;

	if (!h)
		return;
	lint_outfile_free(h->out);     /* not written: what the path held stays */
	for (i = 0; i < h->findings->len; i++)
		g_free(g_array_index(h->findings, struct html_finding, i).text);
	g_array_free(h->findings, TRUE);
	g_array_free(h->rpcs, TRUE);
	g_array_free(h->runs, TRUE);
	g_hash_table_destroy(h->by_frame);
	g_hash_table_destroy(h->by_xid);
	g_hash_table_destroy(h->conns);
	g_hash_table_destroy(h->op_index);
	g_ptr_array_free(h->ops, TRUE);
	g_free(h);
}

/* Both tables own their 64-bit keys. The first RPC seen at a frame keeps it. */
static void frame_put(struct lint_html *h, uint64_t frame, guint idx)
{
	uint64_t *k = g_new(uint64_t, 1);

	*k = frame;
	if (!g_hash_table_contains(h->by_frame, k))
		g_hash_table_insert(h->by_frame, k, GUINT_TO_POINTER(idx + 1));
	else
		g_free(k);
}

static guint frame_get(struct lint_html *h, uint64_t frame)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(h->by_frame, &frame));
}

static void xid_put(struct lint_html *h, uint32_t conn, uint32_t xid, guint idx)
{
	uint64_t *k = g_new(uint64_t, 1);

	*k = (uint64_t)conn << 32 | xid;
	g_hash_table_replace(h->by_xid, k, GUINT_TO_POINTER(idx + 1));
}

static guint xid_get(struct lint_html *h, uint32_t conn, uint32_t xid)
{
	uint64_t k = (uint64_t)conn << 32 | xid;

	return GPOINTER_TO_UINT(g_hash_table_lookup(h->by_xid, &k));
}

static struct html_rpc *rpc_new(struct lint_html *h, uint32_t conn, uint32_t xid, guint *idx)
{
	struct html_rpc r = { .conn = conn, .xid = xid, .call_proc = PROC_UNSEEN, .reply_proc = PROC_UNSEEN };

	g_array_append_val(h->rpcs, r);
	*idx = h->rpcs->len - 1;
	return &g_array_index(h->rpcs, struct html_rpc, *idx);
}

void lint_html_send(struct lint_html *h, const struct rr_send_report *s)
{
	struct html_rpc *r;
	guint idx;

	if (!s->is_call || s->rejected || !s->hdr || frame_get(h, s->frame))
		return;
	r = rpc_new(h, s->conn_id, s->hdr->xid, &idx);
	r->call_frame = s->frame;
	r->outstanding = s->outstanding;
	r->call_proc = s->hdr->proc < PROC_UNSEEN ? s->hdr->proc : PROC_UNSEEN;
	frame_put(h, s->frame, idx);
	xid_put(h, s->conn_id, s->hdr->xid, idx);
}

static struct html_conn *conn_of(struct lint_html *h, const struct rr_message *m)
{
	struct html_conn *c = g_hash_table_lookup(h->conns, GUINT_TO_POINTER(m->conn_id));

	if (!c) {
		c = g_new0(struct html_conn, 1);
		c->id = m->conn_id;
		g_hash_table_insert(h->conns, GUINT_TO_POINTER(m->conn_id), c);
	}
	if (!c->name || strcmp(c->name, m->conn_name)) {
		g_free(c->name);
		c->name = g_strdup(m->conn_name);
	}
	c->transport = m->transport;
	c->info = m->conn;
	return c;
}

/* An RDMA packet extends its RPC's last run of the same kind when it follows closely, else opens a run. */
static void add_run(struct lint_html *h, struct html_rpc *r, enum rr_rdma_carry kind, uint64_t frame)
{
	uint32_t i = r->first_run;
	struct html_run run = { .first = frame, .last = frame, .n = 1, .kind = kind };

	for (; i; i = g_array_index(h->runs, struct html_run, i - 1).next) {
		struct html_run *x = &g_array_index(h->runs, struct html_run, i - 1);

		if (x->kind != kind || frame < x->first || frame > x->last + HTML_RUN_GAP)
			continue;
		if (frame > x->last) {
			x->last = frame;
			x->n++;
		}
		return;
	}
	if (r->n_runs >= HTML_RUNS_PER_RPC) {
		r->more_rdma++;
		return;
	}
	g_array_append_val(h->runs, run);
	if (r->last_run)
		g_array_index(h->runs, struct html_run, r->last_run - 1).next = h->runs->len;
	else
		r->first_run = h->runs->len;
	r->last_run = h->runs->len;
	r->n_runs++;
}

void lint_html_rdma(struct lint_html *h, const struct rr_rdma_report *rep)
{
	guint idx;

	if (!rep->hit) {
		struct html_conn *c = g_hash_table_lookup(h->conns, GUINT_TO_POINTER(rep->conn_id));

		if (c)
			c->rdma_unmatched++;
		return;
	}
	idx = xid_get(h, rep->conn_id, rep->xid);
	if (idx)
		add_run(h, &g_array_index(h->rpcs, struct html_rpc, idx - 1), rep->op, rep->frame);
}

static guint op_of(struct lint_html *h, const char *name)
{
	guint i = GPOINTER_TO_UINT(g_hash_table_lookup(h->op_index, name));

	if (!i) {
		g_ptr_array_add(h->ops, g_strdup(name));
		i = h->ops->len;
		g_hash_table_insert(h->op_index, g_ptr_array_index(h->ops, i - 1), GUINT_TO_POINTER(i));
	}
	return i - 1;
}

static void note_time(struct lint_html *h, uint64_t ts)
{
	if (ts && (!h->t0 || ts < h->t0))
		h->t0 = ts;
}

static void on_call(struct lint_html *h, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	guint idx = frame_get(h, v->send_frame);
	struct html_rpc *r;

	if (idx) {
		r = &g_array_index(h->rpcs, struct html_rpc, idx - 1);
	} else {
		r = rpc_new(h, v->conn_id, v->xid, &idx);
		r->call_frame = v->send_frame;
		r->call_proc = v->rdma_proc < PROC_UNSEEN ? v->rdma_proc : PROC_UNSEEN;
		frame_put(h, v->send_frame, idx);
		xid_put(h, v->conn_id, v->xid, idx);
	}
	r->conn = v->conn_id;
	r->call_ts = v->ts_usec;
	r->credit_req = v->credit;
	r->call_inline = (uint32_t)MIN(v->inline_bytes, UINT32_MAX);
	r->ddp_bytes += v->ddp_bytes;
	r->long_bytes += v->long_bytes;
	r->flags |= HF_HAS_CALL | (v->backchannel ? HF_BACKCHANNEL : 0) | (v->retry ? HF_RETRY : 0) |
		    (v->complete ? 0 : HF_CALL_INCOMPLETE) | (v->capture_loss ? HF_CAPTURE_LOSS : 0);
	r->op = op_of(h, v->op);
}

static void on_reply(struct lint_html *h, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	guint found = v->has_call ? frame_get(h, v->call_send_frame) : 0, idx;
	struct html_rpc *r;

	if (found && !(g_array_index(h->rpcs, struct html_rpc, found - 1).flags & HF_HAS_REPLY)) {
		idx = found - 1;
		r = &g_array_index(h->rpcs, struct html_rpc, idx);
	} else {
		r = rpc_new(h, v->conn_id, v->xid, &idx);
		r->op = op_of(h, v->op);
		r->flags |= v->backchannel ? HF_BACKCHANNEL : 0;
	}
	r->reply_frame = v->send_frame;
	r->reply_ts = v->ts_usec;
	r->reply_proc = v->rdma_proc < PROC_UNSEEN ? v->rdma_proc : PROC_UNSEEN;
	r->credit_grant = v->credit;
	r->reply_inline = (uint32_t)MIN(v->inline_bytes, UINT32_MAX);
	r->ddp_bytes += v->ddp_bytes;
	r->long_bytes += v->long_bytes;
	r->flags |= HF_HAS_REPLY | (v->complete ? 0 : HF_REPLY_INCOMPLETE) | (v->capture_loss ? HF_CAPTURE_LOSS : 0);
	if (!r->call_ts && v->call_ts_usec)
		r->call_ts = v->call_ts_usec;
	frame_put(h, v->send_frame, idx);
}

void lint_html_message(struct lint_html *h, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	struct html_conn *c = conn_of(h, m);

	note_time(h, v->ts_usec);
	c->inline_bytes += v->inline_bytes;
	c->ddp_bytes += v->ddp_bytes;
	c->long_bytes += v->long_bytes;
	c->incomplete += !v->complete;
	c->backchannel += v->backchannel;
	if (v->dir == RR_DIR_CALL) {
		c->calls++;
		c->retries += v->retry;
		on_call(h, m);
	} else {
		c->replies++;
		on_reply(h, m);
	}
}

void lint_html_finding(struct lint_html *h, const struct rr_diag *d)
{
	struct html_finding f = { .id = d->id, .sev = d->severity, .frame = d->frame, .conn = d->conn_id,
				  .has_xid = d->has_xid, .xid = d->xid, .rpc = -1 };
	size_t i;

	h->rule_count[d->id]++;
	h->rule_sev[d->id] = d->severity;
	if (h->findings->len >= HTML_MAX_FINDINGS && h->rule_listed[d->id] >= HTML_RULE_SHARE) {
		h->findings_dropped++;
		return;
	}
	h->rule_listed[d->id]++;
	f.text = g_strdup(d->text);
	f.all_frames = (uint32_t)MIN(d->n_frames, UINT32_MAX);
	for (i = 0; i < d->n_frames && i < HTML_FINDING_FRAMES; i++)
		f.frames[f.n_frames++] = d->frames[i];
	g_array_append_val(h->findings, f);
}

bool lint_html_write(struct lint_html *h, const char *capture, const uint64_t *skipped, const char *read_error,
		     char *err, size_t errlen)
{
	bool ok;

	h->read_error = read_error;
	html_json_mark_findings(h);
	html_page_write(lint_outfile_stream(h->out), h, capture, skipped);
	ok = lint_outfile_commit(h->out, err, errlen);
	lint_outfile_free(h->out);
	h->out = NULL;
	return ok;
}
