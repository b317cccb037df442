// SPDX-License-Identifier: GPL-2.0-or-later
/* The requester's rpc lines: the call as sent, and the reply put back
 * together from what really arrived (drive.h). */
#include <string.h>

#include <glib.h>

#include <rpcrdma/engine.h>
#include <rpcrdma/rpc.h>

#include "agent.h"
#include "drive.h"
#include "payload.h"

/* What came back in one of our chunks: its segments filled in order, as returned. */
static GByteArray *gather(const struct chunk_mem *cm, const struct rr_hdr *h,
			  const struct rr_write_chunk *wc)
{
	GByteArray *b = g_byte_array_new();
	for (uint32_t k = 0; k < wc->count && k < cm->c->segs->len; k++) {
		const pg_seg *s = &g_array_index(cm->c->segs, pg_seg, k);
		uint32_t n = h->wsegs[wc->first + k].length;
		if (n > s->length)
			n = s->length;   /* beyond what we registered nothing can have landed */
		g_byte_array_append(b, (const uint8_t *)(uintptr_t)s->offset, n);
	}
	return b;
}

void drive_record_call(struct drive *d, const pg_plan *p, const pg_rpc_pair *rp, bool rebuilt)
{
	struct mf_rpc m;
	struct rr_hdr h;

	memset(&m, 0, sizeof(m));
	rr_hdr_decode(p->call.wire->data, p->call.wire->len, &h);
	agent_mf_from_hdr(&m, &h);
	m.xid = p->call.xid;
	m.reply = false;
	m.vers = p->call.vers;
	m.credit = p->call.credit;
	m.len = rp->call.msg->len;
	if (d->run.mf)
		rr_sha256_hex(rp->call.msg->data, rp->call.msg->len, m.sha256);
	m.rebuilt = rebuilt;
	m.inline_bytes = p->call.inline_payload->len;
	m.rdma_bytes = 0;
	for (guint i = 0; i < p->read_chunks->len; i++)
		m.rdma_bytes += ((pg_chunk *)p->read_chunks->pdata[i])->data->len;
	d->ddp_bytes += m.rdma_bytes;
	if (d->run.mf)
		mf_write_rpc(d->run.mf, &m);
}

/* What the RPC reply in payload says (GARBAGE_ARGS, an RPC or NFS error): d->last and an event. */
static void rpc_outcome(struct drive *d, uint32_t xid, const GByteArray *payload)
{
	struct rr_rpc_outcome o;

	rr_rpc_outcome(payload->data, payload->len, &o);
	switch (o.kind) {
	case RR_OUTCOME_NOT_REPLY:
		break;
	case RR_OUTCOME_GARBAGE_ARGS:
		d->last = JD_GARBAGE;
		agent_mf_event(&d->run, "garbage-args", xid, "RPC GARBAGE_ARGS");
		break;
	case RR_OUTCOME_DENIED:
	case RR_OUTCOME_ACCEPT_ERROR:
		d->last = JD_RPC_ERROR;
		agent_mf_event(&d->run, "rpc-error", xid, "reply_stat %u accept_stat %u",
			       o.rpc.reply_stat, o.rpc.accept_stat);
		break;
	case RR_OUTCOME_SUCCESS:
		/* the first word is the status of the NFS procedures and COMPOUNDs drive sends (rpc.h) */
		if (o.has_status && o.status) {
			d->last = JD_NFS_ERROR;
			agent_mf_event(&d->run, "nfs-error", xid, "NFS status %u", o.status);
		}
		break;
	}
}

/* The reply as it arrived; returns its decoded header in *h. */
bool drive_take_reply(struct drive *d, uint32_t xid, const struct rr_ulp_info *callinfo,
		      const struct call_mem *cm, struct rr_hdr *h, bool *err_reply)
{
	struct vb_msg msg;
	bool disc;
	char err[512];

	*err_reply = false;
	if (!vb_recv(d->conn, &msg, d->run.timeout_ms, &disc, err, sizeof(err))) {
		agent_mf_event(&d->run, disc ? "disconnect" : "timeout", xid, "%s", err);
		d->last = disc ? JD_DISCONNECT : JD_TIMEOUT;
		return false;
	}
	drive_use_reply(d, &msg, xid, callinfo, cm, h, err_reply);
	return true;
}

void drive_use_reply(struct drive *d, const struct vb_msg *rmsg, uint32_t xid,
		     const struct rr_ulp_info *callinfo, const struct call_mem *cm, struct rr_hdr *h,
		     bool *err_reply)
{
	const struct chunk_mem *wmem = cm->w, *rmem = &cm->reply;
	unsigned n_w = cm->n_w;
	struct vb_msg msg = *rmsg;
	char err[512];
	struct mf_rpc m;
	struct rb_result rbr;
	GByteArray *payload = g_byte_array_new(), *base = NULL;
	struct pl_chunk wr[RR_HDR_MAX_WRITE_CHUNKS];
	GByteArray *wdata[RR_HDR_MAX_WRITE_CHUNKS];
	unsigned nw = 0;
	enum rr_hdr_status st;

	*err_reply = false;
	st = rr_hdr_decode(msg.data, msg.len, h);
	d->last = st == RR_HDR_OK ? JD_REPLY : JD_BAD_REPLY;
	memset(&m, 0, sizeof(m));
	m.xid = h->xid;
	m.reply = true;
	m.rebuilt = !d->reply_unrebuilt;
	if (st == RR_HDR_E_NOT_V1 && h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS) {
		/* ERR_VERS keeps the failing message's version (RFC 8166 4.5) */
		*err_reply = true;
		d->last = JD_ERR_VERS;
		agent_mf_event(&d->run, "err-vers", h->xid, "RDMA_ERROR ERR_VERS (versions %u-%u), "
			       "rdma_vers %u", h->vers_low, h->vers_high, h->vers);
		m.rebuilt = false;
	} else if (st != RR_HDR_OK) {
		agent_mf_event(&d->run, "bad-reply", h->xid, "reply header: %s", rr_hdr_status_text(st));
		m.rebuilt = false;
	}
	agent_mf_from_hdr(&m, h);
	if (h->xid != xid) {
		agent_mf_event(&d->run, "reply", h->xid, "reply XID 0x%08x for call 0x%08x", h->xid, xid);
		m.rebuilt = false;   /* what RDMA wrote for the call is not this reply's to a checker */
	}
	d->granted = h->credit;
	d->last_credit = h->credit;
	if (st == RR_HDR_OK && h->proc == RR_RDMA_ERROR) {
		*err_reply = true;
		d->last = h->err == RR_ERR_VERS ? JD_ERR_VERS : JD_ERR_CHUNK;
		agent_mf_event(&d->run, h->err == RR_ERR_VERS ? "err-vers" : "err-chunk", h->xid,
			       "RDMA_ERROR %s", h->err == RR_ERR_VERS ? "ERR_VERS" : "ERR_CHUNK");
	} else if (st == RR_HDR_OK && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_NOMSG)) {
		if (h->proc == RR_RDMA_NOMSG && h->has_reply && rmem->c)
			base = gather(rmem, h, &h->reply);
		else
			base = g_byte_array_new();
		if (h->proc == RR_RDMA_MSG)
			g_byte_array_append(base, msg.data + h->hdr_len, msg.len - (guint)h->hdr_len);
		for (uint32_t k = 0; k < h->n_write_chunks && k < n_w; k++) {
			wdata[nw] = gather(&wmem[k], h, &h->writes[k]);
			wr[nw].data = wdata[nw]->data;
			wr[nw].len = wdata[nw]->len;
			nw++;
		}
		/* without a manifest (a benchmark) nothing is put back together */
		if (d->run.mf &&
		    !pl_reply(callinfo, base->data, base->len, wr, nw, payload, err, sizeof(err)))
			agent_mf_event(&d->run, "bad-reply", h->xid, "%s", err);
		m.inline_bytes = h->proc == RR_RDMA_MSG ? msg.len - h->hdr_len : 0;
		m.rdma_bytes = 0;
		for (unsigned k = 0; k < nw; k++)
			m.rdma_bytes += wr[k].len;
		if (rmem->c && h->proc == RR_RDMA_NOMSG)
			m.rdma_bytes += base->len;
		d->ddp_bytes += m.rdma_bytes;
		rpc_outcome(d, h->xid, payload);
		if (rb_reply(&d->rb, payload->data, payload->len, &rbr))
			agent_mf_event(&d->run, rbr.equal ? "readback" : "readback-differs", h->xid,
				       "%s", rbr.text);
	}
	m.len = payload->len;
	if (d->run.mf)
		rr_sha256_hex(payload->data, payload->len, m.sha256);
	if (d->run.mf)
		mf_write_rpc(d->run.mf, &m);
	for (unsigned k = 0; k < nw; k++)
		g_byte_array_free(wdata[k], TRUE);
	if (base)
		g_byte_array_free(base, TRUE);
	g_byte_array_free(payload, TRUE);
}

