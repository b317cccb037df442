// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NFSv4.1 session's COMPOUNDs: the generator's encoders
 * (capture/pcapgen/pg_nfs41_session.h) read back by the engine's ULP
 * walker, which shares no code with them (op lists, CREATE_SESSION's
 * arguments); and the replies the agent's session reads through the
 * walker (struct rr_ulp_session): the generator's CREATE_SESSION and
 * SEQUENCE results, and EXCHANGE_ID4resok written out here from RFC 8881
 * 18.35.2.
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
#include "pg_nfs41_session.h"

static void walk(const GByteArray *b, struct rr_ulp_info *u)
{
	struct rr_cursor c;
	struct rr_rpc_call rc;

	rr_cursor_init(&c, b->data, b->len);
	memset(u, 0, sizeof(*u));
	assert_true(rr_rpc_decode_call(&c, &rc));
	assert_int_equal(rc.prog, PG_PROG_NFS);
	assert_int_equal(rc.vers, 4);
	assert_int_equal(rr_ulp_walk_call(&rc, &c, NULL, NULL, u), RR_ULP_OK);
	/* the walk read every argument: nothing is left over */
	assert_int_equal(rr_cursor_left(&c), 0);
	assert_int_equal(u->minorversion, 1);
}

static void test_calls(void **state)
{
	pg_nfs_state st;
	GByteArray *b = g_byte_array_new();
	struct rr_ulp_info u;
	const uint8_t verf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint32_t seq;
	(void)state;

	pg_nfs_state_init(&st, 3);
	pg_nfs41_exchange_id(b, &st, 1, 1, verf, "rpcrdma-agent/test");
	walk(b, &u);
	assert_int_equal(u.n_ops, 1);
	assert_int_equal(u.ops[0], 42);   /* OP_EXCHANGE_ID */

	g_byte_array_set_size(b, 0);
	pg_nfs41_create_session(b, &st, 2, 1, 0x1122334455667788ull, 1);
	walk(b, &u);
	assert_int_equal(u.n_ops, 1);
	assert_int_equal(u.ops[0], 43);   /* OP_CREATE_SESSION */
	assert_true(u.sess.create_session);
	assert_true(u.sess.clientid == 0x1122334455667788ull);   /* csa_clientid */
	assert_int_equal(u.sess.sequenceid, 1);                   /* csa_sequence */
	assert_int_equal(u.sess.cs_flags, 0);   /* no back channel on this connection */
	assert_int_equal(u.sess.fore_maxrequest, PG_NFS41_FORE_MAXSIZE);
	assert_int_equal(u.sess.fore_maxresponse, PG_NFS41_FORE_MAXSIZE);
	assert_int_equal(u.sess.fore_maxrequests, PG_NFS41_FORE_SLOTS);

	g_byte_array_set_size(b, 0);
	seq = st.seqid;
	pg_nfs41_reclaim_complete(b, &st, 3, 1);
	assert_int_equal(st.seqid, seq + 1);   /* the slot's next sequence id */
	walk(b, &u);
	assert_int_equal(u.n_ops, 2);
	assert_int_equal(u.ops[0], 53);   /* OP_SEQUENCE */
	assert_int_equal(u.ops[1], 58);   /* OP_RECLAIM_COMPLETE */

	g_byte_array_set_size(b, 0);
	pg_nfs41_destroy_session(b, &st, 4, 1);
	walk(b, &u);
	assert_int_equal(u.ops[0], 44);
	g_byte_array_set_size(b, 0);
	pg_nfs41_destroy_clientid(b, &st, 5, 1, 7);
	walk(b, &u);
	assert_int_equal(u.ops[0], 57);
	g_byte_array_free(b, TRUE);
}

/* A reply as the agent's session reads it: RPC header, then the COMPOUND4res walked. */
static enum rr_ulp_result reply(const uint8_t *msg, size_t len, uint32_t xid,
				struct rr_ulp_info *u)
{
	const struct rr_ulp_info call = { .prog = RR_NFS_PROGRAM, .vers = 4,
					  .proc = RR_NFS_PROC_COMPOUND, .minorversion = 1 };
	struct rr_cursor c;
	struct rr_rpc_reply rep;

	rr_cursor_init(&c, msg, len);
	assert_true(rr_rpc_decode_reply(&c, &rep));
	assert_int_equal(rep.xid, xid);
	return rr_ulp_walk_reply(&call, &rep, &c, NULL, NULL, u);
}

static void test_exchange_id_reply(void **state)
{
	GByteArray *b = g_byte_array_new();
	struct rr_ulp_info u;
	(void)state;

	/* RFC 8881 18.35.2: EXCHANGE_ID4resok after the COMPOUND4res header */
	pg_rpc_reply_hdr(b, 0x77);
	pb_be32(b, 0);                      /* NFS4_OK */
	pb_be32(b, 0);                      /* tag */
	pb_be32(b, 1);
	pb_be32(b, 42);
	pb_be32(b, 0);
	pb_be64(b, 0x0102030405060708ull);  /* eir_clientid */
	pb_be32(b, 9);                      /* eir_sequenceid */
	pb_be32(b, 0x00010003);             /* eir_flags */
	pb_be32(b, 0);                      /* SP4_NONE */
	pb_be64(b, 0);                      /* so_minor_id */
	pb_xdr_string(b, "server");         /* so_major_id */
	pb_xdr_string(b, "scope");
	pb_be32(b, 0);                      /* eir_server_impl_id<1> */
	assert_int_equal(reply(b->data, b->len, 0x77, &u), RR_ULP_OK);
	assert_int_equal(u.status, 0);
	assert_true(u.sess.exchange_id);
	assert_true(u.sess.clientid == 0x0102030405060708ull);
	assert_int_equal(u.sess.sequenceid, 9);
	assert_int_equal(u.sess.eir_flags, 0x00010003);
	/* a cut message does not decode */
	assert_int_equal(reply(b->data, 40, 0x77, &u), RR_ULP_MALFORMED);

	/* a failed EXCHANGE_ID: its status, no client id */
	g_byte_array_set_size(b, 0);
	pg_rpc_reply_hdr(b, 0x79);
	pb_be32(b, 10052);
	pb_be32(b, 0);
	pb_be32(b, 1);
	pb_be32(b, 42);
	pb_be32(b, 10052);
	assert_int_equal(reply(b->data, b->len, 0x79, &u), RR_ULP_OK);
	assert_int_equal(u.status, 10052);
	assert_false(u.sess.exchange_id);
	assert_int_equal(u.n_ops, 1);
	g_byte_array_free(b, TRUE);
}

/* The generator's CREATE_SESSION and SEQUENCE results: the session id is the state's. */
static void test_session_reply(void **state)
{
	pg_nfs_state st;
	pg_item it;
	pg_nfsop ops[1] = { { .op = OP4_CREATE_SESSION } };
	pg_nfsop seq[1] = { { .op = OP4_SEQUENCE } };
	pg_rpc_pair rp;
	pg_rng r = pg_rng_derive(5, 5, 5);
	struct rr_ulp_info u;
	(void)state;

	pg_nfs_state_init(&st, 11);
	memset(&it, 0, sizeof(it));
	it.kind = PG_ITEM_RPC;
	it.nfsver = PG_V41;
	it.proc = 1;
	it.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	g_array_append_vals(it.ops, ops, 1);
	pg_nfs_build(&st, &it, 0x55, &r, &rp);
	assert_int_equal(reply(rp.reply.msg->data, rp.reply.msg->len, 0x55, &u), RR_ULP_OK);
	assert_true(u.sess.create_session);
	assert_memory_equal(u.sess.sessionid, st.sessionid, 16);
	assert_int_equal(u.sess.sequenceid, 1);
	assert_int_equal(u.sess.fore_maxrequests, 64);
	pg_rpc_pair_clear(&rp);
	g_array_set_size(it.ops, 0);
	g_array_append_vals(it.ops, seq, 1);
	pg_nfs_build(&st, &it, 0x56, &r, &rp);
	assert_int_equal(reply(rp.reply.msg->data, rp.reply.msg->len, 0x56, &u), RR_ULP_OK);
	assert_int_equal(u.n_ops, 1);
	assert_int_equal(u.ops[0], OP4_SEQUENCE);
	assert_int_equal(u.status, 0);
	assert_false(u.sess.create_session);
	pg_rpc_pair_clear(&rp);
	g_array_free(it.ops, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_exchange_id_reply),
		cmocka_unit_test(test_session_reply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
