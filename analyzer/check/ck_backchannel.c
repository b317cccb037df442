// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of groups M (backchannel, RFC 8167 and RFC 8267 6.5) and N (ports). */
#include "check_int.h"

void ck_rr191(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;

	bool long_call, long_reply;

	if (!m->backchannel || h->proc == RR_RDMA_ERROR)
		return;
	/* RFC 8267 6.5.2 lets NFSv4.1+ send Long backward messages: RR-192 judges those. */
	long_call = m->dir == RR_DIR_CALL && ck_is_long_call(h) && ck_pz_segments(h) == h->n_reads &&
		    !h->n_write_chunks;
	long_reply = m->dir == RR_DIR_REPLY && h->proc == RR_RDMA_NOMSG && h->has_reply && !h->n_reads &&
		     !h->n_write_chunks;
	if (long_call || long_reply)
		return;
	if (h->proc != RR_RDMA_MSG || h->n_reads || h->n_write_chunks || h->has_reply)
		ck_report(ck, f, RR_191_BACK_SHAPE, m->send_frame,
			  "backward %s XID 0x%08x is %s with %u read segments, %u Write chunks and %s Reply chunk",
			  m->dir == RR_DIR_CALL ? "call" : "reply", m->xid, rr_hdr_proc_name(h->proc), h->n_reads,
			  h->n_write_chunks, h->has_reply ? "a" : "no");
}

void ck_rr192(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->backchannel && m->dir == RR_DIR_CALL && ck_is_long_call(m->hdr))
		ck_report(ck, f, RR_192_BACK_LONG, m->send_frame,
			  "backward call XID 0x%08x is a Long Call; without a CREATE_SESSION in the capture that "
			  "allows it, the server may send only Short backward messages", m->xid);
}

void ck_rr194(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	uint32_t t;

	if (s->status != RR_HDR_OK || !s->roles_known || ck_send_dir(s) != 1 ||
	    !ck_threshold_known(&s->conn))
		return;
	t = ck_inline_of_receiver(&s->conn, !s->from_requester);
	if (t && s->len > t)
		ck_report(ck, f, RR_194_BACK_SIZE, s->frame,
			  "backward %s XID 0x%08x is %zu bytes; the receiver's threshold is %u (%s)",
			  s->is_call ? "call" : "reply", s->hdr->xid, s->len, t,
			  ck_inline_source(s->conn.inline_source));
}

void ck_rr196(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && m->has_rpc && m->call.prog >= 0x40000000u &&
	    m->call.prog <= 0x5fffffffu && m->has_ulp && m->ulp.proc == 1 && m->ulp.minorversion == 0)
		ck_report(ck, f, RR_196_V40_CB_RDMA, m->send_frame,
			  "an NFSv4.0 callback (CB_COMPOUND XID 0x%08x) travels over RPC-over-RDMA", m->xid);
}

void ck_rr200(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir != RR_DIR_CALL || m->backchannel || !ck_is_nfs(m, 4, 4) || !m->conn.server_port ||
	    m->conn.server_port == 20049)
		return;
	{
		struct ck_conn_state *cs = ck_conn(ck, m->conn_id);

		if (cs->port_reported)
			return;
		cs->port_reported = true;
	}
	ck_report(ck, f, RR_200_PORT, m->send_frame, "NFSv4 over RPC-over-RDMA on port %u, not 20049",
		  m->conn.server_port);
}
