// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the proxy's injections decide without verbs (capture/agent/proxy_inject.c):
 * the client's next move after a broken reply (the same XID again is a
 * retransmission, another XID a new call, silence a hang, the connection
 * gone a disconnect), and the call a reply answers as the generator's item,
 * so that op=NAME picks it: NFSv4.1 COMPOUND operations by their numbers
 * in RFC 8881 section 18 (SEQUENCE 53, PUTFH 22, READ 25, GETATTR 9),
 * NFSv3 procedures by RFC 1813 section 3 (READ 6, GETATTR 1).
 * Which injectors a relayed reply can take: the table's stages (list-injections).
 * serve_inject.c (verbs and manifests) is replaced by recording fakes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pg_nfs.h"
#include "proxy_inject.h"

/* ---- recording fakes of serve_inject.c and common.c: what the proxy asked of them ---- */
static struct {
	unsigned begins, reacts, sents;
	uint64_t k;
	uint32_t xid;
	bool described;
	int nfsver;
	char ops[8][24];
	unsigned n_ops;
	enum jd_answer answer;
} seen;

bool agent_inject_parse(struct agent_run *r, int role, char *err, size_t errlen)
{
	return inj_parse(r->inject, role, &r->inj, err, errlen);
}

void serve_inj_begin(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, uint64_t k,
		     uint32_t xid, const pg_item *it)
{
	(void)r;
	(void)lv;
	memset(si, 0, sizeof(*si));
	seen.begins++;
	seen.k = k;
	seen.xid = xid;
	seen.described = it != NULL;
	seen.n_ops = 0;
	if (!it)
		return;
	seen.nfsver = it->nfsver;
	for (guint i = 0; it->ops && i < it->ops->len && i < 8; i++)
		g_strlcpy(seen.ops[seen.n_ops++],
			  pg_nfs_opname(it->nfsver, false, g_array_index(it->ops, pg_nfsop, i).op), 24);
}

void serve_inj_stage(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, unsigned stage,
		     pg_rdmamsg *msg)
{
	(void)r, (void)lv, (void)si, (void)stage, (void)msg;
}

bool serve_inj_agent(struct agent_run *r, struct serve_inj *si, const char *name)
{
	(void)r, (void)si, (void)name;
	return false;
}

void serve_inj_sent(struct agent_run *r, struct serve_inj *si, struct serve_pending *p, uint32_t xid,
		    uint32_t credit)
{
	(void)r, (void)si;
	seen.sents++;
	p->on = true;   /* as serve_inject.c when a hook changed the reply */
	p->xid = xid;
	p->credit = credit;
}

void serve_inj_react(struct agent_run *r, struct serve_pending *p, enum jd_answer a)
{
	(void)r;
	if (!p->on)
		return;
	p->on = false;
	seen.reacts++;
	seen.answer = a;
}

void serve_inj_end(struct serve_inj *si)
{
	(void)si;
}

/* ---- tests ---- */
static struct agent_run run;
static struct px_inj pi;

static int setup(void **state)
{
	char err[256];
	(void)state;
	memset(&seen, 0, sizeof(seen));
	memset(&run, 0, sizeof(run));
	g_strlcpy(run.inject, "bad-vers:op=READ", sizeof(run.inject));
	assert_true(px_inj_parse(&run, err, sizeof(err)));
	px_inj_init(&pi);
	return 0;
}

/* A broken reply to xid, then the call that follows it. */
static void broken_reply(uint32_t xid)
{
	pg_rdmamsg m;
	memset(&m, 0, sizeof(m));
	m.xid = xid;
	m.credit = 32;
	px_inj_begin(&pi, &run, xid, NULL);
	px_inj_sent(&pi, &run, &m);
	px_inj_end(&pi);
	assert_true(px_inj_waiting(&pi));
}

static void test_reactions(void **state)
{
	(void)state;
	assert_int_equal(px_inj_answer(0x10, 0x10), JD_RETRANSMIT);
	assert_int_equal(px_inj_answer(0x10, 0x11), JD_NEXT_CALL);

	px_inj_call(&pi, &run, 0x99);      /* nothing pending: no reaction */
	assert_int_equal(seen.reacts, 0);
	broken_reply(0x1234);
	px_inj_call(&pi, &run, 0x1234);
	assert_int_equal(seen.reacts, 1);
	assert_int_equal(seen.answer, JD_RETRANSMIT);
	assert_false(px_inj_waiting(&pi));
	broken_reply(0x1235);
	px_inj_call(&pi, &run, 0x2000);
	assert_int_equal(seen.answer, JD_NEXT_CALL);
	broken_reply(0x1236);
	px_inj_silence(&pi, &run);
	assert_int_equal(seen.answer, JD_TIMEOUT);
	broken_reply(0x1237);
	px_inj_gone(&pi, &run);
	assert_int_equal(seen.answer, JD_DISCONNECT);
	assert_int_equal(seen.reacts, 4);
	px_inj_gone(&pi, &run);            /* answered already: nothing more */
	assert_int_equal(seen.reacts, 4);
}

/* The item op= selects on, and inject.c's selection on its names. */
static bool selected(void)
{
	const char *ops[8];
	for (unsigned i = 0; i < seen.n_ops; i++)
		ops[i] = seen.ops[i];
	return inj_selects(&run.inj.v[0], INJ_RESP, seen.k, seen.xid, ops, seen.n_ops);
}

static void test_v41_compound(void **state)
{
	struct rr_ulp_info info;
	(void)state;
	memset(&info, 0, sizeof(info));
	info.prog = 100003;
	info.vers = 4;
	info.minorversion = 1;
	info.n_ops = 3;
	info.ops[0] = 53;
	info.ops[1] = 22;
	info.ops[2] = 25;
	px_inj_begin(&pi, &run, 0x77, &info);
	assert_true(seen.described);
	assert_int_equal(seen.nfsver, PG_V41);
	assert_int_equal(seen.n_ops, 3);
	assert_string_equal(seen.ops[0], "SEQUENCE");
	assert_string_equal(seen.ops[2], "READ");
	assert_int_equal(seen.k, 1);
	assert_true(selected());
	info.ops[2] = 9;                   /* GETATTR: op=READ passes it by */
	px_inj_begin(&pi, &run, 0x78, &info);
	assert_int_equal(seen.k, 2);       /* every reply counts (nth=K) */
	assert_string_equal(seen.ops[2], "GETATTR");
	assert_false(selected());
	px_inj_end(&pi);
}

static void test_v3_and_others(void **state)
{
	struct rr_ulp_info info;
	pg_item it;
	(void)state;
	memset(&info, 0, sizeof(info));
	info.prog = 100003;
	info.vers = 3;
	info.proc = 6;
	px_inj_begin(&pi, &run, 0x80, &info);
	assert_int_equal(seen.nfsver, PG_V3);
	assert_int_equal(seen.n_ops, 1);
	assert_string_equal(seen.ops[0], "READ");
	assert_true(selected());
	info.proc = 1;
	px_inj_begin(&pi, &run, 0x81, &info);
	assert_false(selected());
	/* not NFS (NFSACL 100227, MOUNT), or a minor version past 2: not described */
	info.prog = 100227;
	assert_false(px_inj_item(&info, &it));
	info.prog = 100003;
	info.vers = 4;
	info.minorversion = 3;
	assert_false(px_inj_item(&info, &it));
	px_inj_begin(&pi, &run, 0x82, &info);
	assert_false(seen.described);
	assert_false(selected());
	px_inj_end(&pi);
}

static void test_no_inject(void **state)
{
	(void)state;
	memset(&run, 0, sizeof(run));
	px_inj_init(&pi);
	px_inj_begin(&pi, &run, 0x90, NULL);
	assert_int_equal(seen.begins, 0);  /* no --inject: serve_inject.c is never asked */
	assert_false(px_inj_agent(&pi, &run, "oversize-send"));
}

static void test_parse_role(void **state)
{
	char err[256];
	(void)state;
	/* a requester's injector: the proxy breaks replies only */
	g_strlcpy(run.inject, "credit-overrun", sizeof(run.inject));
	assert_false(px_inj_parse(&run, err, sizeof(err)));
	g_strlcpy(run.inject, "zero-credit:op=READ,oversize-send", sizeof(run.inject));
	assert_true(px_inj_parse(&run, err, sizeof(err)));
	assert_int_equal(run.inj.n, 2);
	/* plan hooks: those that rewrite the RPC reply alone run on a relayed reply; those that
	 * build results or RDMA operations the server made (write-beyond, extra-read) do not */
	g_strlcpy(run.inject, "orphan-reply,bad-msg-type,reply-chunk-cut", sizeof(run.inject));
	assert_true(px_inj_parse(&run, err, sizeof(err)));
	g_strlcpy(run.inject, "write-beyond", sizeof(run.inject));
	assert_false(px_inj_parse(&run, err, sizeof(err)));
	assert_non_null(strstr(err, "write-beyond"));
	g_strlcpy(run.inject, "extra-read:op=READ", sizeof(run.inject));
	assert_false(px_inj_parse(&run, err, sizeof(err)));
	assert_true(px_inj_plan_ok("write-length-lie", INJ_ST_HEADER));
	assert_false(px_inj_plan_ok("inline-despite-write", INJ_ST_PLAN | INJ_ST_HEADER));
}

/* What the manifest may claim the engine rebuilds: RFC 8166 §4.2 version 1, RDMA_MSG or
 * RDMA_NOMSG, under the XID the client asked with (orphan-reply changes it). */
static void test_conveys(void **state)
{
	pg_rdmamsg m;
	char err[256];
	(void)state;
	memset(&m, 0, sizeof(m));
	m.vers = 1;
	m.proc = RDMA_MSG;
	assert_true(px_inj_conveys(&pi, &run, &m));
	m.proc = RDMA_NOMSG;
	assert_true(px_inj_conveys(&pi, &run, &m));
	m.vers = 2;                         /* bad-vers */
	assert_false(px_inj_conveys(&pi, &run, &m));
	m.vers = 1;
	m.proc = 7;                         /* bad-proc */
	assert_false(px_inj_conveys(&pi, &run, &m));
	m.proc = RDMA_ERROR;                /* the engine rebuilds no RPC message from it */
	assert_false(px_inj_conveys(&pi, &run, &m));
	/* orphan-reply applied to the reply being built: its XID is no call's */
	memset(&run, 0, sizeof(run));
	g_strlcpy(run.inject, "orphan-reply", sizeof(run.inject));
	assert_true(px_inj_parse(&run, err, sizeof(err)));
	px_inj_init(&pi);
	px_inj_begin(&pi, &run, 0x1234, NULL);
	m.proc = RDMA_MSG;
	assert_true(px_inj_conveys(&pi, &run, &m));   /* chosen, not yet applied */
	pi.si.applied[0] = true;
	assert_false(px_inj_conveys(&pi, &run, &m));
	px_inj_end(&pi);
	assert_true(px_inj_conveys(&pi, &run, &m));   /* no reply being built */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reactions, setup),
		cmocka_unit_test_setup(test_v41_compound, setup),
		cmocka_unit_test_setup(test_v3_and_others, setup),
		cmocka_unit_test_setup(test_no_inject, setup),
		cmocka_unit_test_setup(test_parse_role, setup),
		cmocka_unit_test_setup(test_conveys, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
