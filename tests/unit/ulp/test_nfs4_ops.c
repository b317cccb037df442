// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFSv4 op skippers: the arguments and results of every op of NFSv4.0,
 * 4.1, 4.2 and RFC 8276 in one COMPOUND, error arms that carry data, and
 * mutated messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nfs4_enc.h"

/* One COMPOUND carrying the arguments of every op, then a WRITE. */
static void test_all_op_args(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { .moved = 1 };
	uint32_t ops[80];
	unsigned n = 0;

	(void)state;
	for (uint32_t op = 3; op <= 75; op++)
		if (op != WRITE)
			ops[n++] = op;
	ops[n++] = ILLEGAL;
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 2, n + 1);
	for (unsigned i = 0; i < n; i++) {
		x_u32(&w, ops[i]);
		x_op_args(&w, ops[i]);
	}
	x_u32(&w, WRITE);
	x_stateid(&w);
	x_u64(&w, 0);
	x_u32(&w, 1);
	size_t at = w.len + 4;
	x_len_only(&w, 65536);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(info.n_ops, n + 1);
	assert_false(info.ops_truncated);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].data_pos, at);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(info.n_ddp_capable, 2);   /* READ and READLINK */

	/* Every truncation of it fails. */
	for (size_t len = 0; len < at; len += 3) {
		struct rec r2 = { .moved = 1 };

		rr_cursor_init(&c, w.data, len);
		struct rr_rpc_call call = mk_call(NFS, 4, 1);

		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &r2, &info), RR_ULP_MALFORMED);
	}
	rr_wbuf_free(&w);
}

/* One reply with an NFS4_OK result for every op, then a READ. */
static void test_all_op_results(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x4 };
	size_t at[3];
	unsigned k = 0, n = 0;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 73 + 1 + 1);
	for (uint32_t op = 3; op <= 76; op++) {
		uint32_t o = op == 76 ? ILLEGAL : op;

		x_u32(&w, o);
		x_u32(&w, 0);
		if (o == READ || o == READLINK)
			at[k++] = w.len + (o == READ ? 8 : 4);
		x_op_res_ok(&w, o);
		n++;
	}
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, true);
	at[k++] = w.len + 4;
	x_len_only(&w, 777);
	assert_int_equal(n, 74);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(out.n_ops, 75);
	assert_int_equal(rec.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(rec.items[i].ordinal, i);
		assert_int_equal(rec.items[i].data_pos, at[i]);
	}
	assert_int_equal(rec.items[0].length, 8);
	assert_int_equal(rec.items[1].length, 11);
	assert_int_equal(rec.items[2].length, 777);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	rr_wbuf_free(&w);
}

/* Error arms that carry data, and SETATTR's unconditional bitmap. */
static void test_error_arms(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x1 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 14);
	x_u32(&w, 12); x_u32(&w, 10010);                 /* LOCK NFS4ERR_DENIED: LOCK4denied */
	x_u64(&w, 0); x_u64(&w, 10); x_u32(&w, 2); x_owner(&w);
	x_u32(&w, 13); x_u32(&w, 10010);                 /* LOCKT NFS4ERR_DENIED */
	x_u64(&w, 0); x_u64(&w, 10); x_u32(&w, 1); x_owner(&w);
	x_u32(&w, 13); x_u32(&w, 0);                     /* LOCKT NFS4_OK: void */
	x_u32(&w, 35); x_u32(&w, 10017);                 /* SETCLIENTID NFS4ERR_CLID_INUSE: clientaddr4 */
	x_netaddr(&w);
	x_u32(&w, 47); x_u32(&w, 10005);                 /* GETDEVICEINFO NFS4ERR_TOOSMALL: mincount */
	x_u32(&w, 8192);
	x_u32(&w, 50); x_u32(&w, 10058);                 /* LAYOUTGET NFS4ERR_LAYOUTTRYLATER: bool */
	x_bool(&w, true);
	x_u32(&w, 60); x_u32(&w, 10094);                 /* COPY NFS4ERR_OFFLOAD_NO_REQS */
	x_bool(&w, false); x_bool(&w, true);
	x_u32(&w, 34); x_u32(&w, 13);                    /* SETATTR error: bitmap still there */
	x_bitmap(&w);
	x_u32(&w, 18); x_u32(&w, 0);                     /* OPEN, delegation NONE_EXT/CONTENTION */
	x_stateid(&w); x_change_info(&w); x_u32(&w, 0); x_bitmap(&w);
	x_u32(&w, 3); x_u32(&w, 1); x_bool(&w, true);
	x_u32(&w, 18); x_u32(&w, 0);                     /* OPEN, no delegation */
	x_stateid(&w); x_change_info(&w); x_u32(&w, 0); x_bitmap(&w); x_u32(&w, 0);
	x_u32(&w, 46); x_u32(&w, 0);                     /* GET_DIR_DELEGATION GDD4_UNAVAIL */
	x_u32(&w, 1); x_bool(&w, false);
	x_u32(&w, 18); x_u32(&w, 10015);                 /* OPEN error: void */
	x_u32(&w, READ); x_u32(&w, 5);                   /* READ error: void */
	x_u32(&w, READ); x_u32(&w, 0);
	x_bool(&w, false);
	size_t at = w.len + 4;
	x_len_only(&w, 9);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].ordinal, 1);
	assert_int_equal(rec.items[0].data_pos, at);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* Discriminants without an arm the walker knows: not understood, named. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 1);
	x_u32(&w, 18); x_u32(&w, 0);
	x_stateid(&w); x_change_info(&w); x_u32(&w, 0); x_bitmap(&w); x_u32(&w, 6);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_UNSUPPORTED);
	assert_string_equal(out.unknown_what, "open_delegation4 type");
	assert_int_equal(out.unknown_value, 6);
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 1);
	x_u32(&w, 18);
	x_u32(&w, 0); x_u32(&w, 1); x_u32(&w, 0); x_owner(&w); x_u32(&w, 0);
	x_u32(&w, 7);                                    /* open_claim_type4 7 */
	assert_int_equal(walk_call4(&w, &rec, &out, &c), RR_ULP_UNSUPPORTED);
	assert_string_equal(out.unknown_what, "open_claim4 type");
	assert_int_equal(out.n_ops, 1);
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 1);
	x_u32(&w, 12);                                   /* LOCK with new_lock_owner 2 */
	x_u32(&w, 1); x_bool(&w, false); x_u64(&w, 0); x_u64(&w, 1); x_u32(&w, 2);
	assert_int_equal(walk_call4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	rr_wbuf_free(&w);
}

/* Deterministic mutations of good messages: every walk ends in a defined
 * result and never reads outside its buffer (run under ASan: RR_SANITIZE). */
static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void mutate_and_walk(const struct rr_wbuf *good, bool call, uint32_t prog, uint32_t *seed)
{
	uint8_t *buf = malloc(good->len);

	assert_non_null(buf);
	for (int round = 0; round < 400; round++) {
		struct rr_cursor c;
		struct rr_ulp_info info;
		struct rec rec = { .moved = lcg(seed) };
		size_t len = good->len;
		enum rr_ulp_result r;

		memcpy(buf, good->data, good->len);
		for (int k = (int)(lcg(seed) % 4); k >= 0; k--) {
			size_t at = lcg(seed) % good->len;

			switch (lcg(seed) % 4) {
			case 0: buf[at] ^= (uint8_t)(1u << (lcg(seed) % 8)); break;
			case 1: buf[at] = 0xff; break;
			case 2: buf[at & ~(size_t)3] = 0; buf[(at & ~(size_t)3) + 3] = (uint8_t)lcg(seed); break;
			default: len = at; break;
			}
		}
		rr_cursor_init(&c, buf, len);
		if (call) {
			struct rr_rpc_call rc = mk_call(prog, prog == NFS ? 4 : 1, 1);

			r = rr_ulp_walk_call(&rc, &c, rec_fn, &rec, &info);
		} else {
			struct rr_ulp_info ci;
			struct rr_rpc_reply reply = mk_reply();

			memset(&ci, 0, sizeof(ci));
			ci.prog = prog;
			ci.vers = prog == NFS ? 4 : 1;
			ci.proc = 1;
			r = rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &info);
		}
		assert_true(r == RR_ULP_OK || r == RR_ULP_UNSUPPORTED || r == RR_ULP_MALFORMED);
		assert_true(rr_cursor_pos(&c) <= len);
		assert_true(info.n_ops <= RR_ULP_MAX_OPS);
		if (r != RR_ULP_OK)
			assert_true(info.ops_truncated || info.n_ops == 0);
	}
	free(buf);
}

static void test_mutations(void **state)
{
	struct rr_wbuf w;
	uint32_t seed = 0x5eed;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 2, 75);
	for (uint32_t op = 3; op <= 75; op++) {
		x_u32(&w, op);
		if (op == WRITE) {
			x_stateid(&w);
			x_u64(&w, 0);
			x_u32(&w, 0);
			x_opaque(&w, "data", 4);
		} else {
			x_op_args(&w, op);
		}
	}
	x_u32(&w, CREATE);
	x_u32(&w, 5);
	x_str(&w, "target");
	x_str(&w, "name");
	x_fattr(&w);
	x_u32(&w, ILLEGAL);
	mutate_and_walk(&w, true, NFS, &seed);

	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 73);
	for (uint32_t op = 3; op <= 75; op++) {
		x_u32(&w, op);
		x_u32(&w, 0);
		x_op_res_ok(&w, op);
	}
	mutate_and_walk(&w, false, NFS, &seed);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_op_args),
		cmocka_unit_test(test_all_op_results),
		cmocka_unit_test(test_error_arms),
		cmocka_unit_test(test_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
