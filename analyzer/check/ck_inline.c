// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of group C: inline thresholds; Short, Chunked and Long messages. */
#include "conn_state.h"
#include "check_int.h"

/* The receiver's threshold and whether it is known (not the 1024 assumption). */
static uint32_t receiver_threshold(const struct rr_fact_send *s, bool *known)
{
	uint32_t t = ck_inline_of_receiver(&s->conn, !s->from_requester);

	*known = ck_threshold_known(&s->conn) && t;
	return t ? t : RR_DEFAULT_INLINE_THRESHOLD;
}

void ck_rr040(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	bool known;
	uint32_t t;

	if (!s->roles_known || s->status != RR_HDR_OK)
		return;
	t = receiver_threshold(s, &known);
	if (known && s->len > t && ck_send_dir(s) == 0)   /* backward: RR-194 */
		ck_report(ck, f, RR_040_INLINE, s->frame,
			  "the %zu-byte Send of XID 0x%08x exceeds the %s's %u-byte inline threshold (%s)", s->len,
			  s->hdr->xid, s->from_requester ? "responder" : "requester", t,
			  ck_inline_source(s->conn.inline_source));
}

void ck_rr041(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_dir_state *ds;
	bool known;

	if (!s->roles_known || s->status != RR_HDR_OK)
		return;
	/* Not when the handshake's private data was cut: it may have advertised more. */
	receiver_threshold(s, &known);
	if (known || s->conn.inline_source == RR_INLINE_UNKNOWN || s->len <= RR_DEFAULT_INLINE_THRESHOLD)
		return;
	ds = &ck_conn(ck, s->conn_id)->dir[s->from_requester ? 0 : 1];
	if (ds->inline_default_reported)
		return;
	ds->inline_default_reported = true;
	ck_report(ck, f, RR_041_INLINE_DEFAULT, s->frame,
		  "the %s sends %zu bytes inline (XID 0x%08x) on a connection whose threshold was never "
		  "advertised in the capture; 1024 is all it may assume (if the peers agreed on more, give "
		  "it: ulb-lint --inline-threshold, Wireshark's rpcrdma.inline_threshold preference; "
		  "reported once per connection and direction)",
		  s->from_requester ? "requester" : "responder", s->len, s->hdr->xid);
}

/* Replies: the requester's threshold, and whether it is known. */
static uint32_t requester_threshold(const struct rr_message *m, bool *known)
{
	*known = ck_threshold_known(&m->conn) && m->conn.inline_requester;
	return m->conn.inline_requester ? m->conn.inline_requester : RR_DEFAULT_INLINE_THRESHOLD;
}

/* Procedures whose reply can outgrow any inline threshold (RFC 8267 3, 5.2, 6.2). */
static bool reply_may_be_large(const struct rr_message *m)
{
	uint32_t p, v, pr;
	uint16_t i;

	if (!ck_prog(m, &p, &v, &pr))
		return false;
	if (p == RR_NFSACL_PROGRAM)
		return pr == 1;   /* GETACL */
	if (p != RR_NFS_PROGRAM)
		return false;
	if (v == 2 || v == 3)
		return pr == 5 || pr == 16 || pr == 17;   /* READLINK, READDIR, READDIRPLUS */
	for (i = 0; m->call_ulp && i < m->call_ulp->n_ops; i++)
		switch (m->call_ulp->ops[i]) {
		case 9: case 26: case 27: case 72: case 73:   /* GETATTR READDIR READLINK GETXATTR LISTXATTRS */
			return true;
		}
	return false;
}

void ck_rr044(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir != RR_DIR_REPLY || !m->call_hdr || m->call_hdr->has_reply ||
	    m->hdr->proc != RR_RDMA_ERROR || m->hdr->err != RR_ERR_CHUNK || !reply_may_be_large(m))
		return;
	{
		char what[48] = "";
		struct ck_call *c = ck_call_of_reply(ck, m);

		if (c)
			g_strlcpy(what, c->what, sizeof(what));
		ck_report(ck, f, RR_044_REPLY_CHUNK_NEEDED, m->send_frame,
			  "%s XID 0x%08x offered no Reply chunk and was answered ERR_CHUNK: the reply did not fit "
			  "inline", what[0] ? what : "call", m->xid);
	}
}

/*
 * RR-045 without a threshold the capture shows.  RFC 8166 §3.3.2 defines
 * the reply inline threshold as the smaller of what the responder can send
 * and the requester can receive in one Send; §3.3.3 has both assume 1024
 * unless a mechanism (RFC 8797 private data, configuration) told them
 * more.  A capture without the handshake shows no such mechanism, yet one
 * may have been used: a reply above 1024 proves nothing, nor do the sizes
 * each peer has sent or accepted (they bound the thresholds from below
 * only).  What bounds the requester's threshold from above is its refusing
 * the reply's Send as longer than its Receive (§3.3): then the reply
 * exceeded the threshold, and the Reply chunk it offered had to be used.
 * A refused reply of 1024 bytes or less is the requester's failure to
 * receive 1024 (§3.3.3), not this rule's.
 */
static void long_reply_refused(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_rnr *r = f->rnr;
	struct ck_dir_state *ds;
	uint64_t frames[2];

	if (f->kind != RR_FACT_RNR || !r->too_long || !r->roles_known)
		return;
	/* Refused by the requester: a Send of the responder (a forward reply). */
	ds = &ck_conn(ck, r->conn_id)->dir[r->by_requester ? 1 : 0];
	if (!ds->long_reply_pending)
		return;
	ds->long_reply_pending = false;
	frames[0] = ds->long_reply_frame;
	frames[1] = r->frame;
	ck_report_full(ck, RR_045_USE_REPLY_CHUNK, ds->long_reply_frame, frames, 2, r->conn_id, true,
		  ds->long_reply_xid, "reply XID 0x%08x is a %zu-byte RDMA_MSG Send although the call offered a Reply chunk and the "
		  "reply exceeded the %s's inline threshold (inferred: no handshake in the capture, but the %s "
		  "refused that Send as longer than its Receive, %s at frame %" G_GUINT64_FORMAT ")",
		  ds->long_reply_xid, ds->long_reply_len, r->by_requester ? "requester" : "responder",
		  r->by_requester ? "requester" : "responder",
		  r->iwarp ? "a Terminate \"DDP message too long\"" : "a NAK \"remote invalid request\"",
		  r->frame);
}

void ck_rr045(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_dir_state *ds;
	bool known;
	uint32_t t;

	if (f->kind != RR_FACT_MSG) {
		long_reply_refused(ck, f);
		return;
	}
	if (m->dir != RR_DIR_REPLY)
		return;
	/* A forward reply is the responder's Send, a backward one the requester's. */
	ds = &ck_conn(ck, m->conn_id)->dir[m->backchannel ? 0 : 1];
	ds->long_reply_pending = false;
	if (!m->call_hdr || !m->call_hdr->has_reply || m->hdr->proc != RR_RDMA_MSG)
		return;
	t = requester_threshold(m, &known);
	if (m->send_len <= t)
		return;
	if (!known) {
		/* Judged only if the requester refuses this Send (long_reply_refused). */
		ds->long_reply_pending = true;
		ds->long_reply_xid = m->xid;
		ds->long_reply_frame = m->send_frame;
		ds->long_reply_len = m->send_len;
		ck_skip_why(ck, RR_045_USE_REPLY_CHUNK, RR_SKIP_NO_THRESHOLD);
		return;
	}
	ck_report(ck, f, RR_045_USE_REPLY_CHUNK, m->send_frame,
		  "reply XID 0x%08x is a %zu-byte RDMA_MSG Send although the call offered a Reply chunk and the "
		  "requester's threshold is %u (%s)", m->xid, m->send_len, t,
		  ck_inline_source(m->conn.inline_source));
}

void ck_rr046(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_REPLY && m->call_hdr && m->call_hdr->has_reply && m->hdr->proc == RR_RDMA_MSG)
		ck_report(ck, f, RR_046_SHORT_DESPITE_RC, m->send_frame,
			  "reply XID 0x%08x comes back Short although the call offered a Reply chunk", m->xid);
}

/* At the Send: the reply may have no chunk at all, and then no record follows. */
void ck_rr048(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_call *c;

	if (s->status != RR_HDR_OK || s->hdr->proc != RR_RDMA_NOMSG)
		return;
	if (!s->is_call) {
		c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
	} else {
		/*
		 * A chunkless NOMSG from the client was taken for a call; it is the
		 * reply to a backward call still outstanding with its XID (RR-021).
		 */
		if (!s->roles_known || !s->from_requester || ck_pz_segments(s->hdr) || s->hdr->has_reply)
			return;
		c = ck_call_find(ck, s->conn_id, 1, s->hdr->xid);
	}
	if (c && !(c->flags & (CK_CALL_REPLIED | CK_CALL_BAD_HDR | CK_CALL_NOT_V1)) && !c->offered_reply_chunk) {
		ck_evidence(ck, c->send_frame);
		ck_report(ck, f, RR_048_NOMSG_NEEDS_RC, s->frame,
			  "reply XID 0x%08x is RDMA_NOMSG but its call (frame %" G_GUINT64_FORMAT
			  ") offered no Reply chunk", s->hdr->xid, c->send_frame);
	}
}

void ck_rr049(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;

	if (m->dir != RR_DIR_REPLY || h->proc != RR_RDMA_MSG || !h->has_reply)
		return;
	if (rr_chunk_length(h, &h->reply))
		ck_report(ck, f, RR_049_MSG_USES_RC, m->send_frame,
			  "RDMA_MSG reply XID 0x%08x returns %" G_GUINT64_FORMAT
			  " bytes in its Reply chunk as well as an inline Payload", m->xid,
			  rr_chunk_length(h, &h->reply));
}

void ck_rr050(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (m->dir != RR_DIR_CALL || !ck_is_long_call(m->hdr) || !ck_ulp_ok(m))
		return;
	for (i = 0; i < m->n_items; i++)
		if (m->items[i].chunk < 0 && m->items[i].length >= RR_DEFAULT_INLINE_THRESHOLD) {
			ck_report(ck, f, RR_050_BULK_IN_LONG, m->send_frame,
				  "call XID 0x%08x carries %u bytes of %s data inside its Position-Zero read chunk "
				  "instead of a read chunk of their own", m->xid, m->items[i].length,
				  ck_is_nfs(m, 4, 4) ? rr_nfs4_op_name(m->items[i].op) :
				  rr_nfs3_proc_name(m->items[i].op));
			return;
		}
}
