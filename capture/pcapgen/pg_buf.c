// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pg_bug(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("rpcrdma-pcapgen: internal error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void pg_rng_fill(pg_rng *r, uint8_t *buf, size_t n)
{
	while (n >= 8) {
		uint64_t v = pg_rng_next(r);
		memcpy(buf, &v, 8);
		buf += 8;
		n -= 8;
	}
	if (n) {
		uint64_t v = pg_rng_next(r);
		memcpy(buf, &v, n);
	}
}

void pb_u8(GByteArray *b, uint8_t v)
{
	g_byte_array_append(b, &v, 1);
}

void pb_be16(GByteArray *b, uint16_t v)
{
	uint8_t t[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	g_byte_array_append(b, t, 2);
}

void pb_be24(GByteArray *b, uint32_t v)
{
	uint8_t t[3] = { (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	g_byte_array_append(b, t, 3);
}

void pb_be32(GByteArray *b, uint32_t v)
{
	uint8_t t[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	g_byte_array_append(b, t, 4);
}

void pb_be64(GByteArray *b, uint64_t v)
{
	pb_be32(b, (uint32_t)(v >> 32));
	pb_be32(b, (uint32_t)v);
}

void pb_le32(GByteArray *b, uint32_t v)
{
	uint8_t t[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	g_byte_array_append(b, t, 4);
}

void pb_bytes(GByteArray *b, const void *p, size_t n)
{
	if (n)
		g_byte_array_append(b, p, (guint)n);
}

void pb_fill(GByteArray *b, uint8_t v, size_t n)
{
	size_t old = b->len;
	g_byte_array_set_size(b, (guint)(old + n));
	memset(b->data + old, v, n);
}

void pb_zero(GByteArray *b, size_t n)
{
	pb_fill(b, 0, n);
}

void pb_pad4(GByteArray *b)
{
	pb_zero(b, (4 - (b->len & 3)) & 3);
}

size_t pb_xdr_opaque(GByteArray *b, const void *p, uint32_t n)
{
	size_t at;
	pb_be32(b, n);
	at = b->len;
	pb_bytes(b, p, n);
	pb_pad4(b);
	return at;
}

void pb_xdr_string(GByteArray *b, const char *s)
{
	pb_xdr_opaque(b, s, (uint32_t)strlen(s));
}

void pb_xdr_bool(GByteArray *b, bool v)
{
	pb_be32(b, v ? 1 : 0);
}

void pb_put_be16(GByteArray *b, size_t off, uint16_t v)
{
	if (off + 2 > b->len)
		pg_bug("pb_put_be16 out of range");
	b->data[off] = (uint8_t)(v >> 8);
	b->data[off + 1] = (uint8_t)v;
}

void pb_put_be32(GByteArray *b, size_t off, uint32_t v)
{
	if (off + 4 > b->len)
		pg_bug("pb_put_be32 out of range");
	b->data[off] = (uint8_t)(v >> 24);
	b->data[off + 1] = (uint8_t)(v >> 16);
	b->data[off + 2] = (uint8_t)(v >> 8);
	b->data[off + 3] = (uint8_t)v;
}

uint32_t pb_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint16_t pb_get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}
