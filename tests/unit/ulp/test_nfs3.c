// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFSv3 (RFC 1813) and NFSv2 (RFC 1094) walkers.  The XDR is built here
 * field by field from the RFC structure definitions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ulp_test.h"
#include "xdr_enc.h"

#define NFS 100003u

/* fattr3 (RFC 1813 2.5): type, mode, nlink, uid, gid, size3 size, size3 used,
 * specdata3 rdev, uint64 fsid, fileid3 fileid, nfstime3 atime, mtime, ctime */
static void x_fattr3(struct rr_wbuf *w)
{
	x_u32(w, 1);          /* NF3REG */
	x_u32(w, 0644);
	x_u32(w, 1);
	x_u32(w, 0);
	x_u32(w, 0);
	x_u64(w, 4096);
	x_u64(w, 8192);
	x_u32(w, 0);
	x_u32(w, 0);
	x_u64(w, 0x77);
	x_u64(w, 0x1234);
	for (int i = 0; i < 3; i++) {
		x_u32(w, 1700000000);
		x_u32(w, 5);
	}
}

static void x_post_op_attr(struct rr_wbuf *w, bool present)
{
	x_bool(w, present);
	if (present)
		x_fattr3(w);
}

/* nfs_fh3 { opaque data<NFS3_FHSIZE>; } */
static void x_nfs_fh3(struct rr_wbuf *w, uint32_t len)
{
	uint8_t buf[80];

	memset(buf, 0xcd, sizeof(buf));
	x_opaque(w, buf, len);
}

static void x_fh3(struct rr_wbuf *w)
{
	x_nfs_fh3(w, 28);
}

/* sattr3 with every set_* arm exercised */
static void x_sattr3(struct rr_wbuf *w)
{
	x_bool(w, true);      /* set_mode3 */
	x_u32(w, 0777);
	x_bool(w, false);     /* set_uid3 */
	x_bool(w, true);      /* set_gid3 */
	x_u32(w, 100);
	x_bool(w, true);      /* set_size3 */
	x_u64(w, 0);
	x_u32(w, 2);          /* set_atime: SET_TO_CLIENT_TIME */
	x_u32(w, 1);
	x_u32(w, 2);
	x_u32(w, 1);          /* set_mtime: SET_TO_SERVER_TIME */
}

static enum rr_ulp_result walk_reply3(uint32_t proc, const struct rr_wbuf *w, struct rec *rec,
				      struct rr_ulp_info *out, struct rr_cursor *c)
{
	struct rr_ulp_info ci;
	struct rr_rpc_reply reply = mk_reply();

	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 3;
	ci.proc = proc;
	x_cursor(c, w);
	return rr_ulp_walk_reply(&ci, &reply, c, rec_fn, rec, out);
}

static enum rr_ulp_result walk_call3(uint32_t vers, uint32_t proc, const struct rr_wbuf *w,
				     struct rec *rec, struct rr_ulp_info *out,
				     struct rr_cursor *c)
{
	struct rr_rpc_call call = mk_call(NFS, vers, proc);

	x_cursor(c, w);
	return rr_ulp_walk_call(&call, c, rec_fn, rec, out);
}

/* READ3res, NFS3_OK, with attributes, data inline (fn says not moved). */
static void test_read_resok_inline(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_u32(&w, 0);                 /* NFS3_OK */
	x_post_op_attr(&w, true);
	x_u32(&w, 5);                 /* count */
	x_bool(&w, true);             /* eof */
	size_t at = w.len + 4;
	x_opaque(&w, "hello", 5);     /* data<>: 5 + 3 pad */
	assert_int_equal(walk_reply3(6, &w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].ordinal, 0);
	assert_int_equal(rec.items[0].op, 6);
	assert_int_equal(rec.items[0].length, 5);
	assert_int_equal(rec.items[0].data_pos, at);
	assert_int_equal(rr_cursor_pos(&c), w.len);   /* bytes and pad were skipped */
	assert_int_equal(out.status, 0);
	assert_int_equal(out.prog, NFS);
	assert_int_equal(out.proc, 6);
	assert_int_equal(out.n_ddp_items, 1);
	rr_wbuf_free(&w);
}

/* The same reply reduced: the data went to a Write chunk. */
static void test_read_resok_moved(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 1 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_u32(&w, 0);
	x_post_op_attr(&w, false);
	x_u32(&w, 65536);
	x_bool(&w, false);
	x_len_only(&w, 65536);        /* no bytes, no pad inline */
	assert_int_equal(walk_reply3(6, &w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].length, 65536);
	assert_int_equal(rec.items[0].data_pos, 4 + 4 + 4 + 4 + 4);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* If fn says the bytes are inline, the walk runs off the end. */
	struct rec rec2 = { 0 };

	assert_int_equal(walk_reply3(6, &w, &rec2, &out, &c), RR_ULP_MALFORMED);
	assert_int_equal(rec2.n, 1);
	rr_wbuf_free(&w);
}

/* READ3resfail: status and post_op_attr only, no item. */
static void test_read_resfail(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 1 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_u32(&w, 70);                /* NFS3ERR_STALE */
	x_post_op_attr(&w, true);
	assert_int_equal(walk_reply3(6, &w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rec.n, 0);
	assert_int_equal(out.status, 70);
	assert_int_equal(out.n_ddp_items, 0);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* post_op_attr's bool must be 0 or 1. */
	rr_wbuf_reset(&w);
	x_u32(&w, 70);
	x_u32(&w, 2);
	assert_int_equal(walk_reply3(6, &w, &rec, &out, &c), RR_ULP_MALFORMED);
	rr_wbuf_free(&w);
}

/* READLINK3res: status, post_op_attr, nfspath3 (DDP item), both ways. */
static void test_readlink(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_u32(&w, 0);
	x_post_op_attr(&w, true);
	size_t at = w.len + 4;
	x_str(&w, "/a/b/target");
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_reply3(5, &w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].op, 5);
		assert_int_equal(rec.items[0].length, 11);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	rr_wbuf_reset(&w);
	x_u32(&w, 0);
	x_post_op_attr(&w, false);
	x_len_only(&w, 11);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_reply3(5, &w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.items[0].data_pos, 12);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	/* resfail */
	rr_wbuf_reset(&w);
	x_u32(&w, 22);
	x_post_op_attr(&w, false);
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_reply3(5, &w, &rec, &out, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 0);
		assert_int_equal(out.status, 22);
	}
	rr_wbuf_free(&w);
}

/* WRITE3args { nfs_fh3; offset3; count3; stable_how; opaque data<>; } */
static void test_write_call(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_fh3(&w);
	x_u64(&w, 1ull << 40);
	x_u32(&w, 6);
	x_u32(&w, 2);                 /* FILE_SYNC */
	size_t at = w.len + 4;
	x_opaque(&w, "abcdef", 6);
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_call3(3, 7, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].op, 7);
		assert_int_equal(rec.items[0].length, 6);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
		assert_int_equal(info.prog, NFS);
		assert_int_equal(info.vers, 3);
		assert_int_equal(info.proc, 7);
		assert_int_equal(info.n_ddp_capable, 0);
	}
	/* Reduced: the data was moved to a read chunk. */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_u64(&w, 0);
	x_u32(&w, 1048576);
	x_u32(&w, 0);
	x_len_only(&w, 1048576);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_call3(3, 7, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.items[0].length, 1048576);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	/* fn == NULL: describe only; the reduced form does not decode. */
	x_cursor(&c, &w);
	{
		struct rr_rpc_call call = mk_call(NFS, 3, 7);

		assert_int_equal(rr_ulp_walk_call(&call, &c, NULL, NULL, &info), RR_ULP_MALFORMED);
	}
	/* A 65-octet file handle is not an nfs_fh3. */
	rr_wbuf_reset(&w);
	x_nfs_fh3(&w, 65);
	x_u64(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_call3(3, 7, &w, &rec, &info, &c), RR_ULP_MALFORMED);
		assert_int_equal(rec.n, 0);
	}
	rr_wbuf_free(&w);
}

/* SYMLINK3args { diropargs3 where; symlinkdata3 { sattr3; nfspath3 symlink_data; } } */
static void test_symlink_call(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;

	(void)state;
	rr_wbuf_init(&w, 0);
	x_nfs_fh3(&w, 64);
	x_str(&w, "newlink");
	x_sattr3(&w);
	size_t at = w.len + 4;
	x_str(&w, "../target/file");
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_call3(3, 10, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].op, 10);
		assert_int_equal(rec.items[0].ordinal, 0);
		assert_int_equal(rec.items[0].length, 14);
		assert_int_equal(rec.items[0].data_pos, at);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	rr_wbuf_reset(&w);
	x_nfs_fh3(&w, 8);
	x_str(&w, "l");
	x_sattr3(&w);
	x_len_only(&w, 3000);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_call3(3, 10, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.items[0].length, 3000);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	rr_wbuf_free(&w);
}

/* Every other procedure's arguments are skipped exactly, with no item. */
static void test_other_calls(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	/* CREATE3args: where, createhow3 EXCLUSIVE (verifier) */
	x_fh3(&w);
	x_str(&w, "f");
	x_u32(&w, 2);
	x_fill(&w, 1, 8);
	assert_int_equal(walk_call3(3, 8, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* createhow3 mode 3 has no arm */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_str(&w, "f");
	x_u32(&w, 3);
	assert_int_equal(walk_call3(3, 8, &w, &rec, &info, &c), RR_ULP_MALFORMED);
	/* MKNOD3args: where, mknoddata3 NF3CHR { sattr3; specdata3 } */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_str(&w, "dev");
	x_u32(&w, 4);
	x_sattr3(&w);
	x_u32(&w, 1);
	x_u32(&w, 3);
	assert_int_equal(walk_call3(3, 11, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* SETATTR3args: object, sattr3, sattrguard3 TRUE */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_sattr3(&w);
	x_bool(&w, true);
	x_u32(&w, 1);
	x_u32(&w, 2);
	assert_int_equal(walk_call3(3, 2, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* READDIRPLUS3args: dir, cookie3, cookieverf3, dircount, maxcount */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_u64(&w, 0);
	x_fill(&w, 0, 8);
	x_u32(&w, 4096);
	x_u32(&w, 32768);
	assert_int_equal(walk_call3(3, 17, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* READDIR3args: dir, cookie3, cookieverf3, count: the count is kept */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_u64(&w, 0);
	x_fill(&w, 0, 8);
	x_u32(&w, 8192);
	assert_int_equal(walk_call3(3, 16, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_int_equal(info.op_count[0], 8192);
	/* RENAME3args, LINK3args */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_str(&w, "a");
	x_fh3(&w);
	x_str(&w, "bbbbb");
	assert_int_equal(walk_call3(3, 14, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* READ3args: n_ddp_capable is 1 */
	rr_wbuf_reset(&w);
	x_fh3(&w);
	x_u64(&w, 0x123456789aull);
	x_u32(&w, 4096);
	assert_int_equal(walk_call3(3, 6, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(info.n_ddp_capable, 1);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	/* ... and its offset and count, what a responder sizes the result by */
	assert_int_equal(info.op_count[0], 4096);
	assert_true(info.op_offset[0] == 0x123456789aull);
	/* COMMIT reply: only the status is read */
	rr_wbuf_reset(&w);
	x_u32(&w, 10008);
	assert_int_equal(walk_reply3(21, &w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(info.status, 10008);
	/* procedure 22 does not exist */
	assert_int_equal(walk_call3(3, 22, &w, &rec, &info, &c), RR_ULP_UNSUPPORTED);
	assert_int_equal(rec.n, 0);
	rr_wbuf_free(&w);
}

/* NFSv2: WRITE and SYMLINK arguments, READ and READLINK results. */
static void test_nfs2(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rr_ulp_info ci;
	struct rr_rpc_reply reply = mk_reply();

	(void)state;
	rr_wbuf_init(&w, 0);
	/* writeargs { fhandle (32 octets); beginoffset; offset; totalcount; nfsdata } */
	rr_put_zeros(&w, 32);
	x_u32(&w, 0);
	x_u32(&w, 8192);
	x_u32(&w, 0);
	x_opaque(&w, "xyz", 3);
	{
		struct rec rec = { 0 };

		assert_int_equal(walk_call3(2, 8, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].data_pos, 48);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	/* nfsdata<8192>: 8193 octets is malformed */
	rr_wbuf_reset(&w);
	rr_put_zeros(&w, 32 + 12);
	x_len_only(&w, 8193);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_call3(2, 8, &w, &rec, &info, &c), RR_ULP_MALFORMED);
	}
	/* symlinkargs { diropargs from; path to; sattr attributes } */
	rr_wbuf_reset(&w);
	rr_put_zeros(&w, 32);
	x_str(&w, "ln");
	x_len_only(&w, 100);
	rr_put_zeros(&w, 32);
	{
		struct rec rec = { .moved = 1 };

		assert_int_equal(walk_call3(2, 13, &w, &rec, &info, &c), RR_ULP_OK);
		assert_int_equal(rec.items[0].length, 100);
		assert_int_equal(rec.items[0].data_pos, 32 + 8 + 4);
		assert_int_equal(rr_cursor_pos(&c), w.len);   /* the sattr followed inline */
	}
	/* readres NFS_OK { fattr (68 octets); nfsdata } */
	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 2;
	ci.proc = 6;
	rr_wbuf_reset(&w);
	x_u32(&w, 0);
	rr_put_zeros(&w, 68);
	x_opaque(&w, "data!", 5);
	x_cursor(&c, &w);
	{
		struct rec rec = { 0 };

		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &info), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].data_pos, 76);
		assert_int_equal(rr_cursor_pos(&c), w.len);
	}
	/* readlinkres NFS_OK: path; and an error */
	ci.proc = 5;
	rr_wbuf_reset(&w);
	x_u32(&w, 0);
	x_str(&w, "tgt");
	x_cursor(&c, &w);
	{
		struct rec rec = { 0 };

		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &info), RR_ULP_OK);
		assert_int_equal(rec.n, 1);
		assert_int_equal(rec.items[0].op, 5);
	}
	rr_wbuf_reset(&w);
	x_u32(&w, 2);
	x_cursor(&c, &w);
	{
		struct rec rec = { 0 };

		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &info), RR_ULP_OK);
		assert_int_equal(rec.n, 0);
		assert_int_equal(info.status, 2);
	}
	rr_wbuf_free(&w);
}

/* Every truncation of a good READ reply fails or is short of the item. */
static void test_truncated(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info ci, out;
	struct rr_rpc_reply reply = mk_reply();

	(void)state;
	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 3;
	ci.proc = 6;
	rr_wbuf_init(&w, 0);
	x_u32(&w, 0);
	x_post_op_attr(&w, true);
	x_u32(&w, 3);
	x_bool(&w, true);
	x_opaque(&w, "abc", 3);
	for (size_t n = 0; n < w.len; n++) {
		struct rec rec = { 0 };

		rr_cursor_init(&c, w.data, n);
		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &out),
				 RR_ULP_MALFORMED);
	}
	rr_wbuf_free(&w);
}

/* Replies that carry no results, unknown programs, auxiliary programs. */
static void test_misc(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info ci, out;
	struct rr_rpc_reply reply = mk_reply();
	struct rec rec = { 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 3;
	ci.proc = 6;
	reply.accept_stat = RR_ACCEPT_GARBAGE_ARGS;
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
	assert_int_equal(rec.n, 0);
	assert_int_equal(out.proc, 6);

	/* out aliasing callinfo */
	reply = mk_reply();
	x_u32(&w, 13);
	x_post_op_attr(&w, false);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &ci), RR_ULP_OK);
	assert_int_equal(ci.status, 13);
	assert_int_equal(ci.proc, 6);

	/* Program 100099 and NFS version 5 are unknown. */
	{
		struct rr_rpc_call call = mk_call(100099, 1, 1);

		x_cursor(&c, &w);
		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &out),
				 RR_ULP_UNKNOWN_PROGRAM);
		assert_int_equal(out.prog, 100099);
		call = mk_call(NFS, 5, 1);
		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &out),
				 RR_ULP_UNKNOWN_PROGRAM);
	}
	/* MOUNT v3 MNT: named, reply status read; NLM v4 LOCK: status after the cookie. */
	{
		struct rr_rpc_call call = mk_call(100005, 3, 1);

		x_cursor(&c, &w);
		assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &out), RR_ULP_OK);
		rr_wbuf_reset(&w);
		x_u32(&w, 13);   /* MNT3ERR_ACCES */
		x_cursor(&c, &w);
		assert_int_equal(rr_ulp_walk_reply(&out, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
		assert_int_equal(out.status, 13);
		assert_int_equal(out.prog, 100005);

		memset(&ci, 0, sizeof(ci));
		ci.prog = 100021;
		ci.vers = 4;
		ci.proc = 2;
		rr_wbuf_reset(&w);
		x_opaque(&w, "cookie", 6);
		x_u32(&w, 1);    /* nlm4_denied */
		x_cursor(&c, &w);
		assert_int_equal(rr_ulp_walk_reply(&ci, &reply, &c, rec_fn, &rec, &out), RR_ULP_OK);
		assert_int_equal(out.status, 1);
	}
	assert_int_equal(rec.n, 0);
	assert_string_equal(rr_nfs3_proc_name(7), "WRITE");
	assert_string_equal(rr_nfs3_proc_name(21), "COMMIT");
	assert_null(rr_nfs3_proc_name(22));
	assert_string_equal(rr_nfs2_proc_name(13), "SYMLINK");
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_resok_inline),
		cmocka_unit_test(test_read_resok_moved),
		cmocka_unit_test(test_read_resfail),
		cmocka_unit_test(test_readlink),
		cmocka_unit_test(test_write_call),
		cmocka_unit_test(test_symlink_call),
		cmocka_unit_test(test_other_calls),
		cmocka_unit_test(test_nfs2),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_misc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
