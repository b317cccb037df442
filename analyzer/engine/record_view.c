// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What reporters read of a message record (struct rr_msg_view, engine.h),
 * described here once: each chunk segment's role, the bytes by how they
 * travelled, the RPC program and operation, the payload's hash.  ulb-lint
 * and the plugin count and print these; neither derives them again, so
 * their reports agree.
 */
#include <string.h>

#include "record.h"

/* RFC 5531 transient program numbers: where an NFSv4 client runs its callback service. */
#define RR_TRANSIENT_PROG_FIRST 0x40000000u
#define RR_TRANSIENT_PROG_LAST 0x5fffffffu

struct seg_walk {
	const struct rr_message *m;
	bool reads;                   /* a call: its read list; a reply: the call's write and reply chunks */
	uint32_t n;                   /* segments seg_bytes has */
	GArray *out;                  /* struct rr_msg_seg */
};

/* The header's layout walk names each segment's role; one entry per segment the message could fill. */
static void on_span(void *ctx, const struct rr_hdr_span *sp)
{
	struct seg_walk *w = ctx;
	struct rr_msg_seg s;

	if (sp->kind != RR_HS_SEGMENT || (sp->list == RR_HL_READ) != w->reads || sp->seg >= w->n)
		return;
	memset(&s, 0, sizeof(s));
	s.role = sp->role;
	s.chunk = sp->role == RR_ROLE_WRITE ? sp->chunk : 0;
	s.index = sp->seg;
	s.length = (uint32_t)sp->value;
	s.bytes = w->m->seg_bytes[sp->seg];
	g_array_append_val(w->out, s);
}

/* Calls: the segments of their read list; replies: those of the call's write and reply chunks. */
static void describe_segments(const struct rr_message *m, GArray *out)
{
	const struct rr_hdr *h = m->dir == RR_DIR_CALL ? m->hdr : m->call_hdr;
	struct seg_walk w = { .m = m, .reads = m->dir == RR_DIR_CALL, .out = out };

	if (!h || !m->seg_bytes)
		return;
	w.n = w.reads ? h->n_reads : h->n_wsegs;
	if (w.n)     /* none: on_span would take no span of the walk */
		rr_hdr_layout(h, RR_HDR_OK, h->hdr_len, on_span, &w);
}

static void count_bytes(struct rr_msg_view *v, const struct rr_message *m)
{
	size_t i;

	if (m->hdr && rr_hdr_proc_has_payload(m->hdr->proc) && m->send_len > m->hdr->hdr_len)
		v->inline_bytes = m->send_len - m->hdr->hdr_len;
	for (i = 0; i < m->n_segs; i++) {
		if (m->segs[i].role == RR_ROLE_READ || m->segs[i].role == RR_ROLE_WRITE)
			v->ddp_bytes += m->segs[i].bytes;
		else
			v->long_bytes += m->segs[i].bytes;
	}
}

static void chunk_shape(struct rr_msg_view *v, const struct rr_hdr *h)
{
	uint32_t i;

	if (!h || !rr_hdr_proc_has_chunks(h->proc))
		return;
	for (i = 0; i < h->n_reads; i++) {
		if (h->reads[i].position)
			v->n_read_segs++;
		else
			v->n_pzrc_segs++;
	}
	v->n_write_chunks = h->n_write_chunks;
	v->reply_chunk = h->has_reply;
}

/* Program, version, procedure: a call's own; a reply's from the call it answers. */
static void rpc_ids(struct rr_msg_view *v, const struct rr_message *m)
{
	const struct rr_ulp_info *u = m->dir == RR_DIR_CALL ? (m->has_ulp ? &m->ulp : NULL) : m->call_ulp;

	rr_ulp_op_label(u, v->op, sizeof(v->op));
	if (!m->has_rpc)
		return;
	if (m->dir == RR_DIR_CALL) {
		v->rpc_prog = m->call.prog;
		v->rpc_vers = m->call.vers;
		v->rpc_proc = m->call.proc;
	} else if (m->call_ulp) {
		v->rpc_prog = m->call_ulp->prog;
		v->rpc_vers = m->call_ulp->vers;
		v->rpc_proc = m->call_ulp->proc;
	} else {
		return;
	}
	v->has_ids = true;
	v->compound = m->has_ulp && v->rpc_proc == 1 &&
		      ((v->rpc_prog == RR_NFS_PROGRAM && v->rpc_vers == 4) ||
		       (v->rpc_prog >= RR_TRANSIENT_PROG_FIRST && v->rpc_prog <= RR_TRANSIENT_PROG_LAST));
}

void rr_record_view(struct rr_message *m, GArray *segs)
{
	struct rr_msg_view *v = &m->view;

	describe_segments(m, segs);
	m->segs = (const struct rr_msg_seg *)(void *)segs->data;
	m->n_segs = segs->len;
	memset(v, 0, sizeof(*v));
	v->xid = m->xid;
	v->dir = m->dir;
	v->backchannel = m->backchannel;
	v->complete = m->complete;
	v->has_rpc = m->has_rpc;
	v->capture_loss = m->capture_loss;
	v->conn_id = m->conn_id;
	v->transport = m->transport;
	v->credit = m->credit;
	v->send_frame = m->send_frame;
	v->ts_usec = m->ts_usec;
	v->rdma_proc = m->hdr ? m->hdr->proc : 0;
	v->has_call = m->call_hdr != NULL;
	v->call_send_frame = m->call_send_frame;
	v->call_ts_usec = m->call_ts_usec;
	rpc_ids(v, m);
	count_bytes(v, m);
	chunk_shape(v, m->hdr);
}

void rr_sha256_hex(const void *data, size_t len, char out[RR_SHA256_HEX_LEN])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);

	g_checksum_update(ck, len ? data : (const void *)"", (gssize)len);
	g_strlcpy(out, g_checksum_get_string(ck), RR_SHA256_HEX_LEN);
	g_checksum_free(ck);
}

void rr_message_sha256(const struct rr_message *m, char out[RR_SHA256_HEX_LEN])
{
	rr_sha256_hex(m->payload, m->payload_len, out);
}
