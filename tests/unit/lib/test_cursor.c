// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded reader and the writer: bounds, latching errors, XDR rules (RFC 4506). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cursor.h"
#include "wbuf.h"

static void test_integers(void **state)
{
	static const uint8_t b[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09 };
	struct rr_cursor c;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;

	rr_cursor_init(&c, b, sizeof(b));
	assert_true(rr_get_u8(&c, &v8));
	assert_int_equal(v8, 1);
	assert_true(rr_get_be16(&c, &v16));
	assert_int_equal(v16, 0x0203);
	assert_true(rr_get_be24(&c, &v32));
	assert_int_equal(v32, 0x040506);
	assert_true(rr_get_le16(&c, &v16));
	assert_int_equal(v16, 0x0807);
	assert_int_equal(rr_cursor_left(&c), 1);
	assert_false(rr_get_be32(&c, &v32));
	assert_true(c.err);
	/* Latched: even a 1-byte read now fails. */
	assert_false(rr_get_u8(&c, &v8));
	assert_int_equal(rr_cursor_left(&c), 0);

	rr_cursor_init(&c, b, 8);
	assert_true(rr_get_be64(&c, &v64));
	assert_true(v64 == 0x0102030405060708ull);
	rr_cursor_init(&c, b, 8);
	assert_true(rr_get_le64(&c, &v64));
	assert_true(v64 == 0x0807060504030201ull);
}

static void test_peek_and_sub(void **state)
{
	static const uint8_t b[] = { 0, 0, 0, 7, 1, 2, 3, 4, 5, 6, 7, 8 };
	struct rr_cursor c, s;
	uint32_t v;

	rr_cursor_init(&c, b, sizeof(b));
	assert_true(rr_peek_be32(&c, 0, &v));
	assert_int_equal(v, 7);
	assert_int_equal(rr_cursor_pos(&c), 0);
	assert_false(rr_peek_be32(&c, 10, &v));
	assert_false(c.err);                 /* a failed peek does not latch */
	assert_true(rr_skip(&c, 4));
	assert_true(rr_cursor_sub(&c, 4, &s));
	assert_int_equal(rr_cursor_pos(&c), 8);
	assert_true(rr_get_be32(&s, &v));
	assert_int_equal(v, 0x01020304);
	assert_false(rr_get_u8(&s, &(uint8_t){ 0 }));   /* the sub-cursor ends at its own end */
	assert_false(rr_cursor_sub(&c, 5, &s));
}

static void test_xdr(void **state)
{
	static const uint8_t b[] = { 0, 0, 0, 5, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0, 2 };
	const uint8_t *p;
	struct rr_cursor c;
	uint32_t n;
	bool v;

	rr_cursor_init(&c, b, sizeof(b));
	assert_true(rr_xdr_opaque(&c, 16, &p, &n));
	assert_int_equal(n, 5);
	assert_memory_equal(p, "hello", 5);
	assert_int_equal(rr_cursor_pos(&c), 12);      /* pad skipped */
	assert_false(rr_xdr_bool(&c, &v));            /* 2 is not a bool */
	assert_true(c.err);

	rr_cursor_init(&c, b, sizeof(b));
	assert_false(rr_xdr_opaque(&c, 4, &p, &n));   /* over its maximum */
	rr_cursor_init(&c, b, 11);
	assert_false(rr_xdr_opaque(&c, 16, &p, &n));  /* pad missing */
	assert_false(rr_xdr_skip(&(struct rr_cursor){ b, 4, 0, false }, UINT64_MAX));
	assert_int_equal(rr_xdr_pad(5), 3);
	assert_int_equal(rr_xdr_pad(8), 0);
	assert_true(rr_xdr_roundup(4093) == 4096);
}

static void test_wbuf(void **state)
{
	struct rr_wbuf w;

	rr_wbuf_init(&w, 12);
	assert_true(rr_put_be32(&w, 0x01020304));
	assert_true(rr_xdr_put_opaque(&w, "ab", 2));
	assert_int_equal(w.len, 12);
	assert_memory_equal(w.data + 4, "\0\0\0\2ab\0\0", 8);
	assert_false(rr_put_u8(&w, 1));               /* over the cap */
	assert_true(w.err);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	assert_true(rr_put_be64(&w, 0x1122334455667788ull));
	assert_true(rr_wbuf_patch_be32(&w, 4, 0xaabbccdd));
	assert_false(rr_wbuf_patch_be32(&w, 6, 0));
	assert_int_equal(w.data[0], 0x11);
	assert_int_equal(w.data[4], 0xaa);
	assert_int_equal(w.data[7], 0xdd);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_peek_and_sub),
		cmocka_unit_test(test_xdr),
		cmocka_unit_test(test_wbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
