// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * serve's file system (capture/agent/serve_fs.h) answering calls the
 * generator's encoders build (the bytes a requester sends) or that are
 * written out here by RFC 1813 / RFC 8881: a READ after a WRITE returns
 * the WRITE's data (the generator's, taken from the call) over the
 * synthetic data an untouched file returns; NFSv3 and NFSv4 LOOKUP give a
 * name one handle and NOENT for a missing one; past the store's limit
 * WRITE is NOSPC; SEQUENCE echoes the call's session.
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
#include "serve_fs.h"

/* serve's answer to call, as serve.c asks for it (the engine reads the call first). */
static bool answer(struct sf_fs *fs, const GByteArray *call, pg_rpc_pair *rp)
{
	struct rr_cursor c;
	struct rr_rpc_call rc;
	struct rr_ulp_info u;

	rr_cursor_init(&c, call->data, call->len);
	memset(&u, 0, sizeof(u));
	assert_true(rr_rpc_decode_call(&c, &rc));
	assert_int_not_equal(rr_ulp_walk_call(&rc, &c, NULL, NULL, &u), RR_ULP_MALFORMED);
	return sf_answer(fs, call->data, call->len, &rc, &u, rp);
}

/* A requester's call for one procedure or COMPOUND, by the generator. */
static void gen_call(pg_nfs_state *st, int ver, uint32_t proc, const pg_nfsop *ops, unsigned n,
		     uint32_t xid, pg_rpc_pair *cp)
{
	pg_item it;
	pg_rng r = pg_rng_derive(99, 1, xid);

	memset(&it, 0, sizeof(it));
	it.kind = PG_ITEM_RPC;
	it.nfsver = ver;
	it.proc = proc;
	it.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	g_array_append_vals(it.ops, ops, n);
	pg_nfs_build(st, &it, xid, &r, cp);
	g_array_free(it.ops, TRUE);
}

/* The reply's first word after the RPC header (the NFS status). */
static struct rr_cursor results(const pg_rpc_pair *rp)
{
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	rr_cursor_init(&c, rp->reply.msg->data, rp->reply.msg->len);
	assert_true(rr_rpc_decode_reply(&c, &rep));
	assert_int_equal(rep.accept_stat, 0);
	return c;
}

static uint32_t word(struct rr_cursor *c)
{
	uint32_t v = 0xdeadbeef;
	assert_true(rr_get_be32(c, &v));
	return v;
}

/* WRITE (v3) len bytes at off, then READ (v3 or v4.1) count bytes at 0: the read data. */
static GByteArray *write_then_read(struct sf_fs *fs, pg_nfs_state *wst, pg_nfs_state *rst,
				   uint64_t off, uint32_t len, int rver, uint32_t count,
				   GByteArray *wdata)
{
	pg_nfsop w = { .op = NFS3_WRITE, .len = len, .count = len, .offset = off };
	pg_nfsop r4[3] = { { .op = OP4_SEQUENCE }, { .op = OP4_PUTFH },
			   { .op = OP4_READ, .len = count, .count = count } };
	pg_nfsop r3 = { .op = NFS3_READ, .len = count, .count = count };
	pg_rpc_pair cp, rp;
	GByteArray *out = g_byte_array_new();
	struct rr_cursor c;
	const pg_ddp *d;

	gen_call(wst, PG_V3, NFS3_WRITE, &w, 1, 1, &cp);
	d = &g_array_index(cp.call.ddp, pg_ddp, 0);
	if (wdata)
		g_byte_array_append(wdata, cp.call.msg->data + d->off, d->len);
	assert_true(answer(fs, cp.call.msg, &rp));
	c = results(&rp);
	assert_int_equal(word(&c), 0);
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	if (rver == PG_V3)
		gen_call(rst, PG_V3, NFS3_READ, &r3, 1, 2, &cp);
	else
		gen_call(rst, PG_V41, 1, r4, 3, 2, &cp);
	assert_true(answer(fs, cp.call.msg, &rp));
	assert_int_equal(rp.reply.ddp->len, 1);
	d = &g_array_index(rp.reply.ddp, pg_ddp, 0);
	assert_int_equal(d->len, count);
	g_byte_array_append(out, rp.reply.msg->data + d->off, d->len);
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	return out;
}

static void round_trip(int rver)
{
	struct sf_fs fs, plain;
	pg_nfs_state me, other;
	GByteArray *wdata = g_byte_array_new(), *got, *synth;
	const uint64_t off = 1000;
	const uint32_t len = 5000, count = 8192;

	sf_init(&fs, SS_DEFAULT_LIMIT);
	sf_init(&plain, SS_DEFAULT_LIMIT);
	pg_nfs_state_init(&me, 1);
	pg_nfs_state_init(&other, 2);   /* another file handle */
	got = write_then_read(&fs, &me, &me, off, len, rver, count, wdata);
	/* the same calls, the WRITE to another file: the READ's synthetic data */
	synth = write_then_read(&plain, &other, &me, off, len, rver, count, NULL);
	assert_int_equal(wdata->len, len);
	assert_memory_equal(got->data + off, wdata->data, len);
	assert_memory_not_equal(synth->data + off, wdata->data, len);
	assert_memory_equal(got->data, synth->data, off);
	assert_memory_equal(got->data + off + len, synth->data + off + len, count - off - len);
	g_byte_array_free(wdata, TRUE);
	g_byte_array_free(got, TRUE);
	g_byte_array_free(synth, TRUE);
	sf_free(&fs);
	sf_free(&plain);
}

static void test_write_read_v3(void **state)
{
	(void)state;
	round_trip(PG_V3);
}

static void test_write_v3_read_v41(void **state)
{
	(void)state;
	round_trip(PG_V41);
}

static void test_nospc(void **state)
{
	struct sf_fs fs;
	pg_nfs_state me;
	pg_nfsop w = { .op = NFS3_WRITE, .len = 5000, .count = 5000 };
	pg_nfsop w4[3] = { { .op = OP4_SEQUENCE }, { .op = OP4_PUTFH },
			   { .op = OP4_WRITE, .len = 5000, .count = 5000, .offset = 200000 } };
	pg_rpc_pair cp, rp;
	struct rr_cursor c;
	(void)state;

	sf_init(&fs, 6000);
	pg_nfs_state_init(&me, 1);
	for (int i = 0; i < 3; i++) {
		w.offset = (uint64_t)i * 100000;
		gen_call(&me, PG_V3, NFS3_WRITE, &w, 1, 10 + i, &cp);
		assert_true(answer(&fs, cp.call.msg, &rp));
		c = results(&rp);
		/* the first fits, then NFS3ERR_NOSPC (RFC 1813 2.6) */
		assert_int_equal(word(&c), i == 0 ? 0 : 28);
		pg_rpc_pair_clear(&cp);
		pg_rpc_pair_clear(&rp);
	}
	gen_call(&me, PG_V41, 1, w4, 3, 20, &cp);
	assert_true(answer(&fs, cp.call.msg, &rp));
	c = results(&rp);
	assert_int_equal(word(&c), 28);   /* NFS4ERR_NOSPC */
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	sf_free(&fs);
}

/* A WRITE past the 1 MiB a file has makes it longer: a READ there returns the data, then eof. */
static void test_grow(void **state)
{
	struct sf_fs fs;
	pg_nfs_state me;
	pg_nfsop w = { .op = NFS3_WRITE, .len = 50, .count = 50, .offset = SF_FILE_SIZE + 100 };
	pg_nfsop r = { .op = NFS3_READ, .len = 4096, .count = 4096, .offset = SF_FILE_SIZE };
	pg_rpc_pair cp, rp, wp;
	struct rr_cursor c;
	const pg_ddp *d, *wd;
	(void)state;

	sf_init(&fs, SS_DEFAULT_LIMIT);
	pg_nfs_state_init(&me, 1);
	gen_call(&me, PG_V3, NFS3_WRITE, &w, 1, 40, &wp);
	assert_true(answer(&fs, wp.call.msg, &rp));
	pg_rpc_pair_clear(&rp);
	gen_call(&me, PG_V3, NFS3_READ, &r, 1, 41, &cp);
	assert_true(answer(&fs, cp.call.msg, &rp));
	c = results(&rp);
	assert_int_equal(word(&c), 0);
	d = &g_array_index(rp.reply.ddp, pg_ddp, 0);
	wd = &g_array_index(wp.call.ddp, pg_ddp, 0);
	assert_int_equal(d->len, 150);
	/* READ3resok: count and eof just before the data's length word */
	assert_int_equal(pb_get_be32(rp.reply.msg->data + d->off - 12), 150);
	assert_int_equal(pb_get_be32(rp.reply.msg->data + d->off - 8), 1);
	assert_memory_equal(rp.reply.msg->data + d->off + 100, wp.call.msg->data + wd->off, 50);
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	pg_rpc_pair_clear(&wp);
	sf_free(&fs);
}

/* NFSv3 LOOKUP name in dir (RFC 1813 3.3.3): its status, and the handle into fh. */
static uint32_t lookup3(struct sf_fs *fs, const uint8_t *dir, uint32_t dirlen, const char *name,
			uint8_t *fh, uint32_t *fhlen)
{
	GByteArray *b = g_byte_array_new();
	pg_rpc_pair rp;
	struct rr_cursor c;
	const uint8_t *p;
	uint32_t st;

	pg_rpc_call_hdr(b, &fs->nfs, 0x333, PG_PROG_NFS, 3, PG_NFS3_LOOKUP, true);
	pb_xdr_opaque(b, dir, dirlen);
	pb_xdr_string(b, name);
	assert_true(answer(fs, b, &rp));
	c = results(&rp);
	st = word(&c);
	if (!st) {
		assert_true(rr_xdr_opaque(&c, 64, &p, fhlen));
		memcpy(fh, p, *fhlen);
	}
	pg_rpc_pair_clear(&rp);
	g_byte_array_free(b, TRUE);
	return st;
}

/* NFSv4.1 PUTROOTFH, LOOKUP name, GETFH (RFC 8881 18.13, 18.8): LOOKUP's status, GETFH's handle. */
static uint32_t lookup4(struct sf_fs *fs, const char *name, uint8_t *fh, uint32_t *fhlen)
{
	GByteArray *b = g_byte_array_new();
	pg_rpc_pair rp;
	struct rr_cursor c;
	const uint8_t *p;
	uint32_t st, n;

	pg_rpc_call_hdr(b, &fs->nfs, 0x444, PG_PROG_NFS, 4, 1, true);
	pb_be32(b, 0);
	pb_be32(b, 1);
	pb_be32(b, 3);
	pb_be32(b, OP4_PUTROOTFH);
	pb_be32(b, OP4_LOOKUP);
	pb_xdr_string(b, name);
	pb_be32(b, OP4_GETFH);
	assert_true(answer(fs, b, &rp));
	c = results(&rp);
	st = word(&c);
	assert_true(rr_xdr_skip_opaque(&c, 64));
	n = word(&c);
	assert_int_equal(n, st ? 2 : 3);
	assert_int_equal(word(&c), OP4_PUTROOTFH);
	assert_int_equal(word(&c), 0);
	assert_int_equal(word(&c), OP4_LOOKUP);
	assert_int_equal(word(&c), st);
	if (!st) {
		assert_int_equal(word(&c), OP4_GETFH);
		assert_int_equal(word(&c), 0);
		assert_true(rr_xdr_opaque(&c, 128, &p, fhlen));
		memcpy(fh, p, *fhlen);
	}
	pg_rpc_pair_clear(&rp);
	g_byte_array_free(b, TRUE);
	return st;
}

static void test_lookup(void **state)
{
	struct sf_fs fs;
	uint8_t a[128], a2[128], b[128], v4[128], sub[128];
	uint32_t al, a2l, bl, v4l, subl;
	(void)state;

	sf_init(&fs, SS_DEFAULT_LIMIT);
	assert_int_equal(lookup3(&fs, fs.nfs.root_fh, fs.nfs.root_fh_len, "agent-file", a, &al), 0);
	assert_int_equal(lookup3(&fs, fs.nfs.root_fh, fs.nfs.root_fh_len, "agent-file", a2, &a2l), 0);
	assert_int_equal(lookup3(&fs, fs.nfs.root_fh, fs.nfs.root_fh_len, "agent-link", b, &bl), 0);
	assert_int_equal(al, a2l);
	assert_memory_equal(a, a2, al);                     /* the same name, the same handle */
	assert_true(al != bl || memcmp(a, b, al));           /* another name, another handle */
	/* the same name in another directory is another object */
	assert_int_equal(lookup3(&fs, a, al, "agent-file", sub, &subl), 0);
	assert_true(al != subl || memcmp(a, sub, al));
	/* NFS3ERR_NOENT (2) */
	assert_int_equal(lookup3(&fs, fs.nfs.root_fh, fs.nfs.root_fh_len, "missing-file", b, &bl), 2);
	/* NFSv4: the same handle for the same name under the root, NFS4ERR_NOENT (2) */
	assert_int_equal(lookup4(&fs, "agent-file", v4, &v4l), 0);
	assert_int_equal(v4l, al);
	assert_memory_equal(v4, a, al);
	assert_int_equal(lookup4(&fs, "missing", v4, &v4l), 2);
	sf_free(&fs);
}

static void test_sequence_echo(void **state)
{
	struct sf_fs fs;
	pg_nfs_state me;
	pg_nfsop ops[2] = { { .op = OP4_SEQUENCE }, { .op = OP4_PUTROOTFH } };
	pg_rpc_pair cp, rp;
	struct rr_cursor c;
	const uint8_t *sid;
	uint32_t seq;
	(void)state;

	sf_init(&fs, SS_DEFAULT_LIMIT);
	pg_nfs_state_init(&me, 7);
	me.seqid = 4242;
	gen_call(&me, PG_V41, 1, ops, 2, 30, &cp);
	assert_true(answer(&fs, cp.call.msg, &rp));
	c = results(&rp);
	assert_int_equal(word(&c), 0);
	assert_true(rr_xdr_skip_opaque(&c, 64));
	assert_int_equal(word(&c), 2);
	assert_int_equal(word(&c), OP4_SEQUENCE);
	assert_int_equal(word(&c), 0);
	assert_true(rr_get_bytes(&c, 16, &sid));
	assert_memory_equal(sid, me.sessionid, 16);
	seq = word(&c);
	assert_int_equal(seq, 4242);
	pg_rpc_pair_clear(&cp);
	pg_rpc_pair_clear(&rp);
	sf_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read_v3),
		cmocka_unit_test(test_write_v3_read_v41),
		cmocka_unit_test(test_nospc),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_sequence_echo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
