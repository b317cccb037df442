// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group O (memory protection) and the RDMA-operation rules of
 * groups D and E: every RDMA Read or Write against the segments calls
 * advertised, the live ones (the engine's segment store says which it hit)
 * and those of calls already answered (remembered here).
 */
#include "conn_state.h"
#include "check_int.h"

static const char *op_name(const struct rr_fact_rdma *r)
{
	return r->op == RR_RDMA_WRITE ? "RDMA Write" : "RDMA Read";
}

void ck_rr066(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rdma *r = f->rdma;

	if (r->op != RR_RDMA_READ || !r->handle_live || r->inside)
		return;
	ck_report(ck, f, RR_066_READ_BOUNDS, r->frame,
		  "RDMA Read of %" G_GUINT64_FORMAT " bytes at 0x%" G_GINT64_MODIFIER "x with handle 0x%08x runs "
		  "outside the read segment XID 0x%08x advertised (0x%" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
		  " bytes)", r->len, r->va, r->rkey, r->xid, r->seg_offset, r->seg_length);
}

/* An RDMA operation that reaches the memory of a call already answered. */
static const struct ck_retired *after_reply(struct rr_checker *ck, const struct rr_fact_rdma *r)
{
	if (r->handle_live && r->inside)
		return NULL;
	return ck_retired_find(ck_conn(ck, r->conn_id), r->rkey, r->va, r->len ? r->len : 1);
}

/*
 * The finding names the XID whose segment was reached: the handle is no
 * longer live, so the operation itself belongs to no exchange, but the
 * memory it touched was that call's.
 */
static void late_op(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
		    const struct ck_retired *old)
{
	const struct rr_fact_rdma *r = f->rdma;
	const uint64_t frames[2] = { old->reply_frame, r->frame };

	ck_report_full(ck, rule, r->frame, frames, 2, r->conn_id, true, old->xid,
		       "RDMA %s with handle 0x%08x reaches a segment of XID 0x%08x, whose reply was sent at "
		       "frame %" G_GUINT64_FORMAT, r->op == RR_RDMA_READ ? "Read" : "Write", r->rkey, old->xid,
		       old->reply_frame);
}

void ck_rr068(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rdma *r = f->rdma;
	const struct ck_retired *old;

	if (r->op != RR_RDMA_READ || !(old = after_reply(ck, r)))
		return;
	late_op(ck, f, RR_068_READ_AFTER_REPLY, old);
}

void ck_rr092(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rdma *r = f->rdma;
	const struct ck_retired *old;

	if (r->op != RR_RDMA_WRITE || !(old = after_reply(ck, r)))
		return;
	late_op(ck, f, RR_092_WRITE_AFTER_REPLY, old);
}

void ck_rr069(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->kind == RR_FACT_RDMA) {
		const struct rr_fact_rdma *r = f->rdma;

		/* A backward call's chunk is read by the client: RR-191 says that chunk is wrong. */
		if (r->roles_known && r->by_requester && !(r->handle_live && r->backchannel))
			ck_report(ck, f, RR_069_READ_WRITE_ONLY, r->frame,
				  "the requester initiates an %s (handle 0x%08x); only the responder moves chunk data",
				  op_name(r), r->rkey);
		return;
	}
	if (f->send->status == RR_HDR_OK && !f->send->is_call && f->send->hdr->n_reads &&
	    f->send->hdr->proc != RR_RDMA_ERROR)
		ck_report(ck, f, RR_069_READ_WRITE_ONLY, f->send->frame,
			  "reply XID 0x%08x carries a Read list of %u segments (the Read-Read model is gone)",
			  f->send->hdr->xid, f->send->hdr->n_reads);
}

#define CK_HANDLE_REUSE 32

void ck_rr210(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_conn_state *cs;
	uint32_t i;

	if (s->status != RR_HDR_OK || !s->is_call)
		return;
	cs = ck_conn(ck, s->conn_id);
	if (cs->handle_reuse_reported)
		return;
	for (i = 0; i < s->hdr->n_reads; i++) {
		uint32_t n = GPOINTER_TO_UINT(g_hash_table_lookup(cs->handle_uses,
					GUINT_TO_POINTER(s->hdr->reads[i].seg.handle)));

		if (n + 1 >= CK_HANDLE_REUSE) {
			cs->handle_reuse_reported = true;
			ck_report(ck, f, RR_210_HANDLE_REUSE, s->frame,
				  "handle 0x%08x is advertised by %u calls on this connection (persistent registration?)",
				  s->hdr->reads[i].seg.handle, n + 1);
			return;
		}
	}
}

void ck_rr212(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rdma *r = f->rdma;
	uint32_t other;

	if (r->handle_live)
		return;
	/* Only the host whose memory the operation reaches can have registered the handle. */
	other = GPOINTER_TO_UINT(ck_keymap_get(&ck->live_handles, ck_handle_key(r->memory_host, r->rkey)));
	if (other && other != r->conn_id && !after_reply(ck, r))
		ck_report(ck, f, RR_212_OTHER_CONN, r->frame,
			  "%s with handle 0x%08x, which this connection never advertised; connection %u of "
			  "the same host advertised it for a call not yet answered",
			  op_name(r), r->rkey, other);
}

void ck_rr215(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *c = m->call_hdr;
	uint32_t i;
	bool advertised = false;

	if (m->dir != RR_DIR_REPLY || !m->invalidate)
		return;
	if (m->conn.inv_flag_known && !m->conn.remote_invalidate_ok) {
		ck_report(ck, f, RR_215_INVALIDATE_KEY, m->send_frame,
			  "reply XID 0x%08x uses Send With Invalidate although the requester's RFC 8797 flags "
			  "do not allow remote invalidation", m->xid);
		return;
	}
	if (!c)
		return;
	for (i = 0; i < c->n_reads && !advertised; i++)
		advertised = c->reads[i].seg.handle == m->inv_rkey;
	for (i = 0; i < c->n_wsegs && !advertised; i++)
		advertised = c->wsegs[i].handle == m->inv_rkey;
	if (!advertised)
		ck_report(ck, f, RR_215_INVALIDATE_KEY, m->send_frame,
			  "reply XID 0x%08x invalidates handle 0x%08x, which its call never advertised", m->xid,
			  m->inv_rkey);
}
