// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group E on how a responder filled the chunks a call offered for
 * its reply (RFC 8166 §3.4.6, §3.4.6.2, §3.5.3, §4.3.3): the returned
 * lengths against the offered ones, and both against the bytes the RDMA
 * Writes seen put into each segment (rr_message.seg_bytes, the merged
 * coverage of every Write into that segment).  A Write chunk is checked
 * only when a result owns it: a responder may write into a chunk it then
 * returns unused (§4.3.2.2).  Checks run only on connections captured
 * whole (checker.c), so a segment the Writes seen did not fill was not
 * filled.
 */
#include <stdarg.h>

#include "check_int.h"

static bool is_reply_with_call(const struct rr_message *m)
{
	return m->dir == RR_DIR_REPLY && m->call_hdr && m->hdr->proc != RR_RDMA_ERROR;
}

static int cmp_frame(gconstpointer a, gconstpointer b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A finding about a reply that compares it with what its call offered: the
 * reply's frames (its Send and the Writes that carried it) and the call's
 * Send are its evidence.
 */
static void report_reply(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
			 const char *fmt, ...) RR_PRINTF(4, 5);
static void report_reply(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
			 const char *fmt, ...)
{
	const struct rr_message *m = f->msg;
	GArray *frames = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), (guint)m->n_frames + 1);
	char text[512];
	va_list ap;
	size_t i;
	bool has_call = false;

	va_start(ap, fmt);
	g_vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (i = 0; i < m->n_frames; i++) {
		g_array_append_val(frames, m->frames[i]);
		has_call |= m->frames[i] == m->call_send_frame;
	}
	if (!has_call && m->call_send_frame) {
		g_array_append_val(frames, m->call_send_frame);
		g_array_sort(frames, cmp_frame);
	}
	ck_report_full(ck, rule, m->send_frame, (const uint64_t *)(void *)frames->data, frames->len, m->conn_id,
		       true, m->xid, "%s", text);
	g_array_free(frames, TRUE);
}

/* One offered chunk and the same chunk as the reply returns it. */
struct wchunk {
	const struct rr_hdr *ch, *rh;
	const struct rr_write_chunk *off, *ret;
	const uint64_t *seen;         /* bytes the Writes put into each call wseg */
	char name[24];                /* "Write chunk 0", "the Reply chunk" */
};

static uint32_t offered(const struct wchunk *w, uint32_t i)
{
	return rr_hdr_wseg(w->ch, w->off, i)->length;
}

static uint32_t returned(const struct wchunk *w, uint32_t i)
{
	return rr_hdr_wseg(w->rh, w->ret, i)->length;
}

static uint64_t written(const struct wchunk *w, uint32_t i)
{
	return w->seen ? w->seen[w->off->first + i] : 0;
}

static bool write_chunk(const struct rr_message *m, uint32_t k, struct wchunk *w)
{
	if (k >= m->hdr->n_write_chunks || k >= m->call_hdr->n_write_chunks ||
	    m->hdr->writes[k].count != m->call_hdr->writes[k].count)
		return false;   /* RR-083, RR-084 */
	w->ch = m->call_hdr;
	w->rh = m->hdr;
	w->off = &m->call_hdr->writes[k];
	w->ret = &m->hdr->writes[k];
	w->seen = m->seg_bytes;
	g_snprintf(w->name, sizeof(w->name), "Write chunk %u", k);
	return true;
}

static bool reply_chunk(const struct rr_message *m, struct wchunk *w)
{
	if (!m->hdr->has_reply || !m->call_hdr->has_reply || m->hdr->reply.count != m->call_hdr->reply.count)
		return false;
	w->ch = m->call_hdr;
	w->rh = m->hdr;
	w->off = &m->call_hdr->reply;
	w->ret = &m->hdr->reply;
	w->seen = m->seg_bytes;
	g_strlcpy(w->name, "the Reply chunk", sizeof(w->name));
	return true;
}

/* A Write chunk the reply's results use (one of them owns it). */
static bool used_write_chunk(const struct rr_message *m, uint32_t k, struct wchunk *w)
{
	const struct rr_ddp_place *it = ck_result_for_chunk(m, k);

	return it && it->chunk == (int32_t)k && write_chunk(m, k, w);
}

/* Returned lengths: data in a segment after one that is not full (RFC 8166 §3.4.6). */
static bool fill_order_returned(struct rr_checker *ck, const struct rr_fact *f, const struct wchunk *w,
				enum rr_rule_id rule)
{
	bool short_seen = false;
	uint32_t i;

	for (i = 0; i < w->ret->count; i++) {
		if (returned(w, i) && short_seen) {
			report_reply(ck, f, rule,
				  "reply XID 0x%08x: %s segment %u holds data after a segment that is not full",
				  f->msg->xid, w->name, i);
			return true;
		}
		if (returned(w, i) < offered(w, i))
			short_seen = true;
	}
	return false;
}

/* The Writes seen: bytes landed in a segment while an earlier one was left short. */
static bool fill_order_written(struct rr_checker *ck, const struct rr_fact *f, const struct wchunk *w,
			       enum rr_rule_id rule)
{
	uint32_t i, j;

	if (!w->seen)
		return false;
	for (i = 1; i < w->off->count; i++) {
		if (!written(w, i))
			continue;
		for (j = 0; j < i; j++)
			if (written(w, j) < offered(w, j)) {
				report_reply(ck, f, rule,
					  "reply XID 0x%08x: the RDMA Writes seen put %" G_GUINT64_FORMAT " bytes "
					  "into %s segment %u while segment %u got only %" G_GUINT64_FORMAT
					  " of its %u bytes (inferred from the Writes in the capture)",
					  f->msg->xid, written(w, i), w->name, i, j, written(w, j), offered(w, j));
				return true;
			}
	}
	return false;
}

/* ---- where the Writes went inside a segment ---------------------------- */

/* The filter's bucket of a (connection, XID): how many live extents have it. */
static uint16_t *wext_bucket(struct rr_checker *ck, uint32_t conn_id, uint32_t xid)
{
	/* Linux counts XIDs in their first byte on the wire: mix every bit in. */
	uint64_t h = ((uint64_t)conn_id << 32 | xid) * 0x9E3779B97F4A7C15ull;

	return &ck->wext_live[(h >> 32) % CK_WEXT_BUCKETS];
}

static struct ck_wextent *wext_find(struct rr_checker *ck, uint32_t conn_id, uint32_t xid, uint8_t role,
				    uint32_t chunk, uint32_t index)
{
	/* Most messages have no extent: the filter says so without the scan. */
	unsigned left = *wext_bucket(ck, conn_id, xid), i;

	/*
	 * A key has at most one live extent, so the order of the scan does not
	 * matter: newest first, as a message's Writes are recent, and done once
	 * the bucket's live extents of this XID were all seen (an XID sharing
	 * the bucket only makes it scan on).
	 */
	for (i = 1; left && i <= CK_WEXT_MAX; i++) {
		struct ck_wextent *e = &ck->wext[(ck->wext_next - i) % CK_WEXT_MAX];

		if (!e->role || e->conn_id != conn_id || e->xid != xid)
			continue;
		if (e->role == role && e->chunk == chunk && e->index == index)
			return e;
		left--;
	}
	return NULL;
}

/* An RDMA Write inside a write or reply segment of a live call: widen that segment's extent. */
static void wext_note(struct rr_checker *ck, const struct rr_fact_rdma *r)
{
	struct ck_wextent *e;
	uint64_t lo, hi;

	if (r->op != RR_RDMA_WRITE || !r->handle_live || !r->inside || !r->role || r->va < r->seg_offset)
		return;
	lo = r->va - r->seg_offset;
	hi = lo + r->len;
	e = wext_find(ck, r->conn_id, r->xid, r->role, r->chunk, r->index);
	if (e) {
		e->lo = MIN(e->lo, lo);
		e->hi = MAX(e->hi, hi);
		return;
	}
	e = &ck->wext[ck->wext_next++ % CK_WEXT_MAX];
	if (e->role)
		(*wext_bucket(ck, e->conn_id, e->xid))--;
	*e = (struct ck_wextent){ r->conn_id, r->xid, r->role, r->chunk, r->index, lo, hi };
	(*wext_bucket(ck, e->conn_id, e->xid))++;
}

/* A call's Send: what earlier Writes with its XID left is not about this call. */
static void wext_forget(struct rr_checker *ck, uint32_t conn_id, uint32_t xid)
{
	uint16_t *live = wext_bucket(ck, conn_id, xid);
	unsigned i;

	/* Newest first, as in wext_find: the XID's extents are recent. */
	for (i = 1; *live && i <= CK_WEXT_MAX; i++) {
		struct ck_wextent *e = &ck->wext[(ck->wext_next - i) % CK_WEXT_MAX];

		if (e->role && e->conn_id == conn_id && e->xid == xid) {
			e->role = 0;
			(*live)--;
		}
	}
}

/*
 * RFC 8166 §3.4.6: a segment is filled contiguously from its start.  Told
 * only when the extent the Writes seen span holds exactly the bytes the
 * segment got (so no Write of it was forgotten): then they started late.
 */
static bool fill_start(struct rr_checker *ck, const struct rr_fact *f, const struct wchunk *w, uint8_t role,
		       uint32_t chunk, enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	uint32_t i;

	for (i = 0; w->seen && i < w->off->count; i++) {
		const struct ck_wextent *e = wext_find(ck, m->conn_id, m->xid, role, chunk, i);

		if (!e || !e->lo || e->hi - e->lo != written(w, i))
			continue;
		report_reply(ck, f, rule,
			  "reply XID 0x%08x: the RDMA Writes seen into %s segment %u start %" G_GUINT64_FORMAT
			  " bytes past its start and leave those bytes unwritten (inferred from the Writes in the "
			  "capture)", m->xid, w->name, i, e->lo);
		return true;
	}
	return false;
}

static void fill_order(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct wchunk w;
	uint32_t k;

	if (!is_reply_with_call(m))
		return;
	for (k = 0; k < MIN(m->hdr->n_write_chunks, m->call_hdr->n_write_chunks); k++)
		if (write_chunk(m, k, &w) && fill_order_returned(ck, f, &w, RR_086_FILL_ORDER))
			return;
	for (k = 0; k < m->call_hdr->n_write_chunks; k++)
		if (used_write_chunk(m, k, &w) &&
		    (fill_order_written(ck, f, &w, RR_086_FILL_ORDER) || fill_start(ck, f, &w, 1, k, RR_086_FILL_ORDER)))
			return;
}

void ck_rr086(struct rr_checker *ck, const struct rr_fact *f)
{
	if (f->kind == RR_FACT_RDMA) {
		wext_note(ck, f->rdma);
		return;
	}
	if (f->kind == RR_FACT_SEND) {
		if (f->send->status == RR_HDR_OK && f->send->is_call)
			wext_forget(ck, f->send->conn_id, f->send->hdr->xid);
		return;
	}
	/* What the reply's Writes left stays until the XID comes again (RR-093 reads it too). */
	fill_order(ck, f);
}

/*
 * The legacy roundup of RFC 5666 §3.7: the last returned segment counts the
 * item's pad, which was never written.  That is RR-089's.
 */
static bool legacy_roundup(const struct rr_message *m, const struct wchunk *w, uint32_t i)
{
	const struct rr_ddp_place *it;
	uint32_t k;

	for (k = 0; k < m->hdr->n_write_chunks; k++)
		if (&m->hdr->writes[k] == w->ret)
			break;
	it = k < m->hdr->n_write_chunks ? ck_result_for_chunk(m, k) : NULL;
	return it && (i + 1 == w->ret->count || !returned(w, i + 1)) &&
	       rr_chunk_length(w->rh, w->ret) == rr_xdr_roundup(it->length) &&
	       returned(w, i) - written(w, i) <= rr_xdr_pad(it->length);
}

/* A returned length larger than the bytes the Writes seen put into the segment. */
static bool unfilled(struct rr_checker *ck, const struct rr_fact *f, const struct wchunk *w,
		     enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	uint32_t i;

	for (i = 0; i < w->ret->count; i++) {
		uint32_t r = returned(w, i);

		/* A length beyond the offered one is RR-085's, wherever the Write went. */
		if (!r || r > offered(w, i) || r <= written(w, i) || legacy_roundup(m, w, i))
			continue;
		if (!written(w, i))
			report_reply(ck, f, rule,
				  "reply XID 0x%08x: %s segment %u returns length %u but no RDMA Write reached it",
				  m->xid, w->name, i, r);
		else
			report_reply(ck, f, rule,
				  "reply XID 0x%08x: %s segment %u returns length %u but the RDMA Writes seen put "
				  "only %" G_GUINT64_FORMAT " bytes into it", m->xid, w->name, i, r, written(w, i));
		return true;
	}
	return false;
}

void ck_rr087(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct wchunk w;
	uint32_t k;

	if (!is_reply_with_call(m) || !m->seg_bytes)
		return;
	/* A chunk no result used is RR-088/164/166's; this rule is about used ones. */
	for (k = 0; k < m->call_hdr->n_write_chunks; k++)
		if (used_write_chunk(m, k, &w) && unfilled(ck, f, &w, RR_087_UNFILLED_ZERO))
			return;
}

static uint64_t written_total(const struct wchunk *w)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < w->off->count; i++)
		n += written(w, i);
	return n;
}

/*
 * RFC 8166 §3.4.6.2: no XDR pad in a Write chunk.  The padded length
 * returned; or the exact length returned while the Writes seen also wrote
 * the pad.
 */
void ck_rr089(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;
	struct wchunk w;
	size_t i;

	if (!is_reply_with_call(m))
		return;
	for (i = 0; i < m->n_items; i++) {
		const struct rr_ddp_place *it = &m->items[i];
		uint64_t ret, wrote;
		uint32_t j;
		bool other = false;

		if (it->chunk < 0 || (uint32_t)it->chunk >= h->n_write_chunks || !rr_xdr_pad(it->length))
			continue;
		ret = rr_chunk_length(h, &h->writes[it->chunk]);
		for (j = 0; j < h->n_write_chunks; j++)
			other |= j != (uint32_t)it->chunk && rr_chunk_length(h, &h->writes[j]) == it->length;
		if (ret == rr_xdr_roundup(it->length) && !other) {
			report_reply(ck, f, RR_089_NO_WRITE_PAD,
				  "reply XID 0x%08x: Write chunk %d returns %" G_GUINT64_FORMAT
				  " bytes, the %u-byte result plus its XDR pad", m->xid, it->chunk, ret, it->length);
			return;
		}
		if (ret != it->length || !write_chunk(m, (uint32_t)it->chunk, &w) || !w.seen)
			continue;
		wrote = written_total(&w);
		if (wrote > it->length && wrote <= rr_xdr_roundup(it->length)) {
			report_reply(ck, f, RR_089_NO_WRITE_PAD,
				  "reply XID 0x%08x: Write chunk %d returns the %u-byte result, but the RDMA Writes "
				  "seen also wrote %" G_GUINT64_FORMAT " bytes of its XDR pad into it", m->xid,
				  it->chunk, it->length, wrote - it->length);
			return;
		}
	}
}

/* The Reply chunk as RFC 8166 §4.3.3 and §3.4.6 want it back: copied, and filled like a Write chunk. */
void ck_rr093(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h, *c;
	struct wchunk w;
	uint32_t i;

	if (!is_reply_with_call(m) || !m->call_hdr->has_reply)
		return;
	h = m->hdr;
	c = m->call_hdr;
	if (!h->has_reply) {
		report_reply(ck, f, RR_093_REPLY_CHUNK_RULES,
			  "reply XID 0x%08x leaves out the %u-segment Reply chunk (%" G_GUINT64_FORMAT
			  " bytes) its call offered; the responder copies it into the reply's header", m->xid,
			  c->reply.count, rr_chunk_length(c, &c->reply));
		return;
	}
	if (h->reply.count != c->reply.count) {
		report_reply(ck, f, RR_093_REPLY_CHUNK_RULES,
			  "reply XID 0x%08x returns its Reply chunk with %u segments; the call offered %u", m->xid,
			  h->reply.count, c->reply.count);
		return;
	}
	for (i = 0; i < h->reply.count; i++) {
		const struct rr_segment *r = rr_hdr_wseg(h, &h->reply, i), *o = rr_hdr_wseg(c, &c->reply, i);

		if (r->handle != o->handle || r->offset != o->offset || r->length > o->length) {
			report_reply(ck, f, RR_093_REPLY_CHUNK_RULES,
				  "reply XID 0x%08x: Reply chunk segment %u comes back as handle 0x%08x, %u bytes; "
				  "the call offered handle 0x%08x, %u bytes", m->xid, i, r->handle, r->length,
				  o->handle, o->length);
			return;
		}
	}
	if (!reply_chunk(m, &w) || !rr_chunk_length(h, &h->reply))
		return;   /* an unused Reply chunk may have been written into all the same */
	if (!fill_order_returned(ck, f, &w, RR_093_REPLY_CHUNK_RULES) &&
	    !fill_order_written(ck, f, &w, RR_093_REPLY_CHUNK_RULES) && m->seg_bytes &&
	    !unfilled(ck, f, &w, RR_093_REPLY_CHUNK_RULES))
		fill_start(ck, f, &w, 2, 0, RR_093_REPLY_CHUNK_RULES);
}

/*
 * RFC 8166 §3.5.3: the Reply chunk carries a Payload stream, XDR roundup
 * padding included, so what it returns is a multiple of 4 bytes.
 */
void ck_rr096(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	uint64_t len;

	if (m->dir != RR_DIR_REPLY || m->hdr->proc != RR_RDMA_NOMSG || !m->hdr->has_reply)
		return;
	len = rr_chunk_length(m->hdr, &m->hdr->reply);
	if (len % 4)
		ck_report(ck, f, RR_096_REPLY_CHUNK_PAD, m->send_frame,
			  "reply XID 0x%08x returns %" G_GUINT64_FORMAT " bytes in its Reply chunk, not a multiple "
			  "of 4: the Payload stream in it lacks %u bytes of XDR roundup padding", m->xid, len,
			  (unsigned)(4 - len % 4));
}
