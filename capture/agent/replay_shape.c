// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_shape.c - how a variation carries the call (replay.h): the
 * segments of its read chunk and which bytes go inline, the RPC-over-RDMA
 * version 1 header that says so (RFC 8166 §4.2: rdma_xid, rdma_vers,
 * rdma_credit, rdma_proc, then the read list, the write list and the reply
 * chunk), and RFC 5531 §11 record marking for the same call over TCP.
 */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/hdr.h>

#include "replay.h"

static void be32(GByteArray *b, uint32_t v)
{
	uint8_t w[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	g_byte_array_append(b, w, 4);
}

static void no_gap(struct rp_plan *p, size_t msg_len)
{
	p->msg_len = msg_len;
	p->gap_at = p->gap_end = msg_len;
}

/* Position zero: the segments, end to end, are the whole message. */
static bool captured_pzrc(const struct rp_call *c, size_t msg_len, struct rp_plan *p, char *err,
			  size_t errlen)
{
	size_t off = 0;

	for (uint32_t i = 0; i + 1 < c->n_reads; i++)
		off += c->reads[i].length;
	if (off >= msg_len) {
		snprintf(err, errlen, "a %zu-byte message does not fill the captured shape's first %u "
			 "segments (%zu bytes)", msg_len, c->n_reads - 1, off);
		return false;
	}
	p->rdma_proc = RR_RDMA_NOMSG;
	p->n_segs = c->n_reads;
	off = 0;
	for (uint32_t i = 0; i < c->n_reads; i++) {
		p->segs[i].position = 0;
		p->segs[i].length = i + 1 < c->n_reads ? c->reads[i].length : (uint32_t)(msg_len - off);
		p->seg_from[i] = off;
		off += p->segs[i].length;
	}
	p->msg_len = msg_len;
	p->gap_at = 0;
	p->gap_end = msg_len;
	return true;
}

bool rp_plan_captured(const struct rp_call *c, size_t msg_len, struct rp_plan *p, char *err,
		      size_t errlen)
{
	uint32_t pos, total = 0;
	int64_t diff;
	size_t off;

	memset(p, 0, sizeof(*p));
	p->how = RP_CHUNKS;
	if (!c->n_reads) {
		snprintf(err, errlen, "the captured call has no read chunk (it went inline)");
		return false;
	}
	pos = c->reads[0].position;
	for (uint32_t i = 0; i < c->n_reads; i++) {
		if (c->reads[i].position != pos) {
			snprintf(err, errlen, "the captured call has read chunks at positions %u and %u; "
				 "replay rebuilds one chunk", pos, c->reads[i].position);
			return false;
		}
		total += c->reads[i].length;
	}
	if (pos == 0)
		return captured_pzrc(c, msg_len, p, err, errlen);
	/* one chunk inside the message: its bytes start at pos, the rest goes inline */
	diff = (int64_t)msg_len - (int64_t)c->msg->len;
	if ((int64_t)c->reads[c->n_reads - 1].length + diff <= 0 ||
	    (uint64_t)pos + (uint64_t)((int64_t)total + diff) > msg_len) {
		snprintf(err, errlen, "a %zu-byte message does not fit the captured chunk at position %u",
			 msg_len, pos);
		return false;
	}
	p->rdma_proc = RR_RDMA_MSG;
	p->n_segs = c->n_reads;
	off = pos;
	for (uint32_t i = 0; i < c->n_reads; i++) {
		p->segs[i] = c->reads[i];
		if (i + 1 == c->n_reads)
			p->segs[i].length = (uint32_t)((int64_t)p->segs[i].length + diff);
		p->seg_from[i] = off;
		off += p->segs[i].length;
	}
	p->msg_len = msg_len;
	p->gap_at = pos;
	/* the chunk leaves out its XDR pad; the inline part goes on after it (RFC 8166 §3.5.3) */
	p->gap_end = (off + 3u) & ~(size_t)3u;
	if (p->gap_end > msg_len)
		p->gap_end = msg_len;
	return true;
}

void rp_plan_pzrc(size_t msg_len, uint32_t n_segs, struct rp_plan *p)
{
	size_t each, off = 0;

	memset(p, 0, sizeof(*p));
	p->how = RP_CHUNKS;
	p->rdma_proc = RR_RDMA_NOMSG;
	if (n_segs < 1)
		n_segs = 1;
	if (n_segs > RP_MAX_SEGS)
		n_segs = RP_MAX_SEGS;
	each = msg_len / n_segs;
	p->n_segs = n_segs;
	for (uint32_t i = 0; i < n_segs; i++) {
		p->segs[i].position = 0;
		p->segs[i].length = (uint32_t)(i + 1 < n_segs ? each : msg_len - off);
		p->seg_from[i] = off;
		off += p->segs[i].length;
	}
	p->msg_len = msg_len;
	p->gap_at = 0;
	p->gap_end = msg_len;
}

size_t rp_plan_hdr_len(const struct rp_plan *p)
{
	/* four fixed words, 6 words per read segment, three list terminators */
	return 16 + (size_t)p->n_segs * 24 + 12;
}

bool rp_plan_inline(size_t msg_len, uint32_t thresh, struct rp_plan *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->how = RP_INLINE;
	p->rdma_proc = RR_RDMA_MSG;
	no_gap(p, msg_len);
	if (rp_plan_hdr_len(p) + msg_len > thresh) {
		snprintf(err, errlen, "%zu bytes of header and message exceed the server's inline "
			 "threshold of %u", rp_plan_hdr_len(p) + msg_len, thresh);
		return false;
	}
	return true;
}

GByteArray *rp_rdma_send(const struct rp_plan *p, const GByteArray *msg, uint32_t xid,
			 uint32_t credits, const uint32_t *handles, const uint64_t *offsets)
{
	GByteArray *b = g_byte_array_sized_new((guint)(rp_plan_hdr_len(p) + msg->len));

	be32(b, xid);
	be32(b, 1);
	be32(b, credits);
	be32(b, p->rdma_proc);
	for (uint32_t i = 0; i < p->n_segs; i++) {
		be32(b, 1);
		be32(b, p->segs[i].position);
		be32(b, handles[i]);
		be32(b, p->segs[i].length);
		be32(b, (uint32_t)(offsets[i] >> 32));
		be32(b, (uint32_t)offsets[i]);
	}
	be32(b, 0);             /* end of the read list */
	be32(b, 0);             /* no write list */
	be32(b, 0);             /* no reply chunk */
	if (p->rdma_proc == RR_RDMA_MSG) {
		g_byte_array_append(b, msg->data, (guint)MIN(p->gap_at, msg->len));
		if (p->gap_end < msg->len)
			g_byte_array_append(b, msg->data + p->gap_end, (guint)(msg->len - p->gap_end));
	}
	return b;
}

GByteArray *rp_record_mark(const uint8_t *msg, size_t len, uint32_t frag)
{
	GByteArray *b = g_byte_array_sized_new((guint)(len + 8));
	size_t off = 0;

	if (!frag || frag > 0x7fffffffu)
		frag = 0x7fffffffu;
	do {
		size_t n = MIN(len - off, (size_t)frag);
		bool last = off + n == len;
		be32(b, (last ? 0x80000000u : 0) | (uint32_t)n);
		g_byte_array_append(b, msg + off, (guint)n);
		off += n;
	} while (off < len);
	return b;
}
