// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_report.c - the lines, the conclusion and the JSON of a replay
 * (replay_report.h).  The conclusion names the factor the tries isolate:
 * at the captured size, do the carriers (captured chunk shape, one
 * Position-Zero segment, inline, TCP) agree; across sizes, is there one
 * that works on every carrier tried.
 */
#include <stdio.h>
#include <string.h>

#include "replay_report.h"

void rp_report_line(const struct rp_try *t)
{
	printf("%-18s %6zu bytes  %-52s -> %-20s %s  [%s; xid 0x%08x]\n", t->name, t->bytes, t->how,
	       rp_result_name(t->ans.result),
	       t->ans.result == RP_NOT_SENT ? "-    " : t->ok ? "WORKS" : "FAILS", t->ans.text, t->xid);
	fflush(stdout);
}

static const struct rp_try *find(const struct rp_report *rep, enum rp_kind k, bool full,
				 uint32_t named)
{
	for (guint i = 0; i < rep->tries->len; i++) {
		const struct rp_try *t = &g_array_index(rep->tries, struct rp_try, i);
		if (t->kind == k && t->full == full && (full || t->named == named) &&
		    t->ans.result != RP_NOT_SENT && !t->superseded)
			return t;
	}
	return NULL;
}

/* "the captured shape, a single PZRC and TCP" and whether they all failed, all worked */
static void carriers(const struct rp_report *rep, char *out, size_t n, bool *all_fail,
		     bool *all_ok, bool *shape_split)
{
	static const char *const words[] = { "the captured shape", "a single PZRC", "inline",
					     "TCP" };
	const struct rp_try *t[4];
	unsigned k = 0, sent = 0;
	GString *s = g_string_new("");

	*all_fail = *all_ok = true;
	*shape_split = false;
	for (unsigned i = 0; i < 4; i++) {
		t[i] = find(rep, (enum rp_kind)i, true, 0);
		sent += t[i] != NULL;
	}
	for (unsigned i = 0; i < 4; i++) {
		if (!t[i])
			continue;
		g_string_append_printf(s, "%s%s", k ? (k + 1 == sent ? " and " : ", ") : "", words[i]);
		k++;
		*all_fail &= !t[i]->ok;
		*all_ok &= t[i]->ok;
		if (t[0] && t[i]->ok != t[0]->ok)
			*shape_split = true;
	}
	if (!sent)
		*all_fail = *all_ok = false;
	g_strlcpy(out, s->str, n);
	g_string_free(s, TRUE);
}

/* The smaller sizes: the largest one that worked on every carrier tried at it, and the failures. */
static void sizes(const struct rp_report *rep, GString *ok_list, GString *bad_list,
		  bool *mixed)
{
	GArray *seen = g_array_new(FALSE, FALSE, sizeof(uint32_t));

	*mixed = false;
	for (guint i = 0; i < rep->tries->len; i++) {
		const struct rp_try *t = &g_array_index(rep->tries, struct rp_try, i);
		bool any_ok = false, any_bad = false, dup = false;
		if (t->full || t->probe || t->superseded || t->ans.result == RP_NOT_SENT)
			continue;
		for (guint k = 0; k < seen->len; k++)
			dup |= g_array_index(seen, uint32_t, k) == t->named;
		if (dup)
			continue;
		g_array_append_val(seen, t->named);
		for (guint j = 0; j < rep->tries->len; j++) {
			const struct rp_try *u = &g_array_index(rep->tries, struct rp_try, j);
			if (u->full || u->named != t->named || u->superseded ||
			    u->ans.result == RP_NOT_SENT)
				continue;
			any_ok |= u->ok;
			any_bad |= !u->ok;
		}
		*mixed |= any_ok && any_bad;
		if (any_ok && !any_bad)
			g_string_append_printf(ok_list, "%s%u", ok_list->len ? ", " : "", t->named);
		else if (any_bad && !any_ok)
			g_string_append_printf(bad_list, "%s%u", bad_list->len ? ", " : "", t->named);
	}
	g_array_free(seen, TRUE);
}

void rp_report_conclude(struct rp_report *rep)
{
	char via[160];
	bool all_fail, all_ok, split, mixed = false;
	GString *ok = g_string_new(""), *bad = g_string_new(""), *s = g_string_new("");
	uint32_t full = rep->acl ? rep->acl_args.named : 0;

	carriers(rep, via, sizeof(via), &all_fail, &all_ok, &split);
	if (rep->acl)
		sizes(rep, ok, bad, &mixed);
	if (!*via) {
		g_string_printf(s, "nothing was sent to the server (a dry run, or no connection)");
	} else if (all_ok) {
		g_string_printf(s, "the failure does not reproduce: %s all succeed at the captured "
				"size", via);
	} else if (split) {
		const struct rp_try *c = find(rep, RP_V_CAPTURED, true, 0);
		const struct rp_try *t = find(rep, RP_V_TCP, true, 0);
		const struct rp_try *z = find(rep, RP_V_PZRC, true, 0);
		if (c && !c->ok && z && z->ok)
			g_string_printf(s, "the chunk shape decides: the captured shape fails (%s), "
					"a single PZRC succeeds", rp_result_name(c->ans.result));
		else if (t && t->ok)
			g_string_printf(s, "the RDMA transport decides: TCP succeeds where RDMA fails "
					"at the captured size");
		else
			g_string_printf(s, "the carriers disagree at the captured size (%s): see the "
					"tries", via);
	} else if (all_fail && ok->len && !mixed) {
		g_string_printf(s, "the argument size decides: %s %s succeed over RDMA and TCP, "
				"%s%s%u fail over both", ok->str, rep->acl ? "entries" : "",
				bad->str, bad->len ? " and " : "", full);
		if (rep->have_works && rep->have_fails)
			g_string_append_printf(s, " (largest that works: %u entries, a %zu-byte call; "
					       "smallest that fails: %u, %zu bytes)", rep->works,
					       rep->works_bytes, rep->fails, rep->fails_bytes);
		g_string_append_printf(s, "; the chunk shape does not matter: %s fail alike at %u",
				       via, full);
	} else if (all_fail) {
		g_string_printf(s, "no factor isolated: %s fail alike at the captured size%s", via,
				rep->acl ? (mixed ? ", and the smaller sizes differ by carrier"
					    : ", and no smaller size tried succeeded") : "");
	} else {
		g_string_printf(s, "undecided: see the tries");
	}
	if (rep->have_split)
		g_string_append_printf(s, "; but %s", rep->split);
	g_strlcpy(rep->conclusion, s->str, sizeof(rep->conclusion));
	g_string_free(ok, TRUE);
	g_string_free(bad, TRUE);
	g_string_free(s, TRUE);
}

static void jstr(GString *j, const char *s)
{
	g_string_append_c(j, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_printf(j, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			g_string_append_printf(j, "\\u%04x", (unsigned char)*s);
		else
			g_string_append_c(j, *s);
	}
	g_string_append_c(j, '"');
}

static void json_call(GString *j, const struct rp_report *rep)
{
	const struct rp_call *c = rep->call;

	g_string_append_printf(j, "  \"call\": {\"xid\": \"0x%08x\", \"program\": %u, \"version\": %u, "
			       "\"procedure\": %u, \"bytes\": %u, \"rdma_proc\": %u, \"frame\": %llu, "
			       "\"copies\": %u, \"server_inline\": %u, \"read_segments\": [",
			       c->xid, c->prog, c->vers, c->proc, c->msg->len, c->rdma_proc,
			       (unsigned long long)c->frame, c->copies, c->server_inline);
	for (uint32_t i = 0; i < c->n_reads; i++)
		g_string_append_printf(j, "%s{\"position\": %u, \"length\": %u}", i ? ", " : "",
				       c->reads[i].position, c->reads[i].length);
	g_string_append(j, "], \"captured_answer\": ");
	jstr(j, c->answer);
	if (rep->acl)
		g_string_append_printf(j, ", \"acl_entries\": %u, \"acl_named\": %u, "
				       "\"default_acl_entries\": %u", rep->acl_args.n_acl,
				       rep->acl_args.named, rep->acl_args.n_dfacl);
	g_string_append(j, "},\n");
}

bool rp_report_json(const struct rp_report *rep, const char *path, char *err, size_t errlen)
{
	GString *j = g_string_new("{\n  \"capture\": ");
	GError *ge = NULL;
	bool ok;

	jstr(j, rep->capture);
	g_string_append(j, ",\n  \"server\": ");
	jstr(j, rep->server);
	g_string_append(j, ",\n");
	json_call(j, rep);
	g_string_append(j, "  \"tries\": [\n");
	for (guint i = 0; i < rep->tries->len; i++) {
		const struct rp_try *t = &g_array_index(rep->tries, struct rp_try, i);
		g_string_append(j, "    {\"name\": ");
		jstr(j, t->name);
		g_string_append_printf(j, ", \"full_size\": %s, \"named\": %u, \"entries\": %u, "
				       "\"bytes\": %zu, \"xid\": \"0x%08x\", \"sent_again\": %s, "
				       "\"how\": ", t->full ? "true" : "false", t->named, t->entries,
				       t->bytes, t->xid, t->superseded ? "true" : "false");
		jstr(j, t->how);
		g_string_append(j, ", \"result\": ");
		jstr(j, rp_result_name(t->ans.result));
		g_string_append_printf(j, ", \"accept_stat\": %u, \"status\": %u, \"success\": %s, "
				       "\"answer\": ", t->ans.accept_stat, t->ans.status,
				       t->ok ? "true" : "false");
		jstr(j, t->ans.text);
		g_string_append_printf(j, "}%s\n", i + 1 < rep->tries->len ? "," : "");
	}
	g_string_append(j, "  ],\n");
	if (rep->have_works)
		g_string_append_printf(j, "  \"largest_working\": {\"named\": %u, \"bytes\": %zu},\n",
				       rep->works, rep->works_bytes);
	if (rep->have_fails)
		g_string_append_printf(j, "  \"smallest_failing\": {\"named\": %u, \"bytes\": %zu},\n",
				       rep->fails, rep->fails_bytes);
	if (rep->have_split) {
		g_string_append(j, "  \"carriers_differ\": ");
		jstr(j, rep->split);
		g_string_append(j, ",\n");
	}
	g_string_append(j, "  \"conclusion\": ");
	jstr(j, rep->conclusion);
	g_string_append(j, "\n}\n");
	ok = g_file_set_contents(path, j->str, (gssize)j->len, &ge);
	if (!ok) {
		snprintf(err, errlen, "%s", ge->message);
		g_error_free(ge);
	}
	g_string_free(j, TRUE);
	return ok;
}
