// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The message record: what the rebuild hands to the check stage and the
 * reporters.  Described once from the whole Payload (RPC header, ULP walk,
 * every DDP-eligible item and where its data sits), given the view that
 * reporters read (record_view.c) and whether it repeats a call
 * (recent.c), then checked, then delivered.
 */
#include <stddef.h>
#include <string.h>

#include "record.h"
#include "recent.h"
#include "../check/check.h"

#define ULP_END (offsetof(struct rr_message, ulp) + sizeof(((struct rr_message *)0)->ulp))

/* ulp zeroed unless a walk wrote it: what no walk described reads as no program. */
static void ulp_unset(struct rr_message *m)
{
	if (!m->ulp_set)
		memset(&m->ulp, 0, sizeof(m->ulp));
	m->ulp_set = true;
}

/* A call's key in the recent-calls set: its requester host and its XID. */
static uint64_t recent_key(const struct rr_message *m)
{
	return (uint64_t)m->conn.requester_hash << 32 | m->xid;
}

void rr_record_init(struct rr_message *m, struct rr_engine *eng, struct rr_flow *f,
		    const struct rr_hdr *hdr, enum rr_msg_dir dir, uint64_t send_frame, size_t send_len)
{
	/*
	 * All but ulp, 2 KiB that the ULP walk zeroes itself: ulp is zeroed
	 * only where no walk fills it (ulp_unset), so each message clears it once.
	 */
	memset(m, 0, offsetof(struct rr_message, ulp));
	memset((char *)m + ULP_END, 0, sizeof(*m) - ULP_END);
	m->xid = hdr->xid;
	m->dir = dir;
	m->conn_id = rr_conn_id(eng, f->conn);
	m->conn_name = rr_conn_name(f->conn);
	m->transport = f->key.transport;
	m->hdr = hdr;
	m->credit = hdr->credit;
	m->complete = true;
	m->send_frame = send_frame;
	m->send_len = send_len;
	m->ulp_result = RR_ULP_UNKNOWN_PROGRAM;
	rr_conn_info_fill(eng, f->conn, &m->conn);
	/* repeats_call() asks the set when the message is done: the memory is fetched meanwhile. */
	if (dir == RR_DIR_CALL)
		rr_recent_prefetch(eng->recent, recent_key(m));
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
			ulp_unset(m);
			return;
		}
		m->has_rpc = true;
		m->ulp_result = rr_ulp_walk_call(&m->call, &cur, on_item, items, &m->ulp);
		m->ulp_set = true;
	} else {
		if (!rr_rpc_decode_reply(&cur, &m->reply)) {
			m->decode_stop = cur.pos;
			ulp_unset(m);
			return;
		}
		m->has_rpc = true;
		if (callinfo) {
			m->ulp_result = rr_ulp_walk_reply(callinfo, &m->reply, &cur, on_item, items, &m->ulp);
			m->ulp_set = true;
		}
	}
	m->decode_stop = cur.pos;
	ulp_unset(m);
	m->has_ulp = m->ulp_result != RR_ULP_UNKNOWN_PROGRAM;
	if (m->has_ulp)
		m->ulp_stop_op = m->ulp.n_ops ? m->ulp.ops[m->ulp.n_ops - 1] : m->ulp.proc;
	m->items = (const struct rr_ddp_place *)(void *)items->data;
	m->n_items = items->len;
}

/* At most this many unknown items are remembered (and told) per engine. */
#define UNKNOWN_ITEMS_MAX 4096u

/* Is this the first time the connection shows this unknown item? */
static bool unknown_first_time(struct rr_engine *eng, uint32_t conn_id, const char *what, uint32_t value)
{
	char *key;

	if (!eng->ulp_unknown)
		eng->ulp_unknown = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (g_hash_table_size(eng->ulp_unknown) >= UNKNOWN_ITEMS_MAX)
		return false;
	key = g_strdup_printf("%u %s %u", conn_id, what, value);
	if (g_hash_table_contains(eng->ulp_unknown, key)) {
		g_free(key);
		return false;
	}
	g_hash_table_add(eng->ulp_unknown, key);
	return true;
}

/*
 * The walker met something it does not know (an op, a procedure, a union
 * arm): the limit is the walker's, not the message's or the capture's, so
 * it is told once per connection and item.
 */
static void report_not_understood(struct rr_engine *eng, const struct rr_message *m)
{
	const char *what = m->ulp.unknown_what, *name;
	uint32_t value = m->ulp.unknown_value;

	if (!what) {
		what = m->ulp.prog == RR_NFS_PROGRAM && m->ulp.vers == 4 ? "NFSv4 op" : "procedure";
		value = m->ulp_stop_op;
	}
	if (!unknown_first_time(eng, m->conn_id, what, value))
		return;
	name = !strcmp(what, "NFSv4 op") ? rr_nfs4_op_name(value) :
	       !strcmp(what, "procedure") ? rr_ulp_proc_name(m->ulp.prog, m->ulp.vers, value) : NULL;
	rr_diag_report(&eng->diag, ENG_ULP, m->send_frame,
		       "%s XID 0x%08x: not understood (%s %u%s%s): the walker does not know it, so the "
		       "checks of its chunks stop there (told once per connection)",
		       m->dir == RR_DIR_CALL ? "call" : "reply", m->xid, what, value,
		       name ? ", " : "", name ? name : "");
}

/* An NFSv2/v3 READ or READLINK reply that stopped in its result, which its
 * call offered a non-empty Write chunk 0 for and which came back unused. */
static bool nfs23_result_not_pushed(const struct rr_message *m)
{
	const struct rr_hdr *c = m->call_hdr;

	return m->dir == RR_DIR_REPLY && m->ulp_result == RR_ULP_MALFORMED && m->ulp.stop_item.set &&
	       m->ulp.prog == RR_NFS_PROGRAM && (m->ulp.vers == 2 || m->ulp.vers == 3) &&
	       m->ulp.stop_item.op == m->ulp.proc &&
	       (m->ulp.proc == RR_NFS3_PROC_READ || m->ulp.proc == RR_NFS3_PROC_READLINK) && c &&
	       c->n_write_chunks && rr_chunk_length(c, &c->writes[0]) &&
	       !(m->hdr->n_write_chunks && rr_chunk_length(m->hdr, &m->hdr->writes[0]));
}

/* A walk that stopped early: the message's ULP checks stop too, and the user is told why. */
static void report_walk(struct rr_engine *eng, struct rr_message *m)
{
	if (!m->has_rpc || m->capture_loss || m->placement_broken || (m->dir == RR_DIR_REPLY && !m->call_ulp))
		return;
	/* Stopped inside an NFSv4 READ-class result: the check stage names the
	 * result that is missing (RR-160/162/163/165), so this is no walker limit. */
	if (m->dir == RR_DIR_REPLY && m->ulp_result == RR_ULP_MALFORMED && m->ulp.stop_item.set &&
	    m->ulp.prog == RR_NFS_PROGRAM && m->ulp.vers == 4)
		return;
	/* Stopped inside an NFSv2/v3 READ or READLINK result whose non-empty Write
	 * chunk came back unused: RR-080 names the result. */
	if (nfs23_result_not_pushed(m))
		return;
	if (m->ulp_result == RR_ULP_UNSUPPORTED) {
		report_not_understood(eng, m);
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
	return rr_recent_repeat(eng->recent, recent_key(m));
}

void rr_record_emit(struct rr_engine *eng, struct rr_message *m)
{
	struct rr_fact fact = { .kind = RR_FACT_MSG, .msg = m };
	GArray *segs = rr_scratch_take(&eng->scratch, sizeof(struct rr_msg_seg));

	ulp_unset(m);               /* a message no walk described (RDMA_DONE, a reply with no payload) */
	/* Zeros where the capture lost nothing stand for bytes the sender never sent: a breach, told as one. */
	if (!m->capture_loss)
		m->payload_whole = m->payload_len;
	rr_record_view(m, segs);
	m->view.retry = repeats_call(eng, m);
	report_walk(eng, m);
	rr_checker_fact(eng->checker, &fact);
	deliver(eng, m);
	m->segs = NULL;
	m->n_segs = 0;
	rr_scratch_give(&eng->scratch, segs);
}
