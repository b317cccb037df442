// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks that read what an NFS request asks for and how an NFSv4.1 session
 * was set up: the Write chunk offered for a READ (RR-082, group E), a
 * GETATTR of unpredictable size beside a non-idempotent op in NFSv4.0
 * (RR-183) and reply sizes against the session's ca_maxresponsesize
 * (RR-184, group L), and backward calls before the client bound the back
 * channel (RR-193, group M).  Session state is kept per connection: what
 * a CREATE_SESSION or BIND_CONN_TO_SESSION on this connection said.
 */
#include "conn_state.h"
#include "check_int.h"

/* NFSv3 READ (and NFSv2 READ): Write chunk 0 holds the result (RFC 8267 4.2). */
static bool nfs23_read(const struct rr_message *m)
{
	return m->call.prog == RR_NFS_PROGRAM &&
	       ((m->call.vers == 3 && m->call.proc == RR_NFS3_PROC_READ) ||
		(m->call.vers == 2 && m->call.proc == RR_NFS2_PROC_READ));
}

static void report_small_chunk(struct rr_checker *ck, const struct rr_fact *f, uint32_t k,
			       uint32_t count)
{
	const struct rr_message *m = f->msg;
	uint64_t len = rr_chunk_length(m->hdr, &m->hdr->writes[k]);
	char what[48];

	if (!len || len >= count)
		return;   /* a zero-length chunk is RR-163/RR-168's case */
	ck_describe_call(m, what, sizeof(what));
	ck_report(ck, f, RR_082_WCHUNK_SIZE, m->send_frame,
		  "%s call XID 0x%08x asks to READ %u bytes, but Write chunk %u offers only %" G_GUINT64_FORMAT,
		  what, m->xid, count, k, len);
}

/*
 * RFC 8166 4.3.2.1: the requester registers "Write chunks large enough to
 * accommodate the largest result data item that might be associated with
 * each chunk"; for a READ that is its count argument.  NFSv4 (RFC 8267
 * 6.4.1): Write chunk k belongs to the k-th READ-class op (READ, READLINK).
 */
void ck_rr082(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_ulp_info *u = &m->ulp;
	uint32_t k = 0;

	if (m->dir != RR_DIR_CALL || m->backchannel || !m->has_ulp || !m->hdr->n_write_chunks ||
	    m->capture_loss)
		return;
	if (nfs23_read(m)) {
		report_small_chunk(ck, f, 0, u->op_count[0]);
		return;
	}
	if (!ck_is_nfs(m, 4, 4) || m->call.proc != RR_NFS_PROC_COMPOUND)
		return;
	for (uint16_t i = 0; i < u->n_ops && k < m->hdr->n_write_chunks; i++) {
		if (u->ops[i] == RR_NFS4_OP_READ)
			report_small_chunk(ck, f, k, u->op_count[i]);
		if (u->ops[i] == RR_NFS4_OP_READ || u->ops[i] == RR_NFS4_OP_READLINK)
			k++;
	}
}

/* Attributes of unpredictable length (RFC 8267 6.2): acl 12, fs_locations 24, dacl 58,
 * sacl 59, fs_layout_type 62, layout_type 64, fs_locations_info 67, sec_label 80. */
static bool getattr_unbounded(const struct rr_ulp_info *u)
{
	return (u->getattr_mask[0] & (1u << 12 | 1u << 24)) ||
	       (u->getattr_mask[1] & (1u << (58 - 32) | 1u << (59 - 32) | 1u << (62 - 32))) ||
	       (u->getattr_mask[2] & (1u << (64 - 64) | 1u << (67 - 64) | 1u << (80 - 64)));
}

/* NFSv4.0 ops that change state on the server (RFC 7530 16): not safe to retry. */
static bool nfs40_non_idempotent(uint32_t op)
{
	switch (op) {
	case 4:  case 6:  case 8:  case 11: case 12: case 14: case 18: case 20:
	case 21: case 28: case 29: case 34: case 35: case 36: case 38: case 39:
		return true;
	default:
		return false;
	}
}

/*
 * RFC 8267 6.2.1: an NFSv4.0 GETATTR asking for a result of unpredictable
 * length travels in a COMPOUND by itself, not beside a non-idempotent op
 * (a short Reply chunk retry would run that op twice).
 */
void ck_rr183(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_ulp_info *u = &m->ulp;
	uint16_t i;

	if (m->dir != RR_DIR_CALL || m->backchannel || !ck_is_nfs(m, 4, 4) ||
	    m->call.proc != RR_NFS_PROC_COMPOUND || u->minorversion != 0 || !getattr_unbounded(u))
		return;
	for (i = 0; i < u->n_ops && !nfs40_non_idempotent(u->ops[i]); i++)
		;
	if (i < u->n_ops)
		ck_report(ck, f, RR_183_GETATTR_ALONE, m->send_frame,
			  "NFSv4.0 call XID 0x%08x asks GETATTR for attributes of unpredictable size in the "
			  "same COMPOUND as %s, which a retry would run again", m->xid,
			  rr_nfs4_op_name(u->ops[i]) ? rr_nfs4_op_name(u->ops[i]) : "a non-idempotent op");
}

/* The server's CREATE_SESSION result on this connection gives the reply limits. */
static void note_session_sizes(struct ck_conn_state *cs, const struct rr_message *m)
{
	if (m->dir == RR_DIR_REPLY && !m->backchannel && m->ulp.sess.create_session) {
		cs->sess_sizes = true;
		cs->fore_maxresp = m->ulp.sess.fore_maxresponse;
		cs->back_maxresp = m->ulp.sess.back_maxresponse;
	}
}

/*
 * RFC 8267 6.2.2 and 6.5.2: ca_maxresponsesize of the fore channel bounds
 * the server's replies, that of the back channel the client's backchannel
 * replies (RFC 8881 18.36.3: "including RPC headers").
 */
void ck_rr184(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	uint32_t limit;

	note_session_sizes(cs, m);
	if (m->dir != RR_DIR_REPLY || !cs->sess_sizes || !m->complete || m->capture_loss || !m->has_rpc)
		return;
	if (!m->backchannel && !(ck_is_nfs(m, 4, 4) && m->call_ulp->minorversion >= 1))
		return;
	limit = m->backchannel ? cs->back_maxresp : cs->fore_maxresp;
	if (limit && m->payload_len > limit)
		ck_report(ck, f, RR_184_MAX_RESPONSE, m->send_frame,
			  "%s reply XID 0x%08x is %zu bytes, more than the %s channel's ca_maxresponsesize %u "
			  "(CREATE_SESSION on this connection)", m->backchannel ? "backward" : "NFSv4", m->xid,
			  m->payload_len, m->backchannel ? "back" : "fore", limit);
}

/* A forward call that tells the server the client takes backward calls on this connection. */
static bool binds_back(const struct rr_message *m)
{
	const struct rr_ulp_session *s = &m->ulp.sess;

	return m->dir == RR_DIR_CALL && !m->backchannel &&
	       ((s->create_session && (s->cs_flags & RR_NFS4_SESSION_CONN_BACK_CHAN)) ||
		(s->bind_conn && (s->bind_dir & RR_NFS4_CHANNEL_DIR_BACK)));
}

/*
 * RFC 8167 7: no backward call before the peer said it is ready for them;
 * for NFSv4.1, "before the NFS version 4.1 client has sent a CREATE_SESSION
 * or a BIND_CONN_TO_SESSION operation" binding the connection's back
 * channel.  Judged only where the capture holds the connection's start
 * (its handshake); NFSv4.0 callbacks are RR-196's.
 */
void ck_rr193(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	bool cb_compound;

	if (binds_back(m))
		cs->back_bound = true;
	if (m->dir == RR_DIR_CALL && !m->backchannel && ck_is_nfs(m, 4, 4) && m->ulp.minorversion >= 1)
		cs->nfs41_seen = true;
	/* Silent once a forward call went unread: it may have been the binding. */
	if (m->dir != RR_DIR_CALL || !m->backchannel || !m->has_rpc || !m->conn.handshake ||
	    cs->back_bound || cs->call_unread || cs->back_unbound_reported)
		return;
	cb_compound = m->has_ulp && m->ulp.proc == 1;
	if (cb_compound ? m->ulp.minorversion < 1 : !cs->nfs41_seen)
		return;
	cs->back_unbound_reported = true;
	ck_report(ck, f, RR_193_BACK_READY, m->send_frame,
		  "backward call XID 0x%08x: the client has not bound this connection's back channel "
		  "(CREATE_SESSION with CONN_BACK_CHAN or BIND_CONN_TO_SESSION) since it connected",
		  m->xid);
}
