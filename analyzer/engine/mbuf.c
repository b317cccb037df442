// SPDX-License-Identifier: GPL-2.0-or-later
/* A message being rebuilt: bounded growth, bytes made up for what never arrived. */
#include <string.h>

#include "mbuf.h"

/* Growth to this size or more may move the message to an array of its own (make_room). */
#define MB_FRESH_AT ((uint64_t)64 << 10)

void mb_init(struct mbuf *m, struct rr_engine *eng)
{
	m->scratch = &eng->scratch;
	m->b = rr_scratch_take_bytes(m->scratch);
	m->room = 0;
	m->limit = eng->lim.max_message_bytes;
	m->made_up = 0;
	m->over = false;
	m->complete = true;
	m->holed = false;
	m->whole = 0;
}

/* What is appended next, at the current end, was never captured. */
static void mb_hole_at(struct mbuf *m, uint64_t at)
{
	if (!m->holed) {
		m->holed = true;
		m->whole = at;
	}
}

/*
 * Make b hold at least want bytes without moving again.  A message about
 * to grow far past the bytes it holds (a chunk of data after a short
 * inline part) moves to an array of its own size: growing the scratch
 * array in place would copy all of that array's old room, used or not.
 */
static void make_room(struct mbuf *m, uint64_t want)
{
	guint at = m->b->len;

	if (want <= m->room)
		return;
	if (want >= MB_FRESH_AT && at < want / 8) {
		GByteArray *fresh = g_byte_array_sized_new((guint)want);

		g_byte_array_append(fresh, m->b->data, at);
		rr_scratch_give_bytes(m->scratch, m->b);
		m->b = fresh;
	} else {
		g_byte_array_set_size(m->b, (guint)want);
		m->b->len = at;   /* as scratch.c empties them: these arrays are neither cleared nor terminated */
	}
	m->room = want;
}

uint8_t *mb_grow(struct mbuf *m, uint64_t n)
{
	guint at = m->b->len;

	if (m->over || n > m->limit - at) {
		m->over = true;
		m->complete = false;
		return NULL;
	}
	if (n == 0)
		return NULL;    /* nothing to write; data may still be NULL */
	make_room(m, at + n);
	g_byte_array_set_size(m->b, (guint)(at + n));
	return m->b->data + at;
}

void mb_reserve(struct mbuf *m, uint64_t n)
{
	if (!m->over && n)
		make_room(m, m->b->len + MIN(n, m->limit - m->b->len));
}

uint64_t mb_seg_have(const struct rr_seg *seg, uint64_t n)
{
	return seg ? MIN(rr_seg_covered(seg), MIN(n, (uint64_t)seg->s.length)) : 0;
}

void mb_bytes(struct mbuf *m, const uint8_t *p, size_t n)
{
	uint8_t *d = mb_grow(m, n);

	if (d && n)
		memcpy(d, p, n);
}

/* n bytes of base from off; base may be NULL when n is 0. */
void mb_slice(struct mbuf *m, const uint8_t *base, size_t off, size_t n)
{
	if (n)
		mb_bytes(m, base + off, n);
}

void mb_slice_cut(struct mbuf *m, const uint8_t *base, size_t off, size_t n, size_t captured)
{
	if (n && off + n > captured)
		mb_hole_at(m, m->b->len + (captured > off ? captured - off : 0));
	mb_slice(m, base, off, n);
}

void mb_zeros(struct mbuf *m, uint64_t n)
{
	uint8_t *d = mb_grow(m, n);

	if (d)
		memset(d, 0, n);
}

/* Account for n missing bytes; false (and the message is cut) past the cap. */
bool mb_may_make_up(struct mbuf *m, uint64_t n)
{
	if (n > RR_MAX_MADE_UP - m->made_up) {
		m->over = true;
		m->complete = false;
		return false;
	}
	m->made_up += n;
	if (n) {
		m->complete = false;
		mb_hole_at(m, m->b->len);   /* every caller makes them up at the end, right after */
	}
	return true;
}

/* The first n bytes of a segment; missing ones are zero and make it incomplete. */
void mb_seg(struct mbuf *m, const struct rr_seg *seg, uint64_t n)
{
	uint8_t *d;

	n = MIN(n, seg ? seg->s.length : 0);
	if (!seg) {
		m->complete = false;
		mb_hole_at(m, m->b->len);
		return;
	}
	/* Where in the segment the first missing byte is, is not kept: the hole starts with the segment. */
	if (rr_seg_covered(seg) < n && !mb_may_make_up(m, n - rr_seg_covered(seg)))
		return;
	d = mb_grow(m, n);
	if (d && !rr_seg_read(seg, 0, d, n)) {
		m->complete = false;
		mb_hole_at(m, (uint64_t)(d - m->b->data));
	}
}

void mb_free(struct mbuf *m, struct rr_engine *eng)
{
	rr_scratch_give_bytes(&eng->scratch, m->b);
	m->b = NULL;
}

void mb_done(struct mbuf *m, struct rr_engine *eng, uint32_t xid, uint64_t frame)
{
	if (m->over)
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "XID 0x%08x: rebuilding would pass the %" G_GUINT64_FORMAT
			       "-byte message limit or make up more than %" G_GUINT64_FORMAT
			       " bytes that never arrived; the message is cut there",
			       xid, m->limit, (uint64_t)RR_MAX_MADE_UP);
}
