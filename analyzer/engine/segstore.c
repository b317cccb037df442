// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Segments advertised by calls, and the RDMA bytes placed in them.
 *
 * Segments live with the flow of the call that advertised them: that flow's
 * sender owns the memory, so every RDMA Write into it and every Read
 * Response out of it is matched there by (R_Key, address range).  A
 * placement may cover part of a segment or run across several segments
 * with the same R_Key; when an R_Key was advertised again by a newer call
 * (keys are reused), the newer segment wins.
 */
#include <stddef.h>
#include <string.h>

#include "budget.h"
#include "conn.h"
#include "frames.h"
#include "segstore.h"

/*
 * Room for a segment's bytes comes in blocks that never move: each growth
 * adds a block, so the bytes already placed are not copied again (a
 * segment of 1 MB would otherwise be copied once more as it grows).  Growth
 * is geometric from 64 KiB up to a 32-bit length: 18 blocks at most; past
 * SEG_BLOCKS they would be merged into one.
 */
#define SEG_BLOCKS 24

/* A segment: the public part its users see, and what the store keeps of it. */
struct seg {
	struct rr_seg pub;
	struct rr_flow *owner;    /* whose table it is in */
	uint8_t *blk[SEG_BLOCKS]; /* block k holds bytes [blk_at[k], blk_at[k + 1] or buf_len) */
	uint64_t blk_at[SEG_BLOCKS];
	unsigned n_blk;           /* 0: no room yet */
	uint64_t buf_len;         /* room in all blocks: grows with the highest byte placed, up to s.length */
	GArray *cover;            /* struct rr_range, sorted, merged */
	uint64_t covered;
	GArray *frames;           /* uint64_t, unique */
	bool refused;             /* over a limit: not buffered */
	bool cut;                 /* bytes aimed at it were cut by the snaplen */
	uint64_t requested;       /* read segments: bytes RDMA Read Requests asked for */
};

/* A flow's live segments (rr_flow.segs). */
struct rr_seg_table {
	GHashTable *by_handle;    /* handle -> GPtrArray of struct seg*, oldest first */
};

/* Removed segments kept, with their arrays, for the next calls' (each call adds one or more). */
#define SEG_SPARES 64

struct rr_segstore {
	GPtrArray *ready;         /* struct rr_call*, not owned: read segments grew */
	struct seg *spares[SEG_SPARES];
	unsigned n_spares;
};

static struct seg *priv(const struct rr_seg *p)
{
	return (struct seg *)((char *)p - offsetof(struct seg, pub));
}

static GPtrArray *segs_with(const struct rr_flow *f, uint32_t handle)
{
	return f && f->segs ? g_hash_table_lookup(f->segs->by_handle, GUINT_TO_POINTER(handle)) : NULL;
}

struct rr_segstore *rr_segstore_new(void)
{
	struct rr_segstore *st = g_new0(struct rr_segstore, 1);

	st->ready = g_ptr_array_new();
	return st;
}

static void seg_free(struct seg *seg)
{
	g_array_unref(seg->cover);
	g_array_unref(seg->frames);
	g_free(seg);
}

void rr_segstore_free(struct rr_segstore *st)
{
	while (st->n_spares)
		seg_free(st->spares[--st->n_spares]);
	g_ptr_array_unref(st->ready);
	g_free(st);
}

/* A zeroed segment with empty arrays: a spare one if the store has any. */
static struct seg *seg_alloc(struct rr_segstore *st)
{
	struct seg *seg;
	GArray *cover, *frames;

	if (!st->n_spares) {
		seg = g_new0(struct seg, 1);
		seg->cover = g_array_new(FALSE, FALSE, sizeof(struct rr_range));
		seg->frames = g_array_new(FALSE, FALSE, sizeof(uint64_t));
		return seg;
	}
	seg = st->spares[--st->n_spares];
	cover = seg->cover;
	frames = seg->frames;
	memset(seg, 0, sizeof(*seg));
	g_array_set_size(cover, 0);
	g_array_set_size(frames, 0);
	seg->cover = cover;
	seg->frames = frames;
	return seg;
}

void rr_segstore_flow_free(struct rr_flow *f)
{
	if (!f->segs)
		return;
	g_hash_table_destroy(f->segs->by_handle);
	g_free(f->segs);
	f->segs = NULL;
}


struct rr_seg *rr_seg_add(struct rr_engine *eng, struct rr_flow *owner, const struct rr_seg *what)
{
	struct seg *seg = seg_alloc(eng->segstore);
	GPtrArray *list;

	seg->pub = *what;
	seg->owner = owner;
	if (!owner->segs) {
		owner->segs = g_new0(struct rr_seg_table, 1);
		owner->segs->by_handle = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
							       (GDestroyNotify)g_ptr_array_unref);
	}
	list = segs_with(owner, what->s.handle);
	if (!list) {
		list = g_ptr_array_new();
		g_hash_table_insert(owner->segs->by_handle, GUINT_TO_POINTER(what->s.handle), list);
	}
	g_ptr_array_add(list, seg);
	return &seg->pub;
}

void rr_seg_remove(struct rr_engine *eng, struct rr_seg *p)
{
	struct seg *seg = priv(p);
	GPtrArray *list = segs_with(seg->owner, p->s.handle);

	if (list) {
		g_ptr_array_remove(list, seg);
		if (list->len == 0)
			g_hash_table_remove(seg->owner->segs->by_handle, GUINT_TO_POINTER(p->s.handle));
	}
	if (seg->n_blk) {
		rr_budget_give(eng, seg->buf_len);
		while (seg->n_blk)
			g_free(seg->blk[--seg->n_blk]);
	}
	if (eng->segstore->n_spares < SEG_SPARES)
		eng->segstore->spares[eng->segstore->n_spares++] = seg;
	else
		seg_free(seg);
}

bool rr_flow_has_rkey(struct rr_flow *f, void *rkey_ptr)
{
	return f->segs && g_hash_table_contains(f->segs->by_handle, rkey_ptr);
}

static void cover_add(struct seg *seg, uint64_t start, uint64_t end)
{
	GArray *c = seg->cover;
	guint i = 0, j;
	uint64_t total = 0;

	while (i < c->len && g_array_index(c, struct rr_range, i).end < start)
		i++;
	j = i;
	while (j < c->len && g_array_index(c, struct rr_range, j).start <= end) {
		struct rr_range *r = &g_array_index(c, struct rr_range, j);

		start = MIN(start, r->start);
		end = MAX(end, r->end);
		j++;
	}
	/* Most placements extend one range: it grows in place. */
	if (j > i) {
		g_array_index(c, struct rr_range, i) = (struct rr_range){ start, end };
		if (j > i + 1)
			g_array_remove_range(c, i + 1, j - i - 1);
	} else {
		g_array_insert_val(c, i, ((struct rr_range){ start, end }));
	}
	for (i = 0; i < c->len; i++)
		total += g_array_index(c, struct rr_range, i).end -
			 g_array_index(c, struct rr_range, i).start;
	seg->covered = total;
}

uint64_t rr_seg_covered(const struct rr_seg *seg)
{
	return priv(seg)->covered;
}

bool rr_seg_complete(const struct rr_seg *seg)
{
	return priv(seg)->covered >= seg->s.length;
}

uint64_t rr_seg_requested(const struct rr_seg *seg)
{
	return priv(seg)->requested;
}

bool rr_seg_cut(const struct rr_seg *seg)
{
	return priv(seg)->cut;
}

struct rr_seg_frames rr_seg_frames_of(const struct rr_seg *p)
{
	const struct seg *seg = priv(p);
	struct rr_seg_frames sf = { (const uint64_t *)(void *)seg->frames->data, seg->frames->len };

	return sf;
}

/* The block holding byte off (< buf_len), and where it ends. */
static unsigned blk_of(const struct seg *seg, uint64_t off, uint64_t *blk_end)
{
	unsigned k = seg->n_blk - 1;

	while (k > 0 && seg->blk_at[k] > off)
		k--;
	*blk_end = k + 1 < seg->n_blk ? seg->blk_at[k + 1] : seg->buf_len;
	return k;
}

/* Copy n bytes at off (all below buf_len) out of the blocks. */
static void blk_read(const struct seg *seg, uint64_t off, uint8_t *dst, uint64_t n)
{
	while (n) {
		uint64_t blk_end;
		unsigned k = blk_of(seg, off, &blk_end);
		uint64_t run = MIN(n, blk_end - off);

		memcpy(dst, seg->blk[k] + (off - seg->blk_at[k]), run);
		dst += run;
		off += run;
		n -= run;
	}
}

/* Copy n bytes into the blocks at off (all below buf_len). */
static void blk_write(struct seg *seg, uint64_t off, const uint8_t *src, uint64_t n)
{
	while (n) {
		uint64_t blk_end;
		unsigned k = blk_of(seg, off, &blk_end);
		uint64_t run = MIN(n, blk_end - off);

		memcpy(seg->blk[k] + (off - seg->blk_at[k]), src, run);
		src += run;
		off += run;
		n -= run;
	}
}

bool rr_seg_read(const struct rr_seg *p, uint64_t off, uint8_t *dst, uint64_t n)
{
	const struct seg *seg = priv(p);
	bool all = true;
	uint64_t end = off + n, pos = off;
	guint i;

	if (off > p->s.length || n > p->s.length - off) {
		memset(dst, 0, n);
		return false;
	}
	if (!seg->n_blk) {
		memset(dst, 0, n);
		return n == 0;
	}
	/* Coverage never reaches past buf_len: bytes beyond were never placed. */
	for (i = 0; i < seg->cover->len && pos < end; i++) {
		const struct rr_range *r = &g_array_index(seg->cover, struct rr_range, i);
		uint64_t a = MAX(pos, r->start), b = MIN(end, r->end);

		if (b <= a)
			continue;
		if (a > pos) {
			memset(dst + (pos - off), 0, a - pos);
			all = false;
		}
		blk_read(seg, a, dst + (a - off), b - a);
		pos = b;
	}
	if (pos < end) {
		memset(dst + (pos - off), 0, end - pos);
		all = false;
	}
	return all;
}

/* Room for bytes up to end; grows geometrically, never past the segment. */
static bool seg_buffer(struct rr_engine *eng, struct seg *seg, uint64_t end, uint64_t frame)
{
	uint64_t want;

	if (end <= seg->buf_len)
		return true;
	if (seg->refused)
		return false;
	if (end > eng->lim.max_segment_bytes) {
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "segment R_Key 0x%08x of XID 0x%08x receives bytes past the %u-byte segment limit: not rebuilt",
			       seg->pub.s.handle, seg->pub.xid, eng->lim.max_segment_bytes);
		seg->refused = true;
		return false;
	}
	want = MAX(end, MIN((uint64_t)seg->pub.s.length, MAX(seg->buf_len * 2, (uint64_t)65536)));
	if (!rr_budget_take(eng, want - seg->buf_len, frame, "a chunk segment")) {
		seg->refused = true;
		return false;
	}
	if (seg->n_blk == SEG_BLOCKS) {
		/* Never with geometric growth; kept correct all the same: one block of all. */
		uint8_t *all = g_malloc(want);

		blk_read(seg, 0, all, seg->buf_len);
		while (seg->n_blk)
			g_free(seg->blk[--seg->n_blk]);
		seg->blk[0] = all;
		seg->blk_at[0] = 0;
		seg->n_blk = 1;
	} else {
		seg->blk[seg->n_blk] = g_malloc(want - seg->buf_len);
		seg->blk_at[seg->n_blk++] = seg->buf_len;
	}
	seg->buf_len = want;
	return true;
}

/* The newest segment with this key that holds va, else the newest that starts in (va, end). */
static struct seg *seg_at(GPtrArray *list, uint64_t va, uint64_t end, uint64_t *next_start)
{
	struct seg *later = NULL;
	guint i;

	for (i = list->len; i > 0; i--) {
		struct seg *seg = g_ptr_array_index(list, i - 1);
		uint64_t a = seg->pub.s.offset, b = a + seg->pub.s.length;

		if (va >= a && va < b)
			return seg;
		if (a > va && a < end && (!later || a < later->pub.s.offset))
			later = seg;
	}
	*next_start = later ? later->pub.s.offset : end;
	return NULL;
}

enum rr_chunk_role rr_seg_chunk_role(enum rr_seg_role r)
{
	return r == RR_SEG_READ ? RR_ROLE_READ : r == RR_SEG_WRITE ? RR_ROLE_WRITE : RR_ROLE_REPLY;
}

/* What one placement put in one segment, for a reporter that labels frames. */
static void report_piece(struct rr_engine *eng, struct rr_flow *owner, const struct seg *seg, uint32_t rkey,
			 const struct rr_event *ev, uint64_t seg_off, uint64_t len)
{
	struct rr_rdma_report r = {
		.frame = ev->frame,
		.more_frames = ev->more_frames,
		.n_more_frames = ev->n_more_frames,
		.op = ev->kind == RR_EV_READ_RESP ? RR_CARRY_READ_RESP : RR_CARRY_WRITE,
		.conn_id = rr_conn_id(eng, owner->conn),
		.handle = rkey,
		.hit = true,
		.xid = seg->pub.xid,
		.role = rr_seg_chunk_role(seg->pub.role),
		.chunk = seg->pub.chunk,
		.seg = seg->pub.index,
		.seg_length = seg->pub.s.length,
		.seg_offset = seg_off,
		.len = len,
	};

	if (eng->rdma_fn && owner->conn->carried_rpcrdma)
		eng->rdma_fn(eng->rdma_ctx, &r);
}

uint64_t rr_seg_place(struct rr_engine *eng, struct rr_flow *owner, uint32_t rkey, uint64_t va,
		      const struct rr_event *ev)
{
	const uint8_t *data = ev->data;
	uint32_t caplen = ev->caplen, wirelen = ev->wirelen;
	uint64_t frame = ev->frame;
	GPtrArray *list = segs_with(owner, rkey);
	GPtrArray *ready = eng->segstore->ready;
	uint64_t end = va + wirelen, landed = 0, pos = va;

	if (!list || end < va)
		return 0;
	while (pos < end) {
		uint64_t next = end, stop, seg_off, cap_end;
		struct seg *seg = seg_at(list, pos, end, &next);

		if (!seg) {
			pos = next;
			continue;
		}
		stop = MIN(end, seg->pub.s.offset + seg->pub.s.length);
		seg_off = pos - seg->pub.s.offset;
		landed += stop - pos;
		rr_frames_add_event(seg->frames, ev);
		report_piece(eng, owner, seg, rkey, ev, seg_off, stop - pos);
		/* Only the captured part of the packet carries bytes. */
		cap_end = MIN(stop, va + caplen);
		if (cap_end < stop)
			seg->cut = true;
		if (cap_end > pos && seg_buffer(eng, seg, seg_off + (cap_end - pos), frame)) {
			blk_write(seg, seg_off, data + (pos - va), cap_end - pos);
			cover_add(seg, seg_off, seg_off + (cap_end - pos));
		}
		/* The engine, not the store, decides whether the call is now whole. */
		if (seg->pub.role == RR_SEG_READ && !g_ptr_array_find(ready, seg->pub.call, NULL))
			g_ptr_array_add(ready, seg->pub.call);
		pos = stop;
	}
	return landed;
}

/*
 * A responder may cover several contiguous segments with one operation, so
 * "inside" means inside the union of the live segments with that handle,
 * walked from va upwards.
 */
void rr_seg_lookup(struct rr_flow *owner, uint32_t rkey, uint64_t va, uint64_t len, bool is_read_req,
		   struct rr_seg_hit *hit)
{
	GPtrArray *list = segs_with(owner, rkey);
	uint64_t end = va + len, pos = va;
	guint i;

	memset(hit, 0, sizeof(*hit));
	if (!list || !list->len || end < va)
		return;
	hit->handle_live = true;
	while (pos < end || (len == 0 && !hit->seg)) {
		struct seg *in = NULL;

		for (i = list->len; i > 0 && !in; i--) {
			struct seg *seg = g_ptr_array_index(list, i - 1);

			if (pos >= seg->pub.s.offset && pos < seg->pub.s.offset + seg->pub.s.length)
				in = seg;
		}
		if (!in)
			break;
		if (!hit->seg)
			hit->seg = &in->pub;
		if (is_read_req)
			in->requested += MIN(end, in->pub.s.offset + in->pub.s.length) - pos;
		pos = in->pub.s.offset + in->pub.s.length;
		if (len == 0)
			break;
	}
	hit->inside = hit->seg && pos >= end;
	if (!hit->seg)
		hit->seg = &((struct seg *)g_ptr_array_index(list, list->len - 1))->pub;
}

struct rr_call *rr_segstore_take_ready(struct rr_engine *eng)
{
	GPtrArray *ready = eng->segstore->ready;

	return ready->len ? g_ptr_array_steal_index_fast(ready, ready->len - 1) : NULL;
}

void rr_segstore_unready(struct rr_engine *eng, struct rr_call *call)
{
	g_ptr_array_remove_fast(eng->segstore->ready, call);
}
