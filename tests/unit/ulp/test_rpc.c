// SPDX-License-Identifier: GPL-2.0-or-later
/* RPC header decoding (RFC 5531) and the RPCSEC_GSS credential (RFC 2203). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "xdr_enc.h"

/* An AUTH_SYS call header for NFSv3 READ, then one argument word. */
static void enc_sys_call(struct rr_wbuf *w, uint32_t xid, uint32_t msg_type, uint32_t rpcvers)
{
	x_u32(w, xid);
	x_u32(w, msg_type);
	x_u32(w, rpcvers);
	x_u32(w, 100003);
	x_u32(w, 3);
	x_u32(w, 6);
	/* cred: AUTH_SYS { stamp; machinename "host"; uid; gid; gids<16> {} } */
	x_u32(w, 1);
	x_u32(w, 4 + 8 + 4 + 4 + 4);
	x_u32(w, 0x11223344);
	x_str(w, "host");
	x_u32(w, 1000);
	x_u32(w, 1000);
	x_u32(w, 0);
	/* verf: AUTH_NONE, empty */
	x_u32(w, 0);
	x_u32(w, 0);
}

static void test_call_auth_sys(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_rpc_call call;
	uint32_t xid, mt;

	(void)state;
	rr_wbuf_init(&w, 0);
	enc_sys_call(&w, 0xdeadbeef, 0, 2);
	size_t hdr = w.len;
	x_u32(&w, 0x55555555);
	x_cursor(&c, &w);

	assert_true(rr_rpc_peek(&c, &xid, &mt));
	assert_int_equal(xid, 0xdeadbeef);
	assert_int_equal(mt, RR_RPC_CALL);
	assert_int_equal(rr_cursor_pos(&c), 0);

	assert_true(rr_rpc_decode_call(&c, &call));
	assert_int_equal(call.xid, 0xdeadbeef);
	assert_int_equal(call.rpcvers, 2);
	assert_int_equal(call.prog, 100003);
	assert_int_equal(call.vers, 3);
	assert_int_equal(call.proc, 6);
	assert_int_equal(call.cred_flavor, RR_AUTH_SYS);
	assert_int_equal(call.cred_len, 24);
	assert_false(call.is_gss);
	assert_int_equal(call.verf_flavor, 0);
	assert_int_equal(call.args_off, hdr);
	assert_int_equal(rr_cursor_pos(&c), hdr);
	rr_wbuf_free(&w);
}

static void enc_gss_call(struct rr_wbuf *w, uint32_t version, uint32_t cred_len_delta)
{
	static const uint8_t handle[5] = { 1, 2, 3, 4, 5 };

	x_u32(w, 7);
	x_u32(w, 0);
	x_u32(w, 2);
	x_u32(w, 100003);
	x_u32(w, 4);
	x_u32(w, 1);
	x_u32(w, 6);                        /* RPCSEC_GSS */
	x_u32(w, 16 + 4 + 8 + cred_len_delta);   /* version, proc, seq, service, handle<5> */
	x_u32(w, version);
	x_u32(w, 0);                        /* RPCSEC_GSS_DATA */
	x_u32(w, 42);                       /* seq_num */
	x_u32(w, 2);                        /* rpc_gss_svc_integrity */
	x_opaque(w, handle, 5);
	x_u32(w, 6);                        /* verf: RPCSEC_GSS, a 12-octet MIC */
	x_opaque(w, "0123456789ab", 12);
}

static void test_call_gss(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_rpc_call call;

	(void)state;
	rr_wbuf_init(&w, 0);
	enc_gss_call(&w, 1, 0);
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_call(&c, &call));
	assert_true(call.is_gss);
	assert_int_equal(call.cred_flavor, RR_AUTH_GSS);
	assert_int_equal(call.gss_version, 1);
	assert_int_equal(call.gss_proc, RR_GSS_PROC_DATA);
	assert_int_equal(call.gss_seq, 42);
	assert_int_equal(call.gss_service, RR_GSS_SVC_INTEGRITY);
	assert_int_equal(call.gss_handle_len, 5);
	assert_int_equal(call.verf_flavor, 6);
	assert_int_equal(call.args_off, w.len);
	rr_wbuf_free(&w);

	/* Version 2 of the credential does not exist. */
	rr_wbuf_init(&w, 0);
	enc_gss_call(&w, 2, 0);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_call(&c, &call));
	rr_wbuf_free(&w);

	/* The handle runs past the credential body. */
	rr_wbuf_init(&w, 0);
	enc_gss_call(&w, 1, (uint32_t)-4);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_call(&c, &call));
	rr_wbuf_free(&w);
}

static void test_call_bad(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_rpc_call call;
	uint32_t xid, mt;

	(void)state;
	/* A reply is not a call. */
	rr_wbuf_init(&w, 0);
	enc_sys_call(&w, 1, 1, 2);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_call(&c, &call));
	rr_wbuf_free(&w);

	/* RPC version 3. */
	rr_wbuf_init(&w, 0);
	enc_sys_call(&w, 1, 0, 3);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_call(&c, &call));
	assert_int_equal(call.rpcvers, 3);
	rr_wbuf_free(&w);

	/* msg_type 2 is neither. */
	rr_wbuf_init(&w, 0);
	enc_sys_call(&w, 9, 2, 2);
	x_cursor(&c, &w);
	assert_false(rr_rpc_peek(&c, &xid, &mt));
	assert_int_equal(mt, 2);
	rr_wbuf_free(&w);

	/* A 401-octet credential body. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 2);
	x_u32(&w, 100003);
	x_u32(&w, 3);
	x_u32(&w, 0);
	x_u32(&w, 1);
	x_u32(&w, 401);
	rr_put_zeros(&w, 404);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_call(&c, &call));
	rr_wbuf_free(&w);

	/* Every truncation of a good header fails. */
	rr_wbuf_init(&w, 0);
	enc_sys_call(&w, 1, 0, 2);
	for (size_t n = 0; n < w.len; n++) {
		rr_cursor_init(&c, w.data, n);
		assert_false(rr_rpc_decode_call(&c, &call));
	}
	rr_cursor_init(&c, w.data, 7);
	assert_false(rr_rpc_peek(&c, &xid, &mt));
	rr_wbuf_free(&w);
}

static void test_reply(void **state)
{
	struct rr_wbuf w;
	struct rr_cursor c;
	struct rr_rpc_reply r;

	(void)state;
	/* Accepted SUCCESS, AUTH_NONE verifier. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 0x1234);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	size_t hdr = w.len;
	x_u32(&w, 0);   /* a result word */
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_reply(&c, &r));
	assert_int_equal(r.xid, 0x1234);
	assert_int_equal(r.reply_stat, RR_MSG_ACCEPTED);
	assert_int_equal(r.accept_stat, RR_ACCEPT_SUCCESS);
	assert_int_equal(r.res_off, hdr);
	assert_int_equal(rr_cursor_pos(&c), hdr);
	for (size_t n = 0; n < hdr; n++) {
		rr_cursor_init(&c, w.data, n);
		assert_false(rr_rpc_decode_reply(&c, &r));
	}
	rr_wbuf_free(&w);

	/* Accepted PROG_MISMATCH 2..3, with an 8-octet verifier. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 5);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 6);
	x_opaque(&w, "verifier", 8);
	x_u32(&w, 2);
	x_u32(&w, 2);
	x_u32(&w, 3);
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_reply(&c, &r));
	assert_int_equal(r.accept_stat, RR_ACCEPT_PROG_MISMATCH);
	assert_int_equal(r.verf_flavor, 6);
	assert_int_equal(r.mismatch_low, 2);
	assert_int_equal(r.mismatch_high, 3);
	assert_int_equal(rr_cursor_left(&c), 0);
	rr_wbuf_free(&w);

	/* Accepted GARBAGE_ARGS: void. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 5);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 0);
	x_u32(&w, 4);
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_reply(&c, &r));
	assert_int_equal(r.accept_stat, RR_ACCEPT_GARBAGE_ARGS);
	rr_wbuf_free(&w);

	/* Denied RPC_MISMATCH 2..2. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 6);
	x_u32(&w, 1);
	x_u32(&w, 1);
	x_u32(&w, 0);
	x_u32(&w, 2);
	x_u32(&w, 2);
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_reply(&c, &r));
	assert_int_equal(r.reply_stat, RR_MSG_DENIED);
	assert_int_equal(r.reject_stat, RR_REJECT_RPC_MISMATCH);
	assert_int_equal(r.mismatch_low, 2);
	assert_int_equal(r.mismatch_high, 2);
	rr_wbuf_free(&w);

	/* Denied AUTH_ERROR RPCSEC_GSS_CREDPROBLEM (13). */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 6);
	x_u32(&w, 1);
	x_u32(&w, 1);
	x_u32(&w, 1);
	x_u32(&w, 13);
	x_cursor(&c, &w);
	assert_true(rr_rpc_decode_reply(&c, &r));
	assert_int_equal(r.reject_stat, RR_REJECT_AUTH_ERROR);
	assert_int_equal(r.auth_stat, 13);
	rr_wbuf_free(&w);

	/* Denied with reject_stat 2: no such arm. reply_stat 2: no such arm. */
	rr_wbuf_init(&w, 0);
	x_u32(&w, 6);
	x_u32(&w, 1);
	x_u32(&w, 1);
	x_u32(&w, 2);
	x_u32(&w, 0);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_reply(&c, &r));
	rr_wbuf_reset(&w);
	x_u32(&w, 6);
	x_u32(&w, 1);
	x_u32(&w, 2);
	x_u32(&w, 0);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_reply(&c, &r));
	/* A call is not a reply. */
	rr_wbuf_reset(&w);
	enc_sys_call(&w, 1, 0, 2);
	x_cursor(&c, &w);
	assert_false(rr_rpc_decode_reply(&c, &r));
	rr_wbuf_free(&w);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(rr_rpc_program_name(100003), "NFS");
	assert_string_equal(rr_rpc_program_name(100005), "MOUNT");
	assert_string_equal(rr_rpc_program_name(100021), "NLM");
	assert_string_equal(rr_rpc_program_name(100024), "NSM");
	assert_string_equal(rr_rpc_program_name(100227), "NFSACL");
	assert_string_equal(rr_rpc_program_name(100000), "PORTMAP");
	assert_string_equal(rr_rpc_program_name(0x40000000), "NFS4_CB");
	assert_null(rr_rpc_program_name(123));
	assert_string_equal(rr_ulp_proc_name(100005, 3, 1), "MNT");
	assert_null(rr_ulp_proc_name(100005, 3, 6));
	assert_string_equal(rr_ulp_proc_name(100021, 4, 2), "LOCK");
	assert_string_equal(rr_ulp_proc_name(100021, 4, 23), "FREE_ALL");
	assert_null(rr_ulp_proc_name(100021, 4, 18));
	assert_string_equal(rr_ulp_proc_name(100024, 1, 2), "MON");
	assert_string_equal(rr_ulp_proc_name(100227, 3, 1), "GETACL");
	assert_string_equal(rr_ulp_proc_name(100003, 4, 1), "COMPOUND");
	assert_string_equal(rr_ulp_proc_name(0x40000000, 1, 1), "CB_COMPOUND");
	assert_string_equal(rr_ulp_proc_name(100003, 2, 17), "STATFS");
	assert_string_equal(rr_ulp_result_name(RR_ULP_MALFORMED), "malformed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_auth_sys),
		cmocka_unit_test(test_call_gss),
		cmocka_unit_test(test_call_bad),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
