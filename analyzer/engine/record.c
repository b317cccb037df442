// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The message record: what the rebuild hands to the check stage and the
 * reporters.  Described once from the whole Payload (RPC header, ULP walk,
 * every DDP-eligible item and where its data sits), then checked, then
 * delivered; rr_message_copy() makes one that outlives the callback.
 */
#include <string.h>

#include "record.h"
#include "../check/check.h"

void rr_record_init(struct rr_message *m, struct rr_engine *eng, struct rr_flow *f,
		    const struct rr_hdr *hdr, enum rr_msg_dir dir, uint64_t send_frame, size_t send_len)
{
	memset(m, 0, sizeof(*m));
	m->xid = hdr->xid;
	m->dir = dir;
	m->conn_id = f->conn->id;
	m->conn_name = rr_conn_name(f->conn);
	m->transport = f->key.transport;
	m->hdr = hdr;
	m->credit = hdr->credit;
	m->complete = true;
	m->send_frame = send_frame;
	m->send_len = send_len;
	m->ulp_result = RR_ULP_UNKNOWN_PROGRAM;
	rr_conn_info_fill(eng, f->conn, &m->conn);
}

static bool on_item(void *ctx, const struct rr_ddp_item *it)
{
	struct rr_ddp_place p = { it->op, it->ordinal, it->length, it->data_pos, -1 };

	g_array_append_val((GArray *)ctx, p);
	return false;   /* the whole payload: every item's data is in place */
}

void rr_record_describe(struct rr_message *m, const struct rr_ulp_info *callinfo, GArray *items)
{
	struct rr_cursor cur;

	rr_cursor_init(&cur, m->payload, m->payload_len);
	if (m->dir == RR_DIR_CALL) {
		if (!rr_rpc_decode_call(&cur, &m->call))
			return;
		m->has_rpc = true;
		m->ulp_result = rr_ulp_walk_call(&m->call, &cur, on_item, items, &m->ulp);
	} else {
		if (!rr_rpc_decode_reply(&cur, &m->reply))
			return;
		m->has_rpc = true;
		if (callinfo)
			m->ulp_result = rr_ulp_walk_reply(callinfo, &m->reply, &cur, on_item, items, &m->ulp);
	}
	m->has_ulp = m->ulp_result != RR_ULP_UNKNOWN_PROGRAM;
	if (m->has_ulp)
		m->ulp_stop_op = m->ulp.n_ops ? m->ulp.ops[m->ulp.n_ops - 1] : m->ulp.proc;
	m->items = (const struct rr_ddp_place *)(void *)items->data;
	m->n_items = items->len;
}

/* A walk that stopped early: the message's ULP checks stop too, and the user is told why. */
static void report_walk(struct rr_engine *eng, struct rr_message *m)
{
	const char *name;

	if (!m->has_rpc || m->capture_loss || (m->dir == RR_DIR_REPLY && !m->call_ulp))
		return;
	if (m->ulp_result == RR_ULP_UNSUPPORTED) {
		name = m->ulp.prog == RR_NFS_PROGRAM && m->ulp.vers == 4 ? rr_nfs4_op_name(m->ulp_stop_op) :
		       rr_ulp_proc_name(m->ulp.prog, m->ulp.vers, m->ulp_stop_op);
		rr_diag_report(&eng->diag, ENG_ULP, m->send_frame,
			       "%s XID 0x%08x: unknown op %u%s%s%s: the checks of its chunks stop there",
			       m->dir == RR_DIR_CALL ? "call" : "reply", m->xid, m->ulp_stop_op,
			       name ? " (" : "", name ? name : "", name ? ")" : "");
	} else if (m->ulp_result == RR_ULP_MALFORMED && m->complete) {
		rr_diag_report(&eng->diag, ENG_ULP, m->send_frame,
			       "%s XID 0x%08x: the %s do not decode; the checks of its chunks stop there",
			       m->dir == RR_DIR_CALL ? "call" : "reply", m->xid,
			       m->dir == RR_DIR_CALL ? "arguments" : "results");
	}
}

/* The reporter gets the message, counted, after the check stage saw it. */
static void deliver(struct rr_engine *eng, struct rr_message *msg)
{
	eng->stats.messages++;
	if (msg->dir == RR_DIR_CALL)
		eng->stats.calls++;
	else
		eng->stats.replies++;
	if (!msg->complete)
		eng->stats.incomplete++;
	if (eng->fn)
		eng->fn(eng->ctx, msg);
}

void rr_record_emit(struct rr_engine *eng, struct rr_message *m)
{
	struct rr_fact fact = { .kind = RR_FACT_MSG, .msg = m };

	report_walk(eng, m);
	rr_checker_fact(eng->checker, &fact);
	deliver(eng, m);
	rr_checker_release(m);
}

static void *copy_of(const void *p, size_t n)
{
	return p && n ? g_memdup2(p, n) : NULL;
}

static size_t seg_count(const struct rr_message *m)
{
	if (m->dir == RR_DIR_CALL && m->hdr)
		return m->hdr->n_reads;
	return m->call_hdr ? m->call_hdr->n_wsegs : 0;
}

void rr_message_bytes(const struct rr_message *m, uint64_t *inline_bytes, uint64_t *rdma_bytes)
{
	size_t i, n = m->seg_bytes ? seg_count(m) : 0;

	*inline_bytes = 0;
	*rdma_bytes = 0;
	if (m->hdr && rr_hdr_proc_has_payload(m->hdr->proc) && m->send_len > m->hdr->hdr_len)
		*inline_bytes = m->send_len - m->hdr->hdr_len;
	for (i = 0; i < n; i++)
		*rdma_bytes += m->seg_bytes[i];
}

struct rr_message *rr_message_copy(const struct rr_message *src)
{
	struct rr_message *m = g_new(struct rr_message, 1);
	struct rr_diag *f;
	size_t i, nseg = 0;

	*m = *src;
	m->conn_name = g_strdup(src->conn_name);
	m->hdr = copy_of(src->hdr, sizeof(*src->hdr));
	m->call_hdr = copy_of(src->call_hdr, sizeof(*src->call_hdr));
	m->frames = copy_of(src->frames, src->n_frames * sizeof(uint64_t));
	m->payload = copy_of(src->payload, src->payload_len);
	if (src->call_ulp) {
		m->call_ulp = copy_of(src->call_ulp, sizeof(*src->call_ulp));
	}
	m->items = copy_of(src->items, src->n_items * sizeof(*src->items));
	nseg = seg_count(src);
	m->seg_bytes = copy_of(src->seg_bytes, nseg * sizeof(uint64_t));
	if (src->seg_frames) {
		struct rr_seg_frames *sf = g_new0(struct rr_seg_frames, nseg + 1);

		for (i = 0; i < nseg; i++) {
			sf[i].n_frames = src->seg_frames[i].n_frames;
			sf[i].frames = copy_of(src->seg_frames[i].frames, sf[i].n_frames * sizeof(uint64_t));
		}
		m->seg_frames = sf;
	}
	m->call_read_bytes = copy_of(src->call_read_bytes,
				 src->call_hdr ? src->call_hdr->n_reads * sizeof(uint64_t) : 0);
	f = src->n_findings ? g_new(struct rr_diag, src->n_findings) : NULL;
	for (i = 0; i < src->n_findings; i++)
		rr_diag_copy(&f[i], &src->findings[i]);
	m->findings = f;
	return m;
}

void rr_message_free(struct rr_message *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n_findings; i++)
		rr_diag_clear((struct rr_diag *)&m->findings[i]);
	g_free((void *)m->findings);
	/* Before the headers: how many segments there are is read from them. */
	if (m->seg_frames) {
		for (i = 0; i < seg_count(m); i++)
			g_free((void *)m->seg_frames[i].frames);
		g_free((void *)m->seg_frames);
	}
	g_free((void *)m->conn_name);
	g_free((void *)m->hdr);
	g_free((void *)m->call_hdr);
	g_free((void *)m->frames);
	g_free((void *)m->payload);
	g_free((void *)m->call_ulp);
	g_free((void *)m->items);
	g_free((void *)m->seg_bytes);
	g_free((void *)m->call_read_bytes);
	g_free(m);
}
