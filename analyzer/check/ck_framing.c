// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of groups A (framing, fixed header), B (header encoding and chunk
 * lists) and H (deprecated message types): what one Send's transport
 * header says, before anything is rebuilt from it.
 */
#include "conn_state.h"
#include "check_int.h"
#include "held.h"

static const struct rr_fact_send *ok_send(const struct rr_fact *f)
{
	return f->send->status == RR_HDR_OK ? f->send : NULL;
}

static bool carries_rpc(uint32_t proc)
{
	return proc == RR_RDMA_MSG || proc == RR_RDMA_MSGP;
}

void ck_rr001(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_call *c;
	uint32_t err;

	if (s->is_call || s->status == RR_HDR_E_SHORT)
		return;
	c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
	if (!c || !(c->flags & CK_CALL_NOT_V1) || (c->flags & CK_CALL_REPLIED))
		return;
	if (s->hdr->proc == RR_RDMA_ERROR && ck_send_word(s, 16, &err) && err == RR_ERR_VERS)
		return;
	ck_report(ck, f, RR_001_VERS, c->send_frame,
		  "call XID 0x%08x has rdma_vers %u, yet the responder answered it with %s at frame %" G_GUINT64_FORMAT
		  " instead of RDMA_ERROR/ERR_VERS", s->hdr->xid, c->vers,
		  rr_hdr_proc_name(s->hdr->proc), s->frame);
}

void ck_rr002(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->kind == RR_FACT_SEND) {
		const struct rr_fact_send *s = ok_send(f);

		if (s && carries_rpc(s->hdr->proc) && s->has_rpc && s->rpc_xid != s->hdr->xid)
			ck_report(ck, f, RR_002_XID, s->frame,
				  "rdma_xid 0x%08x differs from the RPC XID 0x%08x", s->hdr->xid, s->rpc_xid);
		return;
	}
	if (f->msg->hdr->proc != RR_RDMA_NOMSG || !f->msg->has_rpc)
		return;
	{
		uint32_t x = f->msg->dir == RR_DIR_CALL ? f->msg->call.xid : f->msg->reply.xid;

		if (x != f->msg->hdr->xid)
			ck_report(ck, f, RR_002_XID, f->msg->send_frame,
				  "rdma_xid 0x%08x differs from the XID 0x%08x at the start of the %s",
				  f->msg->hdr->xid, x,
				  f->msg->dir == RR_DIR_CALL ? "Position-Zero read chunk" : "Reply chunk");
	}
}

void ck_rr003(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (m->dir != RR_DIR_REPLY || m->call_hdr || m->hdr->proc == RR_RDMA_ERROR)
		return;
	c = ck_call_of_reply(ck, m);
	/*
	 * The check stage saw the call: the engine refused it (its own rules say
	 * what it is) or dropped it at a limit (ENG-LIMIT said so).
	 */
	if (c)
		return;
	/*
	 * A capture that starts mid-connection holds replies to calls sent
	 * before it began: at most as many as the credits the responder
	 * grants, which bound the calls outstanding (RFC 8166 §3.3.1).  So
	 * many unmatched replies of a connection whose start the capture lacks
	 * are counted as not captured, not told; past them a reply is.
	 */
	if (!m->conn.handshake) {
		struct ck_dir_state *ds = &ck_conn(ck, m->conn_id)->dir[m->backchannel ? 1 : 0];

		if (ds->unmatched_at_start < m->hdr->credit) {
			ds->unmatched_at_start++;
			ck_skip(ck, RR_003_REPLY_MATCH);
			return;
		}
	}
	/* The call may be in packets the capture lost: told once its sender is seen going on without a gap. */
	ck_hold(ck, f, RR_003_REPLY_MATCH, m->send_frame, m->backchannel ? 1 : 0, true,
		"reply XID 0x%08x on %s matches no outstanding call%s", m->xid, m->conn_name,
		m->conn.handshake ? "" : " (the capture may start after it)");
}

void ck_rr004(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	struct ck_call *c;

	if (!s || !s->is_call || s->hdr->proc == RR_RDMA_DONE)
		return;
	c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
	/* The first call's reply may be in packets the capture lost. */
	if (c && !(c->flags & CK_CALL_REPLIED)) {
		ck_evidence(ck, c->send_frame);
		ck_hold(ck, f, RR_004_XID_DUP, s->frame, ck_send_dir(s), false,
			  "call XID 0x%08x while the call with the same XID sent at frame %" G_GUINT64_FORMAT
			  " is still outstanding", s->hdr->xid, c->send_frame);
	}
}

void ck_rr005(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->send->status == RR_HDR_E_PROC)
		ck_report(ck, f, RR_005_PROC, f->send->frame,
			  "message type %u at offset 12 of XID 0x%08x is not defined", f->send->hdr->proc,
			  f->send->hdr->xid);
}

void ck_rr006(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (s->truncated) {
		if (s->status == RR_HDR_E_SHORT)
			ck_skip(ck, RR_006_SHORT_HDR);
		return;
	}
	if (s->status == RR_HDR_E_SHORT && !(s->hdr->proc == RR_RDMA_ERROR && s->hdr->err == RR_ERR_VERS))
		ck_report(ck, f, RR_006_SHORT_HDR, s->frame,
			  "the %zu-byte Send of XID 0x%08x ends inside its transport header (at offset %zu)",
			  s->len, s->hdr->xid, s->hdr->err_offset);
	else if (s->status == RR_HDR_OK && carries_rpc(s->hdr->proc) && s->len <= s->hdr->hdr_len)
		ck_report(ck, f, RR_006_SHORT_HDR, s->frame,
			  "%s XID 0x%08x has no RPC message after its %zu-byte header",
			  rr_hdr_proc_name(s->hdr->proc), s->hdr->xid, s->hdr->hdr_len);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool record_mark(const struct rr_fact_send *s)
{
	const uint8_t *p = s->data + s->hdr->hdr_len;
	uint32_t w0;

	if (s->len < s->hdr->hdr_len + 8)
		return false;
	w0 = be32(p);
	return (w0 & 0x80000000u) && (w0 & 0x7fffffffu) >= 8 && be32(p + 4) == s->hdr->xid;
}

void ck_rr007(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (s && carries_rpc(s->hdr->proc) && record_mark(s))
		ck_report(ck, f, RR_007_RECORD_MARK, s->frame,
			  "the Payload of XID 0x%08x starts with a TCP record mark (0x%08x) before the XID",
			  s->hdr->xid, be32(s->data + s->hdr->hdr_len));
}

void ck_rr008(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (!s || !carries_rpc(s->hdr->proc) || s->len < s->hdr->hdr_len + 8 || record_mark(s))
		return;
	if (s->rpc_msg_type > 1)
		ck_report(ck, f, RR_008_MSG_TYPE, s->frame,
			  "RPC msg_type %u in XID 0x%08x is neither CALL nor REPLY", s->rpc_msg_type,
			  s->hdr->xid);
}

void ck_rr020(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->send->status == RR_HDR_E_BOOL)
		ck_report(ck, f, RR_020_XDR_BOOL, f->send->frame,
			  "XID 0x%08x: the chunk-list discriminator at offset %zu is neither 0 nor 1",
			  f->send->hdr->xid, f->send->hdr->err_offset);
}

/*
 * The call of the peer a chunkless RDMA_NOMSG answers, if any: a call still
 * outstanding in the direction in which the sender responds (the client
 * answers backward calls).  The engine took such a Send for a call when it
 * came from the client, for a reply when from the server.
 */
static const struct ck_call *nomsg_answers(struct rr_checker *ck, const struct rr_fact_send *s)
{
	const struct ck_call *c;

	if (!s->roles_known)
		return NULL;
	c = ck_call_find(ck, s->conn_id, s->from_requester ? 1 : 0, s->hdr->xid);
	return c && !(c->flags & CK_CALL_REPLIED) ? c : NULL;
}

/*
 * RFC 8166 4.2.4, in each direction: an RDMA_NOMSG call carries its Payload
 * in a Position-Zero read chunk, an RDMA_NOMSG reply in the Reply chunk.
 * Judged on a NOMSG with neither: a reply when it answers a call of the
 * peer still outstanding, else a call of the sender's requester role (the
 * client's forward call, the server's backward call).
 */
void ck_rr021(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	const struct ck_call *c;

	if (!s || s->hdr->proc != RR_RDMA_NOMSG || ck_pz_segments(s->hdr) || s->hdr->has_reply)
		return;
	c = nomsg_answers(ck, s);
	if (c)
		ck_evidence(ck, c->send_frame);
	if (c)
		ck_report(ck, f, RR_021_NOMSG_EMPTY, s->frame,
			  "RDMA_NOMSG reply XID 0x%08x to the %s call at frame %" G_GUINT64_FORMAT
			  " has no Reply chunk to carry its Payload (nor any other chunk)", s->hdr->xid,
			  c->dir ? "backward" : "forward", c->send_frame);
	else if (s->roles_known)
		ck_report(ck, f, RR_021_NOMSG_EMPTY, s->frame,
			  "RDMA_NOMSG call XID 0x%08x from the %s (%s direction) has no Position-Zero read "
			  "chunk to carry its Payload (nor any other chunk)", s->hdr->xid,
			  s->from_requester ? "client" : "server", s->from_requester ? "forward" : "backward");
	else
		ck_report(ck, f, RR_021_NOMSG_EMPTY, s->frame,
			  "RDMA_NOMSG XID 0x%08x has neither a Position-Zero read chunk nor a Reply chunk",
			  s->hdr->xid);
}

void ck_rr022(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (s && !rr_hdr_proc_has_payload(s->hdr->proc) && s->len > s->hdr->hdr_len)
		ck_report(ck, f, RR_022_EXTRA_BYTES, s->frame, "%s XID 0x%08x: %zu bytes follow the %zu-byte header",
			  rr_hdr_proc_name(s->hdr->proc), s->hdr->xid, s->len - s->hdr->hdr_len,
			  s->hdr->hdr_len);
}

void ck_rr023(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	uint32_t i;

	for (i = 0; s && i < s->hdr->n_reads; i++)
		if (s->hdr->reads[i].position % 4) {
			ck_report(ck, f, RR_023_POS_ALIGN, s->frame,
				  "read segment %u of XID 0x%08x has Position %u, not a multiple of 4", i,
				  s->hdr->xid, s->hdr->reads[i].position);
			return;
		}
}

void ck_rr024(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;

	if (!s)
		return;
	n = ck_read_chunks(s->hdr, s->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++)
		if (rc[i].split) {
			ck_report(ck, f, RR_024_POS_RUNS, s->frame,
				  "XID 0x%08x: the read segments at Position %u are not adjacent in the Read list",
				  s->hdr->xid, rc[i].position);
			return;
		}
}

void ck_rr025(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	uint32_t i;
	for (i = 1; s && i < s->hdr->n_reads; i++)
		if (s->hdr->reads[i].position < s->hdr->reads[i - 1].position) {
			ck_report(ck, f, RR_025_POS_ORDER, s->frame,
				  "XID 0x%08x: read segment %u has Position %u after Position %u", s->hdr->xid, i,
				  s->hdr->reads[i].position, s->hdr->reads[i - 1].position);
			return;
		}
}

void ck_rr026(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && m->has_bad_position && !m->bad_position_overlaps)
		ck_report(ck, f, RR_026_POS_RANGE, m->send_frame,
			  "read chunk Position %u of XID 0x%08x lies beyond the Payload stream", m->bad_position,
			  m->xid);
}

void ck_rr027(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	uint32_t i, runs = 0;

	if (!s || s->hdr->proc != RR_RDMA_NOMSG)
		return;
	for (i = 0; i < s->hdr->n_reads; i++)
		if (s->hdr->reads[i].position == 0 && (i == 0 || s->hdr->reads[i - 1].position != 0))
			runs++;
	if (runs > 1)
		ck_report(ck, f, RR_027_PZ_RUN, s->frame,
			  "Long Call XID 0x%08x: its Position-Zero segments come in %u separate runs", s->hdr->xid,
			  runs);
}

void ck_rr028(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (s && s->is_call && carries_rpc(s->hdr->proc) && ck_pz_segments(s->hdr))
		ck_report(ck, f, RR_028_MSG_PZRC, s->frame,
			  "%s call XID 0x%08x carries a Position-Zero read chunk next to its inline RPC header",
			  rr_hdr_proc_name(s->hdr->proc), s->hdr->xid);
}

void ck_rr029(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	struct ck_conn_state *cs;

	if (!s || !s->is_call || !s->hdr->has_reply || s->hdr->reply.count <= 1)
		return;
	cs = ck_conn(ck, s->conn_id);
	if (cs->reported_029)
		return;
	cs->reported_029 = true;
	ck_report(ck, f, RR_029_REPLY_SEGS, s->frame,
		  "call XID 0x%08x offers a Reply chunk of %u segments (told once per connection)",
		  s->hdr->xid, s->hdr->reply.count);
}

void ck_rr030(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	uint32_t k;

	if (m->dir != RR_DIR_CALL || ck_is_nfs(m, 4, 4))
		return;
	for (k = 0; k < m->hdr->n_write_chunks; k++)
		if (m->hdr->writes[k].count == 0) {
			ck_report(ck, f, RR_030_EMPTY_WCHUNK, m->send_frame,
				  "call XID 0x%08x offers Write chunk %u with no segments", m->xid, k);
			return;
		}
}

void ck_rr031(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);
	uint32_t i;

	if (!s || !s->is_call)
		return;
	for (i = 0; i < s->hdr->n_reads; i++)
		if (!s->hdr->reads[i].seg.length) {
			ck_report(ck, f, RR_031_ZERO_SEG, s->frame, "call XID 0x%08x: read segment %u has length 0",
				  s->hdr->xid, i);
			return;
		}
	for (i = 0; s->hdr->has_reply && i < s->hdr->reply.count; i++)
		if (!rr_hdr_wseg(s->hdr, &s->hdr->reply, i)->length) {
			ck_report(ck, f, RR_031_ZERO_SEG, s->frame,
				  "call XID 0x%08x: Reply chunk segment %u has length 0", s->hdr->xid, i);
			return;
		}
}

void ck_rr130(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (s && s->hdr->proc == RR_RDMA_MSGP)
		ck_report(ck, f, RR_130_MSGP, s->frame, "XID 0x%08x is sent as RDMA_MSGP (align %u, thresh %u)",
			  s->hdr->xid, s->hdr->align, s->hdr->thresh);
}

void ck_rr131(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (m->dir != RR_DIR_REPLY || m->hdr->proc == RR_RDMA_ERROR)
		return;
	c = ck_call_of_reply(ck, m);
	if (c && (c->flags & CK_CALL_MSGP))
		ck_report(ck, f, RR_131_MSGP_ANSWER, m->send_frame,
			  "the RDMA_MSGP call XID 0x%08x was processed and answered with %s, not ERR_CHUNK", m->xid,
			  rr_hdr_proc_name(m->hdr->proc));
}

void ck_rr132(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = ok_send(f);

	if (s && s->hdr->proc == RR_RDMA_DONE)
		ck_report(ck, f, RR_132_DONE, s->frame, "RDMA_DONE sent (XID 0x%08x)", s->hdr->xid);
}
