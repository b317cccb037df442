// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify_engine.c - one session over a capture for verify, the same path
 * from frames to findings as ulb-lint and the plugin (session.h), keeping a
 * digest of every rebuilt message (its payload as a SHA-256, not the
 * bytes: a long run's payloads need not fit in memory), every Send, and
 * a copy of every finding; then the questions verify.c asks of them
 * (which Sends are a manifest's message, which frames its exchange spans).
 */
#include <string.h>

#include "verify.h"

static void on_message(void *ctx, const struct rr_message *m)
{
	struct vf_result *r = ctx;
	struct vf_msg v = { 0 };

	v.xid = m->xid;
	v.has_rpc = m->has_rpc;
	if (m->has_rpc)
		v.rpc_xid = m->dir == RR_DIR_CALL ? m->call.xid : m->reply.xid;
	v.reply = m->dir == RR_DIR_REPLY;
	v.backchannel = m->backchannel;
	v.complete = m->complete;
	v.conn_id = m->conn_id;
	v.send_frame = m->send_frame;
	v.len = m->payload_len;
	rr_message_sha256(m, v.sha256);
	g_array_append_val(r->msgs, v);
}

static void on_send(void *ctx, const struct rr_send_report *s)
{
	struct vf_result *r = ctx;
	struct vf_send v = { 0 };

	v.frame = s->frame;
	v.xid_known = s->hdr && s->captured >= 4;
	v.xid = v.xid_known ? s->hdr->xid : 0;
	v.is_call = s->is_call;
	v.rejected = s->rejected;
	v.conn_id = s->conn_id;
	g_array_append_val(r->sends, v);
}

static void on_finding(void *ctx, const struct rr_diag *d)
{
	struct vf_result *r = ctx;
	struct rr_diag copy;

	rr_diag_copy(&copy, d);
	g_array_append_val(r->findings, copy);
}

static void index_add(GHashTable *h, uint32_t xid, guint i)
{
	GArray *a = g_hash_table_lookup(h, GUINT_TO_POINTER(xid));

	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(guint));
		g_hash_table_insert(h, GUINT_TO_POINTER(xid), a);
	}
	g_array_append_val(a, i);
}

static void free_index(gpointer a)
{
	g_array_free(a, TRUE);
}

/* Every manifest line looks its message up by XID: index once, not a scan per line. */
static void build_index(struct vf_result *r)
{
	guint i;

	r->msg_by_xid = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_index);
	r->send_by_xid = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_index);
	for (i = 0; i < r->msgs->len; i++) {
		const struct vf_msg *m = &g_array_index(r->msgs, struct vf_msg, i);

		index_add(r->msg_by_xid, m->xid, i);
		if (m->has_rpc && m->rpc_xid != m->xid)
			index_add(r->msg_by_xid, m->rpc_xid, i);
	}
	for (i = 0; i < r->sends->len; i++) {
		const struct vf_send *s = &g_array_index(r->sends, struct vf_send, i);

		if (s->xid_known)
			index_add(r->send_by_xid, s->xid, i);
	}
}

bool vf_run_engine(const char *path, const struct rr_session_opts *o, struct vf_result *r, char *err,
		   size_t errlen)
{
	struct rr_session_sinks sinks = { .ctx = r, .message = on_message, .send = on_send,
					  .finding = on_finding };
	struct rr_session *s;
	int rc;

	memset(r, 0, sizeof(*r));
	r->msgs = g_array_new(FALSE, TRUE, sizeof(struct vf_msg));
	r->sends = g_array_new(FALSE, TRUE, sizeof(struct vf_send));
	r->findings = g_array_new(FALSE, TRUE, sizeof(struct rr_diag));
	s = rr_session_new(o, &sinks);
	rc = rr_session_run_file(s, path, err, errlen);
	r->dstats = *rr_session_decode_stats(s);
	r->frames = r->dstats.frames;
	r->estats = *rr_session_engine_stats(s);
	rr_session_free(s);
	if (rc != 0) {
		/* A capture not opened, or read only in part, cannot vouch for what the manifest says. */
		vf_result_free(r);
		return false;
	}
	build_index(r);
	return true;
}

void vf_result_free(struct vf_result *r)
{
	guint i;

	if (r->findings) {
		for (i = 0; i < r->findings->len; i++)
			rr_diag_clear(&g_array_index(r->findings, struct rr_diag, i));
		g_array_free(r->findings, TRUE);
	}
	if (r->msg_by_xid)
		g_hash_table_destroy(r->msg_by_xid);
	if (r->send_by_xid)
		g_hash_table_destroy(r->send_by_xid);
	if (r->msgs)
		g_array_free(r->msgs, TRUE);
	if (r->sends)
		g_array_free(r->sends, TRUE);
	memset(r, 0, sizeof(*r));
}

/* ---- queries ---- */

const GArray *vf_msgs_of(const struct vf_result *r, uint32_t xid)
{
	return g_hash_table_lookup(r->msg_by_xid, GUINT_TO_POINTER(xid));
}

const GArray *vf_sends_of(const struct vf_result *r, uint32_t xid)
{
	return g_hash_table_lookup(r->send_by_xid, GUINT_TO_POINTER(xid));
}

bool vf_same_msg(const struct vf_msg *m, uint32_t xid, bool reply)
{
	return m->reply == reply && (m->xid == xid || (m->has_rpc && m->rpc_xid == xid));
}

const struct vf_send *vf_refused_send(const struct vf_result *r, uint32_t xid, bool reply)
{
	const GArray *idx = vf_sends_of(r, xid);
	guint i;

	for (i = 0; idx && i < idx->len; i++) {
		const struct vf_send *s = &g_array_index(r->sends, struct vf_send, g_array_index(idx, guint, i));

		if (s->is_call == !reply && s->rejected)
			return s;
	}
	return NULL;
}

static void add_frame(struct vf_place *p, uint64_t f)
{
	if (p->n_frames < G_N_ELEMENTS(p->frames))
		p->frames[p->n_frames++] = f;
}

void vf_locate(const struct vf_result *r, uint32_t xid, bool reply, struct vf_place *p)
{
	const GArray *mi = vf_msgs_of(r, xid), *si = vf_sends_of(r, xid);
	guint i;

	memset(p, 0, sizeof(*p));
	for (i = 0; mi && i < mi->len; i++) {
		const struct vf_msg *m = &g_array_index(r->msgs, struct vf_msg, g_array_index(mi, guint, i));

		if (vf_same_msg(m, xid, reply)) {
			uint32_t other = m->xid == xid ? m->rpc_xid : m->xid;

			p->rebuilt = true;
			add_frame(p, m->send_frame);
			if (m->has_rpc && other != xid && p->n_alias < G_N_ELEMENTS(p->alias))
				p->alias[p->n_alias++] = other;
		}
	}
	for (i = 0; si && i < si->len; i++) {
		const struct vf_send *s = &g_array_index(r->sends, struct vf_send, g_array_index(si, guint, i));

		if (s->is_call == !reply)
			add_frame(p, s->frame);
	}
}

bool vf_xid_ok(const struct vf_place *p, uint32_t want, uint32_t xid)
{
	unsigned i;

	for (i = 0; i < p->n_alias; i++)
		if (p->alias[i] == xid)
			return true;
	return xid == want;
}

bool vf_at_send(const struct vf_place *p, uint64_t frame)
{
	unsigned i;

	for (i = 0; i < p->n_frames; i++)
		if (p->frames[i] == frame)
			return true;
	return false;
}

/*
 * The exchange runs past the reply's Send: RDMA Reads or Writes after the
 * reply (RR-068, RR-092) belong to the exchange they reach into, and the
 * engine cannot always name its XID.
 */
bool vf_in_exchange(const struct vf_result *r, uint32_t xid, uint64_t frame)
{
	const GArray *idx = vf_sends_of(r, xid);
	GArray *sends = r->sends;
	guint n, i, k;

	for (n = 0; idx && n < idx->len; n++) {
		const struct vf_send *c = &g_array_index(sends, struct vf_send, (i = g_array_index(idx, guint, n)));
		uint64_t end = r->frames;
		bool answered = false;

		if (!c->is_call || frame < c->frame)
			continue;
		for (k = i + 1; k < sends->len; k++) {
			const struct vf_send *s = &g_array_index(sends, struct vf_send, k);

			if (s->conn_id != c->conn_id)
				continue;
			if (!answered && !s->is_call && s->xid_known && s->xid == xid)
				answered = true;
			else if (answered && s->is_call) {
				end = s->frame - 1;
				break;
			}
		}
		if (frame <= end)
			return true;
	}
	return false;
}
