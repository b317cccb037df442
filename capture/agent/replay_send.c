// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_send.c - one variation on a connection of its own (replay_send.h).
 * A fresh connection per variation keeps one send's failure (the server
 * tearing the connection down after GARBAGE_ARGS, as the kernel does) from
 * deciding the next one's outcome.
 */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/hdr.h>

#include "common.h"
#include "kernel_target.h"
#include "replay_send.h"
#include "verbs.h"

static void not_sent(struct rp_answer *a, const char *what, const char *err)
{
	a->result = RP_NOT_SENT;
	snprintf(a->text, sizeof(a->text), "%s: %s", what, err);
}

/* The answer to the Send: RDMA_ERROR, or the RPC reply inline. */
static void take_answer(struct vb_conn *conn, const struct rp_target *t, uint32_t xid,
			struct rp_answer *a)
{
	struct vb_msg m;
	struct rr_hdr h;
	bool disc = false;
	char err[256] = "";

	if (!vb_recv(conn, &m, t->timeout_ms, &disc, err, sizeof(err))) {
		a->result = disc ? RP_DISCONNECT : RP_TIMEOUT;
		snprintf(a->text, sizeof(a->text), "%s", disc ? "the server disconnected without an "
			 "answer" : "no answer within the timeout");
		return;
	}
	if (rr_hdr_decode(m.data, m.len, &h) != RR_HDR_OK) {
		if (h.proc == RR_RDMA_ERROR && h.err == RR_ERR_VERS) {
			a->result = RP_ERR_VERS;
			snprintf(a->text, sizeof(a->text), "RDMA_ERROR ERR_VERS");
		} else {
			a->result = RP_BAD_REPLY;
			snprintf(a->text, sizeof(a->text), "a %u-byte answer whose transport header "
				 "does not decode", m.len);
		}
		return;
	}
	if (h.proc == RR_RDMA_ERROR) {
		a->result = h.err == RR_ERR_VERS ? RP_ERR_VERS : RP_ERR_CHUNK;
		snprintf(a->text, sizeof(a->text), "RDMA_ERROR %s",
			 h.err == RR_ERR_VERS ? "ERR_VERS" : "ERR_CHUNK");
		return;
	}
	if (h.proc != RR_RDMA_MSG) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "a %s answer (no reply chunk was offered)",
			 rr_hdr_proc_name(h.proc));
		return;
	}
	rp_answer_rpc(m.data + h.hdr_len, m.len - h.hdr_len, xid, a);
}

void rp_send_rdma(const struct rp_target *t, const struct rp_plan *p, const GByteArray *msg,
		  uint32_t xid, struct rp_answer *a)
{
	struct vb_opts vo;
	struct vb_conn *conn;
	struct vb_mr mr[RP_MAX_SEGS], send;
	uint32_t handles[RP_MAX_SEGS] = { 0 };
	uint64_t offsets[RP_MAX_SEGS] = { 0 };
	uint8_t pd[8];
	char err[256] = "";
	unsigned n_mr = 0;
	GByteArray *wire = NULL;

	memset(a, 0, sizeof(*a));
	agent_rfc8797(pd);
	memset(&vo, 0, sizeof(vo));
	vo.depth = 4;
	vo.recv_size = AGENT_INLINE;
	vo.timeout_ms = t->timeout_ms;
	vo.private_data = pd;
	vo.private_len = sizeof(pd);
	conn = vb_connect(t->server, t->rdma_port, &vo, err, sizeof(err));
	if (!conn) {
		not_sent(a, "no RDMA connection", err);
		return;
	}
	for (; n_mr < p->n_segs; n_mr++) {
		if (!vb_reg(conn, &mr[n_mr], p->segs[n_mr].length, false, true)) {
			not_sent(a, "registration", "cannot register a read chunk segment");
			goto out;
		}
		memcpy(mr[n_mr].buf, msg->data + p->seg_from[n_mr], p->segs[n_mr].length);
		handles[n_mr] = mr[n_mr].mr->rkey;
		offsets[n_mr] = (uint64_t)(uintptr_t)mr[n_mr].buf;
	}
	wire = rp_rdma_send(p, msg, xid, t->credits, handles, offsets);
	if (!vb_reg(conn, &send, wire->len, false, false)) {
		not_sent(a, "registration", "cannot register the Send buffer");
		goto out;
	}
	memcpy(send.buf, wire->data, wire->len);
	if (!vb_send(conn, &send, &(size_t){ wire->len }, 1, err, sizeof(err)))
		not_sent(a, "the Send failed", err);
	else
		take_answer(conn, t, xid, a);
	vb_dereg(&send);
out:
	while (n_mr)
		vb_dereg(&mr[--n_mr]);
	if (wire)
		g_byte_array_free(wire, TRUE);
	vb_disconnect(conn);
	vb_free(conn);
}

void rp_send_tcp(const struct rp_target *t, const GByteArray *msg, uint32_t xid,
		 struct rp_answer *a)
{
	GByteArray *wire = rp_record_mark(msg->data, msg->len, 0), *reply = g_byte_array_new();
	char err[256] = "";

	memset(a, 0, sizeof(*a));
	switch (kt_tcp_exchange(t->server, t->tcp_port, wire->data, wire->len, reply, t->timeout_ms,
				err, sizeof(err))) {
	case KT_TCP_OK:
		rp_answer_rpc(reply->data, reply->len, xid, a);
		break;
	case KT_TCP_CLOSED:
		a->result = RP_DISCONNECT;
		g_strlcpy(a->text, err, sizeof(a->text));   /* the sentence, cut to the answer's room */
		break;
	case KT_TCP_TIMEOUT:
		a->result = RP_TIMEOUT;
		g_strlcpy(a->text, err, sizeof(a->text));
		break;
	default:
		not_sent(a, "no TCP connection", err);
	}
	g_byte_array_free(wire, TRUE);
	g_byte_array_free(reply, TRUE);
}
