// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The manifest writer and reader (capture/agent/manifest_write.c and
 * manifest_read.c): a round trip keeps every field; the writer never
 * overwrites by accident and keeps values on their line; the reader
 * refuses hostile input with FILE:LINE and never crashes on it.
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

#include "manifest.h"

static char *tmpdir;

static int setup(void **state)
{
	tmpdir = g_dir_make_tmp("mf-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	gchar *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	g_free(cmd);
	g_free(tmpdir);
	return rc == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static void put(const char *path, const char *data, size_t len)
{
	g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
}

static void seg(struct mf_seg *s, uint32_t pos, uint32_t h, uint32_t l, uint64_t o)
{
	s->position = pos;
	s->handle = h;
	s->length = l;
	s->offset = o;
}

static void fill_rpc(struct mf_rpc *r)
{
	memset(r, 0, sizeof(*r));
	r->xid = 0xdeadbeef;
	r->reply = false;
	strcpy(r->proc, "RDMA_NOMSG");
	r->vers = 1;
	r->credit = 128;
	r->len = 8300;
	strcpy(r->sha256, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	r->rebuilt = true;
	r->n_reads = 2;
	seg(&r->reads[0], 0, 0x1, 4096, 0xffff888123fc0040ull);
	seg(&r->reads[1], 0xffffffffu, 0xffffffffu, 0xffffffffu, UINT64_MAX);
	/* three write chunks: 2 segments, none, 1 */
	r->n_wchunks = 3;
	r->wchunk_nsegs[0] = 2;
	r->wchunk_nsegs[1] = 0;
	r->wchunk_nsegs[2] = 1;
	r->n_wsegs = 3;
	seg(&r->wsegs[0], 0, 0x62b84165, 4096, 0x1000);
	seg(&r->wsegs[1], 0, 0x62b84166, 0, 0);
	seg(&r->wsegs[2], 0, 7, 12, 0xabc);
	r->has_reply = true;
	r->n_rsegs = 0;                  /* a reply chunk of no segments: "empty", not "-" */
	r->inline_bytes = 200;
	r->rdma_bytes = 8100;
}

static void assert_same_segs(const struct mf_seg *a, const struct mf_seg *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		assert_int_equal(a[i].position, b[i].position);
		assert_int_equal(a[i].handle, b[i].handle);
		assert_int_equal(a[i].length, b[i].length);
		assert_true(a[i].offset == b[i].offset);
	}
}

static void test_round_trip(void **state)
{
	char *p = path_of("rt.manifest"), err[512];
	struct mf_run run = { 0 };
	struct mf_capture cap = { 0 };
	struct mf_rpc rpc, rpc2;
	struct mf_inject inj = { 0 };
	struct mf_event ev = { 0 };
	struct mf_verdict vd = { 0 };
	struct mf_manifest m;
	struct mf_writer *w;

	strcpy(run.role, "drive");
	strcpy(run.transport, "rxe");
	strcpy(run.device, "rxe0");
	strcpy(run.netdev, "veth-a");
	strcpy(run.local, "10.1.0.1");
	strcpy(run.remote, "fd00::2");
	run.port = 20049;
	strcpy(run.target, "agent");
	strcpy(run.scenario, "tests/scenarios/07 write chunk.scn");   /* spaces are fine */
	strcpy(run.inject, "RR-085,RR-088");
	strcpy(cap.file, "run.pcap");
	cap.received = 1234;
	cap.dropped = 0;
	cap.ifdropped = 0;
	fill_rpc(&rpc);
	fill_rpc(&rpc2);
	rpc2.reply = true;
	rpc2.rebuilt = false;
	rpc2.n_reads = 0;
	rpc2.n_wchunks = 0;
	rpc2.n_wsegs = 0;
	rpc2.has_reply = true;
	rpc2.n_rsegs = 1;
	seg(&rpc2.rsegs[0], 0, 0xabcdef01, 1024, 0x10);
	strcpy(inj.rule, "RR-085");
	inj.xid = 0x00000001;
	inj.reply = true;
	strcpy(inj.also, "RR-086,RR-087");
	strcpy(inj.note, "tab\there, newline\nthere");
	strcpy(ev.kind, "remote-access-error");
	ev.xid = 0xfeedface;
	strcpy(ev.text, "the requester saw IBV_WC_REM_ACCESS_ERR");
	strcpy(vd.rule, "RR-085");
	vd.xid = 1;
	strcpy(vd.result, "n/a");
	vd.text[0] = 0;

	w = mf_open(p, false, err, sizeof(err));
	assert_non_null(w);
	mf_write_run(w, &run);
	mf_write_capture(w, &cap);
	mf_write_rpc(w, &rpc);
	mf_write_rpc(w, &rpc2);
	mf_write_inject(w, &inj);
	mf_write_event(w, &ev);
	mf_write_verdict(w, &vd);
	assert_true(mf_close(w, err, sizeof(err)));

	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_string_equal(m.run.role, "drive");
	assert_string_equal(m.run.remote, "fd00::2");
	assert_int_equal(m.run.port, 20049);
	assert_string_equal(m.run.scenario, run.scenario);
	assert_string_equal(m.run.inject, "RR-085,RR-088");
	assert_true(m.capture.present);
	assert_string_equal(m.capture.file, "run.pcap");
	assert_true(m.capture.received == 1234 && m.capture.dropped == 0 && m.capture.ifdropped == 0);
	assert_int_equal(m.n_rpcs, 2);
	assert_int_equal(m.rpcs[0].xid, 0xdeadbeef);
	assert_false(m.rpcs[0].reply);
	assert_string_equal(m.rpcs[0].proc, "RDMA_NOMSG");
	assert_int_equal(m.rpcs[0].credit, 128);
	assert_true(m.rpcs[0].len == 8300);
	assert_string_equal(m.rpcs[0].sha256, rpc.sha256);
	assert_true(m.rpcs[0].rebuilt);
	assert_int_equal(m.rpcs[0].n_reads, 2);
	assert_same_segs(m.rpcs[0].reads, rpc.reads, 2);
	assert_int_equal(m.rpcs[0].n_wchunks, 3);
	assert_int_equal(m.rpcs[0].wchunk_nsegs[0], 2);
	assert_int_equal(m.rpcs[0].wchunk_nsegs[1], 0);
	assert_int_equal(m.rpcs[0].wchunk_nsegs[2], 1);
	assert_int_equal(m.rpcs[0].n_wsegs, 3);
	assert_same_segs(m.rpcs[0].wsegs, rpc.wsegs, 3);
	assert_true(m.rpcs[0].has_reply);
	assert_int_equal(m.rpcs[0].n_rsegs, 0);
	assert_true(m.rpcs[0].inline_bytes == 200 && m.rpcs[0].rdma_bytes == 8100);
	assert_true(m.rpcs[1].reply);
	assert_false(m.rpcs[1].rebuilt);
	assert_int_equal(m.rpcs[1].n_reads, 0);
	assert_int_equal(m.rpcs[1].n_wchunks, 0);
	assert_true(m.rpcs[1].has_reply);
	assert_int_equal(m.rpcs[1].n_rsegs, 1);
	assert_same_segs(m.rpcs[1].rsegs, rpc2.rsegs, 1);
	assert_int_equal(m.n_injects, 1);
	assert_string_equal(m.injects[0].rule, "RR-085");
	assert_int_equal(m.injects[0].xid, 1);
	assert_true(m.injects[0].reply);
	assert_string_equal(m.injects[0].also, "RR-086,RR-087");
	/* The writer keeps a value on its line: tab and newline become spaces. */
	assert_string_equal(m.injects[0].note, "tab here, newline there");
	assert_int_equal(m.n_events, 1);
	assert_string_equal(m.events[0].kind, "remote-access-error");
	assert_int_equal(m.events[0].xid, 0xfeedface);
	assert_string_equal(m.events[0].text, ev.text);
	assert_int_equal(m.n_verdicts, 1);
	assert_string_equal(m.verdicts[0].result, "n/a");
	assert_string_equal(m.verdicts[0].text, "");
	mf_free(&m);
	mf_free(&m);            /* twice is harmless */

	/* No reply chunk, no lists: "-" comes back as empty. */
	rpc.has_reply = false;
	rpc.n_reads = rpc.n_wchunks = rpc.n_wsegs = 0;
	inj.also[0] = 0;
	w = mf_open(p, true, err, sizeof(err));
	assert_non_null(w);
	mf_write_rpc(w, &rpc);
	mf_write_inject(w, &inj);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_int_equal(m.n_rpcs, 1);
	assert_false(m.rpcs[0].has_reply);
	assert_int_equal(m.rpcs[0].n_reads + m.rpcs[0].n_wchunks + m.rpcs[0].n_wsegs, 0);
	assert_string_equal(m.injects[0].also, "");
	assert_false(m.capture.present);
	mf_free(&m);
	g_free(p);
}

/* reaction lines, and --inject items with WHEN conditions in the run line */
static void test_reaction(void **state)
{
	char *p = path_of("re.manifest"), err[512];
	struct mf_run run = { 0 };
	struct mf_reaction r = { 0 };
	struct mf_manifest m;
	struct mf_writer *w;
	FILE *f;

	strcpy(run.role, "serve");
	strcpy(run.inject, "zero-credit:every=2,bad-vers=3:op=READ:xid=0x10");
	r.xid = 0x1234abcd;
	r.reply = true;
	strcpy(r.inject, "zero-credit");
	strcpy(r.answer, "next-call");
	r.credit = 0;
	r.reconnects = 2;
	r.retransmits = 3;
	r.elapsed_ms = 4711;
	strcpy(r.error, "tab\tin it");
	w = mf_open(p, false, err, sizeof(err));
	assert_non_null(w);
	mf_write_run(w, &run);
	mf_write_reaction(w, &r);
	r.reply = false;
	r.error[0] = 0;
	mf_write_reaction(w, &r);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_string_equal(m.run.inject, run.inject);
	assert_int_equal(m.n_reactions, 2);
	assert_int_equal(m.reactions[0].xid, 0x1234abcd);
	assert_true(m.reactions[0].reply);
	assert_string_equal(m.reactions[0].inject, "zero-credit");
	assert_string_equal(m.reactions[0].answer, "next-call");
	assert_true(m.reactions[0].credit == 0 && m.reactions[0].reconnects == 2 &&
		    m.reactions[0].retransmits == 3 && m.reactions[0].elapsed_ms == 4711);
	assert_string_equal(m.reactions[0].error, "tab in it");
	assert_false(m.reactions[1].reply);
	assert_string_equal(m.reactions[1].error, "-");   /* nothing told: written as - */
	mf_free(&m);

	/* a reaction without its answer names the line */
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("# rpcrdma-agent manifest 1\nreaction\txid=0x00000001\tinject=bad-vers\n", f);
	fclose(f);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, ":2:"));
	assert_non_null(strstr(err, "answer"));
	g_free(p);
}

static void test_no_overwrite(void **state)
{
	char *p = path_of("exists.manifest"), err[512], *data;
	struct mf_writer *w;

	put(p, "precious\n", 9);
	err[0] = 0;
	w = mf_open(p, false, err, sizeof(err));
	assert_null(w);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "overwrite"));
	assert_true(g_file_get_contents(p, &data, NULL, NULL));
	assert_string_equal(data, "precious\n");
	g_free(data);
	w = mf_open(p, true, err, sizeof(err));
	assert_non_null(w);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(g_file_get_contents(p, &data, NULL, NULL));
	assert_string_equal(data, "# rpcrdma-agent manifest 1\n");
	g_free(data);
	g_free(p);

	p = path_of("no-such-dir/x.manifest");
	assert_null(mf_open(p, true, err, sizeof(err)));
	assert_non_null(strstr(err, p));
	g_free(p);
}

/* The writer on values the reader would choke on: bytes that are not UTF-8, control characters. */
static void test_writer_sanitizes(void **state)
{
	char *p = path_of("san.manifest"), err[512];
	struct mf_event ev = { 0 };
	struct mf_manifest m;
	struct mf_writer *w;
	size_t i;

	strcpy(ev.kind, "nfs-error");
	strcpy(ev.text, "bad \xff\xfe utf8 \x01\r\x7f end");
	w = mf_open(p, true, err, sizeof(err));
	mf_write_event(w, &ev);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_string_equal(m.events[0].text, "bad ?? utf8     end");
	mf_free(&m);

	/* A full-length text field still fits after a round trip. */
	for (i = 0; i < sizeof(ev.text) - 1; i++)
		ev.text[i] = i % 7 ? 'x' : '\xc3';
	ev.text[sizeof(ev.text) - 1] = 0;
	w = mf_open(p, true, err, sizeof(err));
	mf_write_event(w, &ev);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_int_equal(strlen(m.events[0].text), sizeof(ev.text) - 1);
	mf_free(&m);
	g_free(p);
}

/* A record whose counts point past its arrays is written safely and reported at close. */
static void test_writer_bad_counts(void **state)
{
	char *p = path_of("bad.manifest"), err[512] = "";
	struct mf_rpc r;
	struct mf_writer *w;
	struct mf_manifest m;

	fill_rpc(&r);
	r.n_reads = MF_MAX_SEGS + 5;
	r.n_wchunks = MF_MAX_WCHUNKS + 1;
	w = mf_open(p, true, err, sizeof(err));
	mf_write_rpc(w, &r);
	assert_false(mf_close(w, err, sizeof(err)));
	assert_non_null(strstr(err, p));
	/* What was written still parses: the counts were clamped. */
	assert_true(mf_read(p, &m, err, sizeof(err)) || strstr(err, p));
	mf_free(&m);

	fill_rpc(&r);
	r.wchunk_nsegs[0] = 40;             /* more than n_wsegs holds */
	w = mf_open(p, true, err, sizeof(err));
	mf_write_rpc(w, &r);
	assert_false(mf_close(w, err, sizeof(err)));
	g_free(p);
}

#define HDR "# rpcrdma-agent manifest 1\n"
#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define RPC "rpc\txid=0x00000001\tdir=call\tlen=4\tsha256=" SHA "\trebuilt=yes"

struct bad {
	const char *text;
	int line;                 /* the line the error must name */
	const char *why;          /* a piece of the reason */
};

static const struct bad bad_cases[] = {
	{ "", 1, "empty file" },
	{ "hello\n", 1, "not an rpcrdma-agent manifest" },
	{ "# rpcrdma-agent manifest 2\n", 1, "version '2'" },
	{ HDR "\n# a comment\nbogus\tx=1\n", 4, "unknown record 'bogus'" },
	{ HDR "rpc xid=0x1 dir=call\n", 2, "unknown record" },
	{ HDR "rpc\txid\n", 2, "not key=value" },
	{ HDR RPC "\tcolour=red\n", 2, "unknown key 'colour'" },
	{ HDR RPC "\txid=0x2\n", 2, "given twice" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=4\trebuilt=yes\n", 2, "missing sha256=" },
	{ HDR "rpc\txid=1\tdir=call\tlen=4\tsha256=" SHA "\trebuilt=yes\n", 2, "0x hex" },
	{ HDR "rpc\txid=0x123456789\tdir=call\tlen=4\tsha256=" SHA "\trebuilt=yes\n", 2, "more than 8 hex" },
	{ HDR "rpc\txid=0x\tdir=call\tlen=4\tsha256=" SHA "\trebuilt=yes\n", 2, "0x hex" },
	{ HDR "rpc\txid=0x1\tdir=sideways\tlen=4\tsha256=" SHA "\trebuilt=yes\n", 2, "call or reply" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=99999999999999999999\tsha256=" SHA "\trebuilt=yes\n", 2, "out of range" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=-4\tsha256=" SHA "\trebuilt=yes\n", 2, "not a decimal" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=\tsha256=" SHA "\trebuilt=yes\n", 2, "empty" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=4\tsha256=abc\trebuilt=yes\n", 2, "64 hex" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=4\tsha256=" SHA "0\trebuilt=yes\n", 2, "64 hex" },
	{ HDR "rpc\txid=0x1\tdir=call\tlen=4\tsha256=" SHA "\trebuilt=maybe\n", 2, "yes or no" },
	{ HDR RPC "\treads=0:0x1:4\n", 2, "POSITION:HANDLE:LENGTH:OFFSET" },
	{ HDR RPC "\treads=0:0x1:4:0x0:9\n", 2, "more than 4 fields" },
	{ HDR RPC "\treads=0:0x1:4:0x0,\n", 2, "not POSITION" },
	{ HDR RPC "\twrites=0x1:4:0x0;;0x2:4:0x0\n", 2, "not HANDLE" },
	{ HDR RPC "\twrites=0x1:4:0x10000000000000000\n", 2, "more than 16 hex" },
	{ HDR RPC "\treply=0x1:4294967296:0x0\n", 2, "out of range" },
	{ HDR RPC "\twrites=-;-\n", 2, "not HANDLE" },
	{ HDR "run\trole=drive\n" "run\trole=serve\n", 3, "second run" },
	{ HDR "run\trole=drive\tport=70000\n", 2, "not a port" },
	{ HDR "capture\tfile=x.pcap\tdropped=0\n", 2, "missing ifdropped=" },
	{ HDR "capture\tfile=x\tdropped=0\tifdropped=0\n"
	      "capture\tfile=y\tdropped=0\tifdropped=0\n", 3, "second capture" },
	{ HDR "inject\trule=RR-001\tdir=call\n", 2, "missing xid=" },
	{ HDR "inject\trule=RR 001\txid=0x1\tdir=call\n", 2, "unexpected character" },
	{ HDR "inject\trule=RR-001\txid=0x1\tdir=call\talso=RR-2,,RR-3\n", 2, "unexpected character" },
	{ HDR "inject\trule=RR-001\txid=0x1\tdir=call\talso=RR-2,\n", 2, "unexpected character" },
	{ HDR "inject\trule=RR-0000000000000001\txid=0x1\tdir=call\n", 2, "at most 15" },
	{ HDR "verdict\trule=RR-001\tresult=maybe\n", 2, "pass, fail or n/a" },
	{ HDR "event\tkind=\n", 2, "kind is empty" },
	{ HDR "event\tkind=reply\ttext=caf\xc3\n", 2, "UTF-8" },
	{ HDR "event\tkind=reply\ttext=a\x1b[31mred\n", 2, "control character" },
	{ HDR "event\tkind=reply\r\nevent\tkind=x\ttext=a\rb\n", 3, "control character" },
};

static void test_hostile_lines(void **state)
{
	char *p = path_of("bad.manifest"), err[512], want[64];
	struct mf_manifest m;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const struct bad *b = &bad_cases[i];

		put(p, b->text, strlen(b->text));
		err[0] = 0;
		memset(&m, 0x5a, sizeof(m));
		if (mf_read(p, &m, err, sizeof(err))) {
			print_error("case %zu was accepted: %s\n", i, b->text);
			fail();
		}
		snprintf(want, sizeof(want), "%s:%d: ", p, b->line);
		if (strncmp(err, want, strlen(want)) || !strstr(err, b->why)) {
			print_error("case %zu: got '%s', want '%s...%s'\n", i, err, want, b->why);
			fail();
		}
		/* A failed read leaves nothing to free, and mf_free on it is safe. */
		assert_null(m.rpcs);
		assert_int_equal(m.n_rpcs, 0);
		mf_free(&m);
	}
	g_free(p);
}

static void test_hostile_sizes(void **state)
{
	char *p = path_of("big.manifest"), err[512], want[64];
	struct mf_manifest m;
	GString *s = g_string_new(HDR);
	unsigned i;

	/* A NUL byte */
	put(p, HDR "event\tkind=a\0b\n", sizeof(HDR "event\tkind=a\0b\n") - 1);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: ", p);
	assert_int_equal(strncmp(err, want, strlen(want)), 0);
	assert_non_null(strstr(err, "NUL"));

	/* A line of 1 MiB */
	g_string_append(s, "event\tkind=x\ttext=");
	for (i = 0; i < 1 << 20; i++)
		g_string_append_c(s, 'a');
	g_string_append_c(s, '\n');
	put(p, s->str, s->len);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, ":2: line longer than"));

	/* 65 read segments, 17 write chunks, 65 write segments */
	g_string_assign(s, HDR RPC "\treads=");
	for (i = 0; i < MF_MAX_SEGS + 1; i++)
		g_string_append_printf(s, "%s%u:0x1:4:0x0", i ? "," : "", i);
	g_string_append_c(s, '\n');
	put(p, s->str, s->len);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, ":2: reads lists more than 64 segments"));

	g_string_assign(s, HDR RPC "\twrites=");
	for (i = 0; i < MF_MAX_WCHUNKS + 1; i++)
		g_string_append_printf(s, "%s0x1:4:0x0", i ? ";" : "");
	g_string_append_c(s, '\n');
	put(p, s->str, s->len);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, "more than 16 write chunks"));

	g_string_assign(s, HDR RPC "\twrites=");
	for (i = 0; i < MF_MAX_SEGS + 1; i++)
		g_string_append_printf(s, "%s0x1:4:0x0", i ? (i % 5 ? "," : ";") : "");
	g_string_append_c(s, '\n');
	put(p, s->str, s->len);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, "more than 64 segments"));

	/* Exactly the limits: accepted */
	g_string_assign(s, HDR RPC "\treads=");
	for (i = 0; i < MF_MAX_SEGS; i++)
		g_string_append_printf(s, "%s%u:0x1:4:0x0", i ? "," : "", i);
	g_string_append(s, "\twrites=");
	for (i = 0; i < MF_MAX_WCHUNKS; i++)
		g_string_append_printf(s, "%s%s", i ? ";" : "", i % 2 ? "empty" : "0x1:4:0x0,0x2:4:0x0");
	g_string_append_c(s, '\n');
	put(p, s->str, s->len);
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_int_equal(m.rpcs[0].n_reads, MF_MAX_SEGS);
	assert_int_equal(m.rpcs[0].n_wchunks, MF_MAX_WCHUNKS);
	assert_int_equal(m.rpcs[0].n_wsegs, MF_MAX_WCHUNKS);
	mf_free(&m);

	/* More rpc lines than the reader allocates for */
	g_string_assign(s, HDR);
	for (i = 0; i < 50001; i++)
		g_string_append(s, RPC "\n");
	put(p, s->str, s->len);
	assert_false(mf_read(p, &m, err, sizeof(err)));
	assert_non_null(strstr(err, ":50002: more than 50000 rpc lines"));

	/* A file that is not there */
	assert_false(mf_read("/nonexistent/x.manifest", &m, err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent/x.manifest: "));
	g_string_free(s, TRUE);
	g_free(p);
}

/*
 * Tolerated spellings: CRLF, blank and comment lines, alignment tabs, a
 * last line without newline, an empty proc= (the writer's output for an
 * empty field must read back).
 */
static void test_lenient(void **state)
{
	static const char text[] = HDR "\r\n# written by hand\r\n"
		"rpc\t\txid=0xABCDEF01\tdir=reply\tproc=\tlen=0\tsha256=" SHA
		"\trebuilt=no\treads=-\twrites=-\treply=-\r\n"
		"inject\trule=RR-085\txid=0x1\tdir=reply\talso=-\tnote=";
	char *p = path_of("ok.manifest"), err[512];
	struct mf_manifest m;

	put(p, text, sizeof(text) - 1);
	assert_true(mf_read(p, &m, err, sizeof(err)));
	assert_int_equal(m.n_rpcs, 1);
	assert_int_equal(m.rpcs[0].xid, 0xabcdef01);
	assert_true(m.rpcs[0].reply);
	assert_false(m.rpcs[0].rebuilt);
	assert_string_equal(m.rpcs[0].proc, "");
	assert_int_equal(m.n_injects, 1);
	assert_string_equal(m.injects[0].note, "");
	mf_free(&m);
	g_free(p);
}

/* Random damage to a valid manifest: the reader either accepts or names FILE:LINE, never crashes. */
static void test_mutations(void **state)
{
	char *p = path_of("mut.manifest"), *good, err[512];
	size_t len, i;
	struct mf_manifest m;
	struct mf_rpc r;
	struct mf_writer *w;
	GRand *rnd = g_rand_new_with_seed(8166);
	unsigned accepted = 0, round;

	fill_rpc(&r);
	w = mf_open(p, true, err, sizeof(err));
	mf_write_rpc(w, &r);
	r.reply = true;
	mf_write_rpc(w, &r);
	assert_true(mf_close(w, err, sizeof(err)));
	assert_true(g_file_get_contents(p, &good, &len, NULL));
	for (round = 0; round < 3000; round++) {
		char *buf = g_memdup2(good, len);
		size_t n = len;
		unsigned k, edits = 1 + g_rand_int_range(rnd, 0, 4);

		for (k = 0; k < edits && n; k++) {
			i = (size_t)g_rand_int_range(rnd, 0, (gint32)n);
			switch (g_rand_int_range(rnd, 0, 4)) {
			case 0: buf[i] ^= (char)(1 << g_rand_int_range(rnd, 0, 8)); break;
			case 1: buf[i] = "\t\n:,;=-0x"[g_rand_int_range(rnd, 0, 9)]; break;
			case 2: n = i; break;                          /* cut */
			case 3: buf[i] = (char)g_rand_int_range(rnd, 0, 256); break;
			}
		}
		put(p, buf, n);
		err[0] = 0;
		if (mf_read(p, &m, err, sizeof(err))) {
			accepted++;
			assert_true(m.n_rpcs <= 3);
			for (i = 0; i < m.n_rpcs; i++)
				assert_true(m.rpcs[i].n_reads <= MF_MAX_SEGS && m.rpcs[i].n_wsegs <= MF_MAX_SEGS &&
					    m.rpcs[i].n_rsegs <= MF_MAX_SEGS && m.rpcs[i].n_wchunks <= MF_MAX_WCHUNKS);
		} else {
			assert_int_equal(strncmp(err, p, strlen(p)), 0);
			assert_true(err[strlen(p)] == ':');
		}
		mf_free(&m);
		g_free(buf);
	}
	/* Some damage is harmless (a digit for a digit); most is not. */
	assert_true(accepted > 0 && accepted < 3000);
	g_rand_free(rnd);
	g_free(good);
	g_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_reaction),
		cmocka_unit_test(test_no_overwrite),
		cmocka_unit_test(test_writer_sanitizes),
		cmocka_unit_test(test_writer_bad_counts),
		cmocka_unit_test(test_hostile_lines),
		cmocka_unit_test(test_hostile_sizes),
		cmocka_unit_test(test_lenient),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
