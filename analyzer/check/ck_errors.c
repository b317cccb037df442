// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of groups G (RDMA_ERROR and error replies) and L (reply sizing and
 * retries).  The ERR_VERS arm is fixed for every version, so it is read
 * here from the Send's bytes even when the header is not version 1.
 */
#include <string.h>

#include "conn_state.h"
#include "check_int.h"
#include "held.h"

/* Callers checked s->len; past it the word reads as 0. */
static uint32_t word(const struct rr_fact_send *s, size_t off)
{
	uint32_t v = 0;

	ck_send_word(s, off, &v);
	return v;
}

static bool is_error(const struct rr_fact_send *s)
{
	return (s->status == RR_HDR_OK || s->status == RR_HDR_E_NOT_V1 || s->status == RR_HDR_E_SHORT ||
		s->status == RR_HDR_E_ERRCODE) && s->len >= 16 && s->hdr->proc == RR_RDMA_ERROR;
}

static void ring_add(struct ck_xid_ring *r, uint32_t xid, uint64_t frame)
{
	if (r->n && r->frame[r->n - 1] == frame)
		return;                       /* several checks note the same Send */
	if (r->n == CK_RING_MAX) {
		memmove(&r->xid[0], &r->xid[1], (CK_RING_MAX - 1) * sizeof(r->xid[0]));
		memmove(&r->frame[0], &r->frame[1], (CK_RING_MAX - 1) * sizeof(r->frame[0]));
		r->n--;
	}
	r->xid[r->n] = xid;
	r->frame[r->n++] = frame;
}

/* The newest entry with this XID, or -1. */
static int ring_find(const struct ck_xid_ring *r, uint32_t xid)
{
	int i;

	for (i = (int)r->n - 1; i >= 0; i--)
		if (r->xid[i] == xid)
			return i;
	return -1;
}

/* Its frame, or 0. */
static uint64_t ring_frame(const struct ck_xid_ring *r, uint32_t xid)
{
	int i = ring_find(r, xid);

	return i < 0 ? 0 : r->frame[i];
}

static void ring_drop(struct ck_xid_ring *r, int i)
{
	memmove(&r->xid[i], &r->xid[i + 1], (r->n - (unsigned)i - 1) * sizeof(r->xid[0]));
	memmove(&r->frame[i], &r->frame[i + 1], (r->n - (unsigned)i - 1) * sizeof(r->frame[0]));
	r->n--;
}

/* Remember an RDMA_ERROR by its sender. */
static void note_error(struct rr_checker *ck, const struct rr_fact_send *s)
{
	if (is_error(s) && s->roles_known)
		ring_add(&ck_conn(ck, s->conn_id)->errs[s->from_requester ? 1 : 0], s->hdr->xid, s->frame);
}

/*
 * A reply whose transport header has errors, which its receiver silently
 * discards (RFC 8166 §4.5; RDMA_MSGP, §4.6.1): remembered by its sender.
 * Not one the capture cut, nor one past the engine's own limits.
 */
static void note_bad_reply(struct rr_checker *ck, const struct rr_fact_send *s)
{
	bool bad = s->status == RR_HDR_E_BOOL || s->status == RR_HDR_E_PROC || s->status == RR_HDR_E_NOT_V1 ||
		   (s->status == RR_HDR_E_SHORT && s->len >= 16) ||
		   (s->status == RR_HDR_OK && s->hdr->proc == RR_RDMA_MSGP && ck_profile(ck) == RR_PROFILE_RFC8166);

	if (bad && !s->is_call && !is_error(s) && s->roles_known && !s->truncated)
		ring_add(&ck_conn(ck, s->conn_id)->bad_replies[s->from_requester ? 1 : 0], s->hdr->xid, s->frame);
}

void ck_rr110(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_call *c;

	int dir;
	struct ck_conn_state *cs;
	uint64_t bad;

	note_bad_reply(ck, s);
	/* A header of another version is told call or reply from the roles alone: its type still says. */
	if (!is_error(s) || (s->is_call && s->status != RR_HDR_E_NOT_V1))
		return;
	/*
	 * Either end may send RDMA_ERROR: the responder of each direction, so
	 * the requester (the client) answers backward calls with it (RFC 8167
	 * 2.2).  An RDMA_ERROR from the requester is looked up among those.
	 */
	dir = s->roles_known && s->from_requester ? 1 : 0;
	cs = ck_conn(ck, s->conn_id);
	/* An answer to RDMA_DONE is RR-133's. */
	if (cs->has_done[dir] && cs->done_xid[dir] == s->hdr->xid && ck_rule_on(ck, RR_133_DONE_ANSWER))
		return;
	/* An answer to the peer's RDMA_ERROR is RR-117's. */
	if (ring_find(&cs->errs[!dir], s->hdr->xid) >= 0 && ck_rule_on(ck, RR_117_BAD_ERR) &&
	    !ck_call_find(ck, s->conn_id, dir, s->hdr->xid))
		return;
	c = ck_call_find(ck, s->conn_id, dir, s->hdr->xid);
	bad = c ? 0 : ring_frame(&cs->bad_replies[!dir], s->hdr->xid);
	if (bad) {
		uint64_t frames[2] = { bad, s->frame };

		/* The faulty reply carrying its XID is the evidence, whether the handshake was captured or not. */
		ck_report_full(ck, RR_110_ERR_COPIES, s->frame, frames, 2, s->conn_id, true, s->hdr->xid,
			       "RDMA_ERROR XID 0x%08x from the %s answers the reply sent at frame %" G_GUINT64_FORMAT
			       ", whose transport header has errors; the receiver of such a reply silently discards it",
			       s->hdr->xid, dir ? "requester" : "responder", bad);
		return;
	}
	if (!c) {
		/* Held: the call may be in packets the capture lost. */
		if (s->conn.handshake)
			ck_hold(ck, f, RR_110_ERR_COPIES, s->frame, dir, true,
				  "RDMA_ERROR XID 0x%08x %sanswers no %scall seen on this connection", s->hdr->xid,
				  s->roles_known && s->from_requester ? "from the requester " : "",
				  s->roles_known && s->from_requester ? "backward " : "");
		return;
	}
	if (c->vers != s->hdr->vers) {
		ck_evidence(ck, c->send_frame);
		ck_report(ck, f, RR_110_ERR_COPIES, s->frame,
			  "RDMA_ERROR XID 0x%08x carries rdma_vers %u; the failing %scall (frame %" G_GUINT64_FORMAT
			  ") had %u", s->hdr->xid, s->hdr->vers, dir ? "backward " : "", c->send_frame, c->vers);
	}
}

void ck_rr111(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_call *c;
	uint32_t lo, hi;

	if (!s->is_call && (s->status == RR_HDR_OK || s->status == RR_HDR_E_NOT_V1) &&
	    (!is_error(s) || s->len < 20 || word(s, 16) != RR_ERR_VERS)) {
		c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
		if (c && (c->flags & CK_CALL_NOT_V1) && !(c->flags & CK_CALL_REPLIED)) {
			ck_evidence(ck, c->send_frame);
			ck_report(ck, f, RR_111_ERR_VERS, s->frame,
				  "call XID 0x%08x (frame %" G_GUINT64_FORMAT ") had rdma_vers %u; the responder "
				  "answered with %s instead of RDMA_ERROR/ERR_VERS", s->hdr->xid, c->send_frame,
				  c->vers, rr_hdr_proc_name(s->hdr->proc));
		}
		return;
	}
	if (!is_error(s) || s->len < 28 || word(s, 16) != RR_ERR_VERS)
		return;
	lo = word(s, 20);
	hi = word(s, 24);
	c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
	if (lo > hi)
		ck_report(ck, f, RR_111_ERR_VERS, s->frame, "ERR_VERS XID 0x%08x gives the range %u..%u (low > high)",
			  s->hdr->xid, lo, hi);
	else if (c && c->vers >= lo && c->vers <= hi)
		ck_report(ck, f, RR_111_ERR_VERS, s->frame,
			  "ERR_VERS XID 0x%08x rejects version %u although its range %u..%u includes it", s->hdr->xid,
			  c->vers, lo, hi);
}

void ck_rr112(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (is_error(s) && s->len >= 20 && word(s, 16) == RR_ERR_VERS && s->len < 28 && !s->truncated)
		ck_report(ck, f, RR_112_ERR_VERS_LEN, s->frame,
			  "ERR_VERS XID 0x%08x is %zu bytes; its body needs the two version words (28 bytes)",
			  s->hdr->xid, s->len);
}

/*
 * A call shorter than a minimal transport header (28 bytes): its receiver
 * cannot trust its XID and silently discards it (RFC 8166 §4.5).  Only one
 * captured whole, whose four fixed words show it is no RDMA_DONE (16 bytes)
 * or RDMA_ERROR.  An answer carrying its XID while it is outstanding
 * answered it.
 */
static void short_call_answer(struct rr_checker *ck, const struct rr_fact_send *s)
{
	struct ck_conn_state *cs = ck_conn(ck, s->conn_id);
	unsigned peer = s->from_requester ? 0 : 1;   /* the sender of the call it would answer */
	struct ck_call *c;
	uint64_t frame;

	if (s->is_call) {
		if (s->len >= 16 && s->len < 28 && !s->truncated && s->hdr->proc != RR_RDMA_DONE &&
		    s->hdr->proc != RR_RDMA_ERROR)
			ring_add(&cs->short_calls[!peer], s->hdr->xid, s->frame);
		return;
	}
	if (s->captured < 16)
		return;
	frame = ring_frame(&cs->short_calls[peer], s->hdr->xid);
	c = ck_call_find(ck, s->conn_id, ck_send_dir(s), s->hdr->xid);
	if (!frame || !c || c->send_frame != frame || (c->flags & CK_CALL_REPLIED))
		return;
	{
		uint64_t frames[2] = { frame, s->frame };

		ck_report_full(ck, RR_113_ERR_CHUNK_FOR_BAD_HDR, s->frame, frames, 2, s->conn_id, true, s->hdr->xid,
			       "%s XID 0x%08x answers the call sent at frame %" G_GUINT64_FORMAT ", which is shorter "
			       "than a minimal transport header (28 bytes); its receiver silently discards it",
			       rr_hdr_proc_name(s->hdr->proc), s->hdr->xid, frame);
	}
}

void ck_rr113(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (f->kind == RR_FACT_SEND) {
		if (f->send->roles_known)
			short_call_answer(ck, f->send);
		return;
	}
	if (m->dir != RR_DIR_REPLY || m->hdr->proc == RR_RDMA_ERROR)
		return;
	c = ck_call_of_reply(ck, m);
	if (c && (c->flags & CK_CALL_BAD_HDR)) {
		const struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
		unsigned by = m->backchannel ? 0 : 1;   /* the call's sender */

		/* A short call's answer is told at its Send, above. */
		if (ring_frame(&cs->short_calls[by], m->xid) == c->send_frame)
			return;
		ck_evidence(ck, c->send_frame);
		ck_report(ck, f, RR_113_ERR_CHUNK_FOR_BAD_HDR, m->send_frame,
			  "call XID 0x%08x (frame %" G_GUINT64_FORMAT ") had a malformed transport header, yet it "
			  "was answered with %s instead of ERR_CHUNK", m->xid, c->send_frame,
			  rr_hdr_proc_name(m->hdr->proc));
	}
}

/*
 * A call captured whole whose arguments do not decode once its read chunks
 * are in place, a chunk being where the decode breaks (RFC 8166 §4.5.2: "mismatches
 * between chunk sizes or offsets and the contents of the Payload stream"):
 * the call's fault, not the walker's.  Answered SUCCESS, the responder
 * parsed what cannot be parsed; a call with a non-eligible chunk is
 * RR-065's.
 */
static void garbled_answer(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	int d = m->backchannel ? 1 : 0;
	struct ck_call *c;
	uint64_t frame;

	if (m->dir == RR_DIR_CALL) {
		if ((m->placement_broken || m->has_bad_position) && !m->capture_loss && !ck->cur_cut)
			ring_add(&cs->garbled[d], m->xid, m->send_frame);
		return;
	}
	if (m->dir != RR_DIR_REPLY || !ck_reply_ok(m))
		return;
	c = ck_call_of_reply(ck, m);
	frame = ring_frame(&cs->garbled[d], m->xid);
	if (!c || !frame || c->send_frame != frame || (c->flags & CK_CALL_BAD_CHUNK))
		return;
	{
		uint64_t frames[2] = { frame, m->send_frame };

		ck_report_full(ck, RR_114_GARBAGE_AS_MSG, m->send_frame, frames, 2, m->conn_id, true, m->xid,
			       "call XID 0x%08x (frame %" G_GUINT64_FORMAT ") has arguments that do not decode with its "
			       "read chunks in place, yet it was answered SUCCESS; a responder that cannot parse the "
			       "arguments answers GARBAGE_ARGS", m->xid, frame);
	}
}

void ck_rr114(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	garbled_answer(ck, f);
	if (m->dir == RR_DIR_REPLY && m->has_rpc && m->reply.reply_stat == RR_MSG_ACCEPTED &&
	    m->reply.accept_stat == RR_ACCEPT_GARBAGE_ARGS && m->hdr->proc == RR_RDMA_NOMSG)
		ck_report(ck, f, RR_114_GARBAGE_AS_MSG, m->send_frame,
			  "GARBAGE_ARGS for XID 0x%08x comes back through the Reply chunk (RDMA_NOMSG)", m->xid);
}

/* A retry of an XID that ERR_CHUNK ended, with a larger Reply chunk: RR-180's case. */
static bool bigger_reply_chunk_retry(struct rr_checker *ck, const struct rr_fact_send *s)
{
	struct ck_episode *ep = ck_episode_find(ck, ck_episode_key(&s->conn, s->hdr->xid));

	return ep && s->hdr->has_reply && ep->reply_chunk_len < rr_chunk_length(s->hdr, &s->hdr->reply);
}

/*
 * The RDMA_ERROR that ended this XID came from the other direction: its
 * requester refused a call of the other direction with the same XID (the
 * two directions number their XIDs apart, RFC 8167 §2.4).
 */
static bool other_direction_error(struct rr_checker *ck, const struct rr_fact_send *s)
{
	const struct ck_conn_state *cs = ck_conn(ck, s->conn_id);
	unsigned resp = s->from_requester ? 0 : 1;   /* who answers this call */

	return s->roles_known && ring_find(&cs->errs[resp], s->hdr->xid) < 0 &&
	       ring_find(&cs->errs[!resp], s->hdr->xid) >= 0;
}

void ck_rr116(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	gpointer v;

	note_error(ck, s);
	if (s->status != RR_HDR_OK || !s->is_call || s->hdr->proc == RR_RDMA_DONE)
		return;
	v = g_hash_table_lookup(ck_conn(ck, s->conn_id)->errored, GUINT_TO_POINTER(s->hdr->xid));
	if (!v || (GPOINTER_TO_UINT(v) - 1 == RR_ERR_CHUNK && bigger_reply_chunk_retry(ck, s)) ||
	    other_direction_error(ck, s))
		return;
	{
		/* A request refused for complexity and sent again is RR-175's. */
		struct ck_episode *ep = ck_episode_find(ck, ck_episode_key(&s->conn, s->hdr->xid));

		if (ep && ep->over_limit && GPOINTER_TO_UINT(v) - 1 == RR_ERR_CHUNK)
			return;
	}
	ck_report(ck, f, RR_116_ERR_PERMANENT, s->frame,
		  "XID 0x%08x is sent again as a new call after an RDMA_ERROR ended it", s->hdr->xid);
}

void ck_rr180(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	gpointer v;

	if (s->status != RR_HDR_OK || !s->is_call || s->hdr->proc == RR_RDMA_DONE)
		return;
	v = g_hash_table_lookup(ck_conn(ck, s->conn_id)->errored, GUINT_TO_POINTER(s->hdr->xid));
	if (v && GPOINTER_TO_UINT(v) - 1 == RR_ERR_CHUNK && bigger_reply_chunk_retry(ck, s) &&
	    !other_direction_error(ck, s))
		ck_report(ck, f, RR_180_RETRY_NEW_XID, s->frame,
			  "XID 0x%08x is retried with a larger Reply chunk after ERR_CHUNK; a retry needs a new XID",
			  s->hdr->xid);
}

/*
 * A receiver silently discards an RDMA_ERROR (RFC 8166 §4.2.4, §4.5): a
 * reply or RDMA_ERROR from the peer carrying its XID, sent after it while
 * no call with that XID is outstanding in the direction it answers, is an
 * answer to it.  Held like RR-110: such a call may be in lost packets.
 */
static void answers_error(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_conn_state *cs;
	struct ck_call *c;
	unsigned peer;
	int i, d = ck_send_dir(s);
	uint64_t err_frame;

	if (!s->roles_known || s->is_call || s->captured < 16)
		return;
	cs = ck_conn(ck, s->conn_id);
	peer = s->from_requester ? 0 : 1;
	i = ring_find(&cs->errs[peer], s->hdr->xid);
	c = ck_call_find(ck, s->conn_id, d, s->hdr->xid);
	if (i < 0 || (c && !(c->flags & CK_CALL_REPLIED)))
		return;
	/* The evidence: the RDMA_ERROR and the answer's frames. */
	err_frame = cs->errs[peer].frame[i];
	ck_evidence(ck, err_frame);
	ck_hold(ck, f, RR_117_BAD_ERR, s->frame, d, true,
		"%s XID 0x%08x from the %s answers the RDMA_ERROR the %s sent at frame %" G_GUINT64_FORMAT
		"; a receiver silently discards an RDMA_ERROR", rr_hdr_proc_name(s->hdr->proc), s->hdr->xid,
		peer ? "responder" : "requester", peer ? "requester" : "responder", err_frame);
	ring_drop(&cs->errs[peer], i);     /* told once */
}

void ck_rr117(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;

	if (s->status == RR_HDR_E_ERRCODE)
		ck_report(ck, f, RR_117_BAD_ERR, s->frame, "RDMA_ERROR XID 0x%08x carries the unknown error code %u",
			  s->hdr->xid, s->len >= 20 ? word(s, 16) : 0);
	answers_error(ck, f);
	note_error(ck, s);
}

/* Retries after ERR_CHUNK under new XIDs: the same request with a larger Reply chunk. */
static bool err_chunk_retry(struct rr_checker *ck, const struct rr_message *m, struct ck_conn_state **out)
{
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	char what[48];

	*out = cs;
	if (m->dir != RR_DIR_CALL || !cs->err_chunk_what[0] || !m->hdr->has_reply)
		return false;
	ck_describe_call(m, what, sizeof(what));
	return !strcmp(what, cs->err_chunk_what) &&
	       rr_chunk_length(m->hdr, &m->hdr->reply) > cs->err_chunk_rc_len;
}

void ck_rr181(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs;
	uint32_t p, v, pr;
	bool named = false;
	uint16_t i;

	if (!err_chunk_retry(ck, m, &cs) || !ck_prog(m, &p, &v, &pr))
		return;
	if (p == RR_NFSACL_PROGRAM && pr == 1)
		named = true;            /* GETACL, RFC 8267 5.2 */
	if (p == RR_NFS_PROGRAM && v == 4 && m->has_ulp && m->ulp.minorversion == 0)
		for (i = 0; i < m->ulp.n_ops; i++)
			named |= m->ulp.ops[i] == 9;   /* GETATTR, RFC 8267 6.2.1 */
	if (!named)
		ck_report(ck, f, RR_181_RETRY_NAMED, m->send_frame,
			  "%s (XID 0x%08x) is retried with a larger Reply chunk after ERR_CHUNK; RFC 8267 names no "
			  "such retry for it, so the first Reply chunk was a client sizing bug", cs->err_chunk_what,
			  m->xid);
}

void ck_rr182(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs;

	if (!err_chunk_retry(ck, m, &cs) || cs->err_chunk_run_reported || cs->err_chunk_retries < 3)
		return;
	cs->err_chunk_run_reported = true;
	ck_report(ck, f, RR_182_RETRY_BOUNDED, m->send_frame,
		  "%s is retried for the %uth time after ERR_CHUNK (XID 0x%08x)", cs->err_chunk_what,
		  cs->err_chunk_retries + 1, m->xid);
}
