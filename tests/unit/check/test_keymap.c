// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check stage's keymap (analyzer/check/keymap.c) against a model: random
 * sequences of puts, gets, takes and clears, each answer compared with what a
 * GHashTable holding the same entries says.  Keys come from small pools so
 * that they meet in the same slots, runs wrap round the table's end, removals
 * shift entries back across the wrap, and the table grows while it is
 * crowded.  After every step the map must hold exactly the model's entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "keymap.h"

struct pair {
	struct ck_keymap map;
	GHashTable *model;            /* uint64 key (boxed) -> value */
	GRand *rand;
};

static guint64 *box(uint64_t key)
{
	return g_memdup2(&key, sizeof(key));
}

/* Every entry of the model is in the map with its value, and the sizes agree. */
static void agree(const struct pair *p)
{
	GHashTableIter it;
	gpointer k, v;

	assert_int_equal(ck_keymap_size(&p->map), g_hash_table_size(p->model));
	g_hash_table_iter_init(&it, p->model);
	while (g_hash_table_iter_next(&it, &k, &v))
		assert_ptr_equal(ck_keymap_get(&p->map, *(guint64 *)k), v);
}

/* A key of the pool: a few requester hosts, XIDs that differ in their low bits. */
static uint64_t pick(struct pair *p, uint32_t hosts, uint32_t xids)
{
	uint64_t host = g_rand_int_range(p->rand, 1, (gint32)hosts + 1);

	return host << 32 | (uint32_t)g_rand_int_range(p->rand, 0, (gint32)xids);
}

static void step(struct pair *p, uint64_t key)
{
	gpointer want = g_hash_table_lookup(p->model, &key);
	uint32_t op = (uint32_t)g_rand_int_range(p->rand, 0, 100);

	if (op < 45) {
		gpointer val = GUINT_TO_POINTER(g_rand_int_range(p->rand, 1, 1 << 30));

		assert_ptr_equal(ck_keymap_put(&p->map, key, val), want);
		g_hash_table_insert(p->model, box(key), val);
	} else if (op < 85) {
		assert_ptr_equal(ck_keymap_take(&p->map, key), want);
		g_hash_table_remove(p->model, &key);
	} else {
		assert_ptr_equal(ck_keymap_get(&p->map, key), want);
	}
}

static void run(uint32_t seed, uint32_t hosts, uint32_t xids, unsigned steps)
{
	struct pair p = { .model = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL),
			  .rand = g_rand_new_with_seed(seed) };
	unsigned i;

	for (i = 0; i < steps; i++) {
		step(&p, pick(&p, hosts, xids));
		agree(&p);
		if (g_rand_int_range(p.rand, 0, 2000) == 0) {
			ck_keymap_free(&p.map, NULL);
			g_hash_table_remove_all(p.model);
			agree(&p);
		}
	}
	ck_keymap_free(&p.map, NULL);
	assert_int_equal(ck_keymap_size(&p.map), 0);
	assert_null(ck_keymap_get(&p.map, 1ull << 32));
	g_hash_table_destroy(p.model);
	g_rand_free(p.rand);
}

/* A map of up to 40 keys in 8 to 128 slots: crowded, every run long. */
static void test_small_pool(void **state)
{
	uint32_t seed;

	(void)state;
	for (seed = 1; seed <= 40; seed++)
		run(seed, 2, 20, 3000);
}

/* One host's XIDs only: the keys differ in the low half alone. */
static void test_one_host(void **state)
{
	uint32_t seed;

	(void)state;
	for (seed = 100; seed < 110; seed++)
		run(seed, 1, 300, 6000);
}

/* Thousands of keys: the table grows several times with entries in it. */
static void test_growth(void **state)
{
	struct pair p = { .model = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL),
			  .rand = g_rand_new_with_seed(7) };
	uint32_t i;

	(void)state;
	for (i = 0; i < 5000; i++) {
		uint64_t key = (uint64_t)(i % 7 + 1) << 32 | (i * 2654435761u);
		gpointer val = GUINT_TO_POINTER(i + 1);

		assert_null(ck_keymap_put(&p.map, key, val));
		g_hash_table_insert(p.model, box(key), val);
		if (i % 97 == 0)
			agree(&p);
	}
	agree(&p);
	/* Half of them taken, then looked for again. */
	for (i = 0; i < 5000; i += 2) {
		uint64_t key = (uint64_t)(i % 7 + 1) << 32 | (i * 2654435761u);

		assert_ptr_equal(ck_keymap_take(&p.map, key), GUINT_TO_POINTER(i + 1));
		assert_null(ck_keymap_take(&p.map, key));
		g_hash_table_remove(p.model, &key);
	}
	agree(&p);
	for (i = 0; i < 2000; i++)
		step(&p, pick(&p, 7, 1u << 20));
	agree(&p);
	/*
	 * All but three taken: the table gives its slots back as it empties (an
	 * eighth full, half the slots), down to 16 (three keys are more than an
	 * eighth of 16), and still agrees.
	 */
	{
		GHashTableIter it;
		gpointer k;
		GArray *keys = g_array_new(FALSE, FALSE, sizeof(uint64_t));

		g_hash_table_iter_init(&it, p.model);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_array_append_val(keys, *(guint64 *)k);
		assert_true(p.map.mask + 1 >= 4096);
		for (i = 3; i < keys->len; i++) {
			uint64_t key = g_array_index(keys, uint64_t, i);

			assert_non_null(ck_keymap_take(&p.map, key));
			g_hash_table_remove(p.model, &key);
			if (i % 101 == 0)
				agree(&p);
		}
		agree(&p);
		assert_int_equal(ck_keymap_size(&p.map), 3);
		assert_int_equal(p.map.mask + 1, 16);
		g_array_free(keys, TRUE);
	}
	ck_keymap_free(&p.map, NULL);
	g_hash_table_destroy(p.model);
	g_rand_free(p.rand);
}

static unsigned freed;

static void count_free(gpointer v)
{
	(void)v;
	freed++;
}

/* Freeing hands every value to the free function once, and the map is ready for use again. */
static void test_clear_frees_each(void **state)
{
	struct ck_keymap m = { 0 };
	uint32_t i;

	(void)state;
	assert_null(ck_keymap_get(&m, 5));
	assert_null(ck_keymap_take(&m, 5));
	for (i = 0; i < 100; i++)
		ck_keymap_put(&m, (uint64_t)1 << 32 | i, GUINT_TO_POINTER(i + 1));
	ck_keymap_put(&m, (uint64_t)1 << 32 | 3, GUINT_TO_POINTER(1000));   /* replaced, not added */
	assert_int_equal(ck_keymap_size(&m), 100);
	freed = 0;
	ck_keymap_free(&m, count_free);
	assert_int_equal(freed, 100);
	assert_int_equal(ck_keymap_size(&m), 0);
	assert_null(ck_keymap_get(&m, (uint64_t)1 << 32 | 3));
	ck_keymap_put(&m, 9, GUINT_TO_POINTER(9));
	freed = 0;
	ck_keymap_free(&m, count_free);
	assert_int_equal(freed, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_pool),
		cmocka_unit_test(test_one_host),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_clear_frees_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
