// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NFSv4 walker on what today's kernels send: the delegation types of
 * RFC 9754 (delegated timestamps), the session setup the checks read
 * (CREATE_SESSION, RFC 8881 18.36; BIND_CONN_TO_SESSION, 18.34), the
 * GETATTR attribute masks, and how an item the walker does not know is
 * named.  The bytes are built field by field from the RFCs' XDR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "nfs4_enc.h"

enum { OPEN = 18, BIND_CONN = 41, CREATE_SESSION = 43, WANT_DELEGATION = 56, CB_PUSH_DELEG = 7 };

/* OPEN4resok { stateid4; change_info4; uint32_t rflags; bitmap4 attrset; open_delegation4 } */
static void x_open_res_head(struct rr_wbuf *w)
{
	x_u32(w, OPEN);
	x_u32(w, 0);
	x_stateid(w);
	x_change_info(w);
	x_u32(w, 0x4);                /* OPEN4_RESULT_LOCKTYPE_POSIX */
	x_bitmap(w);
}

/* open_read_delegation4 { stateid4 stateid; bool recall; nfsace4 permissions; } */
static void x_read_deleg(struct rr_wbuf *w)
{
	x_stateid(w);
	x_bool(w, false);
	x_nfsace(w);
}

/* open_write_delegation4 { stateid4; bool recall; nfs_space_limit4 space_limit; nfsace4; }
 * with space_limit NFS_LIMIT_SIZE (1): uint64_t filesize */
static void x_write_deleg(struct rr_wbuf *w)
{
	x_stateid(w);
	x_bool(w, false);
	x_u32(w, 1);
	x_u64(w, UINT64_MAX);
	x_nfsace(w);
}

/*
 * RFC 9754: OPEN_DELEGATE_READ_ATTRS_DELEG (4) carries an
 * open_read_delegation4 and OPEN_DELEGATE_WRITE_ATTRS_DELEG (5) an
 * open_write_delegation4; a READ that follows still gets its ordinal.
 */
static void test_attrs_deleg(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 3);
	x_open_res_head(&w);
	x_u32(&w, 5);                 /* OPEN_DELEGATE_WRITE_ATTRS_DELEG */
	x_write_deleg(&w);
	x_open_res_head(&w);
	x_u32(&w, 4);                 /* OPEN_DELEGATE_READ_ATTRS_DELEG */
	x_read_deleg(&w);
	x_u32(&w, READ);
	x_u32(&w, 0);
	x_bool(&w, true);
	x_str(&w, "data");
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(out.n_ops, 3);
	assert_int_equal(rec.n, 1);
	assert_int_equal(rec.items[0].length, 4);
	assert_int_equal(rr_cursor_pos(&c), w.len);

	/* WANT_DELEGATION4res OK: open_delegation4 */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 1);
	x_u32(&w, WANT_DELEGATION);
	x_u32(&w, 0);
	x_u32(&w, 5);
	x_write_deleg(&w);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	rr_wbuf_free(&w);
}

/* CB_PUSH_DELEG4args { nfs_fh4 fh; open_delegation4 delegation; } with type 4 */
static void test_cb_push_attrs_deleg(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rr_rpc_call call = mk_call(CB_PROG, 1, 1);
	struct rec rec = { .moved = 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_str(&w, "");
	x_u32(&w, 1);                 /* minorversion */
	x_u32(&w, 77);                /* callback_ident */
	x_u32(&w, 1);
	x_u32(&w, CB_PUSH_DELEG);
	x_nfs_fh4(&w, 32);
	x_u32(&w, 4);
	x_read_deleg(&w);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &info), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	rr_wbuf_free(&w);
}

/* channel_attrs4 { headerpadsize; maxrequestsize; maxresponsesize;
 *   maxresponsesize_cached; maxoperations; maxrequests; uint32_t rdma_ird<1>; } */
static void x_chan(struct rr_wbuf *w, uint32_t req, uint32_t resp, bool ird)
{
	x_u32(w, 0);
	x_u32(w, req);
	x_u32(w, resp);
	x_u32(w, 4096);
	x_u32(w, 16);
	x_u32(w, 64);
	x_u32(w, ird ? 1 : 0);
	if (ird)
		x_u32(w, 8);
}

/* CREATE_SESSION4args and BIND_CONN_TO_SESSION4args: the fields the checks read. */
static void test_session_args(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info info;
	struct rec rec = { .moved = 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_args_hdr(&w, 1, 3);
	x_u32(&w, CREATE_SESSION);
	x_u64(&w, 0x1234);            /* csa_clientid */
	x_u32(&w, 1);                 /* csa_sequence */
	x_u32(&w, 0x3);               /* PERSIST | CONN_BACK_CHAN */
	x_chan(&w, 1049620, 1049480, true);
	x_chan(&w, 4096, 4097, false);
	x_u32(&w, 0x40000000);        /* csa_cb_program */
	x_u32(&w, 2);                 /* csa_sec_parms<>: AUTH_NONE, AUTH_SYS */
	x_u32(&w, 0);
	x_u32(&w, 1);
	x_u32(&w, 0); x_str(&w, "client"); x_u32(&w, 0); x_u32(&w, 0); x_u32(&w, 0);
	x_u32(&w, BIND_CONN);
	x_sessionid(&w);
	x_u32(&w, 7);                 /* CDFC4_BACK_OR_BOTH */
	x_bool(&w, true);
	x_u32(&w, GETATTR);           /* bitmap4 of three words: acl (12), fs_locations (24) */
	x_u32(&w, 3);
	x_u32(&w, (1u << 12) | (1u << 24));
	x_u32(&w, 0);
	x_u32(&w, 1u << (81 - 64));   /* mode_umask (RFC 8275) */
	assert_int_equal(walk_call4(&w, &rec, &info, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_true(info.sess.create_session);
	assert_int_equal(info.sess.cs_flags, 3);
	assert_int_equal(info.sess.fore_maxrequest, 1049620);
	assert_int_equal(info.sess.fore_maxresponse, 1049480);
	assert_int_equal(info.sess.back_maxrequest, 4096);
	assert_int_equal(info.sess.back_maxresponse, 4097);
	assert_true(info.sess.bind_conn);
	assert_int_equal(info.sess.bind_dir, 7);
	assert_int_equal(info.getattr_mask[0], (1u << 12) | (1u << 24));
	assert_int_equal(info.getattr_mask[2], 1u << 17);
	rr_wbuf_free(&w);
}

/* CREATE_SESSION4resok { sessionid4; sequenceid4; uint32_t flags; channel_attrs4 x2 } */
static void test_session_res(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rec rec = { .moved = 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 2);
	x_u32(&w, CREATE_SESSION);
	x_u32(&w, 0);
	x_sessionid(&w);
	x_u32(&w, 1);
	x_u32(&w, 0x2);
	x_chan(&w, 1049620, 2000, false);
	x_chan(&w, 4096, 1024, false);
	x_u32(&w, BIND_CONN);
	x_u32(&w, 0);
	x_sessionid(&w);
	x_u32(&w, 3);                 /* CDFS4_BOTH */
	x_bool(&w, true);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_int_equal(rr_cursor_pos(&c), w.len);
	assert_true(out.sess.create_session);
	assert_int_equal(out.sess.cs_flags, 2);
	assert_int_equal(out.sess.fore_maxresponse, 2000);
	assert_int_equal(out.sess.back_maxresponse, 1024);
	assert_int_equal(out.sess.bind_dir, 3);

	/* An error arm is void: nothing is taken from it. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 10052, 1);
	x_u32(&w, CREATE_SESSION);
	x_u32(&w, 10052);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_OK);
	assert_false(out.sess.create_session);
	rr_wbuf_free(&w);
}

/* An op or callback op number no RFC allots: not understood, and named. */
static void test_unknown_named(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_ulp_info out;
	struct rr_rpc_call call = mk_call(CB_PROG, 1, 1);
	struct rec rec = { .moved = 0 };

	(void)state;
	rr_wbuf_init(&w, 0);
	x_res_hdr(&w, 0, 2);
	x_u32(&w, PUTROOTFH);
	x_u32(&w, 0);
	x_u32(&w, 99);
	x_u32(&w, 0);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_UNSUPPORTED);
	assert_string_equal(out.unknown_what, "NFSv4 op");
	assert_int_equal(out.unknown_value, 99);

	rr_wbuf_reset(&w);
	x_str(&w, "");
	x_u32(&w, 1);
	x_u32(&w, 77);
	x_u32(&w, 1);
	x_u32(&w, 42);
	x_cursor(&c, &w);
	assert_int_equal(rr_ulp_walk_call(&call, &c, rec_fn, &rec, &out), RR_ULP_UNSUPPORTED);
	assert_string_equal(out.unknown_what, "NFSv4 callback op");
	assert_int_equal(out.unknown_value, 42);

	/* A known op whose XDR runs out is malformed, and names nothing. */
	rr_wbuf_reset(&w);
	x_res_hdr(&w, 0, 1);
	x_u32(&w, OPEN);
	x_u32(&w, 0);
	x_stateid(&w);
	assert_int_equal(walk_reply4(&w, &rec, &out, &c), RR_ULP_MALFORMED);
	assert_null(out.unknown_what);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attrs_deleg),
		cmocka_unit_test(test_cb_push_attrs_deleg),
		cmocka_unit_test(test_session_args),
		cmocka_unit_test(test_session_res),
		cmocka_unit_test(test_unknown_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
