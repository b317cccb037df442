// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory pool (capture/agent/mrpool.c) with a stand-in for the
 * registration: every expected count below is worked out by hand from the
 * rules mrpool.h documents (regions by exact length and access kind, one
 * use only above MR_POOL_MAX, at most keep_bytes held idle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "mrpool.h"

struct fake {
	unsigned regs, deregs, fail_next;
	size_t last_len;
	bool last_write;
};

static bool fake_reg(void *ctx, struct vb_mr *m, size_t len, bool remote_write)
{
	struct fake *f = ctx;
	if (f->fail_next) {
		f->fail_next--;
		return false;
	}
	f->regs++;
	f->last_len = len;
	f->last_write = remote_write;
	m->buf = g_malloc(len);
	memset(m->buf, 0xA5, len);   /* what a region holds before anyone zeroes it */
	m->len = len;
	m->mr = NULL;
	return true;
}

static void fake_dereg(void *ctx, struct vb_mr *m)
{
	struct fake *f = ctx;
	f->deregs++;
	g_free(m->buf);
	memset(m, 0, sizeof(*m));
}

static struct mr_pool *pool(struct fake *f, size_t keep)
{
	struct mr_pool_ops ops = { fake_reg, fake_dereg, f };
	memset(f, 0, sizeof(*f));
	return mr_pool_new(&ops, keep);
}

/* A 1 MiB chunk per call, 100 calls one after another: one registration. */
static void test_reuse_across_calls(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 64u << 20);
	struct mr_pool_stats st;
	(void)state;
	for (int i = 0; i < 100; i++) {
		struct vb_mr *m = mr_pool_take(p, 1u << 20, true);
		assert_non_null(m);
		assert_int_equal(m->len, 1u << 20);
		mr_pool_give(p, m);
	}
	mr_pool_stats(p, &st);
	assert_int_equal(f.regs, 1);
	assert_int_equal(st.registrations, 1);
	assert_int_equal(st.reuses, 99);
	assert_int_equal(st.in_use, 0);
	mr_pool_free(p);
	assert_int_equal(f.deregs, 1);
}

/* 8 calls in flight: 8 regions, then reused by the next 8. */
static void test_window(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 64u << 20);
	struct vb_mr *m[8];
	(void)state;
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 8; i++)
			assert_non_null(m[i] = mr_pool_take(p, 1u << 20, false));
		for (int i = 0; i < 8; i++)
			for (int j = i + 1; j < 8; j++)
				assert_ptr_not_equal(m[i]->buf, m[j]->buf);
		for (int i = 0; i < 8; i++)
			mr_pool_give(p, m[i]);
	}
	assert_int_equal(f.regs, 8);
	mr_pool_free(p);
	assert_int_equal(f.deregs, 8);
}

/* A region is exactly its segment's length (its bounds are the segment's);
 * access kinds never share a region; only the same shape is reused. */
static void test_shapes_and_access(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 64u << 20);
	struct vb_mr *a, *b, *c;
	(void)state;
	a = mr_pool_take(p, 1000, true);
	assert_int_equal(f.last_len, 1000);
	assert_int_equal(a->len, 1000);
	assert_true(f.last_write);
	b = mr_pool_take(p, 4097, true);
	assert_int_equal(f.last_len, 4097);
	mr_pool_give(p, a);
	c = mr_pool_take(p, 1000, false);            /* read access: not the idle write region */
	assert_int_equal(f.regs, 3);
	assert_false(f.last_write);
	mr_pool_give(p, c);
	c = mr_pool_take(p, 999, true);              /* another length: a region of its own */
	assert_int_equal(f.regs, 4);
	assert_int_equal(c->len, 999);
	mr_pool_give(p, c);
	c = mr_pool_take(p, 1000, true);             /* the 1000-byte write region again */
	assert_ptr_equal(c, a);
	assert_int_equal(f.regs, 4);
	mr_pool_give(p, b);
	mr_pool_give(p, c);
	mr_pool_free(p);
	assert_int_equal(f.deregs, 4);
}

/* A reused writable region comes back zeroed: no earlier call's bytes show through. */
static void test_zeroed(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 64u << 20);
	struct vb_mr *m;
	(void)state;
	m = mr_pool_take(p, 4096, true);
	memset(m->buf, 0x5A, m->len);
	mr_pool_give(p, m);
	m = mr_pool_take(p, 4096, true);
	for (size_t i = 0; i < m->len; i++)
		assert_int_equal(m->buf[i], 0);
	mr_pool_give(p, m);
	mr_pool_free(p);
}

/* Past keep_bytes idle, and above MR_POOL_MAX, regions are released at give. */
static void test_limits(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 2u << 20);
	struct vb_mr *m[3], *big;
	(void)state;
	for (int i = 0; i < 3; i++)
		m[i] = mr_pool_take(p, 1u << 20, true);
	for (int i = 0; i < 3; i++)
		mr_pool_give(p, m[i]);
	assert_int_equal(f.deregs, 1);               /* 2 MiB kept, the third released */
	big = mr_pool_take(p, (16u << 20) + 1, true);
	assert_non_null(big);
	assert_int_equal(f.last_len, (16u << 20) + 1);
	mr_pool_give(p, big);
	assert_int_equal(f.deregs, 2);
	mr_pool_free(p);
	assert_int_equal(f.deregs, 4);
}

/* A failed registration is NULL and leaves nothing behind; an unknown give is ignored. */
static void test_failure(void **state)
{
	struct fake f;
	struct mr_pool *p = pool(&f, 64u << 20);
	struct mr_pool_stats st;
	struct vb_mr stranger = { 0 };
	(void)state;
	f.fail_next = 1;
	assert_null(mr_pool_take(p, 4096, false));
	mr_pool_give(p, &stranger);
	mr_pool_give(p, NULL);
	mr_pool_stats(p, &st);
	assert_int_equal(st.registrations, 0);
	assert_int_equal(st.in_use, 0);
	mr_pool_free(p);
	assert_int_equal(f.deregs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_across_calls),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_shapes_and_access),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
