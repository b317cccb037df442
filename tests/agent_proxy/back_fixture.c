// SPDX-License-Identifier: GPL-2.0-or-later
/* What the tests of the proxy's backward calls share (back_fixture.h). */
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

#include "back_fixture.h"
#include "manifest.h"

/* ---- recording fakes of common.c: the inject lines and events asked for ---- */
struct back_seen seen;

void agent_mf_inject(struct agent_run *r, const char *rule, uint32_t xid, bool reply, const char *also,
		     const char *note, bool send_failed)
{
	(void)r, (void)also, (void)note, (void)send_failed;
	seen.injects++;
	g_strlcpy(seen.rule, rule, sizeof(seen.rule));
	seen.xid = xid;
	seen.reply = reply;
}

void agent_mf_event(struct agent_run *r, const char *kind, uint32_t xid, const char *fmt, ...)
{
	(void)r, (void)xid, (void)fmt;
	seen.events++;
	g_strlcpy(seen.event, kind, sizeof(seen.event));
}

bool agent_inject_parse(struct agent_run *r, int role, char *err, size_t errlen)
{
	return inj_parse(r->inject, role, &r->inj, err, errlen);
}

/* proxy_sinject.c's use of proxy_inject.c (the server leg's calls), not reached here */
bool px_inj_item(const struct rr_ulp_info *info, pg_item *out)
{
	(void)info;
	memset(out, 0, sizeof(*out));
	return false;
}

void px_inj_item_clear(pg_item *it)
{
	(void)it;
}

/* ---- chunk memory: malloc behind a made-up R_Key ---- */
unsigned regs, deregs;

static bool fake_reg(void *ctx, struct vb_mr *m, size_t len, bool remote_write)
{
	(void)ctx, (void)remote_write;
	m->mr = calloc(1, sizeof(*m->mr));
	m->mr->rkey = 0x1000 + regs++;
	m->buf = calloc(1, len);
	m->len = len;
	return true;
}

static void fake_dereg(void *ctx, struct vb_mr *m)
{
	(void)ctx;
	deregs++;
	free(m->mr);
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

/* ---- the run: its --inject and a real manifest ---- */
struct fixture *setup_run(const char *inject)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct px_back_mem mem = { fake_reg, fake_dereg, NULL };
	char err[256];
	int fd;

	memset(&seen, 0, sizeof(seen));
	regs = deregs = 0;
	g_strlcpy(f->run.inject, inject, sizeof(f->run.inject));
	assert_true(inj_parse(inject, INJ_RESP, &f->run.inj, err, sizeof(err)));
	g_strlcpy(f->path, "/tmp/test_proxy_back.XXXXXX", sizeof(f->path));
	fd = g_mkstemp(f->path);
	assert_true(fd >= 0);
	close(fd);
	f->run.mf = mf_open(f->path, true, err, sizeof(err));
	assert_non_null(f->run.mf);
	px_back_init(&f->b, &mem);
	px_back_connection(&f->b);
	return f;
}

/* The verdicts written, read back: the last one's result and rule. */
size_t verdict(struct fixture *f, char *result, char *rule, char *answer)
{
	struct mf_manifest m;
	char err[256];
	size_t n;

	px_back_gone(&f->b, &f->run, true);
	assert_int_equal(regs, deregs);
	assert_true(mf_close(f->run.mf, err, sizeof(err)));
	f->run.mf = NULL;
	assert_true(mf_read(f->path, &m, err, sizeof(err)));
	*result = *rule = *answer = 0;
	n = m.n_verdicts;
	if (n) {
		strcpy(result, m.verdicts[n - 1].result);
		strcpy(rule, m.verdicts[n - 1].rule);
		strcpy(answer, m.reactions[m.n_reactions - 1].answer);
	}
	mf_free(&m);
	g_unlink(f->path);
	free(f);
	return n;
}

static size_t put_words(uint8_t *out, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[4 * i] = (uint8_t)(w[i] >> 24), out[4 * i + 1] = (uint8_t)(w[i] >> 16);
		out[4 * i + 2] = (uint8_t)(w[i] >> 8), out[4 * i + 3] = (uint8_t)w[i];
	}
	return 4 * n;
}

void bind_with(struct px_back *b, uint32_t csr_flags)
{
	static struct rr_ulp_info call;   /* large: off the stack */
	/* RPC reply (xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS); COMPOUND4res
	 * (NFS4_OK, empty tag, one result: OP_CREATE_SESSION 43, NFS4_OK); CREATE_SESSION4resok:
	 * csr_sessionid, csr_sequence, csr_flags, fore and back channel_attrs4 (header pad,
	 * max request, max response, max response cached, max ops, max requests, no ird) */
	const uint32_t w[] = { 0x5e55, 1, 0, 0, 0, 0,
			       0, 0, 1, 43, 0,
			       1, 2, 3, 4, 1, csr_flags,
			       0, 4096, 4096, 4096, 8, 64, 0,
			       0, 4096, 4096, 0, 2, 16, 0 };
	uint8_t m[sizeof(w)];

	memset(&call, 0, sizeof(call));
	call.prog = 100003, call.vers = 4, call.proc = 1, call.minorversion = 1;
	call.n_ops = 1, call.ops[0] = 43;
	call.sess.create_session = true;
	call.sess.cs_flags = 0x2;   /* the client asks for CONN_BACK_CHAN */
	px_back_replied(b, &call, m, put_words(m, w, G_N_ELEMENTS(w)));
}

void bind_back(struct px_back *b)
{
	bind_with(b, 0x2);
}

uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A CB_NULL call of program prog, version vers (RFC 5531 §9: xid, CALL 0, rpcvers 2, prog, vers, proc). */
void assert_cb_null(const uint8_t *p, size_t len, uint32_t xid, uint32_t prog, uint32_t vers)
{
	assert_true(len >= 24);
	assert_int_equal(be32(p), xid);
	assert_int_equal(be32(p + 4), 0);
	assert_int_equal(be32(p + 8), 2);
	assert_int_equal(be32(p + 12), prog);
	assert_int_equal(be32(p + 16), vers);
	assert_int_equal(be32(p + 20), 0);
}

/* The client's backward reply to xid: RDMA_MSG, no chunks, an accepted SUCCESS reply (RFC 5531 §9). */
bool answer_words(struct fixture *f, uint32_t xid, uint32_t credit, const uint32_t *rpc, size_t n)
{
	uint32_t w[32] = { xid, 1, credit, 0, 0, 0, 0 };
	uint8_t m[sizeof(w)];

	memcpy(w + 7, rpc, n * sizeof(*rpc));
	return px_back_answer(&f->b, &f->run, m, put_words(m, w, 7 + n));
}

void answer_reply(struct fixture *f, uint32_t xid, uint32_t credit)
{
	const uint32_t rpc[] = { xid, 1, 0, 0, 0, 0 };

	assert_true(answer_words(f, xid, credit, rpc, G_N_ELEMENTS(rpc)));
}

void answer_err_chunk(struct fixture *f, uint32_t xid)
{
	uint8_t m[20] = { 0 };

	for (int i = 0; i < 4; i++)
		m[i] = (uint8_t)(xid >> (24 - 8 * i));
	m[7] = 1, m[11] = 1, m[15] = 4, m[19] = 2;
	assert_true(px_back_answer(&f->b, &f->run, m, sizeof(m)));
}

/* The back channel bound, the first reply's one backward call, its header decoded into h. */
const struct px_back_call *one_call(struct fixture *f, struct rr_hdr *h)
{
	const struct px_back_call *c;

	bind_back(&f->b);
	assert_int_equal(px_back_due(&f->b, &f->run, 1, 0x10, NULL, 4096), 1);
	c = &f->b.calls[0];
	assert_int_equal(rr_hdr_decode(c->wire->data, c->wire->len, h), RR_HDR_OK);
	assert_int_equal(h->xid, c->xid);
	return c;
}

