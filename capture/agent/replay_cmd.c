// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_cmd.c - `rpcrdma-agent replay CAPTURE --xid X --target SERVER`:
 * the call with that XID, as the engine rebuilt it from the capture, sent
 * again to SERVER in variations, each on a connection of its own and with
 * a fresh XID (AUTH_SYS as captured):
 *   captured  the read chunk the capture had (segments, positions, lengths)
 *   pzrc      the whole call in one Position-Zero read chunk segment
 *   inline    RDMA_MSG with no chunk, when it fits the server's inline size
 *   tcp       the same call over TCP (RFC 5531 §11 record marking)
 *   sizes     NFSACL SETACL only: fewer ACL entries (--entries, then a
 *             bisection between the largest size that works and the
 *             smallest that fails), captured shape and TCP
 * and the conclusion: which factor decides (replay_report.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/hdr.h>

#include "agent.h"
#include "common.h"
#include "kernel_target.h"
#include "replay.h"
#include "replay_report.h"
#include "replay_send.h"

enum { W_CAPTURED = 1, W_PZRC = 2, W_INLINE = 4, W_TCP = 8, W_SIZES = 16 };

struct replay {
	struct agent_run run;
	const char *capture, *fh_from, *export_path, *json, *entries;
	uint32_t xid, inline_thresh;
	bool have_xid, dry_run, no_bisect;
	unsigned want;
	struct rp_target tgt;
	struct rp_call call;
	GByteArray *msg;          /* the captured call, with --fh-from's handle when given */
	uint32_t next_xid;
	struct rp_report rep;
};

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent replay CAPTURE --xid X --target SERVER [-d DEV] [-p PORT]\n"
	      "         [--variations captured,pzrc,inline,tcp,sizes] [--entries N,N...] [--no-bisect]\n"
	      "         [--fh-from PATH [--export PATH]] [--inline-threshold N] [--tcp-port PORT]\n"
	      "         [-w CAPTURE_OUT [-F pcap|pcapng] [--overwrite]] [--json FILE] [--timeout SEC]\n"
	      "         [--dry-run]\n"
	      "Sends the call with XID X from CAPTURE (as the analyzer rebuilt it) to SERVER again,\n"
	      "in variations, each on a new connection, and says which factor decides its outcome.\n",
	      f);
}

static bool parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x = strtoull(s, &end, 0);
	if (!*s || *end || x > 0xffffffffull)
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool parse_variations(struct replay *r, const char *list)
{
	static const char *const names[] = { "captured", "pzrc", "inline", "tcp", "sizes" };
	gchar **v = g_strsplit(list, ",", -1);
	bool ok = true;

	r->want = 0;
	for (gchar **p = v; *p && ok; p++) {
		unsigned k;
		for (k = 0; k < G_N_ELEMENTS(names) && strcmp(*p, names[k]); k++)
			;
		if (k == G_N_ELEMENTS(names)) {
			fprintf(stderr, AGENT_NAME ": replay: --variations: '%s' is not one of "
				"captured, pzrc, inline, tcp, sizes\n", *p);
			ok = false;
		}
		r->want |= 1u << k;
	}
	g_strfreev(v);
	return ok && r->want;
}

static bool replay_opt(struct replay *r, int argc, char **argv, int *i, int *bad)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	uint32_t n;

	if (!strcmp(a, "--dry-run")) {
		r->dry_run = true;
		return true;
	}
	if (!strcmp(a, "--no-bisect")) {
		r->no_bisect = true;
		return true;
	}
	if (!v)
		return false;
	if (!strcmp(a, "--xid"))
		*bad |= !(r->have_xid = parse_u32(v, &r->xid));
	else if (!strcmp(a, "--target"))
		r->tgt.server = v;
	else if (!strcmp(a, "--variations"))
		*bad |= !parse_variations(r, v);
	else if (!strcmp(a, "--entries"))
		r->entries = v;
	else if (!strcmp(a, "--fh-from"))
		r->fh_from = v;
	else if (!strcmp(a, "--export"))
		r->export_path = v;
	else if (!strcmp(a, "--json"))
		r->json = v;
	else if (!strcmp(a, "--inline-threshold"))
		*bad |= !parse_u32(v, &r->inline_thresh) || r->inline_thresh < 1024;
	else if (!strcmp(a, "--tcp-port"))
		*bad |= !parse_u32(v, &n) || !n || n > 65535 || !(r->tgt.tcp_port = (uint16_t)n);
	else
		return false;
	(*i)++;
	return true;
}

/* -1 to go on, else the exit status. */
static int parse_args(struct replay *r, int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (replay_opt(r, argc, argv, &i, &bad) ||
			   agent_common_opt(&r->run, argc, argv, &i, &bad)) {
			continue;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, AGENT_NAME ": replay: unknown option %s\n", a);
			bad = 1;
		} else if (!r->capture) {
			r->capture = a;
		} else {
			bad = 1;
		}
	}
	if (bad || !r->capture || !r->have_xid || (!r->tgt.server && !r->dry_run)) {
		usage(stderr);
		return 2;
	}
	return -1;
}

static void describe_call(const struct replay *r)
{
	const struct rp_call *c = &r->call;

	printf("call XID 0x%08x (frame %llu, sent %u time%s): program %u v%u procedure %u, %u bytes, "
	       "%s", c->xid, (unsigned long long)c->frame, c->copies, c->copies == 1 ? "" : "s",
	       c->prog, c->vers, c->proc, c->msg->len, rr_hdr_proc_name(c->rdma_proc));
	for (uint32_t i = 0; i < c->n_reads; i++)
		printf("%s%u@%u", i ? "+" : " with read segments ", c->reads[i].length,
		       c->reads[i].position);
	printf("; captured answer: %s\n", c->answer);
	if (r->rep.acl)
		printf("NFSACL SETACL: access ACL of %u entries (%u named), default ACL of %u\n",
		       r->rep.acl_args.n_acl, r->rep.acl_args.named, r->rep.acl_args.n_dfacl);
	printf("server inline threshold: %u (%s)\n", r->inline_thresh,
	       c->server_inline ? "the capture's RFC 8797 handshake" : "the RFC 8166 default");
}

/* The call with `named` named ACL entries (the full one when not an ACL or not cut). */
static GByteArray *sized(struct replay *r, uint32_t named, uint32_t *entries, char *err,
			 size_t errlen)
{
	uint32_t fixed = r->rep.acl_args.n_acl - r->rep.acl_args.named;

	*entries = named + fixed;
	if (!r->rep.acl || named == r->rep.acl_args.named) {
		*entries = r->rep.acl ? r->rep.acl_args.n_acl : 0;
		return g_byte_array_ref(r->msg);
	}
	return rp_acl_resize(r->msg, r->call.args_off, *entries, err, errlen);
}

static void plan_how(const struct rp_plan *p, char *how, size_t n)
{
	GString *s = g_string_new(rr_hdr_proc_name(p->rdma_proc));

	if (p->how == RP_INLINE)
		g_string_append_printf(s, " inline (%zu bytes of Send)", rp_plan_hdr_len(p) + p->msg_len);
	for (uint32_t i = 0; i < p->n_segs; i++)
		g_string_append_printf(s, "%s%u", i ? "+" : p->segs[0].position ?
				       ", read chunk " : ", PZRC ", p->segs[i].length);
	if (p->n_segs && p->segs[0].position)
		g_string_append_printf(s, " at position %u", p->segs[0].position);
	g_strlcpy(how, s->str, n);
	g_string_free(s, TRUE);
}

/* An answer that says nothing of the arguments: no answer, a disconnect, no connection. */
static bool anomaly(const struct rp_answer *a)
{
	return a->result == RP_TIMEOUT || a->result == RP_DISCONNECT ||
	       a->result == RP_BAD_REPLY || (a->result == RP_NOT_SENT && strstr(a->text, "connection"));
}

/* The plan of a variation for a message of len bytes; false (err) when it does not apply. */
static bool plan_of(const struct replay *r, enum rp_kind kind, size_t len, struct rp_plan *p,
		    char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (kind == RP_V_CAPTURED)
		return rp_plan_captured(&r->call, len, p, err, errlen);
	if (kind == RP_V_PZRC)
		rp_plan_pzrc(len, 1, p);
	else if (kind == RP_V_INLINE)
		return rp_plan_inline(len, r->inline_thresh, p, err, errlen);
	return true;
}

/* One send of m (a copy gets the try's fresh XID), its line printed and recorded. */
static void send_once(struct replay *r, struct rp_try *t, const GByteArray *m, bool planned,
		      const struct rp_plan *p, const char *err)
{
	GByteArray *c = g_byte_array_sized_new(m->len);

	g_byte_array_append(c, m->data, m->len);
	t->xid = r->next_xid++;
	rp_set_xid(c, t->xid);
	memset(&t->ans, 0, sizeof(t->ans));
	if (!planned) {
		g_strlcpy(t->how, "-", sizeof(t->how));
		t->ans.result = RP_NOT_SENT;
		g_strlcpy(t->ans.text, err, sizeof(t->ans.text));
	} else if (r->dry_run) {
		t->ans.result = RP_NOT_SENT;
		g_strlcpy(t->ans.text, "dry run", sizeof(t->ans.text));
	} else if (t->kind == RP_V_TCP) {
		rp_send_tcp(&r->tgt, c, t->xid, &t->ans);
	} else {
		rp_send_rdma(&r->tgt, p, c, t->xid, &t->ans);
	}
	g_byte_array_free(c, TRUE);
	t->ok = t->ans.result == RP_SUCCESS;
	rp_report_line(t);
	g_array_append_val(r->rep.tries, *t);
}

/*
 * Sends one variation and records it; returns whether the server carried
 * the call out.  An anomaly (no answer, a disconnect) is sent once more on
 * a new connection: both tries are kept, the second one counts.
 */
static bool try_one(struct replay *r, enum rp_kind kind, uint32_t named, bool probe)
{
	static const char *const kname[] = { "captured", "pzrc", "inline", "tcp" };
	struct rp_try t;
	struct rp_plan p;
	char err[256] = "";
	bool planned = true;
	GByteArray *m;

	memset(&t, 0, sizeof(t));
	t.kind = kind;
	t.probe = probe;
	t.full = !r->rep.acl || named == r->rep.acl_args.named;
	t.named = named;
	if (t.full)
		snprintf(t.name, sizeof(t.name), "%s", kname[kind]);
	else
		snprintf(t.name, sizeof(t.name), "%u/%s", named, kname[kind]);
	m = sized(r, named, &t.entries, err, sizeof(err));
	if (!m) {
		t.ans.result = RP_NOT_SENT;
		g_strlcpy(t.ans.text, err, sizeof(t.ans.text));
		rp_report_line(&t);
		g_array_append_val(r->rep.tries, t);
		return false;
	}
	t.bytes = m->len;
	planned = plan_of(r, kind, m->len, &p, err, sizeof(err));
	if (kind == RP_V_TCP)
		snprintf(t.how, sizeof(t.how), "TCP port %u, one record", r->tgt.tcp_port);
	else if (planned)
		plan_how(&p, t.how, sizeof(t.how));
	send_once(r, &t, m, planned, &p, err);
	if (anomaly(&t.ans) && !agent_stop_signal) {
		g_array_index(r->rep.tries, struct rp_try, r->rep.tries->len - 1).superseded = true;
		g_strlcat(t.name, "+again", sizeof(t.name));
		send_once(r, &t, m, planned, &p, err);
	}
	g_byte_array_unref(m);
	return t.ok;
}

enum size_verdict { SIZE_WORKS, SIZE_FAILS, SIZE_SPLIT };

/* The answer the last counting try of this kind and size got. */
static const struct rp_try *last_try(const struct replay *r, enum rp_kind kind, uint32_t named)
{
	for (guint i = r->rep.tries->len; i-- > 0;) {
		const struct rp_try *t = &g_array_index(r->rep.tries, struct rp_try, i);
		if (t->kind == kind && t->named == named && !t->superseded)
			return t;
	}
	return NULL;
}

/*
 * One size in the captured shape and over TCP (and inline when it fits,
 * outside the bisection): it works when both work, fails when both fail
 * with an answer about the call; anything else splits (and is told).
 */
static enum size_verdict try_size(struct replay *r, uint32_t named, bool probe)
{
	bool a = try_one(r, RP_V_CAPTURED, named, probe);
	bool b = try_one(r, RP_V_TCP, named, probe);
	const struct rp_try *c, *t;

	if (!probe && (r->want & W_INLINE))
		try_one(r, RP_V_INLINE, named, probe);
	/* Looked up after the last try: a try grows the array of tries, which may move it. */
	c = last_try(r, RP_V_CAPTURED, named);
	t = last_try(r, RP_V_TCP, named);
	if (a && b)
		return SIZE_WORKS;
	if (!a && !b && c && t && !anomaly(&c->ans) && !anomaly(&t->ans))
		return SIZE_FAILS;
	if (!r->rep.have_split) {
		r->rep.have_split = true;
		snprintf(r->rep.split, sizeof(r->rep.split), "at %u entries the captured shape got %s "
			 "and TCP %s", named, c ? rp_result_name(c->ans.result) : "-",
			 t ? rp_result_name(t->ans.result) : "-");
	}
	return SIZE_SPLIT;
}

static void set_bound(struct replay *r, bool works, uint32_t named)
{
	uint32_t entries;
	char err[64];
	GByteArray *m = sized(r, named, &entries, err, sizeof(err));
	size_t bytes = m ? m->len : 0;

	if (m)
		g_byte_array_unref(m);
	if (works && (!r->rep.have_works || named > r->rep.works)) {
		r->rep.have_works = true;
		r->rep.works = named;
		r->rep.works_bytes = bytes;
	} else if (!works && (!r->rep.have_fails || named < r->rep.fails)) {
		r->rep.have_fails = true;
		r->rep.fails = named;
		r->rep.fails_bytes = bytes;
	}
}

/* --entries, then halve the gap between what works and what fails on both carriers. */
static void run_sizes(struct replay *r, bool full_failed)
{
	const char *list = r->entries ? r->entries : "300,200";
	gchar **v = g_strsplit(list, ",", -1);
	uint32_t full = r->rep.acl_args.named;

	if (full_failed)
		set_bound(r, false, full);
	for (gchar **p = v; *p; p++) {
		uint32_t n;
		if (!parse_u32(*p, &n) || n >= full) {
			fprintf(stderr, AGENT_NAME ": replay: --entries %s: a count below %u\n", *p, full);
			continue;
		}
		enum size_verdict sv = try_size(r, n, false);
		if (sv != SIZE_SPLIT)
			set_bound(r, sv == SIZE_WORKS, n);
	}
	g_strfreev(v);
	for (unsigned steps = 0; !r->dry_run && !r->no_bisect && r->rep.have_works &&
	     r->rep.have_fails && r->rep.works < r->rep.fails && r->rep.fails - r->rep.works > 1 &&
	     steps < 12 && !agent_stop_signal; steps++) {
		uint32_t mid = r->rep.works + (r->rep.fails - r->rep.works) / 2;
		enum size_verdict sv = try_size(r, mid, true);
		if (sv == SIZE_SPLIT)
			break;      /* the boundary is not one size for both carriers */
		set_bound(r, sv == SIZE_WORKS, mid);
	}
}

static bool load_call(struct replay *r)
{
	char err[512] = "";

	if (!rp_select(r->capture, r->xid, &r->call, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": replay: %s\n", err);
		return false;
	}
	r->rep.acl = r->call.prog == RP_PROG_NFSACL && r->call.vers == 3 &&
		     r->call.proc == RP_ACL3_SETACL &&
		     rp_acl_parse(r->call.msg->data + r->call.args_off,
				  r->call.msg->len - r->call.args_off, &r->rep.acl_args, err, sizeof(err));
	if (!r->inline_thresh)
		r->inline_thresh = r->call.server_inline ? r->call.server_inline
							 : RR_DEFAULT_INLINE_THRESHOLD;
	r->msg = g_byte_array_ref(r->call.msg);
	if (r->fh_from && !r->dry_run) {
		uint8_t fh[64];
		uint32_t fl = 0;
		GByteArray *m;
		const char *ex = r->export_path ? r->export_path : "/srv/export";
		if (!kt_path_handle(r->tgt.server, ex, r->fh_from, fh, &fl, err, sizeof(err)) ||
		    !(m = rp_replace_fh(r->msg, r->call.args_off, fh, fl, err, sizeof(err)))) {
			fprintf(stderr, AGENT_NAME ": replay: --fh-from %s: %s\n", r->fh_from, err);
			return false;
		}
		g_byte_array_unref(r->msg);
		r->msg = m;
		printf("file handle: %s on %s (%u bytes), in place of the captured one\n", r->fh_from,
		       r->tgt.server, fl);
	}
	return true;
}

static void run_variations(struct replay *r)
{
	bool full_failed = true;
	uint32_t full = r->rep.acl ? r->rep.acl_args.named : 0;

	/* the full size is the bisection's failing end when every carrier tried there fails */
	if (r->want & W_CAPTURED)
		full_failed &= !try_one(r, RP_V_CAPTURED, full, false);
	if (r->want & W_PZRC)
		full_failed &= !try_one(r, RP_V_PZRC, full, false);
	if (r->want & W_INLINE)
		try_one(r, RP_V_INLINE, full, false);
	if (r->want & W_TCP)
		full_failed &= !try_one(r, RP_V_TCP, full, false);
	if ((r->want & W_SIZES) && r->rep.acl && !agent_stop_signal)
		run_sizes(r, full_failed);
	rp_report_conclude(&r->rep);
	printf("conclusion: %s\n", r->rep.conclusion);
}

int agent_cmd_replay(int argc, char **argv)
{
	struct replay r;
	char err[512] = "";
	int rc;

	memset(&r, 0, sizeof(r));
	r.want = W_CAPTURED | W_PZRC | W_INLINE | W_TCP | W_SIZES;
	r.tgt.tcp_port = 2049;
	r.tgt.credits = 32;
	r.run.port = 20049;
	r.run.no_manifest = true;
	rc = parse_args(&r, argc, argv);
	if (rc >= 0)
		return rc;
	if (!load_call(&r)) {
		rp_call_clear(&r.call);
		return 1;
	}
	r.rep.capture = r.capture;
	r.rep.server = r.tgt.server ? r.tgt.server : "-";
	r.rep.call = &r.call;
	r.rep.tries = g_array_new(FALSE, TRUE, sizeof(struct rp_try));
	describe_call(&r);
	if (r.dry_run || agent_run_begin(&r.run, "replay")) {
		r.tgt.rdma_port = r.run.port;
		r.tgt.timeout_ms = r.run.timeout_ms ? r.run.timeout_ms : 30000;
		r.next_xid = (g_random_int() & 0x7fffff00u) | 1;
		run_variations(&r);
		if (!r.dry_run && !agent_run_end(&r.run))
			rc = 1;
	} else {
		rc = 1;
	}
	if (r.json && !rp_report_json(&r.rep, r.json, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": replay: --json %s: %s\n", r.json, err);
		rc = 1;
	}
	g_array_free(r.rep.tries, TRUE);
	g_byte_array_unref(r.msg);
	rp_call_clear(&r.call);
	if (agent_stop_signal)
		return 128 + agent_stop_signal;
	return rc < 0 ? 0 : rc;
}
