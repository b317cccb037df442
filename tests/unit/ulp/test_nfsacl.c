// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr_nfsacl_setacl_args: NFSACL v3 SETACL3args (Linux's nfs_acl.x), read
 * from the generator's SETACL calls (capture/pcapgen/pg_nfs.c, which cycles
 * the entry tags USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER) and from
 * bytes written out here.
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

#include "pg_buf.h"
#include "pg_nfs.h"

/* The generator's SETACL with n access ACL entries; *args_off where its arguments start. */
static void setacl_call(uint32_t n, pg_rpc_pair *rp, size_t *args_off)
{
	pg_nfs_state st;
	pg_item it;
	pg_nfsop op = { .op = ACL3_SETACL, .len = n };
	pg_rng r = pg_rng_derive(7, 7, 7);
	struct rr_cursor c;
	struct rr_rpc_call rc;

	pg_nfs_state_init(&st, 21);
	memset(&it, 0, sizeof(it));
	it.kind = PG_ITEM_RPC;
	it.nfsver = PG_V3;
	it.acl = true;
	it.proc = ACL3_SETACL;
	it.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	g_array_append_val(it.ops, op);
	pg_nfs_build(&st, &it, 0x99, &r, rp);
	g_array_free(it.ops, TRUE);
	rr_cursor_init(&c, rp->call.msg->data, rp->call.msg->len);
	assert_true(rr_rpc_decode_call(&c, &rc));
	assert_int_equal(rc.prog, RR_NFSACL_PROGRAM);
	*args_off = rc.args_off;
}

static void test_generated(void **state)
{
	static const struct { uint32_t n, named, closing; } cases[] = {
		{ 6, 2, 2 },     /* 01 02 04 08 10 20: USER, GROUP named; MASK, OTHER close */
		{ 4, 2, 0 },     /* 01 02 04 08: ends on a named GROUP */
		{ 1, 0, 1 },     /* USER_OBJ alone */
		{ 0, 0, 0 },
		{ 14, 5, 0 },    /* two rounds of six, then USER_OBJ, USER */
	};
	(void)state;

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		pg_rpc_pair rp;
		size_t off;
		struct rr_nfsacl_setacl a;
		char err[256];
		const GByteArray *m;

		setacl_call(cases[i].n, &rp, &off);
		m = rp.call.msg;
		assert_true(rr_nfsacl_setacl_args(m->data + off, m->len - off, &a, err, sizeof(err)));
		assert_int_equal(a.fh_len, 28);
		assert_int_equal(a.mask, 0x0f);
		assert_int_equal(a.acl_at, 4 + 28 + 4);
		assert_int_equal(a.aclcnt, cases[i].n);
		assert_int_equal(a.n_acl, cases[i].n);
		assert_int_equal(a.named, cases[i].named);
		assert_int_equal(a.closing, cases[i].closing);
		assert_int_equal(a.dfacl_at, a.acl_at + 8 + 12 * cases[i].n);
		assert_int_equal(a.n_dfacl, 0);
		assert_int_equal(a.end, m->len - off);
		/* the generator's bulk item is the access ACL's entries (none when it is empty) */
		assert_int_equal(rp.call.bulk->len, cases[i].n ? 1 : 0);
		if (cases[i].n)
			assert_int_equal(g_array_index(rp.call.bulk, pg_ddp, 0).off,
					 off + a.acl_at + 8);
		pg_rpc_pair_clear(&rp);
	}
}

static void test_written(void **state)
{
	GByteArray *b = g_byte_array_new();
	struct rr_nfsacl_setacl a;
	char err[256];
	(void)state;

	/* fh<> of 5 bytes, mask NFS_ACL|NFS_DFACL, access ACL of 3, default ACL of 1 */
	pb_xdr_opaque(b, "\1\2\3\4\5", 5);
	pb_be32(b, 0x05);
	pb_be32(b, 3);
	pb_be32(b, 3);
	pb_be32(b, RR_NFSACL_USER_OBJ); pb_be32(b, 0); pb_be32(b, 6);
	pb_be32(b, RR_NFSACL_USER); pb_be32(b, 1000); pb_be32(b, 4);
	pb_be32(b, RR_NFSACL_OTHER); pb_be32(b, 0); pb_be32(b, 4);
	pb_be32(b, 1);
	pb_be32(b, 1);
	pb_be32(b, RR_NFSACL_USER_OBJ); pb_be32(b, 0); pb_be32(b, 7);
	assert_true(rr_nfsacl_setacl_args(b->data, b->len, &a, err, sizeof(err)));
	assert_int_equal(a.fh_len, 5);
	assert_int_equal(a.mask, 5);
	assert_int_equal(a.acl_at, 16);
	assert_int_equal(a.named, 1);
	assert_int_equal(a.closing, 1);
	assert_int_equal(a.dfacl_at, 16 + 8 + 36);
	assert_int_equal(a.dfaclcnt, 1);
	assert_int_equal(a.n_dfacl, 1);
	assert_int_equal(a.end, b->len);

	/* a byte more: named */
	pb_u8(b, 0);
	assert_false(rr_nfsacl_setacl_args(b->data, b->len, &a, err, sizeof(err)));
	assert_non_null(strstr(err, "1 bytes after the ACLs"));
	/* cut inside the default ACL's entries */
	assert_false(rr_nfsacl_setacl_args(b->data, b->len - 5, &a, err, sizeof(err)));
	assert_non_null(strstr(err, "default ACL: 1 entries do not fit"));
	/* cut inside the access ACL's counts */
	assert_false(rr_nfsacl_setacl_args(b->data, 20, &a, err, sizeof(err)));
	assert_non_null(strstr(err, "inside the access ACL's counts"));
	/* a handle longer than NFS3_FHSIZE */
	g_byte_array_set_size(b, 0);
	pb_be32(b, 65);
	pb_zero(b, 68 + 4 + 16);
	assert_false(rr_nfsacl_setacl_args(b->data, b->len, &a, err, sizeof(err)));
	assert_non_null(strstr(err, "no NFSv3 file handle"));
	assert_int_equal(a.fh_len, 0);
	g_byte_array_free(b, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
