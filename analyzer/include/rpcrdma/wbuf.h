/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wbuf.h - a growable big-endian writer, the encoding twin of cursor.h.
 *
 * Writes never fail for lack of room (the buffer grows), but a buffer may be
 * given a cap; a write past the cap fails and latches err, so an encoder of
 * hostile sizes cannot allocate without bound.
 */
#ifndef RPCRDMA_WBUF_H
#define RPCRDMA_WBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rr_wbuf {
	uint8_t *data;
	size_t len;
	size_t cap;       /* allocated */
	size_t limit;     /* 0 = RR_WBUF_DEFAULT_LIMIT */
	bool err;
};

#define RR_WBUF_DEFAULT_LIMIT ((size_t)256 << 20)

void rr_wbuf_init(struct rr_wbuf *w, size_t limit);
void rr_wbuf_free(struct rr_wbuf *w);
/* Hand the bytes to the caller (who frees them with g_free). */
uint8_t *rr_wbuf_steal(struct rr_wbuf *w, size_t *len);
void rr_wbuf_reset(struct rr_wbuf *w);

bool rr_put_u8(struct rr_wbuf *w, uint8_t v);
bool rr_put_be16(struct rr_wbuf *w, uint16_t v);
bool rr_put_be24(struct rr_wbuf *w, uint32_t v);
bool rr_put_be32(struct rr_wbuf *w, uint32_t v);
bool rr_put_be64(struct rr_wbuf *w, uint64_t v);
bool rr_put_le16(struct rr_wbuf *w, uint16_t v);
bool rr_put_le32(struct rr_wbuf *w, uint32_t v);
bool rr_put_bytes(struct rr_wbuf *w, const void *p, size_t n);
bool rr_put_zeros(struct rr_wbuf *w, size_t n);
/* Overwrite already written bytes (e.g. a length filled in later). */
bool rr_wbuf_patch_be32(struct rr_wbuf *w, size_t at, uint32_t v);

/* XDR */
bool rr_xdr_put_opaque(struct rr_wbuf *w, const void *p, uint32_t n);   /* len + bytes + pad */
bool rr_xdr_put_fixed(struct rr_wbuf *w, const void *p, size_t n);      /* bytes + pad */

#endif
