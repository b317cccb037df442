// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay's offline half (capture/agent/replay_select.c, replay_args.c,
 * replay_shape.c), each against an oracle that is not replay's own code:
 *  - SETACL cut to N entries equals the generator's NFSACL encoder
 *    (capture/pcapgen) asked for N entries; a POSIX ACL keeps its closing
 *    entries (built by hand here);
 *  - transport headers and record marks equal bytes written out by hand
 *    from RFC 8166 §4.2 and RFC 5531 §11;
 *  - the call picked from the real captures has what tshark's decode and
 *    sample-pcaps/real/PROVENANCE.md say it has: 4960 bytes in a
 *    Position-Zero read chunk of 96 + 4864 bytes, sent 3 times, answered
 *    GARBAGE_ARGS, an ACL of 400 named users u:2000..u:2399 (nfs-phase.sh
 *    acl3) and the four entries that name no one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>

#include "pg_nfs.h"
#include "replay.h"

static void w32(GByteArray *b, uint32_t v)
{
	uint8_t w[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	g_byte_array_append(b, w, 4);
}

/* The generator's SETACL call with n ACL entries (same state, same XID each time). */
static GByteArray *gen_setacl(uint32_t n)
{
	pg_nfs_state st;
	pg_item it;
	pg_nfsop op = { .op = ACL3_SETACL, .len = n };
	pg_rpc_pair rp;
	pg_rng rng = pg_rng_derive(7, 1, 1);
	GByteArray *out;

	memset(&it, 0, sizeof(it));
	it.kind = PG_ITEM_RPC;
	it.nfsver = PG_V3;
	it.acl = true;
	it.proc = ACL3_SETACL;
	it.ops = g_array_new(FALSE, FALSE, sizeof(pg_nfsop));
	g_array_append_val(it.ops, op);
	pg_nfs_state_init(&st, 42);
	pg_nfs_build(&st, &it, 0x01020304, &rng, &rp);
	out = g_byte_array_new();
	g_byte_array_append(out, rp.call.msg->data, rp.call.msg->len);
	pg_rpc_pair_clear(&rp);
	g_array_free(it.ops, TRUE);
	return out;
}

/* Where the arguments start, by the analyzer's RPC decoder. */
static size_t args_of(const GByteArray *m)
{
	struct rr_cursor c;
	struct rr_rpc_call call;

	rr_cursor_init(&c, m->data, m->len);
	assert_true(rr_rpc_decode_call(&c, &call));
	return call.args_off;
}

static void test_resize_matches_generator(void **state)
{
	static const uint32_t ns[] = { 399, 340, 300, 200, 1, 0 };
	GByteArray *full = gen_setacl(400);
	size_t off = args_of(full);
	char err[256];

	(void)state;
	for (unsigned i = 0; i < G_N_ELEMENTS(ns); i++) {
		GByteArray *want = gen_setacl(ns[i]);
		GByteArray *got = rp_acl_resize(full, off, ns[i], err, sizeof(err));
		assert_non_null(got);
		assert_int_equal(got->len, want->len);
		assert_memory_equal(got->data, want->data, want->len);
		g_byte_array_free(got, TRUE);
		g_byte_array_free(want, TRUE);
	}
	assert_null(rp_acl_resize(full, off, 401, err, sizeof(err)));
	assert_non_null(strstr(err, "401"));
	g_byte_array_free(full, TRUE);
}

/* A sorted POSIX ACL by hand: USER_OBJ, named users 2000.., GROUP_OBJ, MASK, OTHER. */
static GByteArray *posix_setacl(uint32_t named, size_t *args_off)
{
	static const uint8_t fh[6] = { 1, 2, 3, 4, 5, 6 };
	GByteArray *b = g_byte_array_new();

	for (unsigned i = 0; i < 10; i++)   /* a stand-in RPC header */
		w32(b, i);
	*args_off = b->len;
	w32(b, sizeof(fh));
	g_byte_array_append(b, fh, sizeof(fh));
	w32(b, 0);                            /* 2 bytes of pad */
	b->len -= 2;
	w32(b, 1);                            /* mask: NFS_ACL */
	w32(b, named + 4);
	w32(b, named + 4);
	w32(b, RP_ACL_USER_OBJ); w32(b, 0); w32(b, 6);
	for (uint32_t i = 0; i < named; i++) {
		w32(b, RP_ACL_USER); w32(b, 2000 + i); w32(b, 4);
	}
	w32(b, RP_ACL_GROUP_OBJ); w32(b, 0); w32(b, 4);
	w32(b, RP_ACL_MASK); w32(b, 0); w32(b, 4);
	w32(b, RP_ACL_OTHER); w32(b, 0); w32(b, 4);
	w32(b, 0);                            /* the default ACL, empty */
	w32(b, 0);
	return b;
}

static void test_resize_keeps_closing_entries(void **state)
{
	size_t off, off2;
	GByteArray *full = posix_setacl(400, &off);
	GByteArray *want = posix_setacl(300, &off2);
	char err[256];
	GByteArray *got = rp_acl_resize(full, off, 304, err, sizeof(err));
	struct rp_acl_args a;

	(void)state;
	assert_non_null(got);
	assert_int_equal(got->len, want->len);
	assert_memory_equal(got->data, want->data, want->len);
	assert_true(rp_acl_parse(got->data + off, got->len - off, &a, err, sizeof(err)));
	assert_int_equal(a.n_acl, 304);
	assert_int_equal(a.named, 300);
	/* fewer than the three closing entries: refused */
	assert_null(rp_acl_resize(full, off, 2, err, sizeof(err)));
	/* truncated arguments: refused with a sentence, not read past */
	full->len -= 10;
	assert_false(rp_acl_parse(full->data + off, full->len - off, &a, err, sizeof(err)));
	assert_null(rp_acl_resize(full, off, 304, err, sizeof(err)));
	g_byte_array_free(full, TRUE);
	g_byte_array_free(want, TRUE);
	g_byte_array_free(got, TRUE);
}

static void test_replace_fh(void **state)
{
	size_t off;
	GByteArray *m = posix_setacl(1, &off), *got;
	static const uint8_t fh[5] = { 0xa, 0xb, 0xc, 0xd, 0xe };
	static const uint8_t want[12] = { 0, 0, 0, 5, 0xa, 0xb, 0xc, 0xd, 0xe, 0, 0, 0 };
	char err[128];

	(void)state;
	got = rp_replace_fh(m, off, fh, sizeof(fh), err, sizeof(err));
	assert_non_null(got);
	assert_int_equal(got->len, m->len - 12 + 12);
	assert_memory_equal(got->data + off, want, sizeof(want));
	assert_memory_equal(got->data + off + 12, m->data + off + 12, m->len - off - 12);
	g_byte_array_free(got, TRUE);
	g_byte_array_free(m, TRUE);
}

/* RFC 8166 §4.2 written out: the fixed words, then each read segment as
 * 1, position, handle, length, offset (two words), then three zero words. */
static void test_pzrc_header(void **state)
{
	static const uint8_t want[] = {
		0xca, 0xfe, 0x00, 0x01, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0, 1,
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0x13, 0x60,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	GByteArray *msg = g_byte_array_new(), *send;
	struct rp_plan p;
	uint32_t h = 0x1234;
	uint64_t o = 0x1122334455667788ull;

	(void)state;
	g_byte_array_set_size(msg, 4960);
	rp_plan_pzrc(msg->len, 1, &p);
	assert_int_equal(p.n_segs, 1);
	assert_int_equal(rp_plan_hdr_len(&p), sizeof(want));
	send = rp_rdma_send(&p, msg, 0xcafe0001, 32, &h, &o);
	assert_int_equal(send->len, sizeof(want));
	assert_memory_equal(send->data, want, sizeof(want));
	g_byte_array_free(send, TRUE);
	g_byte_array_free(msg, TRUE);
}

/* The capture's 96 + 4864 shape kept, and stretched to a shorter message. */
static void test_captured_shape(void **state)
{
	static const uint8_t want[] = {
		0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 1,
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xa1, 0, 0, 0, 96, 0, 0, 0, 0, 0, 0, 0x10, 0,
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xa2, 0, 0, 0x0e, 0x50, 0, 0, 0, 0, 0, 0, 0x20, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct rp_call c;
	struct rp_plan p;
	char err[128];
	uint32_t h[2] = { 0xa1, 0xa2 };
	uint64_t o[2] = { 0x1000, 0x2000 };
	GByteArray *send;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.msg = g_byte_array_new();
	g_byte_array_set_size(c.msg, 4960);
	c.n_reads = 2;
	c.reads[0] = (struct rp_seg){ 0, 96 };
	c.reads[1] = (struct rp_seg){ 0, 4864 };
	assert_true(rp_plan_captured(&c, 4960, &p, err, sizeof(err)));
	assert_int_equal(p.n_segs, 2);
	assert_int_equal(p.segs[0].length, 96);
	assert_int_equal(p.segs[1].length, 4864);
	assert_int_equal(p.seg_from[1], 96);
	assert_true(rp_plan_captured(&c, 3760, &p, err, sizeof(err)));
	assert_int_equal(p.segs[1].length, 3664);   /* 0x0e50 */
	send = rp_rdma_send(&p, c.msg, 9, 8, h, o);
	assert_int_equal(send->len, sizeof(want));
	assert_memory_equal(send->data, want, sizeof(want));
	g_byte_array_free(send, TRUE);
	/* a message too short for the first segment */
	assert_false(rp_plan_captured(&c, 90, &p, err, sizeof(err)));
	rp_call_clear(&c);
}

static void test_inline_and_position(void **state)
{
	struct rp_call c;
	struct rp_plan p;
	char err[128];
	uint32_t h = 7;
	uint64_t o = 0;
	GByteArray *msg = g_byte_array_new(), *send;

	(void)state;
	for (unsigned i = 0; i < 24; i++)
		g_byte_array_append(msg, (const uint8_t *)"abcdefghijklmnopqrstuvwx" + i, 1);
	assert_true(rp_plan_inline(msg->len, 1024, &p, err, sizeof(err)));
	send = rp_rdma_send(&p, msg, 1, 1, NULL, NULL);
	assert_int_equal(send->len, 28 + 24);
	assert_int_equal(send->data[15], 0);               /* RDMA_MSG */
	assert_memory_equal(send->data + 28, msg->data, 24);
	g_byte_array_free(send, TRUE);
	assert_false(rp_plan_inline(1000, 1024, &p, err, sizeof(err)));
	/* a 6-byte chunk at position 8: "ijklmn" goes by RDMA, its pad "op" nowhere */
	memset(&c, 0, sizeof(c));
	c.msg = msg;
	c.n_reads = 1;
	c.reads[0] = (struct rp_seg){ 8, 6 };
	assert_true(rp_plan_captured(&c, msg->len, &p, err, sizeof(err)));
	assert_int_equal(p.seg_from[0], 8);
	send = rp_rdma_send(&p, msg, 1, 1, &h, &o);
	assert_int_equal(send->len, 52 + 8 + 8);
	assert_memory_equal(send->data + 52, "abcdefghqrstuvwx", 16);
	g_byte_array_free(send, TRUE);
	g_byte_array_free(msg, TRUE);
}

/* RFC 5531 §11: a 4-byte mark, the top bit set on the last fragment, 31 bits of length. */
static void test_record_mark(void **state)
{
	static const uint8_t one[] = { 0x80, 0, 0, 10, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j' };
	static const uint8_t three[] = { 0, 0, 0, 4, 'a', 'b', 'c', 'd', 0, 0, 0, 4, 'e', 'f', 'g',
					 'h', 0x80, 0, 0, 2, 'i', 'j' };
	GByteArray *b;

	(void)state;
	b = rp_record_mark((const uint8_t *)"abcdefghij", 10, 0);
	assert_int_equal(b->len, sizeof(one));
	assert_memory_equal(b->data, one, sizeof(one));
	g_byte_array_free(b, TRUE);
	b = rp_record_mark((const uint8_t *)"abcdefghij", 10, 4);
	assert_int_equal(b->len, sizeof(three));
	assert_memory_equal(b->data, three, sizeof(three));
	g_byte_array_free(b, TRUE);
}

static void check_real(const char *name, uint32_t xid)
{
	gchar *path = g_build_filename(RR_SOURCE_DIR, "sample-pcaps", "real", name, NULL);
	struct rp_call c;
	struct rp_acl_args a;
	char err[512];
	const uint8_t *e;

	assert_true(rp_select(path, xid, &c, err, sizeof(err)));
	assert_int_equal(c.prog, 100227);
	assert_int_equal(c.vers, 3);
	assert_int_equal(c.proc, 2);
	assert_int_equal(c.msg->len, 4960);
	assert_int_equal(c.rdma_proc, 1);                /* RDMA_NOMSG */
	assert_int_equal(c.n_reads, 2);
	assert_int_equal(c.reads[0].position, 0);
	assert_int_equal(c.reads[0].length, 96);
	assert_int_equal(c.reads[1].position, 0);
	assert_int_equal(c.reads[1].length, 4864);
	assert_int_equal(c.copies, 3);
	assert_true(c.answered);
	assert_int_equal(c.accept_stat, 4);              /* GARBAGE_ARGS */
	assert_true(rp_acl_parse(c.msg->data + c.args_off, c.msg->len - c.args_off, &a, err,
				 sizeof(err)));
	assert_int_equal(a.n_acl, 404);
	assert_int_equal(a.named, 400);
	assert_int_equal(a.n_dfacl, 0);
	e = c.msg->data + c.args_off + a.acl_at + 8;
	assert_int_equal(e[12 + 7], 0xd0);               /* the first named user: 2000 */
	assert_int_equal(e[400 * 12 + 6], 0x09);         /* the last: 2399 = 0x95f */
	assert_int_equal(e[400 * 12 + 7], 0x5f);
	rp_call_clear(&c);
	/* an XID the capture does not have: a sentence naming it */
	assert_false(rp_select(path, 1, &c, err, sizeof(err)));
	assert_non_null(strstr(err, "0x00000001"));
	g_free(path);
}

static void test_select_real(void **state)
{
	(void)state;
	check_real("nfs3-rxe.pcap", 0x5aaab4aa);
	check_real("nfs3-siw.pcap", 0x39b8ac49);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resize_matches_generator),
		cmocka_unit_test(test_resize_keeps_closing_entries),
		cmocka_unit_test(test_replace_fh),
		cmocka_unit_test(test_pzrc_header),
		cmocka_unit_test(test_captured_shape),
		cmocka_unit_test(test_inline_and_position),
		cmocka_unit_test(test_record_mark),
		cmocka_unit_test(test_select_real),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
