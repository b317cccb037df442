// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The message record: what the rebuild hands to the check stage and the
 * reporters.  Described once from the whole Payload (RPC header, ULP walk,
 * every DDP-eligible item and where its data sits), given the view that
 * reporters read (record_view.c) and whether it repeats a call
 * (recent.c), then checked, then delivered.
 */
#include <string.h>

#include "record.h"
#include "recent.h"
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
		if (!rr_rpc_decode_call(&cur, &m->call)) {
			m->decode_stop = cur.pos;
			return;
		}
		m->has_rpc = true;
		m->ulp_result = rr_ulp_walk_call(&m->call, &cur, on_item, items, &m->ulp);
	} else {
		if (!rr_rpc_decode_reply(&cur, &m->reply)) {
			m->decode_stop = cur.pos;
			return;
		}
		m->has_rpc = true;
		if (callinfo)
			m->ulp_result = rr_ulp_walk_reply(callinfo, &m->reply, &cur, on_item, items, &m->ulp);
	}
	m->decode_stop = cur.pos;
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

	/* A chunk that broke the rebuild is the check stage's finding (placement_broken). */
	if (!m->has_rpc || m->capture_loss || m->placement_broken || (m->dir == RR_DIR_REPLY && !m->call_ulp))
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

/* A forward call whose requester host sent its XID before. */
static bool repeats_call(struct rr_engine *eng, const struct rr_message *m)
{
	if (m->dir != RR_DIR_CALL || m->backchannel)
		return false;
	if (!eng->recent)
		eng->recent = rr_recent_new();
	return rr_recent_repeat(eng->recent, (uint64_t)m->conn.requester_hash << 32 | m->xid);
}

void rr_record_emit(struct rr_engine *eng, struct rr_message *m)
{
	struct rr_fact fact = { .kind = RR_FACT_MSG, .msg = m };
	GArray *segs = g_array_new(FALSE, FALSE, sizeof(struct rr_msg_seg));

	rr_record_view(m, segs);
	m->view.retry = repeats_call(eng, m);
	report_walk(eng, m);
	rr_checker_fact(eng->checker, &fact);
	deliver(eng, m);
	m->segs = NULL;
	m->n_segs = 0;
	g_array_unref(segs);
}
