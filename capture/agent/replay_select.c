// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_select.c - the call to replay, taken from a capture through the
 * same session as ulb-lint and verify (session.h).  The engine puts the
 * call back together from its Send and the RDMA Reads that pulled its read
 * chunk, so the bytes replayed are the bytes the requester really offered;
 * the header gives the chunk shape, the handshake the responder's inline
 * size (RFC 8797), and the reply with the same XID the captured answer.
 */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/session.h>

#include "replay.h"

struct pick {
	uint32_t xid;
	struct rp_call *out;
	bool have;
};

static bool same_xid(const struct rr_message *m, uint32_t xid)
{
	if (m->xid == xid)
		return true;
	if (!m->has_rpc)
		return false;
	return m->dir == RR_DIR_CALL ? m->call.xid == xid : m->reply.xid == xid;
}

static void take_call(struct pick *p, const struct rr_message *m)
{
	struct rp_call *c = p->out;
	const struct rr_hdr *h = m->hdr;

	c->xid = p->xid;
	c->prog = m->call.prog;
	c->vers = m->call.vers;
	c->proc = m->call.proc;
	c->cred_flavor = m->call.cred_flavor;
	c->args_off = m->call.args_off;
	c->msg = g_byte_array_sized_new((guint)m->payload_len);
	g_byte_array_append(c->msg, m->payload, (guint)m->payload_len);
	c->rdma_proc = h ? h->proc : 0;
	c->n_reads_all = h ? h->n_reads : 0;
	for (uint32_t i = 0; h && i < h->n_reads && c->n_reads < RP_MAX_SEGS; i++) {
		c->reads[c->n_reads].position = h->reads[i].position;
		c->reads[c->n_reads].length = h->reads[i].seg.length;
		c->n_reads++;
	}
	if (m->conn.inline_source == RR_INLINE_HANDSHAKE)
		c->server_inline = m->conn.inline_responder;
	c->frame = m->send_frame;
	p->have = true;
}

static void take_reply(struct rp_call *c, const struct rr_message *m)
{
	struct rr_rpc_outcome o;

	c->answered = true;
	if (m->hdr && m->hdr->proc == RR_RDMA_ERROR) {
		snprintf(c->answer, sizeof(c->answer), "RDMA_ERROR %s",
			 m->hdr->err == 1 ? "ERR_VERS" : "ERR_CHUNK");
		return;
	}
	if (!m->has_rpc) {
		g_strlcpy(c->answer, "a reply that is not an RPC reply", sizeof(c->answer));
		return;
	}
	rr_rpc_outcome(m->payload, m->payload_len, &o);
	c->reply_stat = m->reply.reply_stat;
	c->accept_stat = m->reply.accept_stat;
	if (o.kind == RR_OUTCOME_DENIED)
		snprintf(c->answer, sizeof(c->answer), "MSG_DENIED (reject_stat %u)", o.rpc.reject_stat);
	else if (o.kind == RR_OUTCOME_GARBAGE_ARGS)
		g_strlcpy(c->answer, "GARBAGE_ARGS", sizeof(c->answer));
	else if (o.kind == RR_OUTCOME_ACCEPT_ERROR)
		snprintf(c->answer, sizeof(c->answer), "accept_stat %u", o.rpc.accept_stat);
	else if (o.kind == RR_OUTCOME_SUCCESS && o.has_status)
		snprintf(c->answer, sizeof(c->answer), "SUCCESS, NFS status %u", o.status);
	else if (o.kind == RR_OUTCOME_SUCCESS)
		g_strlcpy(c->answer, "SUCCESS", sizeof(c->answer));
	else
		g_strlcpy(c->answer, "a reply that is not an RPC reply", sizeof(c->answer));
}

static void on_message(void *ctx, const struct rr_message *m)
{
	struct pick *p = ctx;

	if (m->backchannel || !same_xid(m, p->xid))
		return;
	if (m->dir == RR_DIR_CALL) {
		if (!m->complete || !m->has_rpc)
			return;
		p->out->copies++;
		if (!p->have)
			take_call(p, m);
	} else if (p->have) {
		/* the last answer counts: a retransmission answered alike or not */
		take_reply(p->out, m);
	}
}

bool rp_select(const char *path, uint32_t xid, struct rp_call *out, char *err, size_t errlen)
{
	struct rr_session_opts o;
	struct pick p = { xid, out, false };
	struct rr_session_sinks sinks = { .ctx = &p, .message = on_message };
	struct rr_session *s;
	int rc;

	memset(out, 0, sizeof(*out));
	rr_session_default_opts(&o);
	s = rr_session_new(&o, &sinks);
	rc = rr_session_run_file(s, path, err, errlen);
	rr_session_free(s);
	if (rc != 0) {
		rp_call_clear(out);
		return false;
	}
	if (!p.have) {
		snprintf(err, errlen, "%s: no complete RPC call with XID 0x%08x (the engine rebuilt none)",
			 path, xid);
		rp_call_clear(out);
		return false;
	}
	if (out->n_reads_all > RP_MAX_SEGS) {
		snprintf(err, errlen, "%s: call 0x%08x has %u read segments; replay takes at most %u",
			 path, xid, out->n_reads_all, RP_MAX_SEGS);
		rp_call_clear(out);
		return false;
	}
	if (!out->answered)
		g_strlcpy(out->answer, "no reply in the capture", sizeof(out->answer));
	return true;
}

void rp_call_clear(struct rp_call *c)
{
	if (c->msg)
		g_byte_array_free(c->msg, TRUE);
	memset(c, 0, sizeof(*c));
}
