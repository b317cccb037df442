// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Answers that must come, and answers that must not.
 *
 * RR-121: a call the responder must refuse with RDMA_ERROR (a version it
 * does not support, RFC 8166 §4.5.1; a transport header that does not
 * decode, §4.5 and §4.5.2; RDMA_MSGP, §4.6.1; a non-eligible item reduced
 * into a read chunk, §6.1) that it leaves unanswered without closing the
 * connection (§4.5.4).  Either end: in the backward direction the client
 * is the responder (RFC 8167 §2.2).  Silence is never seen, only inferred:
 * the call is told once its responder has answered a call sent after it
 * and then sent something more, while the connection stayed up (a torn
 * down connection takes its state along) and the capture lost nothing.
 * An answer the capture lost leaves a gap in the responder's stream,
 * seen at its next Send at the latest; that marks the connection cut and
 * the checks stop running on it.  A call shorter than a minimal header
 * (28 bytes) is discarded silently by rule (§4.5) and never counted.
 *
 * RR-133: an answer to RDMA_DONE, which receivers silently discard
 * (§4.6.2).  Held like the other findings a lost message could explain
 * (held.h): a call with that XID may be in packets the capture lost.
 */
#include <string.h>

#include "conn_state.h"
#include "check_int.h"
#include "held.h"

enum {
	CK_SIL_NONE,
	CK_SIL_VERS,                  /* rdma_vers not 1: ERR_VERS */
	CK_SIL_HDR,                   /* the header does not decode: ERR_CHUNK */
	CK_SIL_EMPTY,                 /* RDMA_NOMSG without a chunk: ERR_CHUNK */
	CK_SIL_XID,                   /* rdma_xid is not the RPC XID: ERR_CHUNK */
	CK_SIL_MSGP,                  /* RDMA_MSGP: ERR_CHUNK */
	CK_SIL_CHUNK,                 /* a non-eligible item in a read chunk: ERR_CHUNK or GARBAGE_ARGS */
};

/* What about a call makes RFC 8166 require an RDMA_ERROR (or an RPC error) for it. */
static int refusal_of(const struct rr_checker *ck, const struct rr_fact_send *s)
{
	const struct rr_hdr *h = s->hdr;

	if (s->len < 28 || s->truncated)
		return CK_SIL_NONE;
	switch (s->status) {
	case RR_HDR_E_NOT_V1:
		return CK_SIL_VERS;
	case RR_HDR_E_BOOL:
	case RR_HDR_E_PROC:
	case RR_HDR_E_SHORT:
		return CK_SIL_HDR;
	case RR_HDR_OK:
		break;
	default:
		return CK_SIL_NONE;
	}
	if (h->proc == RR_RDMA_MSGP)
		return ck_profile(ck) == RR_PROFILE_RFC8166 ? CK_SIL_MSGP : CK_SIL_NONE;
	/* The two other XDR errors RFC 8166 4.5.2 names: an empty RDMA_NOMSG, an rdma_xid not the RPC's. */
	if (h->proc == RR_RDMA_NOMSG && !h->n_reads && !h->n_write_chunks && !h->has_reply)
		return CK_SIL_EMPTY;
	if (h->proc == RR_RDMA_MSG && s->has_rpc && s->rpc_xid != h->xid)
		return CK_SIL_XID;
	return CK_SIL_NONE;
}

static const char *what_of(const struct ck_refusal *r, char *buf, size_t len)
{
	switch (r->why) {
	case CK_SIL_VERS:
		g_snprintf(buf, len, "had rdma_vers %u", r->vers);
		break;
	case CK_SIL_HDR:
		g_strlcpy(buf, "had a malformed transport header", len);
		break;
	case CK_SIL_EMPTY:
		g_strlcpy(buf, "was an RDMA_NOMSG without any chunk", len);
		break;
	case CK_SIL_XID:
		g_strlcpy(buf, "had an rdma_xid that is not its RPC XID", len);
		break;
	case CK_SIL_MSGP:
		g_strlcpy(buf, "was sent as RDMA_MSGP", len);
		break;
	default:
		g_strlcpy(buf, "reduced a non-eligible item into a read chunk", len);
		break;
	}
	return buf;
}

static const char *needed(const struct ck_refusal *r)
{
	switch (r->why) {
	case CK_SIL_VERS:
		return "must answer it with RDMA_ERROR/ERR_VERS";
	case CK_SIL_MSGP:
		return "should answer it with RDMA_ERROR/ERR_CHUNK";
	case CK_SIL_CHUNK:
		return "must answer it with RDMA_ERROR/ERR_CHUNK (or GARBAGE_ARGS)";
	default:
		return "must answer it with RDMA_ERROR/ERR_CHUNK";
	}
}

static void add(struct ck_conn_state *cs, int dir, uint32_t xid, uint32_t vers, int why, uint64_t frame,
		uint64_t since)
{
	struct ck_refusal *r = cs->refusals[dir];
	unsigned i;

	for (i = 0; i < cs->n_refusals[dir]; i++)
		if (r[i].xid == xid && r[i].frame == frame)
			return;
	if (cs->n_refusals[dir] == CK_REFUSALS_MAX) {
		memmove(&r[0], &r[1], (CK_REFUSALS_MAX - 1) * sizeof(r[0]));
		cs->n_refusals[dir]--;
	}
	r += cs->n_refusals[dir]++;
	memset(r, 0, sizeof(*r));
	r->xid = xid;
	r->vers = vers;
	r->why = (uint8_t)why;
	r->frame = frame;
	r->since = since;
}

static void drop(struct ck_conn_state *cs, int dir, unsigned i)
{
	struct ck_refusal *r = cs->refusals[dir];

	memmove(&r[i], &r[i + 1], (cs->n_refusals[dir] - i - 1) * sizeof(r[0]));
	cs->n_refusals[dir]--;
}

/* Answered, re-sent (another Send with its XID), or forgotten at a bound: no longer silent for sure. */
static bool settled(struct rr_checker *ck, uint32_t conn_id, int dir, const struct ck_refusal *r)
{
	struct ck_call *c = ck_call_find(ck, conn_id, dir, r->xid);

	return !c || c->send_frame != r->frame || (c->flags & CK_CALL_REPLIED);
}

/*
 * A call record judged by group I on an earlier fact (its checks run after
 * this one on the same fact): a call with a non-eligible read chunk.
 */
static void run_probe(struct rr_checker *ck, struct ck_conn_state *cs)
{
	int d;

	for (d = 0; d < 2; d++) {
		struct ck_call *c;

		if (!cs->probe[d])
			continue;
		cs->probe[d] = false;
		c = ck_call_find(ck, cs->id, d, cs->probe_xid[d]);
		if (c && (c->flags & CK_CALL_BAD_CHUNK) && !(c->flags & CK_CALL_REPLIED))
			add(cs, d, c->xid, c->vers, CK_SIL_CHUNK, c->send_frame, cs->probe_frame[d]);
	}
}

static void tell(struct rr_checker *ck, const struct rr_fact_send *s, int dir, const struct ck_refusal *r)
{
	uint64_t frames[4] = { r->frame, r->later_call, r->later_reply, s->frame };
	char what[64];

	ck_report_full(ck, RR_121_NO_SILENT_REFUSAL, r->frame, frames, G_N_ELEMENTS(frames), s->conn_id, true,
		       r->xid,
		       "%scall XID 0x%08x (frame %" G_GUINT64_FORMAT ") %s and got no answer: the %s %s or close "
		       "the connection. Inferred: no answer by frame %" G_GUINT64_FORMAT ", while the call at frame "
		       "%" G_GUINT64_FORMAT ", sent after it, was answered at frame %" G_GUINT64_FORMAT
		       ", and the connection stayed up",
		       dir ? "backward " : "", r->xid, r->frame, what_of(r, what, sizeof(what)),
		       dir ? "client" : "responder", needed(r), s->frame, r->later_call,
		       r->later_reply);
}

/*
 * A Send from the responder of direction dir: each call waiting since an
 * earlier answer of a later call is told silent now, unless this Send or
 * an earlier one answered it.
 */
static void conclude(struct rr_checker *ck, struct ck_conn_state *cs, const struct rr_fact_send *s, int dir)
{
	/* An RDMA_ERROR of another version is an answer even where the roles made it a call. */
	bool answer = !s->is_call || (s->status == RR_HDR_E_NOT_V1 && s->hdr->proc == RR_RDMA_ERROR);
	unsigned i = 0;

	while (i < cs->n_refusals[dir]) {
		struct ck_refusal *r = &cs->refusals[dir][i];

		if (settled(ck, s->conn_id, dir, r) || (answer && s->hdr->xid == r->xid)) {
			drop(cs, dir, i);
			continue;
		}
		if (r->later_reply && s->frame > r->later_reply) {
			tell(ck, s, dir, r);
			drop(cs, dir, i);
			continue;
		}
		i++;
	}
}

/* A reply (or RDMA_ERROR) answering a call sent after a waiting one: the responder went on past it. */
static void witness(struct rr_checker *ck, struct ck_conn_state *cs, const struct rr_fact_send *s, int dir)
{
	struct ck_call *c = ck_call_find(ck, s->conn_id, dir, s->hdr->xid);
	unsigned i;

	if (!c || (c->flags & CK_CALL_REPLIED))
		return;
	for (i = 0; i < cs->n_refusals[dir]; i++) {
		struct ck_refusal *r = &cs->refusals[dir][i];

		if (!r->later_reply && c->send_frame > r->since) {
			r->later_call = c->send_frame;
			r->later_reply = s->frame;
		}
	}
}

void ck_rr121(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s;
	struct ck_conn_state *cs;
	int resp_dir, why;

	if (f->kind == RR_FACT_MSG) {
		const struct rr_message *m = f->msg;
		int d = m->backchannel ? 1 : 0;

		cs = ck_conn(ck, m->conn_id);
		run_probe(ck, cs);
		if (m->dir == RR_DIR_CALL && m->conn.roles_known && m->n_frames) {
			cs->probe[d] = true;
			cs->probe_xid[d] = m->xid;
			cs->probe_frame[d] = m->frames[m->n_frames - 1];
		}
		return;
	}
	s = f->send;
	if (!s->roles_known)
		return;
	cs = ck_conn(ck, s->conn_id);
	run_probe(ck, cs);
	/* The requester answers the backward direction's calls, the responder the forward one's. */
	resp_dir = s->from_requester ? 1 : 0;
	conclude(ck, cs, s, resp_dir);
	if (!s->is_call) {
		witness(ck, cs, s, resp_dir);
		return;
	}
	if (s->hdr->proc == RR_RDMA_DONE || s->hdr->proc == RR_RDMA_ERROR)
		return;
	why = refusal_of(ck, s);
	if (why != CK_SIL_NONE)
		add(cs, ck_send_dir(s), s->hdr->xid, s->hdr->vers, why, s->frame, s->frame);
}

void ck_rr133(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_conn_state *cs = ck_conn(ck, s->conn_id);
	int d = ck_send_dir(s);
	struct ck_call *c;

	if (s->is_call) {
		if (s->status == RR_HDR_OK && s->hdr->proc == RR_RDMA_DONE) {
			cs->has_done[d] = true;
			cs->done_xid[d] = s->hdr->xid;
			cs->done_frame[d] = s->frame;
		} else if (cs->has_done[d] && cs->done_xid[d] == s->hdr->xid) {
			cs->has_done[d] = false;      /* a new call with that XID: its answers are its own */
		}
		return;
	}
	if (!cs->has_done[d] || cs->done_xid[d] != s->hdr->xid || s->len < 16)
		return;
	c = ck_call_find(ck, s->conn_id, d, s->hdr->xid);
	if (c && !(c->flags & CK_CALL_REPLIED))
		return;
	cs->has_done[d] = false;
	/* The evidence: the RDMA_DONE and the answer's frames. */
	ck_evidence(ck, cs->done_frame[d]);
	ck_hold(ck, f, RR_133_DONE_ANSWER, s->frame, d, true,
		"%s XID 0x%08x answers the RDMA_DONE sent at frame %" G_GUINT64_FORMAT
		"; a receiver silently discards RDMA_DONE", rr_hdr_proc_name(s->hdr->proc), s->hdr->xid,
		cs->done_frame[d]);
}
