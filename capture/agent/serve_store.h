/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * serve_store.h - what WRITE put into serve's files: the bytes, per file
 * handle and offset, in memory.  A READ overlays them on the file's
 * synthetic data, so that it returns exactly what was written where
 * something was, and the synthetic bytes elsewhere.
 *
 * Each file keeps disjoint extents (overlapping and touching writes are
 * merged, the later bytes winning).  The store is bounded: the bytes all
 * extents of all files hold never exceed the limit given at creation; a
 * write that would pass it is refused whole (serve answers NOSPC) and
 * changes nothing.
 */
#ifndef AGENT_SERVE_STORE_H
#define AGENT_SERVE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_DEFAULT_LIMIT (64ull << 20)   /* serve's: 64 MiB of written data */
#define SS_MAX_FH 128u                   /* NFSv4 handles are at most 128 bytes (RFC 8881 4.2.1) */

struct ss_store;

struct ss_store *ss_new(uint64_t limit);
void ss_free(struct ss_store *s);

/* Store len bytes at off in the file fh; false (nothing stored) past the limit or for a bad fh. */
bool ss_write(struct ss_store *s, const uint8_t *fh, uint32_t fhlen, uint64_t off,
	      const uint8_t *data, uint32_t len);
/* Copy the written bytes of [off, off+len) into buf at their places; returns how many there were. */
uint64_t ss_read(const struct ss_store *s, const uint8_t *fh, uint32_t fhlen, uint64_t off,
		 uint8_t *buf, uint32_t len);
/* The end of the file's last written byte (0: nothing written). */
uint64_t ss_end(const struct ss_store *s, const uint8_t *fh, uint32_t fhlen);
/* Bytes held, over all files. */
uint64_t ss_used(const struct ss_store *s);

#endif
