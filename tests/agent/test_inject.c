// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --inject (capture/agent/inject*.c, judge.c): items and their WHEN
 * conditions parse or are refused with a sentence; the conditions pick the
 * messages they name; every entry of the generator's injector table
 * (capture/pcapgen/pg_inject.c, the oracle) has a live entry or a reason,
 * and a live stage only where the generator's entry has a hook; the
 * generator's hooks, run on a call built as drive builds it, change what
 * the generator says they change; the duties judge as their RFC says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "inject.h"
#include "inject_live.h"
#include "judge.h"
#include "pg_inject.h"
#include "pg_rpcrdma.h"

static void test_parse_ok(void **state)
{
	struct inj_list l;
	char err[256] = "";

	(void)state;
	assert_true(inj_parse("RR-001,zero-credit:every=2,ineligible-chunk:op=READ:nth=3,"
			      "bad-vers=3:xid=0x1234", INJ_REQ, &l, err, sizeof(err)));
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0].def->name, "bad-vers");   /* the rule ID the agent always took */
	assert_string_equal(l.v[0].asked, "RR-001");
	assert_int_equal(l.v[1].n_when, 1);
	assert_int_equal(l.v[1].when[0].kind, INJ_W_EVERY);
	assert_int_equal(l.v[1].when[0].n, 2);
	assert_int_equal(l.v[2].n_when, 2);
	assert_string_equal(l.v[2].when[0].op, "READ");
	assert_int_equal(l.v[2].when[1].kind, INJ_W_NTH);
	assert_true(l.v[3].has_arg);
	assert_string_equal(l.v[3].arg, "3");
	assert_int_equal(l.v[3].when[0].n, 0x1234);
	/* the legacy responder rules */
	assert_true(inj_parse("RR-081,RR-088,RR-100,RR-085", INJ_RESP, &l, err, sizeof(err)));
	assert_string_equal(l.v[0].def->name, "misdirected-write");
	assert_string_equal(l.v[3].def->name, "write-beyond");
	assert_true(inj_parse("", INJ_RESP, &l, err, sizeof(err)));
	assert_int_equal(l.n, 0);
}

static void refused(const char *text, int role, const char *says)
{
	struct inj_list l;
	char err[256] = "";

	assert_false(inj_parse(text, role, &l, err, sizeof(err)));
	if (!strstr(err, says))
		fail_msg("--inject %s: \"%s\" does not say \"%s\"", text, err, says);
}

static void test_parse_refused(void **state)
{
	(void)state;
	refused("no-such-thing", INJ_REQ, "no such injector");
	refused("unused-nonzero", INJ_REQ, "the responder breaks it");
	refused("RR-141", INJ_RESP, "the requester breaks it");
	refused("bad-icrc", INJ_REQ, "not injectable live");
	refused("truncate-snaplen", INJ_RESP, "not injectable live");
	refused("zero-credit:every=0", INJ_RESP, "every= needs a number");
	refused("zero-credit:when=1", INJ_RESP, "is not every=N");
	refused("zero-credit:op=", INJ_RESP, "op= needs");
	refused("zero-credit:xid=zz", INJ_RESP, "xid= needs a number");
}

static void test_selects(void **state)
{
	struct inj_list l;
	char err[256];
	const char *read[] = { "SEQUENCE", "PUTFH", "read" }, *getattr[] = { "GETATTR" };

	(void)state;
	assert_true(inj_parse("bad-vers,bad-vers:every=2,bad-vers:nth=3,bad-vers:op=READ,"
			      "bad-vers:xid=0xabc", INJ_REQ, &l, err, sizeof(err)));
	/* default: every call but drive's first */
	assert_false(inj_selects(&l.v[0], INJ_REQ, 1, 0, NULL, 0));
	assert_true(inj_selects(&l.v[0], INJ_REQ, 2, 0, NULL, 0));
	assert_true(inj_selects(&l.v[0], INJ_RESP, 1, 0, NULL, 0));
	assert_false(inj_selects(&l.v[1], INJ_REQ, 3, 0, NULL, 0));
	assert_true(inj_selects(&l.v[1], INJ_REQ, 4, 0, NULL, 0));
	assert_true(inj_selects(&l.v[1], INJ_REQ, 2, 0, NULL, 0));
	assert_true(inj_selects(&l.v[2], INJ_REQ, 3, 0, NULL, 0));
	assert_false(inj_selects(&l.v[2], INJ_REQ, 6, 0, NULL, 0));
	assert_true(inj_selects(&l.v[3], INJ_REQ, 1, 0, read, 3));
	assert_false(inj_selects(&l.v[3], INJ_REQ, 2, 0, getattr, 1));
	assert_true(inj_selects(&l.v[4], INJ_REQ, 9, 0xabc, NULL, 0));
	assert_false(inj_selects(&l.v[4], INJ_REQ, 9, 0xabd, NULL, 0));
}

typedef bool (*hook_fn)(pg_inj_ctx *c);

static hook_fn hook_of(const pg_injector *in, unsigned st)
{
	return st == INJ_ST_PREP ? in->prep : st == INJ_ST_PLAN ? in->plan : st == INJ_ST_OPS ? in->ops :
	       st == INJ_ST_HEADER ? in->header : st == INJ_ST_WIRE ? in->wire : NULL;
}

/* Every entry of the generator's table: live in a role or a reason; a live stage has a hook. */
static void test_table_covers_generator(void **state)
{
	size_t n_gen = 0, n_ours = 0;

	(void)state;
	for (size_t i = 0; pg_injector_at(i); i++) {
		const pg_injector *in = pg_injector_at(i);
		const struct inj_def *d = inj_def_find(in->name);
		n_gen++;
		if (!d)
			fail_msg("generator injector %s has no entry in inject_table.c", in->name);
		assert_false(d->agent_only);
		if (!d->req_stages && !d->resp_stages && (!d->reason || !*d->reason))
			fail_msg("%s: neither live nor a reason", in->name);
		for (int role = INJ_REQ; role <= INJ_RESP; role++)
			for (unsigned st = INJ_ST_PREP; st <= INJ_ST_WIRE; st <<= 1)
				if ((inj_def_stages(d, role) & st) && !hook_of(in, st))
					fail_msg("%s: stage %u live but the generator has no hook", in->name, st);
		assert_string_equal(inj_def_rules(d), in->rules);
	}
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		if (d->agent_only) {
			assert_null(pg_injector_find(d->name));
			assert_true(d->req_stages || d->resp_stages);
		} else {
			assert_non_null(pg_injector_find(d->name));
			n_ours++;
		}
	}
	assert_int_equal(n_ours, n_gen);
}

static char seen[256];

/* A call built as drive builds it, from a one-line scenario. */
static pg_exch *build(struct inj_live *lv, pg_scenario **sp, const char *line, pg_nfs_state *nfs)
{
	char *path = g_build_filename(g_get_tmp_dir(), "test_inject-XXXXXX.scn", NULL), *err = NULL;
	int fd = g_mkstemp(path);
	FILE *f = fdopen(fd, "w");
	pg_scenario *s;
	pg_exch *ex;
	pg_rng rng;

	fprintf(f, "link rocev2\nseed 1\ncredits 32\n%s\n", line);
	fclose(f);
	s = pg_scenario_load(path, &err);
	if (!s || !pg_scenario_finish(s, &err))
		fail_msg("%s: %s", line, err);
	g_unlink(path);
	g_free(path);
	inj_live_init(lv, s, 1);
	pg_nfs_state_init(nfs, 1);
	ex = inj_live_exch(lv, s->items->pdata[0]);
	rng = pg_rng_derive(1, 2, 3);
	pg_nfs_build(nfs, &ex->itc, 0x1000, &rng, &ex->rp);
	*sp = s;
	return ex;
}

static void run_as(struct inj_live *lv, pg_exch *ex, const char *items, int role, unsigned st,
		   pg_rdmamsg *m, bool *applied)
{
	struct inj_list l;
	char err[256];
	bool sel[INJ_MAX_SPECS], failed[INJ_MAX_SPECS] = { false };

	assert_true(inj_parse(items, role, &l, err, sizeof(err)));
	for (unsigned i = 0; i < INJ_MAX_SPECS; i++)
		sel[i] = true;
	*lv->expected = 0;
	inj_live_stage(lv, ex, &l, sel, st, role == INJ_REQ, m, NULL, applied, failed);
	g_strlcpy(seen, lv->expected, sizeof(seen));
}

static void run(struct inj_live *lv, pg_exch *ex, const char *items, unsigned st, pg_rdmamsg *m,
		bool *applied)
{
	run_as(lv, ex, items, INJ_REQ, st, m, applied);
}

/* The generator's ineligible-chunk hooks on a live NFSv3 GETATTR: the file
 * handle (the call's first non-eligible argument, rp->call.bulk) travels in
 * a read chunk at its offset, and the hook names RR-141 (the generator's
 * expectation for NFSv3). */
static void test_live_hooks(void **state)
{
	struct inj_live lv;
	pg_nfs_state nfs;
	pg_scenario *s;
	pg_exch *ex = build(&lv, &s, "rpc 3 GETATTR", &nfs);
	pg_plan_opts o = { 0x1000, 32, 32, 4096, false };
	bool applied[INJ_MAX_SPECS] = { false };
	char *err = NULL;
	pg_ddp fh;
	const pg_chunk *ch;

	(void)state;
	assert_true(ex->rp.call.bulk->len > 0);
	fh = g_array_index(ex->rp.call.bulk, pg_ddp, 0);
	run(&lv, ex, "ineligible-chunk", INJ_ST_PLAN, NULL, applied);
	assert_true(applied[0]);
	assert_true(pg_plan_build(&ex->plan, &ex->itc, &ex->rp, &o, &lv.env.mem, &err));
	assert_int_equal(ex->plan.read_chunks->len, 1);
	ch = ex->plan.read_chunks->pdata[0];
	assert_int_equal(ch->position, (uint32_t)fh.off);
	assert_memory_equal(ch->data->data, ex->rp.call.msg->data + fh.off, fh.len);
	run(&lv, ex, "ineligible-chunk", INJ_ST_HEADER, &ex->plan.call, applied);
	assert_true(applied[0]);
	assert_non_null(strstr(seen, "RR-141"));
	/* header hooks on the same call: the version and the requested credits */
	memset(applied, 0, sizeof(applied));
	run(&lv, ex, "bad-vers,zero-credit", INJ_ST_HEADER, &ex->plan.call, applied);
	assert_true(applied[0] && applied[1]);
	pg_plan_encode(&ex->plan);
	assert_int_equal(ex->plan.call.wire->data[7], 2);     /* rdma_vers, RFC 8166 4.2 */
	assert_int_equal(ex->plan.call.wire->data[11], 0);    /* rdma_credit */
	pg_exch_free(ex);
	pg_scenario_free(s);
}

/* Every injector live for the requester, alone, on calls built as drive
 * builds them (prep, plan, plan build, ops, header, encode, wire): none
 * crashes or leaves a call that does not encode (ASan runs this test). */
static void test_every_requester_hook(void **state)
{
	static const char *const lines[] = {
		"rpc 3 READ len=1000 reply=write:1",
		"rpc 3 WRITE len=5000 call=read:1",
		"rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,READ(len=512),READ(len=100,offset=4096) reply=write:1,1",
		"rpc 3 READDIR len=250 reply=reply:2",
	};
	unsigned ran = 0;

	(void)state;
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		if (!(inj_def_stages(d, INJ_REQ) & ~(unsigned)INJ_ST_AGENT))
			continue;
		for (size_t k = 0; k < sizeof(lines) / sizeof(lines[0]); k++) {
			struct inj_live lv;
			pg_nfs_state nfs;
			pg_scenario *s;
			pg_exch *ex = build(&lv, &s, lines[k], &nfs);
			pg_plan_opts o = { 0x1000, 32, 32, 4096, false };
			bool applied[INJ_MAX_SPECS] = { false };
			uint32_t xid = 0x1000;
			char *err = NULL;

			inj_live_prev_xid(&lv, 0x0fff);
			if (getenv("TEST_INJECT_TRACE"))
				fprintf(stderr, "%s on %s\n", d->name, lines[k]);
			{
				struct inj_list l;
				char e[256];
				bool sel[INJ_MAX_SPECS] = { true }, failed[INJ_MAX_SPECS] = { false };
				assert_true(inj_parse(d->name, INJ_REQ, &l, e, sizeof(e)));
				inj_live_stage(&lv, ex, &l, sel, INJ_ST_PREP, true, NULL, &xid, applied, failed);
			}
			run(&lv, ex, d->name, INJ_ST_PLAN, NULL, applied);
			if (!pg_plan_build(&ex->plan, &ex->itc, &ex->rp, &o, &lv.env.mem, &err)) {
				g_free(err);   /* a shape the hook made that the planner refuses: said, not crashed */
			} else {
				run(&lv, ex, d->name, INJ_ST_OPS, NULL, applied);
				run(&lv, ex, d->name, INJ_ST_HEADER, &ex->plan.call, applied);
				pg_plan_encode(&ex->plan);
				run(&lv, ex, d->name, INJ_ST_WIRE, &ex->plan.call, applied);
				assert_true(ex->plan.call.wire->len >= 16);
			}
			pg_exch_free(ex);
			pg_scenario_free(s);
			ran++;
		}
	}
	assert_true(ran >= 4 * 30);
}

/* Every injector live for the responder, alone, on replies built as serve
 * builds them (the RPC reply by the generator's encoders, a header with the
 * offered Write chunk returned), and on an RDMA_ERROR with no RPC reply. */
static void test_every_responder_hook(void **state)
{
	unsigned ran = 0;

	(void)state;
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		if (!(inj_def_stages(d, INJ_RESP) & ~(unsigned)INJ_ST_AGENT))
			continue;
		for (int err_reply = 0; err_reply < 2; err_reply++) {
			struct inj_live lv;
			pg_nfs_state nfs;
			pg_scenario *s;
			pg_exch *ex = build(&lv, &s, "rpc 3 READ len=1000 reply=write:1", &nfs);
			pg_rdmamsg m;
			bool applied[INJ_MAX_SPECS] = { false };
			pg_chunk *w = pg_chunk_new();
			pg_seg sg = { 0x1234, 1024, 0x10000 };

			if (err_reply) {
				pg_rpc_pair_clear(&ex->rp);   /* serve's error answers have no RPC reply */
				memset(&ex->rp, 0, sizeof(ex->rp));
			}
			g_array_append_val(w->segs, sg);
			sg.length = err_reply ? 0 : 1000;
			g_array_append_val(w->ret, sg);
			pg_rdmamsg_simple(&m, 0x1000, err_reply ? RDMA_ERROR : RDMA_MSG, 32);
			m.returned = true;
			m.err = 2;
			m.low = m.high = 1;
			if (!err_reply) {
				g_ptr_array_add(m.writes, w);
				g_byte_array_append(m.inline_payload, ex->rp.reply.msg->data, 100);
				run_as(&lv, ex, d->name, INJ_RESP, INJ_ST_PLAN, NULL, applied);
			}
			/* the roles differ: run as serve does, is_call false */
			{
				struct inj_list l;
				char e[256];
				bool sel[INJ_MAX_SPECS] = { true }, failed[INJ_MAX_SPECS] = { false };
				assert_true(inj_parse(d->name, INJ_RESP, &l, e, sizeof(e)));
				inj_live_stage(&lv, ex, &l, sel, INJ_ST_HEADER, false, &m, NULL, applied, failed);
				pg_rdmamsg_encode(&m);
				inj_live_stage(&lv, ex, &l, sel, INJ_ST_WIRE, false, &m, NULL, applied, failed);
			}
			assert_true(m.wire->len >= 16);
			pg_rdmamsg_clear(&m);
			g_array_free(w->segs, TRUE);
			g_array_free(w->ret, TRUE);
			g_byte_array_free(w->data, TRUE);
			g_free(w);
			pg_exch_free(ex);
			pg_scenario_free(s);
			ran++;
		}
	}
	assert_true(ran >= 2 * 20);
}

static void judged(const char *name, int role, enum jd_answer a, const char *rule, const char *result)
{
	struct jd_reaction r = { .answer = a, .credit = 1 };
	struct jd_verdict v;

	jd_judge(name, role, "RR-xxx", &r, &v);
	assert_string_equal(v.rule, rule);
	if (strcmp(v.result, result))
		fail_msg("%s answered %s: %s, not %s (%s)", name, jd_answer_name(a), v.result, result, v.why);
	assert_true(!strncmp(v.why, "injected RR-xxx; ", 17));   /* capture/vm/conformance.sh reads it */
}

static void test_judge(void **state)
{
	(void)state;
	judged("bad-vers", INJ_REQ, JD_ERR_VERS, "RR-110", "pass");
	judged("bad-vers", INJ_REQ, JD_REPLY, "RR-110", "fail");
	judged("msgp", INJ_REQ, JD_ERR_CHUNK, "RR-131", "pass");
	judged("ineligible-chunk", INJ_REQ, JD_REPLY, "RR-065", "fail");
	judged("xid-mismatch", INJ_REQ, JD_REPLY, "RR-113", "n/a");
	judged("zero-credit", INJ_RESP, JD_NEXT_CALL, "RR-102", "fail");
	judged("zero-credit", INJ_RESP, JD_TIMEOUT, "RR-102", "pass");
	judged("write-beyond", INJ_RESP, JD_ACCESS_ERROR, "RR-085", "pass");
	/* docs/spec/statements.tsv S8166-4.5-a: under 28 bytes, silently discarded */
	judged("short-header", INJ_REQ, JD_ERR_CHUNK, "RR-113", "fail");
	judged("short-header", INJ_REQ, JD_TIMEOUT, "RR-113", "pass");
	/* S8166-4.5-b: a header with errors gets RDMA_ERROR */
	judged("nomsg-empty", INJ_REQ, JD_TIMEOUT, "RR-113", "fail");
	/* RFC 8166 §2.2.2, §4.2.4: a reply the requester cannot take leaves its call waiting for
	 * its own; waiting is its right answer, not a hang of its making */
	judged("orphan-reply", INJ_RESP, JD_TIMEOUT, "RR-003", "pass");
	judged("orphan-reply", INJ_RESP, JD_RETRANSMIT, "RR-003", "pass");
	judged("orphan-reply", INJ_RESP, JD_NEXT_CALL, "RR-003", "n/a");
	judged("bad-proc", INJ_RESP, JD_TIMEOUT, "RR-005", "pass");
	/* no entry: a hang is never right */
	judged("unaligned-payload", INJ_REQ, JD_TIMEOUT, "RR-xxx", "fail");
	judged("unaligned-payload", INJ_REQ, JD_ERR_CHUNK, "RR-xxx", "n/a");
}

/* The names op= matches for a reply's call: an NFSv3 procedure (RFC 1813 §3.3.6: READ is
 * 6), NFSv4.1 operations (RFC 8881 §18: SEQUENCE 53, PUTFH 22, READ 25), nothing for none. */
static void test_live_ops(void **state)
{
	pg_item v3 = { .nfsver = PG_V3 }, v41 = { .nfsver = PG_V41 };
	const uint32_t ops41[] = { 53, 22, 25 };
	const char *ops[8];
	pg_nfsop op = { .op = 6 };

	(void)state;
	v3.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	g_array_append_val(v3.ops, op);
	assert_int_equal(inj_live_ops(&v3, ops, 8), 1);
	assert_string_equal(ops[0], "READ");
	v41.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	for (unsigned i = 0; i < 3; i++) {
		op.op = ops41[i];
		g_array_append_val(v41.ops, op);
	}
	assert_int_equal(inj_live_ops(&v41, ops, 8), 3);
	assert_string_equal(ops[0], "SEQUENCE");
	assert_string_equal(ops[1], "PUTFH");
	assert_string_equal(ops[2], "READ");
	assert_int_equal(inj_live_ops(&v41, ops, 2), 2);   /* at most max */
	assert_int_equal(inj_live_ops(NULL, ops, 8), 0);
	g_array_free(v3.ops, TRUE);
	g_array_free(v41.ops, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_selects),
		cmocka_unit_test(test_table_covers_generator),
		cmocka_unit_test(test_live_hooks),
		cmocka_unit_test(test_every_requester_hook),
		cmocka_unit_test(test_every_responder_hook),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_live_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
