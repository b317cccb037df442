// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check stage's memory: per connection the outstanding calls of each
 * direction, credits, the segments of calls already answered (to catch RDMA
 * after the reply), XIDs ended by RDMA_ERROR; across connections the calls
 * that failed or were retried.  Everything is bounded.
 */
#include <string.h>

#include "check_int.h"
#include "ck_outcome.h"

/* Roughly what one entry costs, hash table slot included. */
#define HASH_SLOT 32u

static size_t cs_bytes(const struct ck_conn_state *cs)
{
	return (ck_keymap_size(&cs->calls[0]) + ck_keymap_size(&cs->calls[1])) *
		       (sizeof(struct ck_call) + HASH_SLOT) +
	       (g_hash_table_size(cs->handle_uses) + g_hash_table_size(cs->errored)) * HASH_SLOT +
	       cs->retired_alloc * sizeof(struct ck_retired);
}

static void settle(struct rr_checker *ck, struct ck_conn_state *cs)
{
	size_t now = cs_bytes(cs);

	ck->held = ck->held - cs->acct + now;
	cs->acct = now;
}

/* Room for one more entry in the connections' state. */
static bool room(struct rr_checker *ck)
{
	if (ck->held < CK_HELD_MAX)
		return true;
	ck->skipped[RR_SKIP_STATE_LIMIT]++;
	return false;
}

static void conn_free(gpointer p)
{
	struct ck_conn_state *cs = p;

	ck_keymap_free(&cs->calls[0], g_free);
	ck_keymap_free(&cs->calls[1], g_free);
	g_hash_table_destroy(cs->errored);
	g_hash_table_destroy(cs->handle_uses);
	g_free(cs->retired);
	g_free(cs);
}

void ck_state_init(struct rr_checker *ck)
{
	ck->conns = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, conn_free);
	g_queue_init(&ck->episode_order);
}

void ck_state_free(struct rr_checker *ck)
{
	g_hash_table_destroy(ck->conns);
	g_queue_init(&ck->episode_order);
	ck_keymap_free(&ck->episodes, g_free);
	g_free(ck->episode_spare);
	g_free(ck->call_spare);
	ck_keymap_free(&ck->live_handles, NULL);
	ck_outlog_free(ck->outlog);
}

struct ck_conn_state *ck_conn_slow(struct rr_checker *ck, uint32_t id)
{
	struct ck_conn_state *cs = g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(id));

	if (cs)
		return ck->last_conn = cs;
	cs = g_new0(struct ck_conn_state, 1);
	cs->id = id;
	cs->errored = g_hash_table_new(g_direct_hash, g_direct_equal);
	cs->handle_uses = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_insert(ck->conns, GUINT_TO_POINTER(id), cs);
	return ck->last_conn = cs;
}

/* What conn_state.h's ck_conn() does, for the state this file owns. */
static inline struct ck_conn_state *own_conn(struct rr_checker *ck, uint32_t id)
{
	struct ck_conn_state *cs = ck->last_conn;

	return cs && cs->id == id ? cs : ck_conn_slow(ck, id);
}

int ck_send_dir(const struct rr_fact_send *s)
{
	if (!s->roles_known)
		return 0;
	/* A call from the requester is forward; so is a reply from the responder. */
	return s->is_call ? !s->from_requester : s->from_requester;
}

struct ck_conn_state *ck_conn_find(struct rr_checker *ck, uint32_t id)
{
	if (ck->last_conn && ck->last_conn->id == id)
		return ck->last_conn;
	return g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(id));
}

/* A call table is about to change: what ck_call_find() found may be gone. */
static void forget_call_memo(struct rr_checker *ck)
{
	ck->call_memo.valid = false;
}

struct ck_call *ck_call_find(struct rr_checker *ck, uint32_t conn_id, int dir, uint32_t xid)
{
	struct ck_conn_state *cs;

	if (ck->call_memo.valid && ck->call_memo.conn_id == conn_id && ck->call_memo.dir == dir &&
	    ck->call_memo.xid == xid)
		return ck->call_memo.call;
	cs = ck_conn_find(ck, conn_id);
	ck->call_memo.call = cs ? ck_keymap_get(&cs->calls[dir], xid) : NULL;
	ck->call_memo.conn_id = conn_id;
	ck->call_memo.dir = dir;
	ck->call_memo.xid = xid;
	ck->call_memo.valid = true;
	return ck->call_memo.call;
}

struct ck_call *ck_call_of_reply(struct rr_checker *ck, const struct rr_message *m)
{
	return ck_call_find(ck, m->conn_id, m->backchannel ? 1 : 0, m->xid);
}

struct ck_episode *ck_episode_find(struct rr_checker *ck, uint64_t key)
{
	struct ck_episode *ep = ck_keymap_get(&ck->episodes, key);

	/* An outcome told from bytes that were not captured is not told. */
	if (ep && ck->cur_cut)
		ep->uncertain = true;
	return ep;
}

const struct ck_retired *ck_retired_find(struct ck_conn_state *cs, uint32_t handle, uint64_t va,
					 uint64_t len)
{
	unsigned i;

	for (i = 0; i < cs->n_retired; i++) {
		const struct ck_retired *r = &cs->retired[i];

		if (r->handle == handle && va < r->offset + r->length && va + len > r->offset)
			return r;
	}
	return NULL;
}

static void retire(struct rr_checker *ck, struct ck_conn_state *cs, const struct rr_segment *s, uint32_t xid, uint8_t role,
		   uint64_t frame)
{
	struct ck_retired *r;

	if (cs->next_retired >= cs->retired_alloc) {
		if (cs->retired_alloc >= CK_RETIRED_MAX) {
			cs->next_retired = 0;
		} else {
			if (!room(ck))
				return;
			cs->retired_alloc = cs->retired_alloc ? MIN(2 * cs->retired_alloc, CK_RETIRED_MAX) : 16;
			cs->retired = g_renew(struct ck_retired, cs->retired, cs->retired_alloc);
		}
	}
	r = &cs->retired[cs->next_retired];

	r->handle = s->handle;
	r->offset = s->offset;
	r->length = s->length;
	r->xid = xid;
	r->role = role;
	r->reply_frame = frame;
	cs->next_retired = (cs->next_retired + 1) % CK_RETIRED_MAX;
	if (cs->n_retired < CK_RETIRED_MAX)
		cs->n_retired++;
}

static void episode_drop(struct rr_checker *ck, struct ck_episode *ep)
{
	g_queue_unlink(&ck->episode_order, &ep->order);
	ck_keymap_take(&ck->episodes, ep->key);
	g_free(ck->episode_spare);
	ck->episode_spare = ep;
}

static struct ck_episode *episode_get(struct rr_checker *ck, uint64_t key, uint32_t xid)
{
	struct ck_episode *ep = ck_episode_find(ck, key);

	if (ep)
		return ep;
	if (ck_keymap_size(&ck->episodes) >= CK_EPISODES_MAX) {
		episode_drop(ck, g_queue_peek_head(&ck->episode_order));
		ck->skipped[RR_SKIP_STATE_LIMIT]++;
	}
	ep = ck->episode_spare ? ck->episode_spare : g_new(struct ck_episode, 1);
	ck->episode_spare = NULL;
	memset(ep, 0, sizeof(*ep));
	ep->order.data = ep;
	ep->key = key;
	ep->xid = xid;
	ep->uncertain = ck->cur_cut;
	ck_keymap_put(&ck->episodes, ep->key, ep);
	g_queue_push_tail_link(&ck->episode_order, &ep->order);
	return ep;
}

/* A call to fill: the one forgotten last, or a new one, zeroed. */
static struct ck_call *call_new(struct rr_checker *ck)
{
	struct ck_call *c = ck->call_spare;

	ck->call_spare = NULL;
	if (!c)
		return g_new0(struct ck_call, 1);
	memset(c, 0, sizeof(*c));
	return c;
}

/* A call forgotten (answered, resent or dropped): kept for the next one. */
static void call_forget(struct rr_checker *ck, struct ck_call *c)
{
	if (!c)
		return;
	g_free(ck->call_spare);
	ck->call_spare = c;
}

static void episode_frame(struct ck_episode *ep, uint64_t frame)
{
	if (ep->n_frames < CK_EPISODE_FRAMES)
		ep->frames[ep->n_frames++] = frame;
}

static void send_call(struct rr_checker *ck, struct ck_conn_state *cs, const struct rr_fact_send *s)
{
	int dir = ck_send_dir(s);
	const struct rr_hdr *h = s->hdr;
	struct ck_call *c = call_new(ck);
	struct ck_dir_state *ds = &cs->dir[dir];
	struct ck_call *old = ck_keymap_get(&cs->calls[dir], h->xid);
	struct ck_call *dropped = NULL;     /* c, when the table started over */
	uint32_t i;

	c->xid = h->xid;
	c->conn_id = s->conn_id;
	c->sender_host = s->sender_host;
	c->dir = dir;
	c->vers = h->vers;
	c->send_frame = s->frame;
	if (s->status == RR_HDR_E_NOT_V1)
		c->flags |= CK_CALL_NOT_V1;
	else if (s->status != RR_HDR_OK)
		c->flags |= CK_CALL_BAD_HDR;
	if (h->proc == RR_RDMA_MSGP)
		c->flags |= CK_CALL_MSGP;
	if (s->rejected)
		c->flags |= CK_CALL_REFUSED;
	if (s->status == RR_HDR_OK) {
		c->pz_segs = ck_pz_segments(h);
		c->n_reads = h->n_reads;
		c->n_write_chunks = h->n_write_chunks;
		c->offered_reply_chunk = h->has_reply;
		if (h->has_reply)
			c->reply_chunk_len = rr_chunk_length(h, &h->reply);
		if (ck_is_long_call(h))
			c->flags |= CK_CALL_LONG;
		if (ck_segments_over_limit(h))
			c->flags |= CK_CALL_OVER_LIMIT;
		for (i = 0; i < h->n_reads; i++) {
			uint32_t n = GPOINTER_TO_UINT(g_hash_table_lookup(cs->handle_uses,
						GUINT_TO_POINTER(h->reads[i].seg.handle)));

			if (n || (g_hash_table_size(cs->handle_uses) < 65536 && room(ck)))
				g_hash_table_insert(cs->handle_uses,
						    GUINT_TO_POINTER(h->reads[i].seg.handle),
						    GUINT_TO_POINTER(n + 1));
			ck_keymap_put(&ck->live_handles, ck_handle_key(s->sender_host, h->reads[i].seg.handle),
				      GUINT_TO_POINTER(s->conn_id));
		}
		for (i = 0; i < h->n_wsegs; i++)
			ck_keymap_put(&ck->live_handles, ck_handle_key(s->sender_host, h->wsegs[i].handle),
				      GUINT_TO_POINTER(s->conn_id));
		if (ck_keymap_size(&ck->live_handles) > CK_LIVE_HANDLES_MAX)
			ck_keymap_free(&ck->live_handles, NULL);
	}
	if (!old && !room(ck)) {
		call_forget(ck, c);
		return;
	}
	/* The same XID again while outstanding (a retransmission): one call, counted once. */
	if (!old || (old->flags & CK_CALL_REPLIED))
		ds->outstanding++;
	forget_call_memo(ck);
	call_forget(ck, ck_keymap_put(&cs->calls[dir], c->xid, c));
	if (ck_keymap_size(&cs->calls[dir]) > CK_CALLS_MAX) {
		/* Replies lost: start over, without this call too, which is still read below. */
		ck_keymap_take(&cs->calls[dir], c->xid);
		ck_keymap_free(&cs->calls[dir], g_free);
		ds->outstanding = 0;
		dropped = c;
	}
	ck->last_outstanding = ds->outstanding;
	if (!ds->saw_reply)
		ds->calls_before_reply++;
	ds->requested = h->credit;
	if (dir == 0)
		cs->last_call_frame = s->frame;
	if (dir == 0) {
		struct ck_episode *ep = episode_get(ck, ck_episode_key(&s->conn, h->xid), h->xid);
		uint32_t k;
		bool other_call = false;

		/*
		 * The same XID on another connection is a retry when the earlier
		 * connection carried no call after it (the client gave it up).  When it
		 * went on carrying calls, this is another call that happens to have
		 * the same XID (nconnect transports number their XIDs apart): the old
		 * episode is set aside under a key of its own and concluded at the end.
		 */
		for (k = 0; k < ep->n_conns; k++) {
			const struct ck_conn_state *o = g_hash_table_lookup(ck->conns,
									    GUINT_TO_POINTER(ep->conns[k]));

			if (ep->conns[k] != s->conn_id && o && o->last_call_frame > ep->last_send_frame)
				other_call = true;
		}
		if (other_call) {
			ck_keymap_take(&ck->episodes, ep->key);
			ep->key = ~(uint64_t)0 - ck->retired_keys++;
			ck_keymap_put(&ck->episodes, ep->key, ep);
			ep = episode_get(ck, ck_episode_key(&s->conn, h->xid), h->xid);
		}
		ep->last_send_frame = s->frame;

		ep->sends++;
		if (!ep->first_frame) {
			ep->first_frame = s->frame;
			ep->conn_id = s->conn_id;
			ep->pz_segs = c->pz_segs;
			ep->long_call = c->flags & CK_CALL_LONG;
			ep->reply_chunk = c->offered_reply_chunk;
			ep->reply_chunk_segs = c->offered_reply_chunk ? h->reply.count : 0;
			ep->reply_chunk_len = c->reply_chunk_len;
		}
		ep->over_limit |= !!(c->flags & CK_CALL_OVER_LIMIT);
		for (k = 0; k < ep->n_conns && ep->conns[k] != s->conn_id; k++)
			;
		if (k == ep->n_conns && k < G_N_ELEMENTS(ep->conns))
			ep->conns[ep->n_conns++] = s->conn_id;
		episode_frame(ep, s->frame);
	}
	call_forget(ck, dropped);
}

static void send_reply(struct rr_checker *ck, struct ck_conn_state *cs, const struct rr_fact_send *s)
{
	int dir = ck_send_dir(s);
	struct ck_dir_state *ds = &cs->dir[dir];
	struct ck_call *c = ck_keymap_get(&cs->calls[dir], s->hdr->xid);

	if (c && !(c->flags & CK_CALL_REPLIED)) {
		c->flags |= CK_CALL_REPLIED;
		if (ds->outstanding)
			ds->outstanding--;
	}
	ds->saw_reply = true;
	if (s->status == RR_HDR_OK && s->hdr->proc != RR_RDMA_ERROR && s->hdr->credit) {
		ds->have_grant = true;
		ds->granted = s->hdr->credit;
	}
	if (s->hdr->proc == RR_RDMA_ERROR && s->roles_known) {
		cs->has_last_err[s->from_requester] = true;
		cs->last_err_xid[s->from_requester] = s->hdr->xid;
	}
	if (s->status == RR_HDR_OK && s->hdr->proc == RR_RDMA_ERROR) {
		if (g_hash_table_size(cs->errored) >= CK_ERRORED_MAX)
			g_hash_table_remove_all(cs->errored);
		if (room(ck))
			g_hash_table_insert(cs->errored, GUINT_TO_POINTER(s->hdr->xid),
					    GUINT_TO_POINTER(s->hdr->err + 1));
	}
}

static void msg_call(struct rr_checker *ck, const struct rr_message *m)
{
	struct ck_call *c = ck_call_find(ck, m->conn_id, m->backchannel ? 1 : 0, m->xid);
	struct ck_conn_state *cs = own_conn(ck, m->conn_id);
	struct ck_episode *ep;
	char what[48];

	/* A retry after ERR_CHUNK: the same request with a larger Reply chunk (RR-181/182). */
	if (cs->err_chunk_what[0] && m->hdr->has_reply) {
		ck_describe_call(m, what, sizeof(what));
		if (!strcmp(what, cs->err_chunk_what) &&
		    rr_chunk_length(m->hdr, &m->hdr->reply) > cs->err_chunk_rc_len) {
			cs->err_chunk_retries++;
			cs->err_chunk_rc_len = rr_chunk_length(m->hdr, &m->hdr->reply);
		}
	}
	if (m->has_ulp && m->ulp.prog == RR_NFS_PROGRAM && m->ulp.vers == 4)
		own_conn(ck, m->conn_id)->nfs4_seen = true;
	if (c) {
		ck_describe_call(m, c->what, sizeof(c->what));
		if (m->ulp_result == RR_ULP_OK && !m->capture_loss)
			c->flags |= CK_CALL_ARGS_OK;
		if (m->has_rpc) {
			c->prog = m->call.prog;
			c->vers_rpc = m->call.vers;
			c->proc = m->call.proc;
		}
	}
	if (m->backchannel)
		return;
	ep = ck_episode_find(ck, ck_episode_key(&m->conn, m->xid));
	if (ep && !ep->what[0])
		ck_describe_call(m, ep->what, sizeof(ep->what));
}

/*
 * A call answered: its handles are no longer live (RR-212 asks of calls not
 * yet answered), unless a newer call of another connection advertised one
 * of them since.
 */
static void forget_live_handles(struct rr_checker *ck, const struct ck_call *c, const struct rr_hdr *ch)
{
	uint32_t i;

	for (i = 0; c && c->sender_host && ch && i < ch->n_reads + ch->n_wsegs; i++) {
		uint32_t handle = i < ch->n_reads ? ch->reads[i].seg.handle : ch->wsegs[i - ch->n_reads].handle;
		uint64_t key = ck_handle_key(c->sender_host, handle);

		if (GPOINTER_TO_UINT(ck_keymap_get(&ck->live_handles, key)) == c->conn_id)
			ck_keymap_take(&ck->live_handles, key);
	}
}

static void msg_reply(struct rr_checker *ck, const struct rr_message *m)
{
	struct ck_conn_state *cs = own_conn(ck, m->conn_id);
	const struct rr_hdr *ch = m->call_hdr;
	struct ck_episode *ep;
	struct ck_call *answered;
	uint32_t i, k;

	if (ch) {
		for (i = 0; i < ch->n_reads; i++)
			retire(ck, cs, &ch->reads[i].seg, m->xid, 0, m->send_frame);
		for (k = 0; k < ch->n_write_chunks; k++)
			for (i = 0; i < ch->writes[k].count; i++)
				retire(ck, cs, rr_hdr_wseg(ch, &ch->writes[k], i), m->xid, 1, m->send_frame);
		if (ch->has_reply)
			for (i = 0; i < ch->reply.count; i++)
				retire(ck, cs, rr_hdr_wseg(ch, &ch->reply, i), m->xid, 2, m->send_frame);
	}
	{
		struct ck_call *c = ck_call_of_reply(ck, m);
		bool err_chunk = m->hdr->proc == RR_RDMA_ERROR && m->hdr->err == RR_ERR_CHUNK;

		if (c && err_chunk) {
			if (strcmp(c->what, cs->err_chunk_what)) {
				g_strlcpy(cs->err_chunk_what, c->what, sizeof(cs->err_chunk_what));
				cs->err_chunk_retries = 0;
				cs->err_chunk_run_reported = false;
			}
			cs->err_chunk_rc_len = c->reply_chunk_len;
		} else if (c && !strcmp(c->what, cs->err_chunk_what) && ck_reply_ok(m)) {
			cs->err_chunk_what[0] = 0;
		}
	}
	forget_call_memo(ck);
	answered = ck_keymap_take(&cs->calls[m->backchannel ? 1 : 0], m->xid);
	forget_live_handles(ck, answered, ch);
	call_forget(ck, answered);
	if (m->backchannel)
		return;
	ep = ck_episode_find(ck, ck_episode_key(&m->conn, m->xid));
	if (!ep)
		return;
	episode_frame(ep, m->send_frame);
	if (m->hdr->proc == RR_RDMA_NOMSG)
		ep->long_reply = true;
	/*
	 * A failure the transport or the binding can cause: RDMA_ERROR, or
	 * GARBAGE_ARGS / SYSTEM_ERR (not an authentication or program error).
	 */
	if (m->hdr->proc == RR_RDMA_ERROR ||
	    (m->has_rpc && m->reply.reply_stat == RR_MSG_ACCEPTED &&
	     (m->reply.accept_stat == RR_ACCEPT_GARBAGE_ARGS || m->reply.accept_stat == RR_ACCEPT_SYSTEM_ERR))) {
		if (!ep->failures++) {
			ep->fail_frame = m->send_frame;
			ck_reply_status(m, ep->failure, sizeof(ep->failure));
			ep->fail_long = (m->call_hdr && ck_is_long_call(m->call_hdr)) ||
					m->hdr->proc == RR_RDMA_NOMSG;
		}
	} else {
		ep->successes++;
		/* Answered at the first attempt: nothing to tell. */
		if (ep->sends == 1 && !ep->failures)
			episode_drop(ck, ep);
	}
}

void ck_state_before(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->kind == RR_FACT_SEND) {
		own_conn(ck, f->send->conn_id)->handshake = f->send->conn.handshake;
		/*
		 * Its message comes once rebuilt and described: the outcome log's
		 * and the episodes' slots for it, in maps of thousands of calls,
		 * arrive from memory meanwhile (a real-traffic mix: 3 % of the time
		 * went to waiting for them).
		 */
		if (f->send->hdr && !f->send->rejected) {
			uint64_t key = ck_episode_key(&f->send->conn, f->send->hdr->xid);

			ck_outlog_prefetch(ck->outlog, key);
			ck_keymap_prefetch(&ck->episodes, key);
		}
	}
	/* Seen by every fact, also those whose checks are skipped as not captured. */
	if (f->kind == RR_FACT_MSG && f->msg->dir == RR_DIR_CALL && !f->msg->backchannel &&
	    (f->msg->capture_loss || !f->msg->has_rpc || f->msg->ulp_result != RR_ULP_OK))
		own_conn(ck, f->msg->conn_id)->call_unread = true;
}

void ck_state_after(struct rr_checker *ck, const struct rr_fact *f)
{
	switch (f->kind) {
	case RR_FACT_CONN_DOWN: {
		struct ck_conn_state *cs = g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(f->conn_id));

		if (cs)
			ck->held -= cs->acct;
		if (cs == ck->last_conn)
			ck->last_conn = NULL;
		forget_call_memo(ck);
		g_hash_table_remove(ck->conns, GUINT_TO_POINTER(f->conn_id));
		break;
	}
	case RR_FACT_END:
		/* Told: a joined capture's next part starts without them. */
		g_queue_init(&ck->episode_order);   /* the links are the episodes' own */
		ck_keymap_free(&ck->episodes, g_free);
		ck_outlog_free(ck->outlog);
		ck->outlog = NULL;
		break;
	case RR_FACT_SEND: {
		struct ck_conn_state *cs = own_conn(ck, f->send->conn_id);

		if (f->send->is_call && f->send->hdr->proc != RR_RDMA_DONE)
			send_call(ck, cs, f->send);
		else if (!f->send->is_call)
			send_reply(ck, cs, f->send);
		settle(ck, cs);
		break;
	}
	case RR_FACT_MSG: {
		struct ck_conn_state *cs;

		if (f->msg->dir == RR_DIR_CALL)
			msg_call(ck, f->msg);
		else
			msg_reply(ck, f->msg);
		cs = ck_conn_find(ck, f->msg->conn_id);
		if (cs)
			settle(ck, cs);
		break;
	}
	default:
		break;
	}
}
