// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr_ulp_walk_call_args: the arguments of NFSv3 procedures (RFC 1813 3.3)
 * and NFSv4 ops (RFC 8881 18) a responder acts on, and rr_nfs3_read_fh.
 * The XDR is built here field by field from the RFC structure definitions;
 * every expected value is what the bytes were built with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nfs4_enc.h"

#define MAX_SEEN 8

struct seen {
	unsigned n;
	unsigned index[MAX_SEEN];
	struct rr_ulp_op_args a[MAX_SEEN];
};

static void keep(void *ctx, unsigned index, const struct rr_ulp_op_args *a)
{
	struct seen *s = ctx;

	assert_true(s->n < MAX_SEEN);
	s->index[s->n] = index;
	s->a[s->n++] = *a;
}

static enum rr_ulp_result walk(const struct rr_wbuf *w, uint32_t vers, uint32_t proc,
			       struct seen *s, struct rr_ulp_info *info)
{
	struct rr_rpc_call call = mk_call(NFS, vers, proc);
	struct rr_cursor c;

	memset(s, 0, sizeof(*s));
	x_cursor(&c, w);
	return rr_ulp_walk_call_args(&call, &c, keep, s, info);
}

static const uint8_t fh3[28] = { 1, 0, 7, 1, 9, 9, 9, 9, 0xab, 0xcd };

/* sattr3 with nothing set: set_mode3 .. set_size3 FALSE, atime and mtime DONT_CHANGE */
static void x_sattr3_none(struct rr_wbuf *w)
{
	for (int i = 0; i < 6; i++)
		x_u32(w, 0);
}

static void test_nfs3(void **state)
{
	struct rr_wbuf w;
	struct rr_ulp_info info;
	struct seen s;
	const char data[] = "0123456789abc";
	(void)state;

	rr_wbuf_init(&w, 0);
	/* WRITE3args { nfs_fh3; offset3; count3; stable_how; opaque data<>; } */
	x_opaque(&w, fh3, sizeof(fh3));
	x_u64(&w, 0x100000001ull);
	x_u32(&w, 13);
	x_u32(&w, 2);
	x_opaque(&w, data, 13);
	assert_int_equal(walk(&w, 3, RR_NFS3_PROC_WRITE, &s, &info), RR_ULP_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.index[0], 0);
	assert_int_equal(s.a[0].op, RR_NFS3_PROC_WRITE);
	assert_int_equal(s.a[0].fh_len, sizeof(fh3));
	assert_memory_equal(s.a[0].fh, fh3, sizeof(fh3));
	assert_true(s.a[0].offset == 0x100000001ull);
	assert_int_equal(s.a[0].item_len, 13);
	assert_memory_equal(s.a[0].item, data, 13);

	/* READ3args { nfs_fh3; offset3; count3; } */
	rr_wbuf_reset(&w);
	x_opaque(&w, fh3, 12);
	x_u64(&w, 8192);
	x_u32(&w, 4096);
	assert_int_equal(walk(&w, 3, RR_NFS3_PROC_READ, &s, &info), RR_ULP_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.a[0].fh_len, 12);
	assert_true(s.a[0].offset == 8192);
	assert_true(info.op_offset[0] == 8192);
	assert_int_equal(info.op_count[0], 4096);
	assert_null(s.a[0].item);

	/* LOOKUP3args { diropargs3 { nfs_fh3 dir; filename3 name; } } */
	rr_wbuf_reset(&w);
	x_opaque(&w, fh3, sizeof(fh3));
	x_str(&w, "file.txt");
	assert_int_equal(walk(&w, 3, 3, &s, &info), RR_ULP_OK);
	assert_int_equal(s.a[0].op, 3);
	assert_int_equal(s.a[0].name_len, 8);
	assert_memory_equal(s.a[0].name, "file.txt", 8);

	/* SYMLINK3args { diropargs3 where; sattr3; nfspath3 symlink_data; } */
	rr_wbuf_reset(&w);
	x_opaque(&w, fh3, sizeof(fh3));
	x_str(&w, "ln");
	x_sattr3_none(&w);
	x_str(&w, "/target/path");
	assert_int_equal(walk(&w, 3, RR_NFS3_PROC_SYMLINK, &s, &info), RR_ULP_OK);
	assert_int_equal(s.a[0].name_len, 2);
	assert_memory_equal(s.a[0].name, "ln", 2);
	assert_int_equal(s.a[0].item_len, 12);
	assert_memory_equal(s.a[0].item, "/target/path", 12);

	/* NULL: no arguments, still one procedure reported */
	rr_wbuf_reset(&w);
	assert_int_equal(walk(&w, 3, 0, &s, &info), RR_ULP_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.a[0].op, 0);

	/* a WRITE cut inside its data: nothing reported */
	rr_wbuf_reset(&w);
	x_opaque(&w, fh3, sizeof(fh3));
	x_u64(&w, 0);
	x_u32(&w, 13);
	x_u32(&w, 2);
	x_u32(&w, 13);
	assert_int_equal(walk(&w, 3, RR_NFS3_PROC_WRITE, &s, &info), RR_ULP_MALFORMED);
	assert_int_equal(s.n, 0);
	rr_wbuf_free(&w);
}

static void test_nfs4(void **state)
{
	struct rr_wbuf w;
	struct rr_ulp_info info;
	struct seen s;
	uint8_t fh4[40];
	uint8_t sid[16];
	(void)state;

	memset(fh4, 0x42, sizeof(fh4));
	memset(sid, 0x11, sizeof(sid));   /* x_sessionid's bytes */
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 1, 6);
	x_sequence_args(&w);              /* sequenceid 1 */
	x_u32(&w, PUTFH);
	x_opaque(&w, fh4, sizeof(fh4));
	/* WRITE4args { stateid4; offset4; stable_how4; opaque data<>; } */
	x_u32(&w, WRITE);
	x_stateid(&w);
	x_u64(&w, 65536);
	x_u32(&w, 0);
	x_str(&w, "hello");
	/* READ4args { stateid4; offset4; count4; } */
	x_u32(&w, READ);
	x_stateid(&w);
	x_u64(&w, 4096);
	x_u32(&w, 512);
	x_u32(&w, LOOKUP);
	x_str(&w, "dir");
	/* CREATE4args { createtype4 (NF4LNK: linkdata); component4 objname; fattr4 } */
	x_u32(&w, CREATE);
	x_u32(&w, 5);
	x_str(&w, "../to");
	x_str(&w, "link");
	x_fattr(&w);
	assert_int_equal(walk(&w, 4, 1, &s, &info), RR_ULP_OK);
	assert_int_equal(s.n, 6);
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(s.index[i], i);
	assert_int_equal(s.a[0].op, SEQUENCE);
	assert_memory_equal(s.a[0].sessionid, sid, 16);
	assert_int_equal(s.a[0].seqid, 1);
	assert_int_equal(s.a[1].op, PUTFH);
	assert_int_equal(s.a[1].fh_len, sizeof(fh4));
	assert_memory_equal(s.a[1].fh, fh4, sizeof(fh4));
	assert_int_equal(s.a[2].op, WRITE);
	assert_true(s.a[2].offset == 65536);
	assert_int_equal(s.a[2].item_len, 5);
	assert_memory_equal(s.a[2].item, "hello", 5);
	assert_null(s.a[2].fh);
	assert_int_equal(s.a[3].op, READ);
	assert_true(s.a[3].offset == 4096);
	assert_int_equal(info.op_count[3], 512);
	assert_int_equal(s.a[4].name_len, 3);
	assert_memory_equal(s.a[4].name, "dir", 3);
	assert_int_equal(s.a[5].op, CREATE);
	assert_int_equal(s.a[5].item_len, 5);
	assert_int_equal(s.a[5].name_len, 4);
	assert_memory_equal(s.a[5].name, "link", 4);

	/* an op cut short: the ones before it are reported, it is not */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 1, 2);
	x_u32(&w, PUTROOTFH);
	x_u32(&w, PUTFH);
	x_u32(&w, 64);
	assert_int_equal(walk(&w, 4, 1, &s, &info), RR_ULP_MALFORMED);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.a[0].op, PUTROOTFH);
	rr_wbuf_free(&w);
}

/* The plain walk reports no arguments, and another program reports none either. */
static void test_plain_walk_and_other_programs(void **state)
{
	struct rr_wbuf w;
	struct rr_ulp_info info;
	struct rr_rpc_call call = mk_call(RR_MOUNT_PROGRAM, 3, 1);
	struct rr_cursor c;
	struct seen s;
	(void)state;

	rr_wbuf_init(&w, 0);
	x_str(&w, "/export");
	memset(&s, 0, sizeof(s));
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call_args(&call, &c, keep, &s, &info), RR_ULP_OK);
	assert_int_equal(s.n, 0);
	/* a NULL afn is allowed: the walk only describes */
	rr_wbuf_reset(&w);
	x_args_hdr(&w, 0, 1);
	x_u32(&w, PUTROOTFH);
	call = mk_call(NFS, 4, 1);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call_args(&call, &c, NULL, NULL, &info), RR_ULP_OK);
	assert_int_equal(info.n_ops, 1);
	rr_wbuf_free(&w);
}

static void test_nfs3_read_fh(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	const uint8_t *p;
	uint32_t n;
	uint8_t big[65] = { 0 };
	(void)state;

	rr_wbuf_init(&w, 0);
	x_opaque(&w, fh3, 10);
	x_u32(&w, 0xfeed);
	x_cursor(&c, &w);
	assert_true(rr_nfs3_read_fh(&c, &p, &n));
	assert_int_equal(n, 10);
	assert_memory_equal(p, fh3, 10);
	assert_int_equal(rr_cursor_pos(&c), 16);   /* length word, bytes, pad */
	/* NFS3_FHSIZE is 64: a longer handle is refused */
	rr_wbuf_reset(&w);
	x_opaque(&w, big, sizeof(big));
	x_cursor(&c, &w);
	assert_false(rr_nfs3_read_fh(&c, &p, &n));
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nfs3),
		cmocka_unit_test(test_nfs4),
		cmocka_unit_test(test_plain_walk_and_other_programs),
		cmocka_unit_test(test_nfs3_read_fh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
