// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drive's READ-after-WRITE check (capture/agent/readback.h) on calls the
 * generator builds and replies whose content is known by construction:
 * serve's file system after the WRITE (the written bytes come back), the
 * same reply with one byte changed, a server that never saw the WRITE,
 * a refused WRITE, a READ elsewhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "pg_nfs.h"
#include "readback.h"
#include "serve_fs.h"

static pg_nfs_state me;

/* The generator's call, answered by fs; rb sees both.  Returns rb_reply's answer. */
static bool exchange(struct sf_fs *fs, struct rb_state *rb, int ver, uint32_t proc,
		     const pg_nfsop *ops, unsigned n, uint32_t xid, int flip, struct rb_result *res)
{
	pg_item it;
	pg_rng r = pg_rng_derive(99, 1, xid);
	pg_rpc_pair cp, rp;
	struct rr_cursor c;
	struct rr_rpc_call rc;
	struct rr_ulp_info u;
	bool got;

	memset(&it, 0, sizeof(it));
	it.kind = PG_ITEM_RPC;
	it.nfsver = ver;
	it.proc = proc;
	it.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	g_array_append_vals(it.ops, ops, n);
	pg_nfs_build(&me, &it, xid, &r, &cp);
	g_array_free(it.ops, TRUE);
	rb_call(rb, cp.call.msg->data, cp.call.msg->len);
	rr_cursor_init(&c, cp.call.msg->data, cp.call.msg->len);
	memset(&u, 0, sizeof(u));
	assert_true(rr_rpc_decode_call(&c, &rc));
	assert_int_equal(rr_ulp_walk_call(&rc, &c, NULL, NULL, &u), RR_ULP_OK);
	assert_true(sf_answer(fs, cp.call.msg->data, cp.call.msg->len, &rc, &u, &rp));
	if (flip >= 0) {
		const pg_ddp *d = &g_array_index(rp.reply.ddp, pg_ddp, 0);
		rp.reply.msg->data[d->off + (size_t)flip] ^= 0x5a;
	}
	got = rb_reply(rb, rp.reply.msg->data, rp.reply.msg->len, res);
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	return got;
}

static const pg_nfsop wr = { .op = NFS3_WRITE, .len = 5000, .count = 5000, .offset = 1000 };
static const pg_nfsop rd = { .op = NFS3_READ, .len = 8192, .count = 8192 };

static void test_round_trip(void **state)
{
	struct sf_fs fs;
	struct rb_state rb;
	struct rb_result res;
	pg_nfsop far = rd;
	pg_nfsop v4[3] = { { .op = OP4_SEQUENCE }, { .op = OP4_PUTFH },
			   { .op = OP4_READ, .len = 4096, .count = 4096, .offset = 4096 } };
	(void)state;

	pg_nfs_state_init(&me, 1);
	sf_init(&fs, SS_DEFAULT_LIMIT);
	rb_init(&rb);
	assert_false(exchange(&fs, &rb, PG_V3, NFS3_WRITE, &wr, 1, 1, -1, &res));   /* no READ */
	assert_true(exchange(&fs, &rb, PG_V3, NFS3_READ, &rd, 1, 2, -1, &res));
	assert_true(res.equal);
	assert_int_equal(res.compared, 5000);
	/* one byte changed inside the written range: found, and named */
	assert_true(exchange(&fs, &rb, PG_V3, NFS3_READ, &rd, 1, 3, 1000 + 4321, &res));
	assert_false(res.equal);
	assert_non_null(strstr(res.text, "byte 5321"));
	/* a byte outside it is the server's own: not compared */
	assert_true(exchange(&fs, &rb, PG_V3, NFS3_READ, &rd, 1, 4, 10, &res));
	assert_true(res.equal);
	/* a READ elsewhere compares nothing */
	far.offset = 100000;
	assert_false(exchange(&fs, &rb, PG_V3, NFS3_READ, &far, 1, 5, -1, &res));
	/* NFSv4.1 READ of [4096, 8192) on the same file: the written [4096, 6000) */
	assert_true(exchange(&fs, &rb, PG_V41, 1, v4, 3, 6, -1, &res));
	assert_true(res.equal);
	assert_int_equal(res.compared, 6000 - 4096);
	/* two READs in one COMPOUND: each is compared with its own range */
	{
		pg_nfsop two[4] = { { .op = OP4_SEQUENCE }, { .op = OP4_PUTFH },
				    { .op = OP4_READ, .len = 512, .count = 512, .offset = 200000 },
				    { .op = OP4_READ, .len = 4096, .count = 4096, .offset = 1000 } };
		assert_true(exchange(&fs, &rb, PG_V41, 1, two, 4, 7, -1, &res));
		assert_true(res.equal);
		assert_int_equal(res.compared, 4096);
	}
	rb_free(&rb);
	sf_free(&fs);
}

static void test_server_forgot(void **state)
{
	struct sf_fs fs, other;
	struct rb_state rb;
	struct rb_result res;
	(void)state;

	pg_nfs_state_init(&me, 1);
	sf_init(&fs, SS_DEFAULT_LIMIT);
	sf_init(&other, SS_DEFAULT_LIMIT);
	rb_init(&rb);
	assert_false(exchange(&fs, &rb, PG_V3, NFS3_WRITE, &wr, 1, 1, -1, &res));
	/* a server that never stored it answers with its synthetic data */
	assert_true(exchange(&other, &rb, PG_V3, NFS3_READ, &rd, 1, 2, -1, &res));
	assert_false(res.equal);
	rb_free(&rb);
	sf_free(&fs);
	sf_free(&other);
}

static void test_refused_write(void **state)
{
	struct sf_fs fs;
	struct rb_state rb;
	struct rb_result res;
	(void)state;

	pg_nfs_state_init(&me, 1);
	sf_init(&fs, 100);   /* the WRITE is NOSPC: nothing was written, nothing to compare */
	rb_init(&rb);
	assert_false(exchange(&fs, &rb, PG_V3, NFS3_WRITE, &wr, 1, 1, -1, &res));
	assert_false(exchange(&fs, &rb, PG_V3, NFS3_READ, &rd, 1, 2, -1, &res));
	rb_free(&rb);
	sf_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_server_forgot),
		cmocka_unit_test(test_refused_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
