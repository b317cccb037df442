// SPDX-License-Identifier: GPL-2.0-or-later
/* A real NFSv4.1 session for drive against a server (v41_session.h). */
#include "v41_session.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/engine.h>
#include <rpcrdma/hdr.h>
#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "agent.h"
#include "pg_nfs41_session.h"
#include "pg_rpcrdma.h"
#include "verbs.h"

/* One message in the manifest, as drive records its own (rebuilt, inline only). */
static void record(struct agent_run *run, const uint8_t *wire, size_t wire_len,
		   const uint8_t *payload, size_t len, bool reply)
{
	struct mf_rpc m;
	struct rr_hdr h;

	if (!run->mf)
		return;
	memset(&m, 0, sizeof(m));
	rr_hdr_decode(wire, wire_len, &h);
	agent_mf_from_hdr(&m, &h);
	m.xid = h.xid;
	m.reply = reply;
	m.rebuilt = true;
	m.len = len;
	rr_sha256_hex(payload, len, m.sha256);
	m.inline_bytes = len;
	mf_write_rpc(run->mf, &m);
}

/*
 * The reply msg to the COMPOUND xid, as the engine reads it into r (its
 * status, and in r->sess what EXCHANGE_ID and CREATE_SESSION returned);
 * false, with a sentence in err, when it is not an accepted COMPOUND4res.
 */
static bool decode(const struct v41_session *v, const uint8_t *msg, size_t len, uint32_t xid,
		   struct rr_ulp_info *r, char *err, size_t errlen)
{
	const struct rr_ulp_info call = { .prog = RR_NFS_PROGRAM, .vers = 4,
					  .proc = RR_NFS_PROC_COMPOUND, .minorversion = v->minor };
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	enum rr_ulp_result res;

	rr_cursor_init(&c, msg, len);
	if (!rr_rpc_decode_reply(&c, &rep) || rep.xid != xid) {
		snprintf(err, errlen, "not an RPC reply to XID 0x%08x", xid);
		return false;
	}
	if (rep.reply_stat || rep.accept_stat) {
		snprintf(err, errlen, "the call was not accepted (reply_stat %u, accept_stat %u)",
			 rep.reply_stat, rep.accept_stat);
		return false;
	}
	res = rr_ulp_walk_reply(&call, &rep, &c, NULL, NULL, r);
	if (res != RR_ULP_OK) {
		snprintf(err, errlen, "XID 0x%08x: the COMPOUND4res does not decode (%s)", xid,
			 rr_ulp_result_name(res));
		return false;
	}
	return true;
}

/* One session COMPOUND: sent inline, its inline reply decoded into r. */
static bool rpc(struct v41_session *v, struct agent_run *run, struct vb_conn *conn,
		const GByteArray *call, uint32_t xid, const char *what, struct rr_ulp_info *r)
{
	pg_rdmamsg m;
	struct vb_msg msg;
	struct rr_hdr h;
	char err[512];
	bool disc, ok = false;

	pg_rdmamsg_simple(&m, xid, RDMA_MSG, v->credits);
	g_byte_array_append(m.inline_payload, call->data, call->len);
	pg_rdmamsg_encode(&m);
	record(run, m.wire->data, m.wire->len, call->data, call->len, false);
	if (!agent_send(run, conn, m.wire))
		goto out;
	if (!vb_recv(conn, &msg, run->timeout_ms, &disc, err, sizeof(err))) {
		agent_mf_event(run, disc ? "disconnect" : "timeout", xid, "%s: %s", what, err);
		goto out;
	}
	if (rr_hdr_decode(msg.data, msg.len, &h) != RR_HDR_OK || h.proc != RR_RDMA_MSG ||
	    h.xid != xid || h.n_write_chunks || h.has_reply) {
		agent_mf_event(run, "bad-reply", h.xid, "%s: not an inline RDMA_MSG reply to 0x%08x",
			       what, xid);
		goto out;
	}
	record(run, msg.data, msg.len, msg.data + h.hdr_len, msg.len - h.hdr_len, true);
	if (!decode(v, msg.data + h.hdr_len, msg.len - h.hdr_len, xid, r, err, sizeof(err))) {
		agent_mf_event(run, "bad-reply", xid, "%s: %s", what, err);
		goto out;
	}
	ok = true;
	if (r->status)
		agent_mf_event(run, "nfs-error", xid, "%s: NFS status %u", what, r->status);
out:
	pg_rdmamsg_clear(&m);
	return ok;
}

/* The minorversion of the scenario's first COMPOUND of 4.1 or later; 0: none. */
static uint32_t wanted(const pg_scenario *s)
{
	for (guint i = 0; i < s->items->len; i++) {
		const pg_item *it = s->items->pdata[i];
		if (it->kind == PG_ITEM_RPC && !it->acl && it->proc == 1 && it->nfsver >= PG_V41)
			return (uint32_t)(it->nfsver - PG_V40);
	}
	return 0;
}

bool v41_open(struct v41_session *v, struct agent_run *run, struct vb_conn *conn,
	      const pg_scenario *s, pg_nfs_state *nfs, uint32_t *xid)
{
	GByteArray *b = g_byte_array_new();
	struct rr_ulp_info r;
	uint8_t verf[8];
	char owner[128];
	gint64 now = g_get_real_time();
	uint32_t slots;
	bool ok = false;

	memset(v, 0, sizeof(*v));
	v->minor = wanted(s);
	v->credits = s->credits ? s->credits : 1;
	if (!v->minor)
		goto out;
	/* a new owner each run: no state of an earlier run is taken over */
	for (int i = 0; i < 8; i++)
		verf[i] = (uint8_t)(now >> (8 * i));
	snprintf(owner, sizeof(owner), AGENT_NAME "/%s/%ld/%lld", g_get_host_name(), (long)getpid(),
		 (long long)now);
	pg_nfs41_exchange_id(b, nfs, *xid, v->minor, verf, owner);
	if (!rpc(v, run, conn, b, (*xid)++, "EXCHANGE_ID", &r) || r.status || !r.sess.exchange_id)
		goto out;
	v->clientid = r.sess.clientid;
	g_byte_array_set_size(b, 0);
	pg_nfs41_create_session(b, nfs, *xid, v->minor, r.sess.clientid, r.sess.sequenceid);
	if (!rpc(v, run, conn, b, (*xid)++, "CREATE_SESSION", &r) || r.status ||
	    !r.sess.create_session)
		goto out;
	slots = r.sess.fore_maxrequests;
	memcpy(nfs->sessionid, r.sess.sessionid, 16);
	nfs->seqid = 1;   /* slot 0 starts at 1 (RFC 8881 2.10.6.1) */
	nfs->special_stateids = true;
	v->open = true;
	g_byte_array_set_size(b, 0);
	pg_nfs41_reclaim_complete(b, nfs, *xid, v->minor);
	/* a refusal here leaves the session usable; the reply says why */
	rpc(v, run, conn, b, (*xid)++, "RECLAIM_COMPLETE", &r);
	ok = true;
	fprintf(stderr, AGENT_NAME ": NFSv4.%u session open: client id 0x%016llx, %u fore slots\n",
		v->minor, (unsigned long long)v->clientid, slots);
out:
	if (v->minor && !ok)
		fprintf(stderr, AGENT_NAME ": NFSv4.%u session: the server refused it (see the "
			"manifest's events); the scenario runs without one\n", v->minor);
	g_byte_array_free(b, TRUE);
	return ok || !v->minor;
}

void v41_close(struct v41_session *v, struct agent_run *run, struct vb_conn *conn,
	       pg_nfs_state *nfs, uint32_t *xid)
{
	GByteArray *b = g_byte_array_new();
	struct rr_ulp_info r;

	if (v->open) {
		pg_nfs41_destroy_session(b, nfs, *xid, v->minor);
		rpc(v, run, conn, b, (*xid)++, "DESTROY_SESSION", &r);
		g_byte_array_set_size(b, 0);
		pg_nfs41_destroy_clientid(b, nfs, *xid, v->minor, v->clientid);
		rpc(v, run, conn, b, (*xid)++, "DESTROY_CLIENTID", &r);
		v->open = false;
	}
	g_byte_array_free(b, TRUE);
}
