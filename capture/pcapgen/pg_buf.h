/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Big-endian / XDR writer on top of GByteArray. */
#ifndef PG_BUF_H
#define PG_BUF_H

#include "pg_common.h"

void pb_u8(GByteArray *b, uint8_t v);
void pb_be16(GByteArray *b, uint16_t v);
void pb_be24(GByteArray *b, uint32_t v);
void pb_be32(GByteArray *b, uint32_t v);
void pb_be64(GByteArray *b, uint64_t v);
void pb_le32(GByteArray *b, uint32_t v);
void pb_bytes(GByteArray *b, const void *p, size_t n);
void pb_zero(GByteArray *b, size_t n);
void pb_fill(GByteArray *b, uint8_t v, size_t n);
/* XDR variable-length opaque: length word, bytes, zero pad to 4. Returns
 * the offset of the first data byte (where a chunk would start). */
size_t pb_xdr_opaque(GByteArray *b, const void *p, uint32_t n);
void pb_xdr_string(GByteArray *b, const char *s);
void pb_xdr_bool(GByteArray *b, bool v);
void pb_pad4(GByteArray *b);

void pb_put_be16(GByteArray *b, size_t off, uint16_t v);
void pb_put_be32(GByteArray *b, size_t off, uint32_t v);
uint32_t pb_get_be32(const uint8_t *p);
uint16_t pb_get_be16(const uint8_t *p);

#endif
