// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * serve's store of written data (capture/agent/serve_store.h): overlapping
 * and touching writes, reads across written and unwritten ranges, files
 * kept apart, and the limit.  Expected bytes come from a plain model: a
 * byte array per file that every write is copied into.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serve_store.h"

static const uint8_t fh_a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t fh_b[8] = { 1, 2, 3, 4, 5, 6, 7, 9 };

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* A read of [off, off+len) over a background of 0xee: what the model says. */
static void check_read(struct ss_store *s, const uint8_t *fh, const uint8_t *model,
		       const uint8_t *written, uint64_t off, uint32_t len)
{
	uint8_t buf[4096];
	uint64_t want = 0;

	memset(buf, 0xee, sizeof(buf));
	for (uint32_t i = 0; i < len; i++)
		want += written[off + i];
	assert_int_equal(ss_read(s, fh, 8, off, buf, len), want);
	for (uint32_t i = 0; i < len; i++)
		assert_int_equal(buf[i], written[off + i] ? model[off + i] : 0xee);
}

static void model_write(uint8_t *model, uint8_t *written, uint64_t off, const uint8_t *d,
			uint32_t len)
{
	memcpy(model + off, d, len);
	memset(written + off, 1, len);
}

static void test_overlaps(void **state)
{
	struct ss_store *s = ss_new(1 << 20);
	static uint8_t model[8192], written[8192];
	uint8_t d[3000];
	const struct { uint64_t off; uint32_t len; uint8_t seed; } w[] = {
		{ 1000, 500, 1 },     /* alone */
		{ 3000, 200, 2 },     /* alone, after */
		{ 1400, 300, 3 },     /* overlaps the first's end */
		{ 900, 150, 4 },      /* overlaps the first's start */
		{ 1700, 1300, 5 },    /* touches the merged extent and the second */
		{ 950, 2500, 6 },     /* covers everything but the edges */
		{ 6000, 10, 7 },      /* far away */
		{ 5990, 10, 8 },      /* touches it from below */
	};
	(void)state;
	memset(model, 0, sizeof(model));
	memset(written, 0, sizeof(written));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fill(d, w[i].len, w[i].seed);
		assert_true(ss_write(s, fh_a, 8, w[i].off, d, w[i].len));
		model_write(model, written, w[i].off, d, w[i].len);
		/* every read window, written and unwritten parts alike */
		check_read(s, fh_a, model, written, 0, 4096);
		check_read(s, fh_a, model, written, 4000, 4096);
		check_read(s, fh_a, model, written, 999, 3);
	}
	/* held bytes: the union of the written ranges */
	{
		uint64_t n = 0;
		for (size_t i = 0; i < sizeof(written); i++)
			n += written[i];
		assert_int_equal(ss_used(s), n);
	}
	assert_int_equal(ss_end(s, fh_a, 8), 6010);
	ss_free(s);
}

static void test_files_apart(void **state)
{
	struct ss_store *s = ss_new(1 << 20);
	uint8_t d[100], buf[100];
	(void)state;
	fill(d, sizeof(d), 9);
	assert_true(ss_write(s, fh_a, 8, 0, d, sizeof(d)));
	memset(buf, 0, sizeof(buf));
	assert_int_equal(ss_read(s, fh_b, 8, 0, buf, sizeof(buf)), 0);
	assert_int_equal(ss_read(s, fh_a, 7, 0, buf, sizeof(buf)), 0);   /* a prefix is another handle */
	assert_int_equal(ss_end(s, fh_b, 8), 0);
	assert_int_equal(ss_read(s, fh_a, 8, 0, buf, sizeof(buf)), sizeof(buf));
	assert_memory_equal(buf, d, sizeof(d));
	ss_free(s);
}

static void test_limit(void **state)
{
	struct ss_store *s = ss_new(1000);
	uint8_t d[1001], buf[1001];
	(void)state;
	fill(d, sizeof(d), 11);
	assert_false(ss_write(s, fh_a, 8, 0, d, 1001));          /* alone past the limit */
	assert_int_equal(ss_used(s), 0);
	assert_true(ss_write(s, fh_a, 8, 0, d, 600));
	assert_true(ss_write(s, fh_b, 8, 0, d, 400));              /* exactly the limit */
	assert_int_equal(ss_used(s), 1000);
	assert_false(ss_write(s, fh_b, 8, 400, d, 1));             /* one byte more: refused */
	assert_true(ss_write(s, fh_a, 8, 100, d + 500, 500));      /* rewriting held bytes costs nothing */
	assert_false(ss_write(s, fh_a, 8, 100, d, 501));           /* one byte past the file's end: refused */
	/* a refused write changed nothing */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(ss_read(s, fh_a, 8, 0, buf, 600), 600);
	assert_memory_equal(buf, d, 100);
	assert_memory_equal(buf + 100, d + 500, 500);
	assert_int_equal(ss_read(s, fh_b, 8, 0, buf, 401), 400);
	assert_int_equal(ss_used(s), 1000);
	ss_free(s);
}

static void test_bad_handles(void **state)
{
	struct ss_store *s = ss_new(1000);
	uint8_t big[SS_MAX_FH + 1], d[4] = { 1, 2, 3, 4 };
	(void)state;
	memset(big, 1, sizeof(big));
	assert_false(ss_write(s, big, 0, 0, d, 4));
	assert_false(ss_write(s, big, SS_MAX_FH + 1, 0, d, 4));
	assert_true(ss_write(s, big, SS_MAX_FH, 0, d, 0));         /* nothing to store */
	assert_false(ss_write(s, fh_a, 8, UINT64_MAX - 2, d, 4));  /* past the largest offset */
	assert_int_equal(ss_used(s), 0);
	ss_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_files_apart),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_bad_handles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
