// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's injections on its server leg (capture/agent/proxy_sinject.c)
 * without verbs:
 *  - --inject-server parses the requester's items the relay carries and
 *    refuses the others with a sentence naming the option;
 *  - the leg: an item is carried only when the generator's entry
 *    (capture/pcapgen/pg_inject.c, the oracle) has nothing but header and
 *    wire hooks for it;
 *  - the adapter: the broken Send of a call built by the generator's
 *    encoders (pg_nfs_build, pg_plan_build) has exactly the bytes the
 *    generator's own hooks give the same message, and the RFC 8166 §4.2
 *    fields hand-checked for a few;
 *  - op= and the default WHEN pick the calls inject.h says;
 *  - the server's answers (RDMA_ERROR, RPC replies written by hand from
 *    RFC 8166 §4.2 and RFC 5531 §9) are classified, and which of them the
 *    proxy relays; the reaction and verdict lines land in a manifest;
 *  - a call resent unbroken carries its fresh XID in the header and the RPC
 *    message, as the engine's decoder reads them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include <rpcrdma/hdr.h>

#include "manifest.h"
#include "pg_exch.h"
#include "pg_inject.h"
#include "pg_nfs.h"
#include "proxy_inject.h"
#include "proxy_map.h"
#include "proxy_sinject.h"

/* ---- recording fakes of common.c's inject line and serve_inject.c (proxy_inject.c's client leg) ---- */
static unsigned inject_lines;
static char inject_rule[16];

void agent_mf_inject(struct agent_run *r, const char *rule, uint32_t xid, bool reply, const char *also,
		     const char *note, bool send_failed)
{
	(void)r, (void)xid, (void)reply, (void)also, (void)note, (void)send_failed;
	inject_lines++;
	g_strlcpy(inject_rule, rule, sizeof(inject_rule));
}

bool agent_inject_parse(struct agent_run *r, int role, char *err, size_t errlen)
{
	return inj_parse(r->inject, role, &r->inj, err, errlen);
}

void serve_inj_begin(struct agent_run *r, struct inj_live *lv, struct serve_inj *si, uint64_t k,
		     uint32_t xid, const pg_item *it)
{
	(void)r, (void)lv, (void)si, (void)k, (void)xid, (void)it;
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
	(void)r, (void)si, (void)p, (void)xid, (void)credit;
}

void serve_inj_react(struct agent_run *r, struct serve_pending *p, enum jd_answer a)
{
	(void)r, (void)p, (void)a;
}

void serve_inj_end(struct serve_inj *si)
{
	(void)si;
}

/* ---- parsing and the leg ---- */

static void refused(const char *items, const char *says)
{
	struct agent_run sv;
	char err[512] = "";

	memset(&sv, 0, sizeof(sv));
	g_strlcpy(sv.inject, items, sizeof(sv.inject));
	assert_false(px_sinj_parse(&sv, err, sizeof(err)));
	if (!strstr(err, says) || !g_str_has_prefix(err, "--inject-server "))
		fail_msg("--inject-server %s: \"%s\" does not say \"%s\"", items, err, says);
}

static void test_parse(void **state)
{
	struct agent_run sv;
	char err[512] = "";

	(void)state;
	memset(&sv, 0, sizeof(sv));
	g_strlcpy(sv.inject, "bad-vers:op=READ,RR-100,short-header=20:nth=2", sizeof(sv.inject));
	assert_true(px_sinj_parse(&sv, err, sizeof(err)));
	assert_int_equal(sv.inj.n, 3);
	assert_int_equal(sv.inj.role, INJ_REQ);
	assert_string_equal(sv.inj.v[1].def->name, "zero-credit");   /* RR-100, the rule the agent took */
	refused("ineligible-chunk", "not through the proxy");        /* plans the call's chunks */
	refused("msgp", "not through the proxy");                    /* a prep hook on the item */
	refused("resend-xid", "not through the proxy");              /* the generator's XIDs */
	refused("reply-chunk-cut", "the responder breaks it");
	refused("bad-icrc", "not injectable live");
	refused("no-such", "no such injector");
	refused("bad-vers:when=1", "is not every=N");
}

/* Carried on the server leg: a requester entry whose generator hooks are header or wire only. */
static void test_leg_against_generator(void **state)
{
	unsigned n = 0;

	(void)state;
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		const pg_injector *in = d->agent_only ? NULL : pg_injector_find(d->name);
		if (!px_sinj_carried(d->name, inj_def_stages(d, INJ_REQ)))
			continue;
		n++;
		if (!in)
			fail_msg("%s: carried but not a generator injector", d->name);
		if (in->prep || in->plan || in->ops || in->capture || (!in->header && !in->wire))
			fail_msg("%s: carried but the generator hooks more than the header and the Send",
				 d->name);
	}
	assert_int_equal(n, 12);
	/* a name alone does not make it: the stages must be the requester's */
	assert_false(px_sinj_carried("bad-vers", 0));
	assert_false(px_sinj_carried("bad-vers", INJ_ST_PLAN | INJ_ST_HEADER));
}

/* ---- the adapter against the generator's hooks ---- */

static pg_chunk *chunk_copy(const pg_chunk *c)
{
	pg_chunk *o = pg_chunk_new();

	o->position = c->position;
	g_array_append_vals(o->segs, c->segs->data, c->segs->len);
	return o;
}

/* A relay's call: the generator's call header and inline Payload, its chunks copied. */
static void relay_msg(const pg_rdmamsg *src, pg_rdmamsg *m, GPtrArray *own)
{
	pg_rdmamsg_simple(m, src->xid, src->proc, src->credit);
	for (guint i = 0; i < src->reads->len; i++) {
		g_ptr_array_add(own, chunk_copy(src->reads->pdata[i]));
		g_ptr_array_add(m->reads, own->pdata[own->len - 1]);
	}
	for (guint i = 0; i < src->writes->len; i++) {
		g_ptr_array_add(own, chunk_copy(src->writes->pdata[i]));
		g_ptr_array_add(m->writes, own->pdata[own->len - 1]);
	}
	if (src->reply) {
		g_ptr_array_add(own, chunk_copy(src->reply));
		m->reply = own->pdata[own->len - 1];
	}
	g_byte_array_append(m->inline_payload, src->inline_payload->data, src->inline_payload->len);
	pg_rdmamsg_encode(m);
}

typedef struct {
	pg_scenario *s;
	struct inj_live lv;
	pg_nfs_state nfs;
	pg_exch *ex;
} built;

/* A call as the generator builds it from one scenario line. */
static void build(built *b, const char *line)
{
	char *path = g_build_filename(g_get_tmp_dir(), "test_proxy_sinject-XXXXXX.scn", NULL), *err = NULL;
	int fd = g_mkstemp(path);
	FILE *f = fdopen(fd, "w");
	pg_plan_opts o = { 0x1000, 32, 32, 1024, false };
	pg_rng rng = pg_rng_derive(1, 2, 3);

	fprintf(f, "link rocev2\nseed 1\ncredits 32\n%s\n", line);
	fclose(f);
	b->s = pg_scenario_load(path, &err);
	if (!b->s || !pg_scenario_finish(b->s, &err))
		fail_msg("%s: %s", line, err);
	g_unlink(path);
	g_free(path);
	inj_live_init(&b->lv, b->s, 1);
	pg_nfs_state_init(&b->nfs, 1);
	b->ex = inj_live_exch(&b->lv, b->s->items->pdata[0]);
	pg_nfs_build(&b->nfs, &b->ex->itc, 0x1000, &rng, &b->ex->rp);
	if (!pg_plan_build(&b->ex->plan, &b->ex->itc, &b->ex->rp, &o, &b->lv.env.mem, &err))
		fail_msg("%s: %s", line, err);
	pg_plan_encode(&b->ex->plan);
}

static void built_free(built *b)
{
	pg_exch_free(b->ex);
	pg_scenario_free(b->s);
}

typedef bool (*hook_fn)(pg_inj_ctx *c);

/* The generator's own hooks on m: header, encoding, wire (the oracle). */
static bool oracle(const char *name, const built *b, pg_rdmamsg *m)
{
	const pg_injector *in = pg_injector_find(name);
	struct inj_live lv;
	pg_item it = b->ex->itc;
	pg_exch *ex;
	pg_inj_ctx c;
	pg_op op;
	bool changed = false;

	inj_live_init(&lv, NULL, 7);
	ex = inj_live_exch(&lv, &it);
	ex->rp.call.msg = g_byte_array_new();
	g_byte_array_append(ex->rp.call.msg, b->ex->rp.call.msg->data, b->ex->rp.call.msg->len);
	memset(&c, 0, sizeof(c));
	c.plan = &ex->plan;
	c.msg = m;
	c.is_call = true;
	c.item = &ex->itc;
	c.rp = &ex->rp;
	c.ex = ex;
	if (in->header)
		changed |= in->header(&c);
	pg_rdmamsg_encode(m);
	if (in->wire) {
		memset(&op, 0, sizeof(op));
		op.kind = PG_OP_SEND;
		op.data = m->wire->data;
		op.len = m->wire->len;
		c.op = &op;
		changed |= in->wire(&c);
	}
	pg_exch_free(ex);
	return changed;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Every carried injector on calls of several shapes: the adapter's bytes are the generator's. */
static void test_adapter_is_the_generator(void **state)
{
	static const char *const lines[] = {
		"rpc 3 GETATTR",
		"rpc 3 WRITE len=5000 call=read:1",
		"rpc 3 READ len=1000 reply=write:1",
		"rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,WRITE(len=3000),WRITE(len=2000) call=read:1,1",
	};
	unsigned broken = 0;

	(void)state;
	for (size_t k = 0; k < G_N_ELEMENTS(lines); k++) {
		for (size_t i = 0; inj_def_at(i); i++) {
			const struct inj_def *d = inj_def_at(i);
			struct agent_run sv;
			struct px_sinj si;
			struct px_broken *b;
			char err[512];
			GPtrArray *own1 = px_chunks_new();
			GPtrArray *own2 = px_chunks_new();
			pg_rdmamsg m1, m2;
			built bu;
			bool want;

			if (!px_sinj_carried(d->name, inj_def_stages(d, INJ_REQ)))
				continue;
			build(&bu, lines[k]);
			memset(&sv, 0, sizeof(sv));
			snprintf(sv.inject, sizeof(sv.inject), "%s:every=1", d->name);
			assert_true(px_sinj_parse(&sv, err, sizeof(err)));
			relay_msg(&bu.ex->plan.call, &m1, own1);
			relay_msg(&bu.ex->plan.call, &m2, own2);
			px_sinj_init(&si);
			b = px_sinj_break(&si, &sv.inj, m1.xid, bu.ex->rp.call.msg, NULL, &m1);
			want = oracle(d->name, &bu, &m2);
			if (want != (b != NULL))
				fail_msg("%s on \"%s\": the generator %s it, the adapter %s", d->name, lines[k],
					 want ? "changes" : "leaves", b ? "changed it" : "did not");
			if (b) {
				broken++;
				assert_int_equal(b->wire->len, m2.wire->len);
				assert_memory_equal(b->wire->data, m2.wire->data, m2.wire->len);
				assert_int_equal(b->xid, m2.xid);
			}
			px_broken_free(b);
			pg_rdmamsg_clear(&m1);
			pg_rdmamsg_clear(&m2);
			g_ptr_array_free(own1, TRUE);
			g_ptr_array_free(own2, TRUE);
			built_free(&bu);
		}
	}
	assert_true(broken >= 20);
}

/* RFC 8166 §4.2 by hand: the fields a few injectors change on the relay's Send. */
static void test_adapter_by_hand(void **state)
{
	/* rebuilt: whether a checker can still rebuild the call (a header it cannot trust: no) */
	static const struct { const char *items; unsigned word; uint32_t want; bool xor_xid, rebuilt; } t[] = {
		{ "bad-vers:every=1", 1, 2, false, false },            /* rdma_vers */
		{ "bad-vers=5:every=1", 1, 5, false, false },
		{ "zero-credit:every=1", 2, 0, false, true },          /* rdma_credit */
		{ "bad-proc:every=1", 3, 7, false, false },            /* rdma_proc */
		{ "xid-mismatch:every=1", 0, 0x10000, true, false },   /* rdma_xid XOR 0x10000 */
	};
	built bu;

	(void)state;
	build(&bu, "rpc 3 GETATTR");
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
		struct agent_run sv;
		struct px_sinj si;
		struct px_broken *b;
		char err[512];
		GPtrArray *own = px_chunks_new();
		pg_rdmamsg m;
		uint32_t xid;

		memset(&sv, 0, sizeof(sv));
		g_strlcpy(sv.inject, t[i].items, sizeof(sv.inject));
		assert_true(px_sinj_parse(&sv, err, sizeof(err)));
		relay_msg(&bu.ex->plan.call, &m, own);
		xid = m.xid;
		px_sinj_init(&si);
		b = px_sinj_break(&si, &sv.inj, xid, bu.ex->rp.call.msg, NULL, &m);
		assert_non_null(b);
		assert_int_equal(be32(b->wire->data + 4 * t[i].word), t[i].xor_xid ? xid ^ t[i].want : t[i].want);
		assert_int_equal(b->rebuilt, t[i].rebuilt);
		px_broken_free(b);
		pg_rdmamsg_clear(&m);
		g_ptr_array_free(own, TRUE);
	}
	/* short-header: the Send cut to ARG bytes, below the 28 of a minimal header */
	{
		struct agent_run sv;
		struct px_sinj si;
		struct px_broken *b;
		char err[512];
		GPtrArray *own = px_chunks_new();
		pg_rdmamsg m;

		memset(&sv, 0, sizeof(sv));
		g_strlcpy(sv.inject, "short-header=20:every=1", sizeof(sv.inject));
		assert_true(px_sinj_parse(&sv, err, sizeof(err)));
		relay_msg(&bu.ex->plan.call, &m, own);
		px_sinj_init(&si);
		b = px_sinj_break(&si, &sv.inj, m.xid, bu.ex->rp.call.msg, NULL, &m);
		assert_non_null(b);
		assert_int_equal(b->wire->len, 20);
		px_broken_free(b);
		pg_rdmamsg_clear(&m);
		g_ptr_array_free(own, TRUE);
	}
	built_free(&bu);
}

/* ---- which calls are hit ---- */

static bool hit(struct px_sinj *si, const struct inj_list *l, const struct rr_ulp_info *info,
		const built *bu)
{
	GPtrArray *own = px_chunks_new();
	pg_rdmamsg m;
	struct px_broken *b;
	bool any;

	relay_msg(&bu->ex->plan.call, &m, own);
	b = px_sinj_break(si, l, m.xid, bu->ex->rp.call.msg, info, &m);
	any = b != NULL;
	px_broken_free(b);
	pg_rdmamsg_clear(&m);
	g_ptr_array_free(own, TRUE);
	return any;
}

static void test_selection(void **state)
{
	/* NFSv3 procedures by RFC 1813 §3: GETATTR 1, READ 6 */
	struct rr_ulp_info getattr = { .prog = 100003, .vers = 3, .proc = 1 };
	struct rr_ulp_info read = { .prog = 100003, .vers = 3, .proc = 6 };
	struct agent_run sv;
	struct px_sinj si;
	char err[512];
	built bu;

	(void)state;
	build(&bu, "rpc 3 GETATTR");
	memset(&sv, 0, sizeof(sv));
	g_strlcpy(sv.inject, "bad-vers:op=READ", sizeof(sv.inject));
	assert_true(px_sinj_parse(&sv, err, sizeof(err)));
	px_sinj_init(&si);
	assert_false(hit(&si, &sv.inj, &getattr, &bu));
	assert_true(hit(&si, &sv.inj, &read, &bu));
	assert_false(hit(&si, &sv.inj, NULL, &bu));   /* not described: op= names nothing */
	/* no WHEN: every call but the first (inject.h), counted as sent to the server */
	memset(&sv, 0, sizeof(sv));
	g_strlcpy(sv.inject, "zero-credit", sizeof(sv.inject));
	assert_true(px_sinj_parse(&sv, err, sizeof(err)));
	px_sinj_init(&si);
	assert_false(hit(&si, &sv.inj, &getattr, &bu));
	assert_true(hit(&si, &sv.inj, &getattr, &bu));
	assert_true(hit(&si, &sv.inj, NULL, &bu));
	/* nth=2 */
	memset(&sv, 0, sizeof(sv));
	g_strlcpy(sv.inject, "bad-proc:nth=2", sizeof(sv.inject));
	assert_true(px_sinj_parse(&sv, err, sizeof(err)));
	px_sinj_init(&si);
	assert_false(hit(&si, &sv.inj, &read, &bu));
	assert_true(hit(&si, &sv.inj, &read, &bu));
	assert_false(hit(&si, &sv.inj, &read, &bu));
	built_free(&bu);
}

/* ---- the server's answer ---- */

static size_t words(uint8_t *out, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		px_put_xid(out + 4 * i, w[i]);
	return 4 * n;
}

static void test_classify(void **state)
{
	/* RFC 8166 §4.2: xid, vers, credit, proc; RDMA_ERROR (4): err, and for ERR_VERS (1) low, high */
	const uint32_t err_vers[] = { 9, 1, 5, 4, 1, 1, 1 }, err_chunk[] = { 9, 1, 5, 4, 2 };
	/* RDMA_MSG (0), three empty chunk lists, then the RPC reply (RFC 5531 §9):
	 * xid, REPLY, MSG_ACCEPTED, verifier AUTH_NONE, accept_stat, NFS status */
	const uint32_t ok[] = { 9, 1, 5, 0, 0, 0, 0 };
	const uint32_t rpc_ok[] = { 9, 1, 0, 0, 0, 0, 0 }, rpc_nfserr[] = { 9, 1, 0, 0, 0, 0, 70 };
	const uint32_t rpc_garbage[] = { 9, 1, 0, 0, 0, 4 }, rpc_denied[] = { 9, 1, 1, 1, 1 };
	const uint32_t bad_proc[] = { 9, 1, 5, 9 };
	uint8_t m[64], r[64];
	size_t n, rn;
	uint32_t credit = 0;

	(void)state;
	n = words(m, err_vers, G_N_ELEMENTS(err_vers));
	assert_int_equal(px_sinj_classify(m, n, NULL, 0, &credit), JD_ERR_VERS);
	assert_int_equal(credit, 5);
	n = words(m, err_chunk, G_N_ELEMENTS(err_chunk));
	assert_int_equal(px_sinj_classify(m, n, NULL, 0, &credit), JD_ERR_CHUNK);
	n = words(m, ok, G_N_ELEMENTS(ok));
	rn = words(r, rpc_ok, G_N_ELEMENTS(rpc_ok));
	assert_int_equal(px_sinj_classify(m, n, r, rn, &credit), JD_REPLY);
	rn = words(r, rpc_nfserr, G_N_ELEMENTS(rpc_nfserr));
	assert_int_equal(px_sinj_classify(m, n, r, rn, &credit), JD_NFS_ERROR);
	rn = words(r, rpc_garbage, G_N_ELEMENTS(rpc_garbage));
	assert_int_equal(px_sinj_classify(m, n, r, rn, &credit), JD_GARBAGE);
	rn = words(r, rpc_denied, G_N_ELEMENTS(rpc_denied));
	assert_int_equal(px_sinj_classify(m, n, r, rn, &credit), JD_RPC_ERROR);
	n = words(m, bad_proc, G_N_ELEMENTS(bad_proc));
	assert_int_equal(px_sinj_classify(m, n, NULL, 0, &credit), JD_BAD_REPLY);
	/* the client gets the server's answer only when the call was executed */
	assert_true(px_sinj_relays(JD_REPLY));
	assert_true(px_sinj_relays(JD_NFS_ERROR));
	for (enum jd_answer a = JD_GARBAGE; a <= JD_TIMEOUT; a++)
		assert_false(px_sinj_relays(a));
}

/* A fresh XID is none in use and not the client's own. */
static void test_fresh_xid(void **state)
{
	GHashTable *calls = g_hash_table_new(g_direct_hash, g_direct_equal);
	struct px_sinj si;
	uint32_t x;

	(void)state;
	px_sinj_init(&si);
	g_hash_table_add(calls, GUINT_TO_POINTER(si.fresh + 1));
	x = px_sinj_fresh_xid(&si, calls, si.fresh + 2);
	assert_int_equal(x, si.fresh);
	assert_false(g_hash_table_contains(calls, GUINT_TO_POINTER(x)));
	assert_true(x != si.fresh - 1 && x != si.fresh - 2);
	g_hash_table_destroy(calls);
}

/* The RPC XID of a message (RFC 5531 §9: its first word). */
static uint32_t rpc_xid(const uint8_t *p)
{
	return be32(p);
}

/* An unbroken resend under a fresh XID: the engine's decoder sees the new XID in the transport
 * header and the RPC message alike, inline (RDMA_MSG) or in a Long Call's Position-Zero chunk. */
static void test_rexid(void **state)
{
	static const char *const lines[] = { "rpc 3 GETATTR", "rpc 3 WRITE len=5000 call=read:1",
					     "rpc 3 WRITE len=3000 call=pzrc:1" };

	(void)state;
	for (size_t k = 0; k < G_N_ELEMENTS(lines); k++) {
		built bu;
		GByteArray *wire, *payload;
		pg_chunk *pz = NULL;
		uint8_t *pzrc = NULL;
		struct rr_hdr h;

		build(&bu, lines[k]);
		wire = g_byte_array_new();
		g_byte_array_append(wire, bu.ex->plan.call.wire->data, bu.ex->plan.call.wire->len);
		payload = g_byte_array_new();
		g_byte_array_append(payload, bu.ex->rp.call.msg->data, bu.ex->rp.call.msg->len);
		if (bu.ex->plan.call.proc == RDMA_NOMSG) {
			pz = bu.ex->plan.call.reads->pdata[0];
			assert_int_equal(pz->position, 0);
			pzrc = g_memdup2(pz->data->data, pz->data->len);
		}
		px_sinj_rexid(wire, pzrc, pz ? pz->data->len : 0, payload, 0x5e1e0042);
		assert_int_equal(rr_hdr_decode(wire->data, wire->len, &h), RR_HDR_OK);
		assert_int_equal(h.xid, 0x5e1e0042);
		assert_int_equal(rpc_xid(payload->data), 0x5e1e0042);
		if (h.proc == RR_RDMA_MSG) {
			assert_int_equal(rpc_xid(wire->data + h.hdr_len), 0x5e1e0042);
			/* nothing else moved: the rest of the Send is the generator's */
			assert_memory_equal(wire->data + h.hdr_len + 4,
					    bu.ex->plan.call.wire->data + h.hdr_len + 4, wire->len - h.hdr_len - 4);
		} else {
			assert_int_equal(h.proc, RR_RDMA_NOMSG);
			assert_non_null(pzrc);
			assert_int_equal(rpc_xid(pzrc), 0x5e1e0042);
			assert_int_equal(wire->len, bu.ex->plan.call.wire->len);
			assert_memory_equal(wire->data + 4, bu.ex->plan.call.wire->data + 4, wire->len - 4);
		}
		g_free(pzrc);
		g_byte_array_free(wire, TRUE);
		g_byte_array_free(payload, TRUE);
		built_free(&bu);
	}
}

/* The reaction and verdict lines in a manifest: ERR_VERS after bad-vers passes RR-110
 * (RFC 8166 §4.5.1), a normal reply fails it. */
static void test_reaction_lines(void **state)
{
	static const struct { enum jd_answer a; const char *answer, *result; } t[] = {
		{ JD_ERR_VERS, "err-vers", "pass" }, { JD_REPLY, "reply", "fail" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
		char *path = g_build_filename(g_get_tmp_dir(), "test_proxy_sinject-XXXXXX.manifest", NULL);
		int fd = g_mkstemp(path);
		struct agent_run sv;
		struct px_broken b;
		struct mf_manifest mf;
		char err[512];

		close(fd);
		memset(&sv, 0, sizeof(sv));
		memset(&b, 0, sizeof(b));
		g_strlcpy(sv.inject, "bad-vers", sizeof(sv.inject));
		assert_true(px_sinj_parse(&sv, err, sizeof(err)));
		sv.mf = mf_open(path, true, err, sizeof(err));
		assert_non_null(sv.mf);
		b.xid = 0x1234;
		b.ri.sel[0] = b.ri.applied[0] = b.ri.any = true;
		b.t0 = g_get_monotonic_time();
		inject_lines = 0;
		req_inj_record(&sv, &b.ri, b.xid);
		assert_int_equal(inject_lines, 1);
		assert_string_equal(inject_rule, "ENG-NOT-V1");
		px_sinj_react(&sv, &b, t[i].a, 1);
		assert_true(mf_close(sv.mf, err, sizeof(err)));
		if (!mf_read(path, &mf, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(mf.n_reactions, 1);
		assert_string_equal(mf.reactions[0].inject, "bad-vers");
		assert_string_equal(mf.reactions[0].answer, t[i].answer);
		assert_int_equal(mf.reactions[0].xid, 0x1234);
		assert_int_equal(mf.n_verdicts, 1);
		assert_string_equal(mf.verdicts[0].rule, "RR-110");
		assert_string_equal(mf.verdicts[0].result, t[i].result);
		mf_free(&mf);
		g_unlink(path);
		g_free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_leg_against_generator),
		cmocka_unit_test(test_adapter_is_the_generator),
		cmocka_unit_test(test_adapter_by_hand),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_fresh_xid),
		cmocka_unit_test(test_rexid),
		cmocka_unit_test(test_reaction_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
