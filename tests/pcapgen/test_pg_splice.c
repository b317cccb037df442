// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pg_splice.c - pg_splice_call(), a call's Payload from its inline
 * part and read chunks.  Every expected stream is written out byte by
 * byte from the rules: a chunk goes in at its Position and is followed by
 * the XDR roundup of its own length (RFC 4506 §4.10, RFC 8166 §3.4.5.2),
 * whatever the stream's length before it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pg_splice.h"

static void assert_stream(const GByteArray *out, const uint8_t *want, size_t n)
{
	assert_int_equal(out->len, n);
	assert_memory_equal(out->data, want, n);
}

/* The inline part with these chunks spliced in, into out, is exactly want. */
static void assert_spliced(GByteArray *out, const uint8_t *inl, size_t inl_len, const pg_splice_chunk *chunks,
			   unsigned n, const uint8_t *want, size_t want_len)
{
	char err[128];

	assert_true(pg_splice_call(inl, inl_len, chunks, n, out, err, sizeof(err)));
	assert_stream(out, want, want_len);
}

/* One chunk of 5 bytes: 3 zeros of roundup, then the inline part goes on. */
static void one_chunk_not_multiple_of_4(void **state)
{
	/* a word, the opaque's length word (5); the data item is in the chunk; then the next word */
	static const uint8_t inl[] = { 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x05,
				       0xca, 0xfe, 0xba, 0xbe };
	static const uint8_t data[] = { 'h', 'e', 'l', 'l', 'o' };
	static const uint8_t want[] = { 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x05,
					'h', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00,
					0xca, 0xfe, 0xba, 0xbe };
	pg_splice_chunk c = { 8, data, sizeof(data) };
	GByteArray *out = g_byte_array_new();

	(void)state;
	assert_spliced(out, inl, sizeof(inl), &c, 1, want, sizeof(want));
	g_byte_array_free(out, TRUE);
}

/*
 * Two chunks (6 and 3 bytes): the second Position counts the first
 * chunk and its 2 zeros.  Stream: 0 len(6), 4 chunk A, 10 pad, 12 len(3),
 * 16 chunk B, 19 pad, 20 the last inline word.
 */
static void two_chunks(void **state)
{
	static const uint8_t inl[] = { 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x03,
				       0xde, 0xad, 0xbe, 0xef };
	static const uint8_t a[] = { 'a', 'b', 'c', 'd', 'e', 'f' }, b[] = { 'x', 'y', 'z' };
	static const uint8_t want[] = { 0x00, 0x00, 0x00, 0x06, 'a', 'b', 'c', 'd',
					'e', 'f', 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
					'x', 'y', 'z', 0x00, 0xde, 0xad, 0xbe, 0xef };
	pg_splice_chunk c[] = { { 4, a, sizeof(a) }, { 16, b, sizeof(b) } };
	GByteArray *out = g_byte_array_new();

	(void)state;
	assert_spliced(out, inl, sizeof(inl), c, 2, want, sizeof(want));
	g_byte_array_free(out, TRUE);
}

/* A chunk whose length is a multiple of 4 takes no roundup. */
static void chunk_multiple_of_4(void **state)
{
	static const uint8_t inl[] = { 0x00, 0x00, 0x00, 0x08, 0x11, 0x22, 0x33, 0x44 };
	static const uint8_t data[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t want[] = { 0x00, 0x00, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 7, 8,
					0x11, 0x22, 0x33, 0x44 };
	pg_splice_chunk c = { 4, data, sizeof(data) };
	GByteArray *out = g_byte_array_new();

	(void)state;
	assert_spliced(out, inl, sizeof(inl), &c, 1, want, sizeof(want));
	g_byte_array_free(out, TRUE);
}

/*
 * A Position that is not a multiple of 4 (a requester's fault, still
 * rebuilt): the roundup follows the chunk's length, not the stream's.  A
 * 4-byte chunk at 6 takes none (a stream rule would add 2 zeros); a
 * 3-byte one takes 1 (a stream rule would add 3).
 */
static void unaligned_position(void **state)
{
	static const uint8_t inl[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t four[] = { 'W', 'X', 'Y', 'Z' }, three[] = { 'a', 'b', 'c' };
	static const uint8_t want4[] = { 1, 2, 3, 4, 5, 6, 'W', 'X', 'Y', 'Z', 7, 8 };
	static const uint8_t want3[] = { 1, 2, 3, 4, 5, 6, 'a', 'b', 'c', 0x00, 7, 8 };
	pg_splice_chunk c4 = { 6, four, sizeof(four) }, c3 = { 6, three, sizeof(three) };
	GByteArray *out = g_byte_array_new();

	(void)state;
	assert_spliced(out, inl, sizeof(inl), &c4, 1, want4, sizeof(want4));
	assert_spliced(out, inl, sizeof(inl), &c3, 1, want3, sizeof(want3));
	g_byte_array_free(out, TRUE);
}

/* A chunk at the very end of the inline part, and an empty chunk (nothing, no roundup). */
static void chunk_at_end_and_empty_chunk(void **state)
{
	static const uint8_t inl[] = { 0x00, 0x00, 0x00, 0x01 };
	static const uint8_t z[] = { 'Z' };
	static const uint8_t want_end[] = { 0x00, 0x00, 0x00, 0x01, 'Z', 0x00, 0x00, 0x00 };
	pg_splice_chunk end = { 4, z, sizeof(z) }, empty = { 4, NULL, 0 };
	GByteArray *out = g_byte_array_new();

	(void)state;
	assert_spliced(out, inl, sizeof(inl), &end, 1, want_end, sizeof(want_end));
	assert_spliced(out, inl, sizeof(inl), &empty, 1, inl, sizeof(inl));
	g_byte_array_free(out, TRUE);
}

/* No chunk: the inline part as it is, and out is replaced, not appended to. */
static void no_chunk(void **state)
{
	static const uint8_t inl[] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0 };
	GByteArray *out = g_byte_array_new();

	(void)state;
	g_byte_array_append(out, (const guint8 *)"stale", 5);
	assert_spliced(out, inl, sizeof(inl), NULL, 0, inl, sizeof(inl));
	g_byte_array_free(out, TRUE);
}

/* Positions that cannot be: inside data already placed, or past the inline part. */
static void bad_positions(void **state)
{
	static const uint8_t inl[] = { 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02 };
	static const uint8_t d[] = { 'h', 'i' };
	/* the first chunk and its roundup fill 4..8: a second at 6 would overlap it */
	pg_splice_chunk overlap[] = { { 4, d, sizeof(d) }, { 6, d, sizeof(d) } };
	pg_splice_chunk beyond = { 12, d, sizeof(d) };
	GByteArray *out = g_byte_array_new();
	char err[128];

	(void)state;
	assert_false(pg_splice_call(inl, sizeof(inl), overlap, 2, out, err, sizeof(err)));
	assert_string_equal(err, "read chunk 1: Position 6 falls inside earlier data");
	assert_false(pg_splice_call(inl, sizeof(inl), &beyond, 1, out, err, sizeof(err)));
	assert_string_equal(err, "read chunk 0: Position 12 is beyond the 8 inline bytes");
	g_byte_array_free(out, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_chunk_not_multiple_of_4),
		cmocka_unit_test(two_chunks),
		cmocka_unit_test(chunk_multiple_of_4),
		cmocka_unit_test(unaligned_position),
		cmocka_unit_test(chunk_at_end_and_empty_chunk),
		cmocka_unit_test(no_chunk),
		cmocka_unit_test(bad_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
