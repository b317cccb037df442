// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of groups J (Write-chunk pairing, RFC 8267 6.4.1), K (chunk-list
 * complexity, 6.4.2) and the unused-chunk rule RR-088.  Pairing goes by the
 * ordinal of READ-class operations in the request: the reply walk numbers
 * each eligible result so, and counts the READ-class operations that ran.
 */
#include "check_int.h"

static bool nfs4_compound(const struct rr_message *m)
{
	uint32_t p, v, pr;

	return ck_prog(m, &p, &v, &pr) && p == RR_NFS_PROGRAM && v == 4 && pr == 1;
}

static bool nfs23_read_class(const struct rr_message *m)
{
	uint32_t p, v, pr;

	return ck_prog(m, &p, &v, &pr) && p == RR_NFS_PROGRAM && (v == 2 || v == 3) &&
	       ((v == 3 && (pr == RR_NFS3_PROC_READ || pr == RR_NFS3_PROC_READLINK)) ||
		(v == 2 && (pr == RR_NFS2_PROC_READ || pr == RR_NFS2_PROC_READLINK)));
}

static bool reply_walked(const struct rr_message *m)
{
	return m->dir == RR_DIR_REPLY && m->call_hdr && m->hdr->proc != RR_RDMA_ERROR && ck_ulp_ok(m);
}

/* The rule an unused Write chunk k with non-zero lengths breaks, or RR_RULE_COUNT. */
static enum rr_rule_id unused_chunk_rule(const struct rr_message *m, uint32_t k)
{
	if (ck_result_for_chunk(m, k) || !rr_chunk_length(m->hdr, &m->hdr->writes[k]) ||
	    ck_write_chunk_stray(m, k))
		return RR_RULE_COUNT;   /* a written chunk no op pairs with: RR-143 */
	if (nfs23_read_class(m))
		return k == 0 ? RR_088_UNUSED_ZERO : RR_RULE_COUNT;   /* k > 0: RR-142 */
	if (nfs4_compound(m) && m->call_ulp && m->call_ulp->n_ddp_capable) {
		/* Ran and failed, or never ran (the COMPOUND stopped) / surplus. */
		if (!ck_reply_ok(m))
			return RR_166_UNEXECUTED_EMPTY;
		return k < m->ulp.n_ddp_capable ? RR_164_FAILED_OP_EMPTY : RR_166_UNEXECUTED_EMPTY;
	}
	return RR_RULE_COUNT;   /* no READ-class procedure: RR-141 / RR-143 */
}

static void check_unused(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	uint32_t k;

	if (m->dir != RR_DIR_REPLY || !m->call_hdr || m->hdr->proc == RR_RDMA_ERROR || m->backchannel)
		return;
	if (!nfs23_read_class(m) && !nfs4_compound(m))
		return;   /* no Write chunk of another procedure is these rules' (RR-141/RR-143/...) */
	if (ck_reply_ok(m) && !ck_ulp_ok(m)) {
		ck_skip_walk(ck, m, rule);
		return;
	}
	for (k = 0; k < m->hdr->n_write_chunks; k++) {
		if (unused_chunk_rule(m, k) != rule)
			continue;
		ck_report(ck, f, rule, m->send_frame,
			  "reply XID 0x%08x: Write chunk %u %s, yet it comes back with %" G_GUINT64_FORMAT
			  " bytes instead of zero lengths", m->xid, k,
			  rule == RR_164_FAILED_OP_EMPTY ? "belongs to an operation that returned no data" :
			  rule == RR_166_UNEXECUTED_EMPTY ? "has no operation that ran" : "was not used",
			  rr_chunk_length(m->hdr, &m->hdr->writes[k]));
		return;
	}
}

void ck_rr088(struct rr_checker *ck, const struct rr_fact *f) { check_unused(ck, f, RR_088_UNUSED_ZERO); }
void ck_rr164(struct rr_checker *ck, const struct rr_fact *f) { check_unused(ck, f, RR_164_FAILED_OP_EMPTY); }
void ck_rr166(struct rr_checker *ck, const struct rr_fact *f) { check_unused(ck, f, RR_166_UNEXECUTED_EMPTY); }

void ck_rr243(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	uint32_t k, i;

	if (m->dir != RR_DIR_REPLY || !m->call_hdr || m->hdr->proc == RR_RDMA_ERROR || m->backchannel)
		return;
	for (k = 0; k < MIN(m->hdr->n_write_chunks, m->call_hdr->n_write_chunks); k++) {
		const struct rr_write_chunk *r = &m->hdr->writes[k], *o = &m->call_hdr->writes[k];
		bool same = r->count == o->count && r->count;

		if (unused_chunk_rule(m, k) == RR_RULE_COUNT)
			continue;
		for (i = 0; same && i < r->count; i++)
			same = rr_hdr_wseg(m->hdr, r, i)->length == rr_hdr_wseg(m->call_hdr, o, i)->length;
		if (same) {
			ck_report(ck, f, RR_243_UNUSED_UNCHANGED, m->send_frame,
				  "reply XID 0x%08x returns unused Write chunk %u exactly as offered", m->xid, k);
			return;
		}
	}
}

void ck_rr160(struct rr_checker *ck, const struct rr_fact *f)
{
	ck_report_missing(ck, f, RR_160_EMPTY_LIST_INLINE);
}

void ck_rr162(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (ck_report_missing(ck, f, RR_162_NONEMPTY_BY_CHUNK) || !reply_walked(m) || !nfs4_compound(m))
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];

		if (ck_inline_despite_chunk(m, it)) {
			ck_report(ck, f, RR_162_NONEMPTY_BY_CHUNK, m->send_frame,
				  "reply XID 0x%08x returns %u bytes of %s data inline although Write chunk %u was "
				  "offered for it", m->xid, it->length, rr_nfs4_op_name(it->op), it->ordinal);
			return;
		}
	}
}

void ck_rr163(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (ck_report_missing(ck, f, RR_163_EMPTY_CHUNK_INLINE) || !reply_walked(m) || !nfs4_compound(m))
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];

		if (it->chunk >= 0 && (uint32_t)it->chunk < m->call_hdr->n_write_chunks &&
		    !rr_chunk_length(m->call_hdr, &m->call_hdr->writes[it->chunk])) {
			ck_report(ck, f, RR_163_EMPTY_CHUNK_INLINE, m->send_frame,
				  "reply XID 0x%08x: %s data went to Write chunk %d, which the call offered empty",
				  m->xid, rr_nfs4_op_name(it->op), it->chunk);
			return;
		}
	}
}

/*
 * RFC 8166 §4.3.2: a call whose reply can hold no DDP-eligible result
 * leaves the Write list empty.  In NFSv4 only READ data and READLINK links
 * are such results (RFC 8267 §6.1), so NULL, and a COMPOUND the walk read
 * to its end without a READ or READLINK, offer no Write chunk.
 */
void ck_rr168(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	char what[48];

	if (m->dir != RR_DIR_CALL || !ck_is_nfs(m, 4, 4) || m->backchannel || !m->hdr->n_write_chunks)
		return;
	if (m->call.proc == 0) {
		ck_report(ck, f, RR_168_NULL_NO_WRITES, m->send_frame,
			  "NFSv4 NULL call XID 0x%08x offers %u Write chunks, though its reply holds no "
			  "DDP-eligible result", m->xid, m->hdr->n_write_chunks);
		return;
	}
	if (m->call.proc != 1 || m->ulp_result != RR_ULP_OK || m->ulp.ops_truncated || m->ulp.n_ddp_capable)
		return;
	ck_describe_call(m, what, sizeof(what));
	ck_report(ck, f, RR_168_NULL_NO_WRITES, m->send_frame,
		  "%s call XID 0x%08x offers %u Write chunks, though no READ or READLINK can put a "
		  "DDP-eligible result in its reply", what, m->xid, m->hdr->n_write_chunks);
}

static void mark_over(struct rr_checker *ck, const struct rr_message *m)
{
	struct ck_call *c = ck_call_find(ck, m->conn_id, m->backchannel ? 1 : 0, m->xid);
	struct ck_episode *ep = ck_episode_find(ck, ck_episode_key(&m->conn, m->xid));

	if (c)
		c->flags |= CK_CALL_OVER_LIMIT;
	if (ep)
		ep->over_limit = true;
}

void ck_rr170(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n;

	if (m->dir != RR_DIR_CALL || !ck_is_nfs(m, 4, 4))
		return;
	n = ck_read_chunks(m->hdr, m->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
	if (n > 1) {
		mark_over(ck, m);
		ck_report(ck, f, RR_170_READ_LIST_LIMIT, m->send_frame,
			  "NFSv4 call XID 0x%08x has read chunks at %zu Positions besides any Position-Zero chunk",
			  m->xid, n);
	}
}

void ck_rr171(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir != RR_DIR_CALL || !ck_is_nfs(m, 4, 4) || m->hdr->n_write_chunks <= 1)
		return;
	mark_over(ck, m);
	ck_report(ck, f, RR_171_WRITE_LIST_LIMIT, m->send_frame, "NFSv4 call XID 0x%08x offers %u Write chunks",
		  m->xid, m->hdr->n_write_chunks);
}

void ck_rr172(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && ck_is_nfs(m, 4, 4) && ck_segments_over_limit(m->hdr))
		ck_report(ck, f, RR_172_SEGMENT_LIMIT, m->send_frame,
			  "NFSv4 call XID 0x%08x has a chunk of more than 16 segments", m->xid);
}

static bool complexity_failure(const struct rr_message *m)
{
	return (m->hdr->proc == RR_RDMA_ERROR && m->hdr->err == RR_ERR_CHUNK) ||
	       (m->has_rpc && m->reply.reply_stat == RR_MSG_ACCEPTED &&
		m->reply.accept_stat == RR_ACCEPT_GARBAGE_ARGS);
}

void ck_rr173(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (m->dir != RR_DIR_REPLY || !ck_is_nfs(m, 4, 4) || !complexity_failure(m) || !m->call_hdr)
		return;
	c = ck_call_of_reply(ck, m);
	/*
	 * Only a request this tool decoded to its end, within the limits and with
	 * no other fault; and ERR_CHUNK for an offered Reply chunk too small for
	 * the reply is RFC 8267 3.1's remedy, not a refusal for complexity.
	 */
	if (!c || (c->flags & (CK_CALL_OVER_LIMIT | CK_CALL_BAD_CHUNK | CK_CALL_BAD_HDR | CK_CALL_MSGP)) ||
	    !(c->flags & CK_CALL_ARGS_OK) || (m->hdr->proc == RR_RDMA_ERROR && c->offered_reply_chunk))
		return;
	ck_report(ck, f, RR_173_ACCEPT_WITHIN, m->send_frame,
		  "the server answered %s (XID 0x%08x) with %s although the request stays within the RFC 8267 "
		  "complexity limits", c->what, m->xid,
		  m->hdr->proc == RR_RDMA_ERROR ? "ERR_CHUNK" : "GARBAGE_ARGS");
}

void ck_rr174(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (m->dir != RR_DIR_REPLY || !ck_is_nfs(m, 4, 4) || complexity_failure(m) || !m->has_rpc)
		return;
	c = ck_call_of_reply(ck, m);
	/* NFS4ERR_RESOURCE, NFS4ERR_REQ_TOO_BIG, NFS4ERR_TOO_MANY_OPS: refusals that name the size. */
	if (c && (c->flags & CK_CALL_OVER_LIMIT) && ck_reply_ok(m) &&
	    (m->ulp.status == 10018 || m->ulp.status == 10065 || m->ulp.status == 10070)) {
		char status[48];

		ck_report(ck, f, RR_174_REJECT_HOW, m->send_frame,
			  "the over-limit request XID 0x%08x was refused with %s (%u), not ERR_CHUNK or "
			  "GARBAGE_ARGS", m->xid, rr_nfs4_status_name(m->ulp.status, status, sizeof(status)),
			  m->ulp.status);
	}
}

void ck_rr175(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_episode *ep;

	if (s->status != RR_HDR_OK || !s->is_call || ck_send_dir(s) != 0)
		return;
	ep = ck_episode_find(ck, ck_episode_key(&s->conn, s->hdr->xid));
	if (ep && ep->over_limit && ep->failures &&
	    (!g_strcmp0(ep->failure, "ERR_CHUNK") || !g_strcmp0(ep->failure, "GARBAGE_ARGS")))
		ck_report(ck, f, RR_175_NO_RETRY_OVER, s->frame,
			  "XID 0x%08x is sent again after %s refused it for complexity", s->hdr->xid, ep->failure);
}
