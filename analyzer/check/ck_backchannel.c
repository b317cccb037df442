// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of groups M (backchannel, RFC 8167 and RFC 8267 6.5) and N (ports). */
#include "conn_state.h"
#include "check_int.h"

/*
 * RFC 8267 6.5.2: callback procedures have no DDP-eligible data item, but a
 * Long Call or Reply may be needed (RFC 8167 5.3: chunks work the same way
 * in the reverse direction).  So a backward call may carry a Position-Zero
 * read chunk and offer a Reply chunk, a backward reply may come back
 * through that Reply chunk; a read chunk at a non-zero Position or a Write
 * chunk reduces an item that is not eligible.  A Long Call the session did
 * not allow is RR-192's, an RDMA_NOMSG without its chunk RR-021's.
 */
void ck_rr191(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;
	uint32_t normal_reads;

	if (!m->backchannel || h->proc == RR_RDMA_ERROR)
		return;
	normal_reads = h->n_reads - ck_pz_segments(h);
	if (m->dir == RR_DIR_REPLY)
		normal_reads = h->n_reads;   /* a reply has no Read list at all */
	if (normal_reads || h->n_write_chunks)
		ck_report(ck, f, RR_191_BACK_SHAPE, m->send_frame,
			  "backward %s XID 0x%08x carries %u read segments %sand %u Write chunks; callbacks "
			  "have no DDP-eligible item, so only a Long message's Position-Zero read chunk and a "
			  "Reply chunk may appear", m->dir == RR_DIR_CALL ? "call" : "reply", m->xid,
			  normal_reads, m->dir == RR_DIR_CALL ? "at a non-zero Position " : "", h->n_write_chunks);
}

/* A CREATE_SESSION result on this connection: csr_back_chan_attrs, what the session got. */
static void note_back_attrs(struct ck_conn_state *cs, const struct rr_message *m)
{
	if (m->backchannel || m->dir != RR_DIR_REPLY || !m->has_ulp || !m->ulp.sess.create_session ||
	    !m->ulp.sess.back_maxrequest || !ck_reply_ok(m))
		return;
	cs->back_attrs = true;
	cs->back_maxreq = m->ulp.sess.back_maxrequest;
	cs->back_attrs_frame = m->send_frame;
}

/*
 * RFC 8267 6.5.2: a client that takes Long Calls in its backchannel reports
 * a back-channel ca_maxrequestsize larger than the connection's inline
 * thresholds; otherwise the server sends only Short backward messages.
 * Judged only against a CREATE_SESSION on this connection, and only where
 * its size is not above the client's threshold (known, or 1024, which every
 * receiver supports at least); silent otherwise.
 */
void ck_rr192(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	uint64_t frames[2];
	uint32_t t;
	bool known;

	note_back_attrs(cs, m);
	if (!m->backchannel || m->dir != RR_DIR_CALL || !ck_is_long_call(m->hdr))
		return;
	known = ck_threshold_known(&m->conn) && m->conn.inline_requester;
	t = known ? m->conn.inline_requester : RR_DEFAULT_INLINE_THRESHOLD;
	if (!cs->back_attrs || (!known && cs->back_maxreq > t)) {
		ck_skip(ck, RR_192_BACK_LONG);
		return;
	}
	if (cs->back_maxreq > t)
		return;
	frames[0] = m->send_frame;
	frames[1] = cs->back_attrs_frame;
	ck_report_full(ck, RR_192_BACK_LONG, m->send_frame, frames, 2, m->conn_id, true, m->xid,
		       "backward call XID 0x%08x is a Long Call, but the CREATE_SESSION at frame %" G_GUINT64_FORMAT
		       " gave a back-channel ca_maxrequestsize of %u, not above the client's %u-byte inline "
		       "threshold (%s)", m->xid, cs->back_attrs_frame, cs->back_maxreq, t,
		       known ? ck_inline_source(m->conn.inline_source) : "every receiver supports 1024");
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

/* Programs whose server is the NFS server (RFC 8267 4, 5, 6): not callback programs. */
static bool nfs_server_program(uint32_t prog)
{
	return prog == RR_NFS_PROGRAM || prog == 100227u || prog == 100005u || prog == 100021u ||
	       prog == 100024u;
}

/*
 * RFC 8167 2 and 5.4: ONC RPC clients initiate transport connections, "an
 * ONC RPC server does not establish transport connections with clients".
 * With the handshake in the capture the side that connected is known (the
 * engine makes it the requester); a call of an NFS program from the side
 * that accepted shows that the side that connected serves NFS.  Calls of a
 * callback program go that way legally (NFSv4.1 backchannel, RFC 8167 3.2).
 */
void ck_rr195(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs;
	char what[48];

	if (m->dir != RR_DIR_CALL || !m->backchannel || !m->conn.handshake || !m->has_rpc ||
	    !nfs_server_program(m->call.prog))
		return;
	cs = ck_conn(ck, m->conn_id);
	if (cs->server_connected_reported)
		return;
	cs->server_connected_reported = true;
	ck_describe_call(m, what, sizeof(what));
	ck_report(ck, f, RR_195_BACK_CONNECT, m->send_frame,
		  "the host that connected (handshake at the start of the capture) serves NFS: it answers %s "
		  "call XID 0x%08x of its peer, and an NFS server never initiates a connection", what, m->xid);
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

/*
 * RFC 8167 5.1 and 5.2: on one connection a backward call carries the
 * rdma_vers of the forward calls, a backward reply that of its call (an
 * RDMA_ERROR's version is RR-110's).  Needs the roles: with them a Send of
 * another version is filed by the XID it carries (engine/rebuild.c).
 */
void ck_rr197(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_conn_state *cs;
	const struct ck_call *c;

	if (!s->roles_known || (s->status != RR_HDR_OK && s->status != RR_HDR_E_NOT_V1))
		return;
	cs = ck_conn(ck, s->conn_id);
	if (s->is_call && s->from_requester) {
		if (!cs->fwd_vers_known) {
			cs->fwd_vers_known = true;
			cs->fwd_vers = s->hdr->vers;
		}
		return;
	}
	if (s->is_call) {
		if (cs->fwd_vers_known && s->hdr->vers != cs->fwd_vers)
			ck_report(ck, f, RR_197_BACK_VERS, s->frame,
				  "backward call XID 0x%08x carries rdma_vers %u, but the forward calls on this "
				  "connection carry %u", s->hdr->xid, s->hdr->vers, cs->fwd_vers);
		return;
	}
	if (!s->from_requester || s->hdr->proc == RR_RDMA_ERROR)
		return;
	c = ck_call_find(ck, s->conn_id, 1, s->hdr->xid);
	if (!c || (c->flags & CK_CALL_REPLIED) || c->vers == s->hdr->vers)
		return;
	ck_evidence(ck, c->send_frame);
	ck_report(ck, f, RR_197_BACK_VERS, s->frame,
		  "backward reply XID 0x%08x carries rdma_vers %u, but its call (frame %" G_GUINT64_FORMAT
		  ") carried %u", s->hdr->xid, s->hdr->vers, c->send_frame, c->vers);
}
