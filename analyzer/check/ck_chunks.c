// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of groups D (read chunks), E (Write list and Reply chunk) and P
 * (XDR alignment) on rebuilt messages: the chunk lists against the items
 * the ULP walk found, and the returned lengths against what was offered
 * and what was written.
 */
#include <string.h>

#include "check_int.h"

static bool is_reply_with_call(const struct rr_message *m)
{
	return m->dir == RR_DIR_REPLY && m->call_hdr && m->hdr->proc != RR_RDMA_ERROR;
}

/*
 * The byte count a read chunk replaces: the eligible item's length word, or,
 * when the walk could not reach the item (the chunk itself broke the
 * stream), the counted array's count that stays inline right before the
 * Position (RFC 8166 3.4.4.1).
 */
static bool chunk_count(const struct rr_message *m, const struct ck_rchunk *rc, uint32_t *count)
{
	const struct rr_ddp_place *it = ck_item_at(m, rc->position);
	const uint8_t *p;

	if (it) {
		*count = it->length;
		return true;
	}
	/* A Position inside the RPC header or an argument has no count before it (RR-032). */
	if (m->placement_broken && (m->placement_in_rpc_header || m->placement_splits) &&
	    rc->position == m->placement_pos)
		return false;
	if (m->ulp_result == RR_ULP_OK || m->capture_loss || rc->position < 4 || rc->position % 4 ||
	    rc->position > m->payload_len)
		return false;   /* walked and no item there: a stray chunk, RR-141 and kin */
	p = m->payload + rc->position - 4;
	*count = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return true;
}

/* The rebuilt stream decodes to its last byte. */
static bool walks_whole(const struct rr_message *m)
{
	return m->has_rpc && m->ulp_result == RR_ULP_OK && m->decode_stop == m->payload_len;
}

/* Would the rebuilt stream decode to its last byte with the n bytes at off taken out? */
static bool walks_without(const struct rr_message *m, size_t off, size_t n)
{
	size_t len = m->payload_len - n;
	uint8_t *b = g_malloc(len + 1);
	struct rr_cursor cur;
	struct rr_ulp_info u;
	bool ok;

	memcpy(b, m->payload, off);
	memcpy(b + off, m->payload + off + n, m->payload_len - off - n);
	rr_cursor_init(&cur, b, len);
	if (m->dir == RR_DIR_CALL) {
		struct rr_rpc_call rc;

		ok = rr_rpc_decode_call(&cur, &rc) && rr_ulp_walk_call(&rc, &cur, NULL, NULL, &u) == RR_ULP_OK;
	} else {
		struct rr_rpc_reply rp;

		ok = m->call_ulp && rr_rpc_decode_reply(&cur, &rp) &&
		     rr_ulp_walk_reply(m->call_ulp, &rp, &cur, NULL, NULL, &u) == RR_ULP_OK;
	}
	ok = ok && cur.pos == len;
	g_free(b);
	return ok;
}

/*
 * RFC 8166 §3.4.4.4: the sender removes a reduced item's XDR pad from the
 * Payload stream.  The rebuild puts the chunk and its pad in (RFC 8166
 * §3.4.5.2), so a pad the sender left inline follows them at end: zero
 * bytes, without which, and only without which, the message decodes to its
 * last byte.
 */
static bool pad_left_inline(const struct rr_message *m, size_t end, uint32_t item_len)
{
	size_t n = rr_xdr_pad(item_len), i;

	if (!n || m->capture_loss || !m->has_rpc || end + n > m->payload_len || walks_whole(m))
		return false;
	for (i = 0; i < n; i++)
		if (m->payload[end + i])
			return false;
	return walks_without(m, end, n);
}

/* A call whose read chunk at rc was sent with its item's pad left inline. */
static bool call_pad_inline(const struct rr_message *m, const struct ck_rchunk *rc, uint32_t count)
{
	return (rc->length == count || rc->length == rr_xdr_roundup(count)) &&
	       pad_left_inline(m, (size_t)rc->position + rr_xdr_roundup(count), count);
}

/* A reply whose Write chunk item it came with its pad left inline. */
static bool reply_pad_inline(const struct rr_message *m, const struct rr_ddp_place *it)
{
	uint64_t ret;

	if (it->chunk < 0 || (uint32_t)it->chunk >= m->hdr->n_write_chunks)
		return false;
	ret = rr_chunk_length(m->hdr, &m->hdr->writes[it->chunk]);
	return (ret == it->length || ret == rr_xdr_roundup(it->length)) &&
	       pad_left_inline(m, it->data_pos + rr_xdr_roundup(it->length), it->length);
}

static void check_read_length(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;
	uint32_t count;

	if (m->dir != RR_DIR_CALL || !m->has_rpc)
		return;
	n = ck_read_chunks(m->hdr, m->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++) {
		if (!chunk_count(m, &rc[i], &count))
			continue;
		if (rule == RR_062_READ_COUNT && rc[i].length < count)
			ck_report(ck, f, rule, m->send_frame,
				  "call XID 0x%08x: the read chunk at Position %u holds %" G_GUINT64_FORMAT
				  " bytes but the count left inline says %u", m->xid, rc[i].position, rc[i].length, count);
		else if (rule == RR_062_READ_COUNT && rc[i].length > count && rc[i].length < rr_xdr_roundup(count))
			/* RFC 8166 §3.4.5.2: the item alone, or the item and its whole pad */
			ck_report(ck, f, rule, m->send_frame,
				  "call XID 0x%08x: the read chunk at Position %u holds %" G_GUINT64_FORMAT
				  " bytes, neither its %u-byte item nor the item and its %u-byte XDR pad (%u)",
				  m->xid, rc[i].position, rc[i].length, count, (unsigned)rr_xdr_pad(count),
				  (unsigned)rr_xdr_roundup(count));
		else if (rule == RR_071_READ_NO_PAD && rr_xdr_pad(count) && rc[i].length == rr_xdr_roundup(count)) {
			ck_report(ck, f, rule, m->send_frame,
				  "call XID 0x%08x: the read chunk at Position %u holds the %u-byte item and its "
				  "%u-byte XDR pad; a requester should leave the pad out of a read chunk",
				  m->xid, rc[i].position, count, (unsigned)rr_xdr_pad(count));
			return;
		}
		else if (rule == RR_063_NO_INLINE_PAD && call_pad_inline(m, &rc[i], count)) {
			ck_report(ck, f, rule, m->send_frame,
				  "call XID 0x%08x left the %u-byte XDR pad of the %u-byte item in the read chunk at "
				  "Position %u inline: the call decodes only with those zero bytes taken out", m->xid,
				  (unsigned)rr_xdr_pad(count), count, rc[i].position);
			return;
		}
		else if (rule == RR_222_WHOLE_ITEM && rc[i].length > rr_xdr_roundup(count))
			ck_report(ck, f, rule, m->send_frame,
				  "call XID 0x%08x: the read chunk at Position %u holds %" G_GUINT64_FORMAT
				  " bytes, more than its %u-byte item and pad", m->xid, rc[i].position, rc[i].length, count);
	}
}

/*
 * RFC 8166 §3.4.4.1: a counted item's count stays inline and its chunk holds
 * the elements only.  A chunk that took the count word along sits 4 bytes
 * before its item's data and is 4 bytes longer than the item (and its pad).
 */
void ck_rr061(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;

	if (m->dir != RR_DIR_CALL || !m->has_rpc || m->ulp_result != RR_ULP_OK)
		return;
	n = ck_read_chunks(m->hdr, m->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++) {
		const struct rr_ddp_place *it;

		if (ck_item_at(m, rc[i].position) || !(it = ck_item_at(m, (uint64_t)rc[i].position + 4)))
			continue;
		if (rc[i].length == (uint64_t)it->length + 4 || rc[i].length == (uint64_t)rr_xdr_roundup(it->length) + 4) {
			ck_report(ck, f, RR_061_COUNT_INLINE, m->send_frame,
				  "call XID 0x%08x: the read chunk at Position %u carries the count word of the %u-byte "
				  "item along with its data; the count stays inline and the chunk starts at Position %u",
				  m->xid, rc[i].position, it->length, rc[i].position + 4);
			return;
		}
	}
}

void ck_rr062(struct rr_checker *ck, const struct rr_fact *f)
{
	check_read_length(ck, f, RR_062_READ_COUNT);
}

void ck_rr222(struct rr_checker *ck, const struct rr_fact *f)
{
	check_read_length(ck, f, RR_222_WHOLE_ITEM);
}

void ck_rr071(struct rr_checker *ck, const struct rr_fact *f)
{
	check_read_length(ck, f, RR_071_READ_NO_PAD);
}

void ck_rr063(struct rr_checker *ck, const struct rr_fact *f)
{
	check_read_length(ck, f, RR_063_NO_INLINE_PAD);
}

void ck_rr221(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (!is_reply_with_call(m) || !m->has_rpc)
		return;
	for (i = 0; i < m->n_items; i++)
		if (reply_pad_inline(m, &m->items[i])) {
			ck_report(ck, f, RR_221_NO_PAD_AFTER_WRITE, m->send_frame,
				  "reply XID 0x%08x left the %u-byte XDR pad of the %u-byte result in Write chunk %d "
				  "inline: the reply decodes only with those zero bytes taken out", m->xid,
				  (unsigned)rr_xdr_pad(m->items[i].length), m->items[i].length, m->items[i].chunk);
			return;
		}
}

void ck_rr224(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && m->has_bad_position && m->bad_position_overlaps)
		ck_report(ck, f, RR_224_NO_OVERLAP, m->send_frame,
			  "call XID 0x%08x: the read chunk at Position %u falls inside the data of an earlier chunk",
			  m->xid, m->bad_position);
}

/*
 * RFC 8166 §3.5.3: a Position-Zero read chunk carries a Payload stream, XDR
 * roundup padding included, so it holds a multiple of 4 bytes.
 */
void ck_rr070(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	uint64_t len = 0;
	uint32_t i;

	if (s->status != RR_HDR_OK || !s->is_call || s->hdr->proc != RR_RDMA_NOMSG)
		return;
	for (i = 0; i < s->hdr->n_reads; i++)
		if (!s->hdr->reads[i].position)
			len += s->hdr->reads[i].seg.length;
	if (len % 4)
		ck_report(ck, f, RR_070_PZRC_PAD, s->frame,
			  "call XID 0x%08x: its Position-Zero read chunk holds %" G_GUINT64_FORMAT " bytes, not a "
			  "multiple of 4: the Payload stream in it lacks %u bytes of XDR roundup padding",
			  s->hdr->xid, len, (unsigned)(4 - len % 4));
}

void ck_rr065(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_call *c;

	if (m->dir != RR_DIR_REPLY || !ck_reply_ok(m))
		return;
	c = ck_call_of_reply(ck, m);
	if (c && (c->flags & CK_CALL_BAD_CHUNK)) {
		ck_evidence(ck, c->send_frame);
		ck_report(ck, f, RR_065_PROCESSED_BAD, m->send_frame,
			  "the responder processed call XID 0x%08x (frame %" G_GUINT64_FORMAT
			  ") although it reduced a non-eligible item; it should have answered ERR_CHUNK or "
			  "GARBAGE_ARGS", m->xid, c->send_frame);
	}
}

void ck_rr067(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *ch = m->call_hdr;
	uint32_t i;

	if (m->dir != RR_DIR_REPLY || !ch || !ck_reply_ok(m) || !m->call_read_bytes)
		return;
	for (i = 0; i < ch->n_reads; i++)
		if (m->call_read_bytes[i] < ch->reads[i].seg.length) {
			if (m->capture_loss) {
				ck_skip(ck, RR_067_READ_ALL);
				return;
			}
			ck_report(ck, f, RR_067_READ_ALL, m->send_frame,
				  "reply XID 0x%08x succeeded although only %" G_GUINT64_FORMAT " of the %u bytes of "
				  "read segment %u were pulled", m->xid, m->call_read_bytes[i],
				  ch->reads[i].seg.length, i);
			return;
		}
}

void ck_rr080(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (ck_report_missing(ck, f, RR_080_DDP_RESULT) || !is_reply_with_call(m) || !ck_is_nfs(m, 2, 3) ||
	    !ck_ulp_ok(m))
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];

		if (ck_inline_despite_chunk(m, it))
			ck_report(ck, f, RR_080_DDP_RESULT, m->send_frame,
				  "reply XID 0x%08x returns %u bytes of %s data inline although the call offered "
				  "Write chunk %u", m->xid, it->length, rr_nfs3_proc_name(it->op), it->ordinal);
	}
}

/* The returned length of write chunk k differs from its item: RR-081 or RR-091. */
static void check_result_length(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id want)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;
	size_t i;

	/* Needs only the items the rebuild placed, not a walk to the end. */
	if (!is_reply_with_call(m) || m->capture_loss)
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];
		uint64_t ret;
		uint32_t j;
		int other = -1;

		if (it->chunk < 0 || (uint32_t)it->chunk >= h->n_write_chunks)
			continue;
		ret = rr_chunk_length(h, &h->writes[it->chunk]);
		if (ret == it->length)
			continue;
		for (j = 0; j < h->n_write_chunks && other < 0; j++)
			if (j != (uint32_t)it->chunk && rr_chunk_length(h, &h->writes[j]) == it->length)
				other = (int)j;
		if (other >= 0) {
			if (want == RR_081_CHUNK_ORDER)
				ck_report(ck, f, want, m->send_frame,
					  "reply XID 0x%08x: the %u-byte result of operation %u went to Write chunk %d, "
					  "not to chunk %d", m->xid, it->length, it->ordinal, other, it->chunk);
		} else if (ret != rr_xdr_roundup(it->length) && want == RR_091_WRITE_COUNT) {
			/* the padded length is RR-089's (ck_writes.c) */
			ck_report(ck, f, want, m->send_frame,
				  "reply XID 0x%08x: result length %u but Write chunk %d returned %" G_GUINT64_FORMAT
				  " bytes", m->xid, it->length, it->chunk, ret);
		}
	}
}

void ck_rr081(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (!is_reply_with_call(m))
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];

		if (it->chunk >= 0 && (uint32_t)it->chunk != it->ordinal) {
			ck_report(ck, f, RR_081_CHUNK_ORDER, m->send_frame,
				  "reply XID 0x%08x: the %u-byte result of READ-class operation %u was written into "
				  "Write chunk %d, which belongs to operation %d", m->xid, it->length, it->ordinal,
				  it->chunk, it->chunk);
			return;
		}
	}
	check_result_length(ck, f, RR_081_CHUNK_ORDER);
}

void ck_rr091(struct rr_checker *ck, const struct rr_fact *f)
{
	check_result_length(ck, f, RR_091_WRITE_COUNT);
}

void ck_rr083(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	uint32_t k, n;

	if (!is_reply_with_call(m))
		return;
	n = MIN(m->hdr->n_write_chunks, m->call_hdr->n_write_chunks);
	for (k = 0; k < n; k++)
		if (m->hdr->writes[k].count != m->call_hdr->writes[k].count) {
			ck_report(ck, f, RR_083_SEG_COUNT, m->send_frame,
				  "reply XID 0x%08x returns Write chunk %u with %u segments; the call offered %u",
				  m->xid, k, m->hdr->writes[k].count, m->call_hdr->writes[k].count);
			return;
		}
}

void ck_rr084(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr, *c;
	uint32_t k, i;

	if (!is_reply_with_call(m))
		return;
	c = m->call_hdr;
	if (h->n_write_chunks != c->n_write_chunks)
		ck_report(ck, f, RR_084_MIRROR, m->send_frame,
			  "reply XID 0x%08x returns %u Write chunks; the call offered %u", m->xid, h->n_write_chunks,
			  c->n_write_chunks);
	for (k = 0; k < MIN(h->n_write_chunks, c->n_write_chunks); k++)
		for (i = 0; i < MIN(h->writes[k].count, c->writes[k].count); i++) {
			const struct rr_segment *r = rr_hdr_wseg(h, &h->writes[k], i);
			const struct rr_segment *o = rr_hdr_wseg(c, &c->writes[k], i);

			if (r->handle != o->handle || r->offset != o->offset) {
				ck_report(ck, f, RR_084_MIRROR, m->send_frame,
					  "reply XID 0x%08x: Write chunk %u segment %u comes back as handle 0x%08x "
					  "offset 0x%" G_GINT64_MODIFIER "x; the call offered handle 0x%08x offset 0x%"
					  G_GINT64_MODIFIER "x", m->xid, k, i, r->handle, r->offset, o->handle,
					  o->offset);
				return;
			}
		}
}

void ck_rr085(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m;
	const struct rr_hdr *h, *c;
	uint32_t k, i;

	if (f->kind == RR_FACT_RDMA) {
		const struct rr_fact_rdma *r = f->rdma;

		if (r->op == RR_RDMA_WRITE && r->handle_live && !r->inside && r->role != 0)
			ck_report(ck, f, RR_085_WRITE_BOUNDS, r->frame,
				  "RDMA Write of %" G_GUINT64_FORMAT " bytes at 0x%" G_GINT64_MODIFIER "x with handle "
				  "0x%08x runs outside the segment XID 0x%08x advertised (0x%" G_GINT64_MODIFIER
				  "x, %" G_GUINT64_FORMAT " bytes)", r->len, r->va, r->rkey, r->xid, r->seg_offset,
				  r->seg_length);
		return;
	}
	m = f->msg;
	if (!is_reply_with_call(m))
		return;
	h = m->hdr;
	c = m->call_hdr;
	for (k = 0; k < MIN(h->n_write_chunks, c->n_write_chunks); k++)
		for (i = 0; i < MIN(h->writes[k].count, c->writes[k].count); i++)
			if (rr_hdr_wseg(h, &h->writes[k], i)->length > rr_hdr_wseg(c, &c->writes[k], i)->length) {
				ck_report(ck, f, RR_085_WRITE_BOUNDS, m->send_frame,
					  "reply XID 0x%08x: Write chunk %u segment %u returns %u bytes; only %u were "
					  "offered", m->xid, k, i, rr_hdr_wseg(h, &h->writes[k], i)->length,
					  rr_hdr_wseg(c, &c->writes[k], i)->length);
				return;
			}
}

/* A Write chunk ending with a segment of 4 bytes or less after others: a pad buffer. */
static bool pad_segment(const struct rr_hdr *h, const struct rr_write_chunk *w)
{
	return w->count >= 2 && rr_hdr_wseg(h, w, w->count - 1)->length <= 4;
}

/*
 * RFC 8166 §3.4.6.2: the Write chunk paired with a READ whose count is not a
 * multiple of 4 offers exactly the count rounded up: room for the XDR pad
 * (the count bounds the item; a larger chunk is otherwise legal).
 */
static void check_pad_room(struct rr_checker *ck, const struct rr_fact *f, uint32_t k, uint32_t count)
{
	const struct rr_message *m = f->msg;
	const struct rr_write_chunk *w = &m->hdr->writes[k];

	if (!rr_xdr_pad(count) || pad_segment(m->hdr, w) || rr_chunk_length(m->hdr, w) != rr_xdr_roundup(count))
		return;
	ck_report(ck, f, RR_090_NO_PAD_SEGMENT, m->send_frame,
		  "call XID 0x%08x: Write chunk %u offers %u bytes for a READ of %u: room for the %u-byte XDR "
		  "pad, which a responder never writes", m->xid, k, (unsigned)rr_xdr_roundup(count), count,
		  (unsigned)rr_xdr_pad(count));
}

static void check_pad_room_msg(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_ulp_info *u = &m->ulp;
	uint32_t k = 0;

	if (m->dir != RR_DIR_CALL || m->backchannel || !m->has_ulp || !m->hdr->n_write_chunks)
		return;
	if (m->call.prog == RR_NFS_PROGRAM && ((m->call.vers == 3 && m->call.proc == RR_NFS3_PROC_READ) ||
					       (m->call.vers == 2 && m->call.proc == RR_NFS2_PROC_READ))) {
		check_pad_room(ck, f, 0, u->op_count[0]);
		return;
	}
	if (!ck_is_nfs(m, 4, 4) || m->call.proc != RR_NFS_PROC_COMPOUND)
		return;
	/* RFC 8267 §6.4.1: Write chunk k belongs to the k-th READ-class op */
	for (uint16_t i = 0; i < u->n_ops && k < m->hdr->n_write_chunks; i++) {
		if (u->ops[i] == RR_NFS4_OP_READ) {
			check_pad_room(ck, f, k, u->op_count[i]);
			return;
		}
		if (u->ops[i] == RR_NFS4_OP_READLINK)
			k++;
	}
}

void ck_rr090(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	uint32_t k;

	if (f->kind == RR_FACT_MSG) {
		check_pad_room_msg(ck, f);
		return;
	}
	if (s->status != RR_HDR_OK || !s->is_call)
		return;
	for (k = 0; k < s->hdr->n_write_chunks; k++) {
		const struct rr_write_chunk *w = &s->hdr->writes[k];

		if (pad_segment(s->hdr, w)) {
			ck_report(ck, f, RR_090_NO_PAD_SEGMENT, s->frame,
				  "call XID 0x%08x: Write chunk %u ends with a %u-byte segment for the XDR pad",
				  s->hdr->xid, k, rr_hdr_wseg(s->hdr, w, w->count - 1)->length);
			return;
		}
	}
}

void ck_rr094(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t i;

	if (!is_reply_with_call(m) || m->hdr->proc != RR_RDMA_NOMSG || m->call_hdr->n_write_chunks ||
	    !ck_ulp_ok(m))
		return;
	for (i = 0; i < m->n_items; i++)
		if (m->items[i].length >= 1024 &&
		    (m->items[i].op == RR_NFS3_PROC_READ || (ck_is_nfs(m, 4, 4) && m->items[i].op == RR_NFS4_OP_READ))) {
			ck_report(ck, f, RR_094_READ_VIA_RC, m->send_frame,
				  "reply XID 0x%08x returns %u bytes of READ data through the Reply chunk; the call "
				  "offered no Write chunk", m->xid, m->items[i].length);
			return;
		}
}

/* A read chunk that is not at an item boundary, or the chunk the decode broke after (unless its length explains it). */
void ck_rr032(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;
	struct ck_rchunk rc = { 0 };
	uint32_t count, i;
	struct ck_call *c;

	if (!m->placement_broken)
		return;
	if (m->dir == RR_DIR_REPLY) {
		struct ck_missing x;

		if (ck_missing_result(m, &x))
			return;   /* the missing result is named by RR-160/162/163/165 */

		for (i = 0; i < m->n_items; i++)
			if (m->items[i].chunk == m->placement_chunk && reply_pad_inline(m, &m->items[i]))
				return;   /* RR-221 */
		if (m->placement_chunk < 0 && h->has_reply && rr_chunk_length(h, &h->reply) % 4)
			return;   /* RR-096: the Reply chunk lacks its pad */
		if (m->placement_chunk < 0)
			ck_report(ck, f, RR_032_CHUNK_PLACEMENT, m->send_frame,
				  "reply XID 0x%08x: the %zu bytes its Reply chunk returns do not decode as the RPC "
				  "reply (the decode stops at offset %zu)", m->xid, m->payload_len, m->decode_stop);
		else
			ck_report(ck, f, RR_032_CHUNK_PLACEMENT, m->send_frame,
				  "reply XID 0x%08x: the results stop decoding at offset %zu, after Write chunk %d was "
				  "put in at offset %u", m->xid, m->decode_stop, m->placement_chunk, m->placement_pos);
		return;
	}
	rc.position = m->placement_pos;
	for (i = 0; i < h->n_reads; i++)
		if (h->reads[i].position == m->placement_pos)
			rc.length += h->reads[i].seg.length;
	if (!m->placement_in_rpc_header && !m->placement_splits && chunk_count(m, &rc, &count) &&
	    ((rc.length != count && rc.length != rr_xdr_roundup(count)) || call_pad_inline(m, &rc, count)))
		return;   /* RR-062, RR-222 or RR-063 */
	c = ck_call_find(ck, m->conn_id, m->backchannel ? 1 : 0, m->xid);
	if (c)
		c->flags |= CK_CALL_BAD_CHUNK;
	if (m->placement_in_rpc_header)
		ck_report(ck, f, RR_032_CHUNK_PLACEMENT, m->send_frame,
			  "call XID 0x%08x: read segment %d puts %" G_GUINT64_FORMAT " bytes at Position %u, inside "
			  "the RPC call header (it ends at offset %zu); the rebuilt call does not decode",
			  m->xid, m->placement_chunk, rc.length, m->placement_pos, m->placement_item);
	else if (m->placement_splits)
		ck_report(ck, f, RR_032_CHUNK_PLACEMENT, m->send_frame,
			  "call XID 0x%08x: read segment %d puts %" G_GUINT64_FORMAT " bytes at Position %u, inside "
			  "the argument that starts at offset %zu; the rebuilt call does not decode",
			  m->xid, m->placement_chunk, rc.length, m->placement_pos, m->placement_item);
	else
		ck_report(ck, f, RR_032_CHUNK_PLACEMENT, m->send_frame,
			  "call XID 0x%08x: after read segment %d puts %" G_GUINT64_FORMAT " bytes at Position %u, "
			  "the rebuilt %s stop decoding at offset %zu", m->xid, m->placement_chunk, rc.length,
			  m->placement_pos, m->has_rpc ? "arguments" : "RPC header", m->placement_item);
}

/* The pad of a reduced item left inline after its chunk (RR-063, RR-221). */
static bool some_pad_inline(const struct rr_message *m)
{
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;
	uint32_t count;

	if (m->dir == RR_DIR_REPLY) {
		for (i = 0; is_reply_with_call(m) && i < m->n_items; i++)
			if (reply_pad_inline(m, &m->items[i]))
				return true;
		return false;
	}
	n = ck_read_chunks(m->hdr, false, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++)
		if (chunk_count(m, &rc[i], &count) && call_pad_inline(m, &rc[i], count))
			return true;
	return false;
}

/*
 * RFC 8166 §3.4.4.4, §3.4.5: every XDR object starts on a 4-byte boundary,
 * and a reduced item leaves the stream with its pad, so the inline Payload
 * of an RDMA_MSG is a whole number of 4-byte words.  A pad left inline after
 * a chunk is RR-063's or RR-221's, chunks that do not rebuild the message
 * RR-032's; what stays is a stream that is itself off its boundaries.
 */
void ck_rr220(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	size_t n;

	if (!m->hdr || m->hdr->proc != RR_RDMA_MSG || m->capture_loss || m->placement_broken ||
	    m->send_len < m->hdr->hdr_len)
		return;
	n = m->send_len - m->hdr->hdr_len;
	if (n % 4 == 0 || some_pad_inline(m))
		return;
	ck_report(ck, f, RR_220_ALIGNED, m->send_frame,
		  "%s XID 0x%08x: the inline Payload of its RDMA_MSG is %zu bytes, not a whole number of 4-byte "
		  "XDR words: the %zu byte%s past the last word cannot start an object on a 4-byte boundary",
		  m->dir == RR_DIR_CALL ? "call" : "reply", m->xid, n, n % 4, n % 4 == 1 ? "" : "s");
}
