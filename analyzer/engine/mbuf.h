/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mbuf.h - a message being rebuilt (mbuf.c, for rebuild.c and
 * rebuild_reply.c).  Every growth is checked against the engine's message
 * limit, and bytes that never arrived are made up as zeros only up to
 * RR_MAX_MADE_UP.
 */
#ifndef RPCRDMA_MBUF_H
#define RPCRDMA_MBUF_H

#include "engine_int.h"
#include "segstore.h"

/*
 * A message being rebuilt.  Lengths come from headers (segment lengths,
 * result length words) and may be absurd while the bytes never arrive, so
 * every growth is checked against the engine's message limit.
 */
struct mbuf {
	GByteArray *b;
	struct rr_scratch *scratch;   /* where b came from and goes back to */
	uint64_t room;        /* b surely has room for this many bytes without moving */
	uint64_t limit;
	uint64_t made_up;     /* zeros standing for bytes that never arrived */
	bool over;
	bool complete;
	bool holed;           /* bytes were made up: whole says where the first one is */
	uint64_t whole;       /* holed: bytes from the start before the first made-up one */
};

/*
 * Bytes that never arrived are zeros in the rebuilt message, so that what
 * follows keeps its place; but a header or a result length word can claim
 * far more than was ever sent, so only this much is made up per message.
 */
#define RR_MAX_MADE_UP ((uint64_t)1 << 20)

/* Its bytes are the engine's scratch (scratch.h): mb_free gives them back. */
void mb_init(struct mbuf *m, struct rr_engine *eng);
void mb_free(struct mbuf *m, struct rr_engine *eng);
/*
 * Room for n more bytes (as far as the limit allows) made at once, so that
 * a chunk of many segments appended one by one moves no bytes meanwhile.
 */
void mb_reserve(struct mbuf *m, uint64_t n);
/* Of the first n bytes of a segment (NULL: none), how many were placed: what mb_seg() copies of it. */
uint64_t mb_seg_have(const struct rr_seg *seg, uint64_t n);
/* Room for n more bytes; NULL (and the message cut) past the limit or for n == 0. */
uint8_t *mb_grow(struct mbuf *m, uint64_t n);
/* Its bytes so far; NULL while it has none (as a new byte array's). */
static inline const uint8_t *mb_data(const struct mbuf *m)
{
	return m->b->len ? m->b->data : NULL;
}
void mb_bytes(struct mbuf *m, const uint8_t *p, size_t n);
/*
 * Bytes from the start that are all what the capture held: its length
 * until a byte is made up (a segment's missing bytes, the part of a Send
 * the snaplen cut), the offset of the first one after.  A reader decodes
 * that far and no further: the zeros after it were never sent.
 */
static inline uint64_t mb_whole(const struct mbuf *m)
{
	return m->holed ? m->whole : m->b->len;
}
/* n bytes of base from off; base may be NULL when n is 0. */
void mb_slice(struct mbuf *m, const uint8_t *base, size_t off, size_t n);
/* The same, of a base whose first `captured` bytes are the capture's and the rest made up (a Send cut short). */
void mb_slice_cut(struct mbuf *m, const uint8_t *base, size_t off, size_t n, size_t captured);
void mb_zeros(struct mbuf *m, uint64_t n);
/* Account for n missing bytes; false (and the message is cut) past the cap. */
bool mb_may_make_up(struct mbuf *m, uint64_t n);
/* The first n bytes of a segment; missing ones are zero and make it incomplete. */
void mb_seg(struct mbuf *m, const struct rr_seg *seg, uint64_t n);
/* Tell (ENG-LIMIT) when the message had to be cut. */
void mb_done(struct mbuf *m, struct rr_engine *eng, uint32_t xid, uint64_t frame);

#endif
