// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFSv4 COMPOUND and CB_COMPOUND walkers: op lists, DDP items and their
 * ordinals (RFC 8267 6.4.1), bounds, RPCSEC_GSS, the callback program.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nfs4_enc.h"

/* SEQUENCE + PUTFH + READ, the data inline and then moved. */
static void test_seq_putfh_read(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 3);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, true);            /* eof */
	size_t at = w.len + 4;
	x_opaque(&w, "0123456789", 10);
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].op, READ);
		assert_int_equal(rec.items[0].length, 10);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		assert_int_equal(out.n_ops, 3);
		assert_int_equal(out.ops[0], SEQUENCE);
		assert_int_equal(out.ops[1], PUTFH);
		assert_int_equal(out.ops[2], READ);
		assert_false(out.ops_truncated);
		assert_int_equal(out.status, 0);
		assert_int_equal(out.minorversion, 1);
		assert_int_equal(out.n_ddp_capable, 1);
	}
	/* Reduced: only the length word is inline. */
	w.len = at;
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	/* And the same bytes when fn says "inline": data missing. */
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
		assert_true(out.ops_truncated);
	}
	rr_wbuf_free(&w);
}

/*
 * Two READs, the first returning an error arm (void).  A server stops at
 * the first error, but the walker must not rely on it: the second READ is
 * still the second READ-class op, ordinal 1.
 */
static void test_two_reads_first_fails(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x1 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 5);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READ);
	x_u32(&w, 13);               /* NFS4ERR_ACCESS: void */
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, false);
	size_t at = w.len + 4;
	x_len_only(&w, 4096);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].ordinal, 1);
	assert_int_equal(rec.items[0].data_pos, at);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(out.n_ddp_capable, 2);
	assert_int_equal(out.n_ops, 5);

	/* The realistic form: READ fails and the COMPOUND ends there. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 13, 3);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READ);
	x_u32(&w, 13);
	{
		struct rec rec2 = { .moved = 1 };

		assert_int_equal(walk_reply4(&w, &rec2, &out, &c), RR_ULP_OK);
		assert_int_equal(rec2.n, 0);
		assert_int_equal(out.status, 13);
		assert_int_equal(out.n_ddp_capable, 1);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	rr_wbuf_free(&w);
}

/* RFC 8267 6.4.3: PUTFH LOOKUP READ PUTFH LOOKUP READLINK PUTFH LOOKUP READ -> A B C,
 * with B empty so READLINK returns inline. */
static void test_read_readlink_read(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0x5 };
	size_t at[3];

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 9);
	for (int i = 0; i < 3; i++) {
		x_u32(&w, PUTFH);
		x_u32(&w, 0);
		x_u32(&w, LOOKUP);
		x_u32(&w, 0);
		if (i == 1) {
			x_u32(&w, READLINK);
			x_u32(&w, 0);
			at[i] = w.len + 4;
			x_str(&w, "/some/where");
		} else {
			x_u32(&w, READ);
			x_u32(&w, 0);
			x_bool(&w, i == 2);
			at[i] = w.len + 4;
			x_len_only(&w, 1000 + i);
		}
	}
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(rec.items[i].ordinal, i);
		assert_int_equal(rec.items[i].data_pos, at[i]);
	}
	assert_int_equal(rec.items[0].op, READ);
	assert_int_equal(rec.items[1].op, READLINK);
	assert_int_equal(rec.items[1].length, 11);
	assert_int_equal(rec.items[2].length, 1002);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(out.n_ddp_capable, 3);
	rr_wbuf_free(&w);
}

/* READLINK alone, and READLINK failing. */
static void test_readlink(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 3);
	x_sequence_res(&w);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READLINK);
	x_u32(&w, 0);
	size_t at = w.len + 4;
	x_len_only(&w, 4000);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].op, READLINK);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].length, 4000);
		assert_int_equal(rec.items[0].data_pos, at);
	}
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 10029, 2);
	x_u32(&w, PUTFH);
	x_u32(&w, 0);
	x_u32(&w, READLINK);
	x_u32(&w, 10007);            /* NFS4ERR_BADTYPE: void */
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 0);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	rr_wbuf_free(&w);
}

/* SEQUENCE PUTFH WRITE GETATTR, the data moved and inline. */
static void test_write_getattr_call(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;

	(void)state;
	for (int moved = 0; moved <= 1; moved++) {
		struct rec rec = { .moved = (uint32_t)moved };

		rr_wbuf_init(&w, 0);
		x_args_hdr(&w, 2, 4);
		x_sequence_args(&w);
		x_u32(&w, PUTFH);
		x_nfs_fh4(&w, 37);
		x_u32(&w, WRITE);
		x_stateid(&w);
		x_u64(&w, 8192);
		x_u32(&w, 0);            /* UNSTABLE4 */
		size_t at = w.len + 4;
		if (moved)
			x_len_only(&w, 1 << 20);
		else
			x_opaque(&w, "tiny write", 10);
		x_u32(&w, GETATTR);
		x_bitmap(&w);
		assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].op, WRITE);
		assert_int_equal(rec.items[0].length, moved ? 1u << 20 : 10u);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		assert_int_equal(info.minorversion, 2);
		assert_int_equal(info.n_ops, 4);
		assert_int_equal(info.ops[2], WRITE);
		assert_int_equal(info.ops[3], GETATTR);
		assert_int_equal(info.n_ddp_capable, 0);
		assert_int_equal(info.proc, 1);
		rr_wbuf_free(&w);
	}
}

/* PUTFH CREATE(NF4LNK) GETFH; then WRITE + CREATE(NF4LNK) ordinals. */
/* READ and READDIR arguments: offset and count are kept per op (what a responder sizes by). */
static void test_read_args_kept(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 1, 5);
	x_sequence_args(&w);
	x_u32(&w, PUTFH);
	x_nfs_fh4(&w, 28);
	x_u32(&w, READ);
	x_stateid(&w);
	x_u64(&w, 0x100000002ull);
	x_u32(&w, 65536);
	x_u32(&w, 26);               /* READDIR: cookie, verifier, dircount, maxcount, bitmap */
	x_u64(&w, 0);
	x_fill(&w, 0, 8);
	x_u32(&w, 4096);
	x_u32(&w, 32768);
	x_bitmap(&w);
	x_u32(&w, READ);
	x_stateid(&w);
	x_u64(&w, 7);
	x_u32(&w, 3);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(info.n_ops, 5);
	assert_int_equal(info.op_count[0], 0);
	assert_int_equal(info.op_count[2], 65536);
	assert_true(info.op_offset[2] == 0x100000002ull);
	assert_int_equal(info.op_count[3], 32768);   /* maxcount */
	assert_int_equal(info.op_count[4], 3);
	assert_true(info.op_offset[4] == 7);
	rr_wbuf_free(&w);
}

static void test_create_symlink_call(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;

	(void)state;
	for (int moved = 0; moved <= 1; moved++) {
		struct rec rec = { .moved = (uint32_t)moved };

		rr_wbuf_init(&w, 0);
		x_args_hdr(&w, 0, 3);
		x_u32(&w, PUTFH);
		x_nfs_fh4(&w, 128);
		x_u32(&w, CREATE);
		x_u32(&w, 5);            /* NF4LNK */
		size_t at = w.len + 4;
		if (moved)
			x_len_only(&w, 2000);
		else
			x_str(&w, "../../the/target");
		x_str(&w, "linkname");   /* objname */
		x_fattr(&w);             /* createattrs */
		x_u32(&w, GETFH);
		assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].op, CREATE);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].length, moved ? 2000u : 16u);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		assert_int_equal(info.n_ops, 3);
		rr_wbuf_free(&w);
	}
	/* CREATE of other types: NF4BLK carries specdata4, NF4DIR nothing. */
	{
		struct rec rec = { 0 };

		rr_wbuf_init(&w, 0);
		x_args_hdr(&w, 0, 2);
		x_u32(&w, CREATE);
		x_u32(&w, 3);
		x_u32(&w, 8);
		x_u32(&w, 1);
		x_str(&w, "blk");
		x_fattr(&w);
		x_u32(&w, CREATE);
		x_u32(&w, 2);
		x_str(&w, "dir");
		x_fattr(&w);
		assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 0);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		rr_wbuf_free(&w);
	}
	/* WRITE then CREATE(NF4LNK): argument ordinals 0 and 1. */
	{
		struct rec rec = { .moved = 0x3 };

		rr_wbuf_init(&w, 0);
		x_args_hdr(&w, 1, 5);
		x_u32(&w, PUTFH);
		x_nfs_fh4(&w, 8);
		x_u32(&w, WRITE);
		x_stateid(&w);
		x_u64(&w, 0);
		x_u32(&w, 2);
		x_len_only(&w, 100);
		x_u32(&w, PUTFH);
		x_nfs_fh4(&w, 8);
		x_u32(&w, CREATE);
		x_u32(&w, 5);
		x_len_only(&w, 200);
		x_str(&w, "l");
		x_fattr(&w);
		x_u32(&w, READLINK);
		assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 2);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].op, WRITE);
		assert_int_equal(rec.items[1].ordinal, 1);
		assert_int_equal(rec.items[1].op, CREATE);
		assert_int_equal(rec.items[1].length, 200);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		assert_int_equal(info.n_ddp_capable, 1);
		rr_wbuf_free(&w);
	}
}

/* Op counts from the wire are bounded. */
static void test_op_count_bombs(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	/* 1001 GETFH ops, all present: over the limit of 1000. */
	x_args_hdr(&w, 1, 1001);
	for (int i = 0; i < 1001; i++)
		x_u32(&w, GETFH);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_MALFORMED);
	assert_int_equal(info.n_ops, 0);
	assert_true(info.ops_truncated);
	/* 1000 is allowed; the list keeps the first 128. */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 1000);
	for (int i = 0; i < 1000; i++)
		x_u32(&w, i == 999 ? READLINK : GETFH);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(info.n_ops, RR_ULP_MAX_OPS);
	assert_true(info.ops_truncated);
	assert_int_equal(info.n_ddp_capable, 1);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* 0xffffffff ops in a short message. */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 0xffffffffu);
	x_u32(&w, GETFH);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_MALFORMED);
	/* 5 ops announced, 2 present. */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 5);
	x_u32(&w, GETFH);
	x_u32(&w, GETFH);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_MALFORMED);
	/* Replies: 1001 results; a 0x40000000 count. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 1001);
	for (int i = 0; i < 1001; i++) {
		x_u32(&w, PUTROOTFH);
		x_u32(&w, 0);
	}
	assert_int_equal(walk_reply4(&w, &rec, &info, &c), RR_ULP_MALFORMED);
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 0x40000000u);
	assert_int_equal(walk_reply4(&w, &rec, &info, &c), RR_ULP_MALFORMED);
	/* 200 results, a READ at the end: the item is found past the op list's end. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 200);
	for (int i = 0; i < 199; i++) {
		x_u32(&w, PUTROOTFH);
		x_u32(&w, 0);
	}
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, true);
	x_len_only(&w, 512);
	rec.moved = 1;
	assert_int_equal(walk_reply4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	assert_int_equal(info.n_ops, RR_ULP_MAX_OPS);
	assert_true(info.ops_truncated);
	rr_wbuf_free(&w);
}

/* Unknown ops stop the walk with what was learnt. */
static void test_unknown_op(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 2, 4);
	x_sequence_args(&w);
	x_u32(&w, PUTROOTFH);
	x_u32(&w, 99);
	x_u32(&w, 0);
	x_u32(&w, GETFH);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_UNSUPPORTED);
	assert_int_equal(info.n_ops, 3);
	assert_int_equal(info.ops[0], SEQUENCE);
	assert_int_equal(info.ops[1], PUTROOTFH);
	assert_int_equal(info.ops[2], 99);
	assert_true(info.ops_truncated);

	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 2);
	x_u32(&w, PUTROOTFH);
	x_u32(&w, 0);
	x_u32(&w, 76);
	x_u32(&w, 0);
	assert_int_equal(walk_reply4(&w, &rec, &info, &c), RR_ULP_UNSUPPORTED);
	assert_int_equal(info.n_ops, 2);
	assert_true(info.ops_truncated);

	/* OP_ILLEGAL is known: void arguments, ILLEGAL4res { status }. */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 0, 1);
	x_u32(&w, ILLEGAL);
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 10044, 1);
	x_u32(&w, ILLEGAL);
	x_u32(&w, 10044);
	assert_int_equal(walk_reply4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(info.status, 10044);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* NULL procedure: nothing; procedure 2: not NFSv4. */
	{
		struct rr_rpc_call call = mk_call(NFS, 4, 0);

		x_cursor(&c, &w);
		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
		call.proc = 2;
		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_UNSUPPORTED);
	}
	assert_int_equal(rec.n, 0);
	assert_string_equal(rr_nfs4_op_name(READ), "READ");
	assert_string_equal(rr_nfs4_op_name(75), "REMOVEXATTR");
	assert_string_equal(rr_nfs4_op_name(ILLEGAL), "ILLEGAL");
	assert_null(rr_nfs4_op_name(2));
	assert_null(rr_nfs4_op_name(76));
	rr_wbuf_free(&w);
}

/* RPCSEC_GSS: integrity wraps the body (no reduction), privacy hides it. */
static void test_gss(void **state)
{
	struct rr_wbuf w, body;
	struct rr_cursor c;
	struct rr_ulp_info info, out;
	struct rr_rpc_call call = mk_call(NFS, 4, 1);
	struct rr_rpc_reply reply = mk_reply();
	struct rec rec = { .moved = 1 };

	(void)state;
	call.cred_flavor = RR_AUTH_GSS;
	call.is_gss = true;
	call.gss_proc = RR_GSS_PROC_DATA;
	call.gss_service = RR_GSS_SVC_INTEGRITY;
	rr_wbuf_init(&body, 0);
	x_u32(&body, 99);                 /* seq_num */
	x_args_hdr(&body, 1, 3);
	x_sequence_args(&body);
	x_u32(&body, PUTFH);
	x_nfs_fh4(&body, 16);
	x_u32(&body, WRITE);
	x_stateid(&body);
	x_u64(&body, 0);
	x_u32(&body, 0);
	x_opaque(&body, "integrity-protected", 19);
	rr_wbuf_init(&w, 0);
	x_opaque(&w, body.data, (uint32_t)body.len);   /* databody_integ */
	x_opaque(&w, "checksum-mic", 12);              /* checksum */
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(rec.n, 0);       /* nothing is eligible under integrity */
	assert_int_equal(info.n_ddp_items, 0);
	assert_int_equal(info.n_ops, 3);
	assert_int_equal(info.ops[2], WRITE);
	assert_true(info.is_gss);
	assert_int_equal(info.gss_service, RR_GSS_SVC_INTEGRITY);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* The reply, wrapped the same way. */
	rr_wbuf_reset(&body);
	x_u32(&body, 99);
	x_res_hdr(&body, 0, 2);
	x_u32(&body, PUTFH);
	x_u32(&body, 0);
	x_u32(&body, READ);
	x_u32(&body, 0);
	x_bool(&body, true);
	x_opaque(&body, "abc", 3);
	rr_wbuf_reset(&w);
	x_opaque(&w, body.data, (uint32_t)body.len);
	x_opaque(&w, "mic", 3);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_reply(&info, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
	assert_int_equal(rec.n, 0);
	assert_int_equal(out.n_ops, 2);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* A reduced body under integrity does not decode. */
	rr_wbuf_reset(&body);
	x_u32(&body, 99);
	x_res_hdr(&body, 0, 1);
	x_u32(&body, READ);
	x_u32(&body, 0);
	x_bool(&body, true);
	x_len_only(&body, 4096);
	rr_wbuf_reset(&w);
	x_opaque(&w, body.data, (uint32_t)body.len);
	x_opaque(&w, "mic", 3);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_reply(&info, &reply, &c, rec_fn, &rec, &out), RR_ULP_MALFORMED);

	/* Privacy: nothing can be seen, nothing is eligible. */
	call.gss_service = RR_GSS_SVC_PRIVACY;
	rr_wbuf_reset(&w);
	x_opaque(&w, "ciphertext......", 16);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(info.n_ops, 0);
	assert_true(info.ops_truncated);
	assert_int_equal(rr_ulp_walk_reply(&info, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
	assert_true(out.ops_truncated);

	/* Context creation: the body is a GSS token, not COMPOUND args. */
	call.gss_proc = RR_GSS_PROC_INIT;
	call.gss_service = RR_GSS_SVC_NONE;
	call.proc = 1;
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(info.n_ops, 0);
	assert_int_equal(rr_cursor_pos(&c), 0);

	/* Service none: plain, reduction allowed. */
	call.gss_proc = RR_GSS_PROC_DATA;
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 1);
	x_u32(&w, WRITE);
	x_stateid(&w);
	x_u64(&w, 0);
	x_u32(&w, 0);
	x_len_only(&w, 100);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	rr_wbuf_free(&w);
	rr_wbuf_free(&body);
}

/* The callback program: CB_COMPOUND ops are listed, nothing is eligible. */
static void test_callback(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info, out;
	struct rr_rpc_call call = mk_call(CB_PROG, 1, 1);
	struct rr_rpc_reply reply = mk_reply();
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_str(&w, "cbtag");
	x_u32(&w, 1);                 /* minorversion */
	x_u32(&w, 7);                 /* callback_ident */
	x_u32(&w, 14);
	x_u32(&w, 11);                /* CB_SEQUENCE with one referring call list */
	x_sessionid(&w); x_u32(&w, 1); x_u32(&w, 0); x_u32(&w, 0); x_bool(&w, false);
	x_u32(&w, 1); x_sessionid(&w); x_u32(&w, 2); x_u32(&w, 5); x_u32(&w, 0); x_u32(&w, 6); x_u32(&w, 1);
	x_u32(&w, 4);                 /* CB_RECALL { stateid4; bool truncate; nfs_fh4 } */
	x_stateid(&w); x_bool(&w, false); x_nfs_fh4(&w, 32);
	x_u32(&w, 3);                 /* CB_GETATTR { nfs_fh4; bitmap4 } */
	x_nfs_fh4(&w, 32); x_bitmap(&w);
	x_u32(&w, 5);                 /* CB_LAYOUTRECALL FILE */
	x_u32(&w, 1); x_u32(&w, 3); x_bool(&w, true);
	x_u32(&w, 1); x_nfs_fh4(&w, 20); x_u64(&w, 0); x_u64(&w, ~0ull); x_stateid(&w);
	x_u32(&w, 5);                 /* CB_LAYOUTRECALL FSID */
	x_u32(&w, 1); x_u32(&w, 3); x_bool(&w, false); x_u32(&w, 2); x_u64(&w, 1); x_u64(&w, 2);
	x_u32(&w, 6);                 /* CB_NOTIFY */
	x_stateid(&w); x_nfs_fh4(&w, 20); x_u32(&w, 1); x_bitmap(&w); x_opaque(&w, "notify", 6);
	x_u32(&w, 7);                 /* CB_PUSH_DELEG with a read delegation */
	x_nfs_fh4(&w, 20); x_u32(&w, 1); x_stateid(&w); x_bool(&w, false); x_nfsace(&w);
	x_u32(&w, 8); x_u32(&w, 0); x_bitmap(&w);         /* CB_RECALL_ANY */
	x_u32(&w, 9); x_u32(&w, 0); x_bitmap(&w);         /* CB_RECALLABLE_OBJ_AVAIL */
	x_u32(&w, 10); x_u32(&w, 3);                       /* CB_RECALL_SLOT */
	x_u32(&w, 12); x_bool(&w, true); x_bool(&w, false);   /* CB_WANTS_CANCELLED */
	x_u32(&w, 13); x_nfs_fh4(&w, 20); x_owner(&w);     /* CB_NOTIFY_LOCK */
	x_u32(&w, 14); x_u32(&w, 1); x_bitmap(&w); x_opaque(&w, "dev", 3);   /* CB_NOTIFY_DEVICEID */
	x_u32(&w, 15);                /* CB_OFFLOAD, failed copy: bytes copied */
	x_nfs_fh4(&w, 20); x_stateid(&w); x_u32(&w, 5); x_u64(&w, 4096);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(info.n_ops, 14);
	assert_int_equal(info.ops[0], 11);
	assert_int_equal(info.ops[13], 15);
	assert_int_equal(info.minorversion, 1);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 3);
	x_u32(&w, 11); x_u32(&w, 0);
	x_sessionid(&w); x_u32(&w, 1); x_u32(&w, 0); x_u32(&w, 0); x_u32(&w, 0);
	x_u32(&w, 3); x_u32(&w, 0); x_fattr(&w);
	x_u32(&w, 4); x_u32(&w, 10008);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_reply(&info, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
	assert_int_equal(out.n_ops, 3);
	assert_int_equal(out.ops[2], 4);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(rec.n, 0);
	assert_string_equal(rr_nfs4_cb_op_name(11), "CB_SEQUENCE");
	assert_string_equal(rr_nfs4_cb_op_name(4), "CB_RECALL");
	assert_string_equal(rr_nfs4_cb_op_name(ILLEGAL), "CB_ILLEGAL");
	assert_null(rr_nfs4_cb_op_name(16));
	rr_wbuf_free(&w);
}

/* Every prefix of a good reply is malformed, never OK. */
static void test_truncated_reply(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info ci, out;
	struct rr_rpc_reply reply = mk_reply();

	(void)state;
	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 4;
	ci.proc = 1;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 5);
	x_sequence_res(&w);
	x_u32(&w, PUTFH); x_u32(&w, 0);
	x_u32(&w, 18); x_u32(&w, 0); x_op_res_ok(&w, 18);
	x_u32(&w, GETATTR); x_u32(&w, 0); x_fattr(&w);
	x_u32(&w, READ); x_u32(&w, 0); x_bool(&w, true); x_opaque(&w, "abcde", 5);
	for (size_t n = 0; n < w.len; n++) {
		struct rec rec = { 0 };

		rr_cursor_init(&c, w.data, n);
		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &out),
				 RR_ULP_MALFORMED);
	}
	rr_cursor_init(&c, w.data, w.len);
	{
		struct rec rec = { 0 };

		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
	}
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_putfh_read),
		cmocka_unit_test(test_two_reads_first_fails),
		cmocka_unit_test(test_read_readlink_read),
		cmocka_unit_test(test_readlink),
		cmocka_unit_test(test_write_getattr_call),
		cmocka_unit_test(test_read_args_kept),
		cmocka_unit_test(test_create_symlink_call),
		cmocka_unit_test(test_op_count_bombs),
		cmocka_unit_test(test_unknown_op),
		cmocka_unit_test(test_gss),
		cmocka_unit_test(test_callback),
		cmocka_unit_test(test_truncated_reply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
