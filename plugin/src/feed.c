// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * feed.c - the plugin's one path into the engine.
 *
 * Every frame, on its first pass only, goes whole (link layer included)
 * into one session per open file (rpcrdma/session.h): the capture decoder
 * and engine ulb-lint and rpcrdma-agent verify use, with the same filter
 * on findings.  So the plugin sees what ulb-lint sees:
 * iWARP found mid-stream in plain TCP, IB/RoCE flows paired without the
 * CM handshake, and the same findings.  Wireshark's own lower layers are
 * not consulted: they know neither.
 *
 * What the engine reports (Sends judged RPC-over-RDMA, rebuilt messages,
 * RDMA operations, findings) is kept per frame in file scope, keyed by
 * frame number, so later visits (a click in the GUI, tshark -2) redraw
 * without feeding anything again.
 *
 * The end of the capture is not announced to dissectors.  A visit after
 * the first pass finishes the session (rr_session_finish), so what only
 * the end can tell (calls never answered, retry outcomes) is there for
 * every later visit.  In a live capture Wireshark redraws while frames
 * still come: the session keeps the frames (rr_session_keep_frames) and
 * reopens when the next one comes, and what the finish delivered is taken
 * back (feed_undo.c).  Finishing costs a replay of the capture so far when
 * frames follow, so a visit finishes only while replays have cost less
 * than twice the frames fed, or when no frame came for a while.
 *
 * Wireshark's RPC dissector keeps one record per XID and conversation and
 * taps it at the end of the frame, so a call and its reply handed to it in
 * one frame would be counted twice: a message whose XID is already being
 * handed in its frame waits for the next frame (which then hands it).
 */
#include "ws_compat.h"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/wmem_scopes.h>
#include <pcap/dlt.h>
#include <wiretap/wtap.h>

#include "feed_undo.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/session.h"

#define RRP_HDR_KEEP 512         /* bytes kept of a Send whose header did not decode */
#define RRP_KEEP_MAX ((size_t)1 << 30)   /* frames kept for reopening a finished session */
#define RRP_IDLE_US 500000       /* no frame for this long: a visit may finish whatever it costs */

struct rrp_prefs rrp_prefs = { .checks = true };

static struct {
	bool live;
	struct rr_session *session;
	uint32_t last_fed;
	uint32_t cur_frame;          /* the frame being fed; 0 while finishing */
	uint64_t n_fed, replayed;    /* frames fed; frames fed again by reopening */
	gint64 last_feed_at;         /* g_get_monotonic_time() when the last frame was fed */
	wmem_map_t *frames;          /* frame number -> struct rrp_frame* */
	wmem_map_t *calls;           /* call's first Send frame -> struct rrp_msg*, until its reply comes */
	wmem_map_t *send_msgs;       /* a message's first Send frame -> struct rrp_msg*, for good */
	wmem_map_t *call_by_xid;     /* XID -> the latest call with it (struct rrp_msg*) */
	wmem_map_t *sends;           /* a Send's first frame -> struct rrp_send* */
	wmem_array_t *deferred;      /* struct rrp_msg* waiting for a frame of their own */
} F;

static struct rrp_frame *frame_rec(uint32_t num)
{
	struct rrp_frame *fr = wmem_map_lookup(F.frames, GUINT_TO_POINTER(num));

	if (!fr) {
		fr = wmem_new0(wmem_file_scope(), struct rrp_frame);
		fr->num = num;
		wmem_map_insert(F.frames, GUINT_TO_POINTER(num), fr);
	}
	return fr;
}

static uint32_t *frame_list(const uint64_t *frames, size_t n)
{
	uint32_t *out = wmem_alloc_array(wmem_file_scope(), uint32_t, n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = (uint32_t)frames[i];
	return out;
}

/* ---- what the engine reports ---- */

static void on_send(void *ctx, const struct rr_send_report *r)
{
	struct rrp_send *s = wmem_new0(wmem_file_scope(), struct rrp_send);
	size_t keep = r->status == RR_HDR_OK ? r->hdr->hdr_len : RRP_HDR_KEEP;
	unsigned i;

	(void)ctx;
	if (keep > r->captured)
		keep = r->captured;
	s->first = (uint32_t)r->frame;
	s->frames = frame_list(r->frames, r->n_frames);
	s->n_frames = (unsigned)r->n_frames;
	s->last = s->n_frames ? s->frames[s->n_frames - 1] : s->first;
	s->conn_id = r->conn_id;
	s->hdr_bytes = wmem_memdup(wmem_file_scope(), r->data, keep ? keep : 1);
	s->n_hdr_bytes = (unsigned)keep;
	s->len = (uint32_t)r->len;
	s->captured = (uint32_t)r->captured;
	s->status = r->status;
	s->is_call = r->is_call;
	s->rejected = r->rejected;
	s->xid = r->hdr->xid;
	s->credit = r->hdr->credit;
	s->proc = r->hdr->proc;
	s->hdr_len = (uint32_t)r->hdr->hdr_len;
	s->outstanding = r->outstanding;
	rrp_map_set(F.sends, GUINT_TO_POINTER(s->first), s);
	rrp_push(&frame_rec(s->last)->sends_done, s);
	for (i = 0; i < s->n_frames; i++)
		if (s->frames[i] != s->last)
			rrp_push(&frame_rec(s->frames[i])->part_sends, s);
}

/* The lengths of the chunk segments the message's own header advertised (segment size statistics). */
static void keep_segments(struct rrp_msg *pm, const struct rr_message *m)
{
	const struct rr_hdr *h = m->hdr;
	unsigned n = 0, i;

	if (!h || !rr_hdr_proc_has_chunks(h->proc))
		return;
	pm->seg_lens = wmem_alloc_array(wmem_file_scope(), uint32_t, h->n_reads + h->n_wsegs + 1);
	for (i = 0; i < h->n_reads; i++)
		pm->seg_lens[n++] = h->reads[i].seg.length;
	for (i = 0; i < h->n_wsegs; i++)
		pm->seg_lens[n++] = h->wsegs[i].length;
	pm->n_seg_lens = n;
}

/* The engine's segments of the message, each with the frames that carried its bytes. */
static void keep_seg_frames(struct rrp_msg *pm, const struct rr_message *m)
{
	unsigned i;

	if (!m->n_segs)
		return;
	pm->segs = wmem_alloc0_array(wmem_file_scope(), struct rrp_seg, m->n_segs);
	for (i = 0; i < m->n_segs; i++) {
		struct rrp_seg *s = &pm->segs[i];
		const struct rr_seg_frames *sf = m->seg_frames ? &m->seg_frames[m->segs[i].index] : NULL;

		s->s = m->segs[i];
		if (sf) {
			s->frames = frame_list(sf->frames, sf->n_frames);
			s->n_frames = (unsigned)sf->n_frames;
		}
	}
	pm->n_segs = (unsigned)m->n_segs;
}

/* The frame already hands a message of this XID on this conversation to RPC. */
static bool xid_taken(uint32_t frame, const struct rrp_msg *pm)
{
	const struct rrp_frame *fr = wmem_map_lookup(F.frames, GUINT_TO_POINTER(frame));

	FOR_EACH(fr ? fr->msgs : NULL, const struct rrp_msg *, o)
		if (o->v.xid == pm->v.xid && o->conv_id == pm->conv_id)
			return true;
	return false;
}

static void place(struct rrp_msg *pm, uint32_t frame)
{
	unsigned i;

	pm->rebuilt_in = frame;
	rrp_push(&frame_rec(frame)->msgs, pm);
	for (i = 0; i < pm->n_frames; i++)
		if (pm->frames[i] != frame)
			rrp_push(&frame_rec(pm->frames[i])->part_msgs, pm);
}

/* The RDMA operations that carried the message's chunk bytes learn whose they were. */
static void link_carries(const struct rrp_msg *pm, const struct rrp_msg *call)
{
	unsigned i, k;

	for (i = 0; call && i < pm->n_segs; i++)
		for (k = 0; k < pm->segs[i].n_frames; k++) {
			const struct rrp_frame *fr = rrp_frame_get(pm->segs[i].frames[k]);

			FOR_EACH(fr ? fr->carries : NULL, struct rrp_carry *, c)
				if (c->hit && c->xid == pm->v.xid && c->call != call)
					rrp_set_ptr((void **)&c->call, (void *)call);
		}
}

static void pair_with_call(struct rrp_msg *pm)
{
	struct rrp_msg *call;

	if (pm->v.dir == RR_DIR_CALL) {
		const struct rrp_send *s = wmem_map_lookup(F.sends, GUINT_TO_POINTER((uint32_t)pm->v.send_frame));

		if (s)
			pm->outstanding = s->outstanding;
		rrp_map_set(F.calls, GUINT_TO_POINTER((uint32_t)pm->v.send_frame), pm);
		rrp_map_set(F.call_by_xid, GUINT_TO_POINTER(pm->v.xid), pm);
		link_carries(pm, pm);
		return;
	}
	if (!pm->v.call_send_frame)
		return;
	call = wmem_map_lookup(F.calls, GUINT_TO_POINTER((uint32_t)pm->v.call_send_frame));
	if (!call || call->v.xid != pm->v.xid)
		return;
	rrp_set_ptr((void **)&call->peer, pm);
	pm->peer = call;
	/* RPC matches a reply to its call by conversation: keep the call's. */
	pm->conv_id = call->conv_id;
	rrp_map_set(F.calls, GUINT_TO_POINTER((uint32_t)call->v.send_frame), NULL);
	link_carries(pm, call);
}

static void on_message(void *ctx, const struct rr_message *m)
{
	struct rrp_msg *pm = wmem_new0(wmem_file_scope(), struct rrp_msg);
	uint32_t last;

	(void)ctx;
	pm->v = m->view;
	pm->frames = frame_list(m->frames, m->n_frames);
	pm->n_frames = (unsigned)m->n_frames;
	pm->conv_id = m->conn_id;
	pm->conn_name = wmem_strdup(wmem_file_scope(), m->conn_name);
	pm->payload_len = (uint32_t)m->payload_len;
	pm->payload_whole = (uint32_t)MIN(m->payload_whole, m->payload_len);
	pm->payload = m->payload_len ? wmem_memdup(wmem_file_scope(), m->payload, m->payload_len) : NULL;
	keep_segments(pm, m);
	keep_seg_frames(pm, m);
	pair_with_call(pm);
	rrp_map_set(F.send_msgs, GUINT_TO_POINTER((uint32_t)pm->v.send_frame), pm);
	last = pm->n_frames ? pm->frames[pm->n_frames - 1] : (uint32_t)m->send_frame;
	/*
	 * Delivered by rr_engine_finish(): it belongs to its last frame.  So
	 * does a call whose read chunks never completed, which the engine
	 * delivers when its reply comes: drawn in the reply's frame, RPC showed
	 * a call in the responder's packet and the reply, pushed on by the
	 * XID, in the next packet, which could be the requester's.  A
	 * two-pass view (tshark -2, the GUI) shows it there; one pass had
	 * dissected that frame already, and shows the frames it was carried in.
	 */
	if (!F.cur_frame || (pm->v.dir == RR_DIR_CALL && !pm->v.complete && last < F.cur_frame &&
			     !xid_taken(last, pm)))
		place(pm, last);
	else if (xid_taken(F.cur_frame, pm))
		rrp_push(&F.deferred, pm);
	else
		place(pm, F.cur_frame);
}

/* Messages that waited go to this frame, one per XID; the rest wait on. */
static void place_deferred(uint32_t frame)
{
	wmem_array_t *waiting = F.deferred;

	if (!waiting)
		return;
	rrp_set_ptr((void **)&F.deferred, NULL);
	FOR_EACH(waiting, struct rrp_msg *, pm) {
		if (xid_taken(frame, pm))
			rrp_push(&F.deferred, pm);
		else
			place(pm, frame);
	}
}

static void on_rdma(void *ctx, const struct rr_rdma_report *r)
{
	struct rrp_carry *c = wmem_new0(wmem_file_scope(), struct rrp_carry);
	const struct rrp_msg *call = r->hit ? wmem_map_lookup(F.call_by_xid, GUINT_TO_POINTER(r->xid)) : NULL;
	uint32_t i;

	(void)ctx;
	c->op = r->op;
	c->conn_id = r->conn_id;
	c->handle = r->handle;
	c->hit = r->hit;
	c->xid = r->xid;
	c->role = r->role;
	c->chunk = r->chunk;
	c->seg = r->seg;
	c->seg_length = r->seg_length;
	c->seg_offset = r->seg_offset;
	c->len = r->len;
	c->call = call;
	c->last_frame = (uint32_t)r->frame;
	rrp_push(&frame_rec(c->last_frame)->carries, c);
	/* Each TCP segment of an FPDU says what it was part of. */
	for (i = 0; i < r->n_more_frames; i++)
		if ((uint32_t)r->more_frames[i] != c->last_frame)
			rrp_push(&frame_rec((uint32_t)r->more_frames[i])->carries, c);
}

static void on_reopen(void *ctx)
{
	(void)ctx;
	rrp_undo_apply();
	F.replayed += F.n_fed;
}

static void on_diag(void *ctx, const struct rr_diag *d)
{
	struct rrp_finding *f = wmem_new0(wmem_file_scope(), struct rrp_finding);
	uint32_t at = (uint32_t)d->frame;

	(void)ctx;
	f->id = d->id;
	f->severity = d->severity;
	f->frame = at;
	f->text = wmem_strdup(wmem_file_scope(), d->text ? d->text : "");
	f->evidence = frame_list(d->frames, d->n_frames);
	f->n_evidence = (unsigned)d->n_frames;
	f->has_xid = d->has_xid;
	f->xid = d->xid;
	f->conn_id = d->conn_id;
	if (!at)
		at = F.cur_frame ? F.cur_frame : F.last_fed;
	if (at)
		rrp_push(&frame_rec(at)->findings, f);
}

/* ---- life of one file ---- */

void rrp_feed_init(unsigned decode_as_port)
{
	struct rr_session_sinks sinks = { .message = on_message, .send = on_send, .finding = on_diag,
					  .rdma = on_rdma, .reopen = on_reopen };
	struct rr_session_opts o;
	unsigned i;

	memset(&F, 0, sizeof(F));
	if (rrp_prefs.builtin)
		return;
	F.frames = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	F.calls = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	F.send_msgs = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	F.call_by_xid = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	F.sends = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
	rr_session_default_opts(&o);
	o.check.profile = rrp_prefs.profile < RR_PROFILE_COUNT ? (enum rr_profile)rrp_prefs.profile
								: RR_PROFILE_RFC8166;
	o.check.inline_threshold = rrp_prefs.inline_threshold;
	/* "Run the checks" off: no rule runs; capture conditions and engine limits are still told. */
	if (!rrp_prefs.checks)
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (rr_rule_get(i)->kind == RR_KIND_RULE)
				o.check.enabled[i] = false;
	o.decode.iwarp_port = (uint16_t)(rrp_prefs.iwarp_port ? rrp_prefs.iwarp_port : decode_as_port);
	F.session = rr_session_new(&o, &sinks);
	rr_session_keep_frames(F.session, RRP_KEEP_MAX);
	F.live = true;
}

void rrp_feed_cleanup(void)
{
	rr_session_free(F.session);
	rrp_undo_free();
	/* The records live in file scope: Wireshark frees them with the file. */
	memset(&F, 0, sizeof(F));
}

/*
 * Wireshark's encapsulation of a frame as the link type the decoder reads
 * (libwireshark does not export its own table).  ERF is absent: Wireshark
 * hands dissectors ERF records without their header.
 */
static int dlt_of(int encap)
{
	switch (encap) {
	case WTAP_ENCAP_ETHERNET:
		return DLT_EN10MB;
	case WTAP_ENCAP_SLL:
		return DLT_LINUX_SLL;
	case WTAP_ENCAP_SLL2:
		return DLT_LINUX_SLL2;
	case WTAP_ENCAP_INFINIBAND:
		return DLT_INFINIBAND;
	case WTAP_ENCAP_RAW_IP:
		return DLT_RAW;
	case WTAP_ENCAP_RAW_IP4:
		return DLT_IPV4;
	case WTAP_ENCAP_RAW_IP6:
		return DLT_IPV6;
	default:
		return -1;
	}
}

static void finish(void)
{
	F.cur_frame = 0;
	rrp_undo_begin();
	place_deferred(F.last_fed);
	rr_session_finish(F.session);
	rrp_undo_end();
}

/*
 * Whether a visit finishes the session now.  A finish the capture goes on
 * after costs a replay of every frame so far; replays may cost up to twice
 * the frames fed, and beyond that a visit finishes only when no frame came
 * for RRP_IDLE_US (the capture stopped), or when it starts a pass over the
 * whole capture (frame 1: tshark -2, a retap).  A session that can no
 * longer reopen (its kept frames passed RRP_KEEP_MAX) finishes under those
 * two conditions only.
 */
static bool finish_due(uint32_t num)
{
	bool idle = g_get_monotonic_time() - F.last_feed_at >= RRP_IDLE_US;

	if (!F.n_fed)
		return false;
	if (!rr_session_can_reopen(F.session))
		return idle || num == 1;
	return F.replayed < 2 * F.n_fed || idle || num == 1;
}

void rrp_feed(packet_info *pinfo)
{
	const struct rr_frame_report *rep;
	tvbuff_t *ft;
	uint64_t ts;
	int dlt;

	if (!F.live)
		return;
	if (PINFO_FD_VISITED(pinfo)) {
		if (!rr_session_finished(F.session) && finish_due(pinfo->num))
			finish();
		return;
	}
	if (pinfo->num <= F.last_fed)
		return;
	F.last_fed = pinfo->num;
	place_deferred(pinfo->num);
	if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET || !pinfo->data_src)
		return;
	dlt = dlt_of(pinfo->rec->rec_header.packet_header.pkt_encap);
	if (dlt < 0)
		return;
	/* The frame's own bytes, link layer included: the first data source. */
	ft = get_data_source_tvb((struct data_source *)pinfo->data_src->data);
	ts = (uint64_t)pinfo->abs_ts.secs * 1000000u + (uint64_t)pinfo->abs_ts.nsecs / 1000u;
	F.cur_frame = pinfo->num;
	rep = rr_session_feed_frame(F.session, dlt, pinfo->num, ts, tvb_get_ptr(ft, 0, -1),
				    tvb_captured_length(ft), tvb_reported_length(ft));
	F.n_fed++;
	F.last_feed_at = g_get_monotonic_time();
	/* Said on the frame's tree when something else draws it: Wireshark alone would not know. */
	if (rep && rep->frame == pinfo->num && rep->iwarp_tcp)
		frame_rec(pinfo->num)->iwarp_tcp = true;
}

const struct rrp_frame *rrp_frame_get(uint32_t num)
{
	return F.frames ? wmem_map_lookup(F.frames, GUINT_TO_POINTER(num)) : NULL;
}

bool rrp_frame_claimed(const struct rrp_frame *fr)
{
	return fr && (fr->sends_done || fr->part_sends || fr->msgs || fr->part_msgs || fr->carries);
}

const struct rrp_msg *rrp_call_of_xid(uint32_t xid)
{
	return F.call_by_xid ? wmem_map_lookup(F.call_by_xid, GUINT_TO_POINTER(xid)) : NULL;
}

const struct rrp_msg *rrp_msg_of_send(uint32_t send_frame)
{
	return F.send_msgs ? wmem_map_lookup(F.send_msgs, GUINT_TO_POINTER(send_frame)) : NULL;
}

uint64_t rrp_checks_skipped(void)
{
	return F.session ? rr_session_checks_skipped(F.session, RR_SKIP__COUNT) : 0;
}
