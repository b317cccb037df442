// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verify.c - `rpcrdma-agent verify`: hold what the agent says it sent
 * (manifests, manifest.h) against what the engine rebuilds and finds in
 * the capture.
 *
 * The manifests are the agent's own account and the engine shares no code
 * with the agent's encoders, so agreement means both are right, and a
 * disagreement names the message to look at.  The checks:
 *  - every rpc line with rebuilt=yes is a rebuilt message with the same
 *    XID, direction, length and SHA-256 (one engine message per line of a
 *    manifest: a message listed twice must be in the capture twice);
 *  - every inject line has a finding of its rule for that message: one
 *    that names no other XID, at the message's Send (rebuilt or refused),
 *    or else in its exchange, from the call's Send to the next call after
 *    the reply (RDMA Reads and Writes, answers; vf_in_exchange());
 *  - no error finding beyond the injected rules and their also= lists;
 *  - the capture lost nothing (dropped=, ifdropped=).
 * Several manifests (the requester's and the responder's) are merged:
 * each one's rpc lines are matched on their own, inject lines are checked
 * once per (rule, XID, direction), and tolerance is the union.
 *
 * Calling convention: agent_cmd_verify(argc, argv) with argv[0] the
 * subcommand name ("verify"), options and operands after it.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "manifest.h"
#include "verify.h"

#define VERB AGENT_NAME " verify"

struct vf {
	bool quiet;
	struct rr_session_opts opts;
	const char *capture;
	int n_mf;
	char **mf_path;
	struct mf_manifest *mf;
	struct vf_result res;
	bool tolerated[RR_RULE_COUNT];
	/* ... and the XIDs each is tolerated at (M1: only in the exchange that broke it) */
	GHashTable *tol_xids[RR_RULE_COUNT];
	unsigned rpcs_waived;
	bool have_requester;      /* a manifest of role drive: it lists every message */
	bool requester_line;      /* the rpc line being checked is the requester's */
	unsigned problems, rpcs_ok, injects_ok;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " VERB " [options] CAPTURE MANIFEST [MANIFEST...]\n"
		"  Runs the analyzer engine on CAPTURE and checks it against what the agent recorded:\n"
		"  every rebuilt RPC message (length, SHA-256), every injected violation found at its\n"
		"  message, no other error finding, no packet dropped by the capture.\n"
		"  --quiet                   print only failures and the summary\n");
	rr_session_print_options(f);
	fprintf(f, "  Exit status: 0 pass, 1 fail, 2 usage error or unreadable input.\n");
}

static void fail(struct vf *v, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void fail(struct vf *v, const char *fmt, ...)
{
	va_list ap;

	v->problems++;
	fputs("FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static void say(const struct vf *v, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void say(const struct vf *v, const char *fmt, ...)
{
	va_list ap;

	if (v->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static const char *dir_name(bool reply)
{
	return reply ? "reply" : "call";
}

/* The manifest's name in a line, when there is more than one to tell apart. */
static const char *mf_tag(const struct vf *v, int i, char *buf, size_t n)
{
	gchar *base;

	if (v->n_mf < 2)
		return "";
	base = g_path_get_basename(v->mf_path[i]);
	snprintf(buf, n, "  [%s]", base);
	g_free(base);
	return buf;
}

/* ---- the capture line ---- */

static void check_capture(struct vf *v)
{
	gchar *base = g_path_get_basename(v->capture);
	bool any = false;
	int i;

	for (i = 0; i < v->n_mf; i++) {
		const struct mf_capture *c = &v->mf[i].capture;

		if (!c->present)
			continue;
		any = true;
		if (c->dropped || c->ifdropped)
			fail(v, "capture: %s says the capture dropped %" PRIu64 " packets (%" PRIu64
			     " at the interface): it cannot vouch for what was sent", v->mf_path[i], c->dropped,
			     c->ifdropped);
		if (c->file[0] && strcmp(c->file, base))
			say(v, "warning: %s describes capture %s, not %s", v->mf_path[i], c->file, base);
		if (c->received && c->received != v->res.frames)
			say(v, "note: %s: the capture filter received %" PRIu64 " packets; the file holds %" PRIu64,
			    v->mf_path[i], c->received, v->res.frames);
	}
	if (!any)
		say(v, "note: no manifest has a capture line: packet drops cannot be ruled out");
	g_free(base);
}

/* ---- rpc lines ---- */

/*
 * Whether some manifest broke, on purpose and in this message, a rule whose
 * breach leaves the Payload without one right value: results written into
 * the wrong write chunk (RR-081), a Write past its segment (RR-085), a
 * Write chunk returned shorter than what was written into it (RR-091: the
 * engine takes the returned length, the requester's memory holds all).  Other
 * injections (credits, lengths in the header) leave the Payload as it was,
 * and it is compared as usual.
 */
static bool payload_broken(const struct vf *v, uint32_t xid, bool reply)
{
	for (int i = 0; i < v->n_mf; i++)
		for (size_t k = 0; k < v->mf[i].n_injects; k++) {
			const struct mf_inject *j = &v->mf[i].injects[k];
			if (j->xid == xid && j->reply == reply &&
			    (!strcmp(j->rule, "RR-081") || !strcmp(j->rule, "RR-085") ||
			     !strcmp(j->rule, "RR-091")))
				return true;
		}
	return false;
}

static void check_rpc(struct vf *v, int mi, const struct mf_rpc *r, bool *used)
{
	GArray *msgs = v->res.msgs;
	const GArray *idx = vf_msgs_of(&v->res, r->xid);
	const struct vf_msg *other = NULL;
	const struct vf_send *s;
	unsigned listed = 0;
	char buf[96];
	const char *tag = mf_tag(v, mi, buf, sizeof(buf));
	guint k;

	for (k = 0; idx && k < idx->len; k++) {
		guint i = g_array_index(idx, guint, k);
		const struct vf_msg *m = &g_array_index(msgs, struct vf_msg, i);

		if (!vf_same_msg(m, r->xid, r->reply))
			continue;
		listed++;
		if (used[i])
			continue;
		if (m->len == r->len && !strcmp(m->sha256, r->sha256)) {
			used[i] = true;
			v->rpcs_ok++;
			say(v, "PASS rpc 0x%08" PRIx32 " %-5s frame %" PRIu64 "  %" PRIu64 " bytes sha256 ok%s",
			    r->xid, dir_name(r->reply), m->send_frame, m->len, tag);
			return;
		}
		if (!other)
			other = m;
	}
	if (other) {
		/* Take it, so that the next line of this XID is held against the next message. */
		used[other - &g_array_index(msgs, struct vf_msg, 0)] = true;
		if (payload_broken(v, r->xid, r->reply)) {
			/*
			 * A message broken on purpose (results in the wrong chunk, a
			 * Write past its segment) has no one right Payload: what the
			 * sender meant, what the receiver rebuilt and what the engine
			 * rebuilt may all differ.  The inject line is what is checked.
			 */
			v->rpcs_waived++;
			say(v, "note rpc 0x%08" PRIx32 " %-5s frame %" PRIu64 ": %" PRIu64 " bytes listed, %" PRIu64
			    " rebuilt, differing under the violation injected into it%s", r->xid,
			    dir_name(r->reply), other->send_frame, r->len, other->len, tag);
			return;
		}
		if (other->len != r->len)
			fail(v, "rpc 0x%08" PRIx32 " %s frame %" PRIu64 ": length %" PRIu64 " in the manifest, %" PRIu64
			     " rebuilt%s%s", r->xid, dir_name(r->reply), other->send_frame, r->len, other->len,
			     other->complete ? "" : " (incomplete: bytes of it were not in the capture)", tag);
		else
			fail(v, "rpc 0x%08" PRIx32 " %s frame %" PRIu64 ": %" PRIu64 " bytes as listed, but sha256 %s "
			     "in the manifest, %s rebuilt%s", r->xid, dir_name(r->reply), other->send_frame, r->len,
			     r->sha256, other->sha256, tag);
	} else if (listed) {
		fail(v, "rpc 0x%08" PRIx32 " %s: listed more often than the capture holds it (%u rebuilt)%s",
		     r->xid, dir_name(r->reply), listed, tag);
	} else if ((s = vf_refused_send(&v->res, r->xid, r->reply))) {
		fail(v, "rpc 0x%08" PRIx32 " %s: the engine did not rebuild its Send at frame %" PRIu64
		     " (the manifest says rebuilt=yes)%s", r->xid, dir_name(r->reply), s->frame, tag);
	} else {
		fail(v, "rpc 0x%08" PRIx32 " %s: no such message in the capture%s", r->xid, dir_name(r->reply), tag);
	}
}

/* Whether an inject line names this exchange (either direction). */
static bool injected_xid(const struct vf *v, uint32_t xid)
{
	for (int i = 0; i < v->n_mf; i++)
		for (size_t k = 0; k < v->mf[i].n_injects; k++)
			if (v->mf[i].injects[k].xid == xid)
				return true;
	return false;
}

/* rebuilt=no: the agent sent something the engine must not be held to; say what it made of it. */
static void not_compared(struct vf *v, const struct mf_rpc *r, bool *mentioned)
{
	const GArray *idx = vf_msgs_of(&v->res, r->xid);
	const struct vf_msg *seen = NULL;
	guint k;

	for (k = 0; idx && k < idx->len; k++) {
		guint i = g_array_index(idx, guint, k);
		const struct vf_msg *m = &g_array_index(v->res.msgs, struct vf_msg, i);

		if (vf_same_msg(m, r->xid, r->reply)) {
			mentioned[i] = true;
			seen = seen ? seen : m;
		}
	}
	if (seen && v->requester_line && !injected_xid(v, r->xid))
		/* outside a broken exchange, the requester marks rebuilt=no only what is
		 * not RPC-over-RDMA version 1 */
		fail(v, "rpc 0x%08" PRIx32 " %s: the requester's manifest says rebuilt=no, yet the engine "
		     "rebuilt %" PRIu64 " bytes at frame %" PRIu64, r->xid, dir_name(r->reply), seen->len,
		     seen->send_frame);
	else if (seen)
		say(v, "n/a  rpc 0x%08" PRIx32 " %-5s rebuilt=no: not compared (the engine rebuilt %" PRIu64
		    " bytes at frame %" PRIu64 ")", r->xid, dir_name(r->reply), seen->len, seen->send_frame);
	else
		say(v, "n/a  rpc 0x%08" PRIx32 " %-5s rebuilt=no: not compared (not rebuilt)", r->xid,
		    dir_name(r->reply));
}

static void check_rpcs(struct vf *v)
{
	guint n = v->res.msgs->len, i, unlisted = 0;
	bool *used_any = g_new0(bool, n + 1), *used = g_new0(bool, n + 1);
	const struct vf_msg *first = NULL;
	int mi;
	size_t k;

	for (mi = 0; mi < v->n_mf; mi++) {
		memset(used, 0, (n + 1) * sizeof(bool));
		for (k = 0; k < v->mf[mi].n_rpcs; k++) {
			const struct mf_rpc *r = &v->mf[mi].rpcs[k];

			if (!r->rebuilt) {
				v->requester_line = !strcmp(v->mf[mi].run.role, "drive");
				not_compared(v, r, used_any);
				continue;
			}
			check_rpc(v, mi, r, used);
		}
		for (i = 0; i < n; i++)
			used_any[i] |= used[i];
	}
	for (i = 0; i < n; i++)
		if (!used_any[i] && !unlisted++)
			first = &g_array_index(v->res.msgs, struct vf_msg, i);
	if (unlisted && v->have_requester)
		/* the requester lists every message of its connection, both ways */
		fail(v, "%u rebuilt messages are in no manifest (the first: 0x%08" PRIx32 " %s at frame %"
		     PRIu64 ")", unlisted, first->xid, dir_name(first->reply), first->send_frame);
	else if (unlisted)
		say(v, "note: %u rebuilt messages are in no manifest (the first: 0x%08" PRIx32 " %s at frame %"
		    PRIu64 ")", unlisted, first->xid, dir_name(first->reply), first->send_frame);
	g_free(used);
	g_free(used_any);
}

/* ---- inject lines ---- */

/* A finding of the inject's rule that names no other message; NULL past the last. */
static const struct rr_diag *next_of_rule(const struct vf *v, const struct mf_inject *j,
					  const struct vf_place *p, enum rr_rule_id id, guint *i)
{
	GArray *fs = v->res.findings;

	for (; *i < fs->len; (*i)++) {
		const struct rr_diag *d = &g_array_index(fs, struct rr_diag, *i);

		if (d->id == id && (!d->has_xid || vf_xid_ok(p, j->xid, d->xid))) {
			(*i)++;
			return d;
		}
	}
	return NULL;
}

static void check_inject(struct vf *v, const struct mf_inject *j)
{
	enum rr_rule_id id = rr_rule_find(j->rule);
	GArray *fs = v->res.findings;
	const struct rr_diag *d, *first = NULL;
	char whose[32] = "";
	struct vf_place p;
	unsigned n_rule = 0;
	guint i;

	vf_locate(&v->res, j->xid, j->reply, &p);
	/* sent=failed: the sender's Send completed in error; not on the wire is no fault */
	if (j->send_failed && !p.n_frames) {
		v->injects_ok++;
		say(v, "n/a  inject %s 0x%08" PRIx32 " %-5s: its Send failed at the sender and is not in the "
		    "capture", j->rule, j->xid, dir_name(j->reply));
		return;
	}
	/* At the message's own Send first: that is where a rule about the message points. */
	for (i = 0; (d = next_of_rule(v, j, &p, id, &i));)
		if (vf_at_send(&p, d->frame)) {
			v->injects_ok++;
			say(v, "PASS inject %s 0x%08" PRIx32 " %-5s found at frame %" PRIu64 " (its Send)", j->rule,
			    j->xid, dir_name(j->reply), d->frame);
			return;
		}
	/* Then anywhere in its exchange: RDMA operations, answers. */
	for (i = 0; (d = next_of_rule(v, j, &p, id, &i));)
		if (vf_in_exchange(&v->res, j->xid, d->frame)) {
			v->injects_ok++;
			say(v, "PASS inject %s 0x%08" PRIx32 " %-5s found at frame %" PRIu64 " (in its exchange)",
			    j->rule, j->xid, dir_name(j->reply), d->frame);
			return;
		}
	/* Last, one that names its XID wherever it is: an RDMA operation after the reply (RR-068,
	 * RR-092) reaches the call's memory when its exchange is over */
	for (i = 0; i < fs->len; i++) {
		d = &g_array_index(fs, struct rr_diag, i);
		if (d->id == id && d->has_xid && d->xid == j->xid) {
			v->injects_ok++;
			say(v, "PASS inject %s 0x%08" PRIx32 " %-5s found at frame %" PRIu64 " (it names the XID)",
			    j->rule, j->xid, dir_name(j->reply), d->frame);
			return;
		}
	}
	for (i = 0; i < fs->len; i++) {
		d = &g_array_index(fs, struct rr_diag, i);
		if (d->id == id && !n_rule++)
			first = d;
	}
	if (!first) {
		fail(v, "inject %s 0x%08" PRIx32 " %s: the engine reported no %s finding in the capture", j->rule,
		     j->xid, dir_name(j->reply), j->rule);
		return;
	}
	if (first->has_xid)
		snprintf(whose, sizeof(whose), " (XID 0x%08" PRIx32 ")", first->xid);
	if (!p.n_frames)
		fail(v, "inject %s 0x%08" PRIx32 " %s: no Send of this XID and direction in the capture; %u %s "
		     "finding(s) elsewhere, the first at frame %" PRIu64 "%s", j->rule, j->xid, dir_name(j->reply),
		     n_rule, j->rule, first->frame, whose);
	else
		fail(v, "inject %s 0x%08" PRIx32 " %s: not at its Send (frame %" PRIu64 ") nor in its exchange; "
		     "%u %s finding(s) elsewhere, the first at frame %" PRIu64 "%s", j->rule, j->xid,
		     dir_name(j->reply), p.frames[0], n_rule, j->rule, first->frame, whose);
}

static void check_injects(struct vf *v)
{
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	int mi;
	size_t k;

	for (mi = 0; mi < v->n_mf; mi++)
		for (k = 0; k < v->mf[mi].n_injects; k++) {
			const struct mf_inject *j = &v->mf[mi].injects[k];
			gchar *key = g_strdup_printf("%s %08" PRIx32 " %d", j->rule, j->xid, j->reply);

			/* The other peer's manifest may say the same: check it once. */
			if (!g_hash_table_add(seen, key))
				continue;
			check_inject(v, j);
		}
	g_hash_table_destroy(seen);
}

/* ---- findings nobody asked for ---- */

static void check_findings(struct vf *v)
{
	GArray *fs = v->res.findings;
	guint i;

	for (i = 0; i < fs->len; i++) {
		const struct rr_diag *d = &g_array_index(fs, struct rr_diag, i);
		const char *code = rr_rule_get(d->id)->code;

		/* a finding about another message is not excused by this one's injection */
		if (v->tolerated[d->id] &&
		    (!d->has_xid || g_hash_table_contains(v->tol_xids[d->id], GUINT_TO_POINTER(d->xid))))
			say(v, "ok   frame %" PRIu64 " %s %s (injected): %s", d->frame, code,
			    rr_severity_name(d->severity), d->text);
		else if (d->severity == RR_SEV_ERROR)
			fail(v, "frame %" PRIu64 " %s error, not injected: %s", d->frame, code, d->text);
		else
			say(v, "note frame %" PRIu64 " %s %s: %s", d->frame, code, rr_severity_name(d->severity),
			    d->text);
	}
}

/* ---- what the peer did: reported (even with --quiet), never judged ---- */

static void print_records(const struct vf *v)
{
	char buf[96];
	int mi;
	size_t k;

	for (mi = 0; mi < v->n_mf; mi++) {
		const struct mf_manifest *m = &v->mf[mi];
		const char *tag = mf_tag(v, mi, buf, sizeof(buf));

		for (k = 0; k < m->n_events; k++)
			printf("event   %s 0x%08" PRIx32 " %s%s\n", m->events[k].kind, m->events[k].xid,
			       m->events[k].text, tag);
		for (k = 0; k < m->n_verdicts; k++)
			printf("verdict %s 0x%08" PRIx32 " %s %s%s\n", m->verdicts[k].rule, m->verdicts[k].xid,
			       m->verdicts[k].result, m->verdicts[k].text, tag);
	}
}

/* ---- setup ---- */

static void tolerate(struct vf *v, enum rr_rule_id id, uint32_t xid)
{
	v->tolerated[id] = true;
	if (!v->tol_xids[id])
		v->tol_xids[id] = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_hash_table_add(v->tol_xids[id], GUINT_TO_POINTER(xid));
}

/* Every rule an inject line names must be one the engine knows: else nothing could match it. */
static bool collect_tolerated(struct vf *v)
{
	int mi;
	size_t k;

	for (mi = 0; mi < v->n_mf; mi++)
		for (k = 0; k < v->mf[mi].n_injects; k++) {
			const struct mf_inject *j = &v->mf[mi].injects[k];
			gchar **also = g_strsplit(j->also, ",", -1);
			enum rr_rule_id id = rr_rule_find(j->rule);
			bool ok = id != RR_RULE_COUNT;
			int a;

			if (ok)
				tolerate(v, id, j->xid);
			else
				fprintf(stderr, VERB ": %s: inject rule '%s' is not in the rule catalogue\n",
					v->mf_path[mi], j->rule);
			for (a = 0; ok && also[a]; a++) {
				if (!*also[a])
					continue;
				id = rr_rule_find(also[a]);
				if (id == RR_RULE_COUNT) {
					fprintf(stderr, VERB ": %s: also= rule '%s' is not in the rule catalogue\n",
						v->mf_path[mi], also[a]);
					ok = false;
				} else {
					tolerate(v, id, j->xid);
				}
			}
			g_strfreev(also);
			if (!ok)
				return false;
		}
	return true;
}

static int parse_args(struct vf *v, int argc, char **argv)
{
	struct option opts[RR_OPT__COUNT + 3] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
	};
	char err[256];
	int c;

	optind = 0;     /* main may have run getopt on its own arguments */
	opterr = 1;
	rr_session_getopt_entries(&opts[2]);   /* the terminator stays zero */
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		if (rr_session_is_option(c)) {
			if (!rr_session_set_option(&v->opts, c - RR_SESSION_OPT_BASE, optarg, err, sizeof(err))) {
				fprintf(stderr, VERB ": %s\n", err);
				return 2;
			}
			continue;
		}
		switch (c) {
		case 'q':
			v->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 2) {
		usage(stderr);
		return 2;
	}
	v->capture = argv[optind];
	v->mf_path = argv + optind + 1;
	v->n_mf = argc - optind - 1;
	return -1;
}

static int run(struct vf *v)
{
	char err[512];
	int i;

	v->mf = g_new0(struct mf_manifest, v->n_mf);
	for (i = 0; i < v->n_mf; i++)
		if (!mf_read(v->mf_path[i], &v->mf[i], err, sizeof(err))) {
			fprintf(stderr, VERB ": %s\n", err);
			return 2;
		}
	if (!collect_tolerated(v))
		return 2;
	if (!vf_run_engine(v->capture, &v->opts, &v->res, err, sizeof(err))) {
		fprintf(stderr, VERB ": %s\n", err);
		return 2;
	}
	printf("verify: capture %s: %" PRIu64 " frames, %u rebuilt messages, %u findings (profile %s)\n",
	       v->capture, v->res.frames, v->res.msgs->len, v->res.findings->len,
	       rr_profile_name(v->opts.check.profile));
	for (i = 0; i < v->n_mf; i++)
		printf("verify: manifest %s: role %s, %zu rpc, %zu inject, %zu event, %zu verdict lines\n",
		       v->mf_path[i], v->mf[i].run.role[0] ? v->mf[i].run.role : "-", v->mf[i].n_rpcs,
		       v->mf[i].n_injects, v->mf[i].n_events, v->mf[i].n_verdicts);
	for (i = 0; i < v->n_mf; i++) {
		if (!v->mf[i].run.role[0])
			/* without it nothing says what the file is a manifest of */
			fail(v, "%s has no run line", v->mf_path[i]);
		if (!strcmp(v->mf[i].run.role, "drive"))
			v->have_requester = true;
		{
			size_t k, compared = 0;
			for (k = 0; k < v->mf[i].n_rpcs; k++)
				compared += v->mf[i].rpcs[k].rebuilt;
			if (!compared)
				fail(v, "%s lists no RPC message to compare", v->mf_path[i]);
		}
	}
	check_capture(v);
	check_rpcs(v);
	check_injects(v);
	check_findings(v);
	print_records(v);
	if (v->problems) {
		printf("verify: FAIL (%u problem%s)\n", v->problems, v->problems == 1 ? "" : "s");
		return 1;
	}
	if (v->rpcs_waived)
		printf("verify: PASS (%u rpcs, %u injected findings found; %u payloads not compared: "
		       "broken on purpose)\n", v->rpcs_ok, v->injects_ok, v->rpcs_waived);
	else
		printf("verify: PASS (%u rpcs, %u injected findings found)\n", v->rpcs_ok, v->injects_ok);
	return 0;
}

int agent_cmd_verify(int argc, char **argv)
{
	struct vf v = { 0 };
	int rc, i;

	rr_session_default_opts(&v.opts);
	rc = parse_args(&v, argc, argv);
	if (rc >= 0)
		return rc;
	rc = run(&v);
	if (fflush(stdout) != 0) {
		perror(VERB ": writing the report");
		rc = 2;
	}
	for (i = 0; v.mf && i < v.n_mf; i++)
		mf_free(&v.mf[i]);
	g_free(v.mf);
	vf_result_free(&v.res);
	for (i = 0; i < RR_RULE_COUNT; i++)
		if (v.tol_xids[i])
			g_hash_table_destroy(v.tol_xids[i]);
	return rc;
}
