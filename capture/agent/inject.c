// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing --inject and choosing the messages it hits (inject.h). */
#include "inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "inject_legs.h"
#include "pg_inject.h"

/* The rule IDs `--inject` has always taken, as the injector that breaks them. */
static const struct { const char *rule, *name; } aliases[] = {
	{ "RR-001", "bad-vers" }, { "RR-002", "xid-mismatch" }, { "RR-130", "msgp" },
	{ "RR-141", "ineligible-chunk" }, { "RR-143", "ineligible-chunk" },
	{ "RR-116", "resend-xid" }, { "RR-081", "misdirected-write" },
	{ "RR-088", "unused-nonzero" }, { "RR-100", "zero-credit" }, { "RR-085", "write-beyond" },
};

static const char *role_name(int role)
{
	return role == INJ_REQ ? "requester" : "responder";
}

static bool parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;
	if (!*s)
		return false;
	x = strtoul(s, &end, 0);
	if (*end || x > 0xffffffffUL)
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool parse_when(struct inj_spec *sp, const char *w, char *err, size_t errlen)
{
	const char *eq = strchr(w, '=');
	size_t kl = eq ? (size_t)(eq - w) : 0;
	struct inj_cond *c;

	if (sp->n_when >= INJ_MAX_WHEN) {
		snprintf(err, errlen, "--inject %s: at most %d conditions", sp->asked, INJ_MAX_WHEN);
		return false;
	}
	c = &sp->when[sp->n_when];
	memset(c, 0, sizeof(*c));
	if (eq && kl == 5 && !strncmp(w, "every", 5))
		c->kind = INJ_W_EVERY;
	else if (eq && kl == 3 && !strncmp(w, "nth", 3))
		c->kind = INJ_W_NTH;
	else if (eq && kl == 3 && !strncmp(w, "xid", 3))
		c->kind = INJ_W_XID;
	else if (eq && kl == 2 && !strncmp(w, "op", 2))
		c->kind = INJ_W_OP;
	else {
		snprintf(err, errlen, "--inject %s: \"%s\" is not every=N, nth=K, op=NAME or xid=0xX",
			 sp->asked, w);
		return false;
	}
	if (c->kind == INJ_W_OP) {
		if (!eq[1] || strlen(eq + 1) >= sizeof(c->op)) {
			snprintf(err, errlen, "--inject %s: op= needs a procedure or operation name",
				 sp->asked);
			return false;
		}
		g_strlcpy(c->op, eq + 1, sizeof(c->op));
	} else if (!parse_u32(eq + 1, &c->n) || (c->kind != INJ_W_XID && !c->n)) {
		snprintf(err, errlen, "--inject %s: %.*s= needs a number%s", sp->asked, (int)kl, w,
			 c->kind == INJ_W_XID ? "" : " of 1 or more");
		return false;
	}
	sp->n_when++;
	return true;
}

/* One item: NAME[=ARG][:WHEN...]. */
static bool parse_item(const char *item, int role, struct inj_spec *sp, char *err, size_t errlen)
{
	gchar **parts = g_strsplit(item, ":", -1);
	char *name = parts[0], *eq = strchr(name, '=');
	const struct inj_def *d;
	bool ok = true;

	memset(sp, 0, sizeof(*sp));
	if (eq) {
		*eq = 0;
		g_strlcpy(sp->arg, eq + 1, sizeof(sp->arg));
		sp->has_arg = true;
	}
	g_strlcpy(sp->asked, name, sizeof(sp->asked));
	for (size_t i = 0; i < G_N_ELEMENTS(aliases); i++)
		if (!strcmp(aliases[i].rule, name))
			name = (char *)aliases[i].name;
	d = inj_def_find(name);
	if (!d) {
		snprintf(err, errlen, "--inject %s: no such injector or rule (see `rpcrdma-agent "
			 "list-injections`)", sp->asked);
		ok = false;
	} else if (!inj_def_stages(d, role) && !inj_def_stages(d, INJ_REQ + INJ_RESP - role)) {
		snprintf(err, errlen, "--inject %s: not injectable live: %s", sp->asked,
			 d->reason ? d->reason : "?");
		ok = false;
	} else if (!inj_def_stages(d, role)) {
		snprintf(err, errlen, "--inject %s: the %s breaks it, not the %s", sp->asked,
			 role_name(INJ_REQ + INJ_RESP - role), role_name(role));
		ok = false;
	}
	sp->def = d;
	for (gchar **p = parts + 1; ok && *p; p++)
		ok = parse_when(sp, *p, err, errlen);
	g_strfreev(parts);
	return ok;
}

bool inj_parse(const char *text, int role, struct inj_list *out, char *err, size_t errlen)
{
	gchar **v = g_strsplit(text, ",", -1);
	bool ok = true;

	memset(out, 0, sizeof(*out));
	out->role = role;
	for (gchar **p = v; *p && ok; p++) {
		if (!**p)
			continue;
		if (out->n >= INJ_MAX_SPECS) {
			snprintf(err, errlen, "--inject: at most %d items", INJ_MAX_SPECS);
			ok = false;
		} else {
			ok = parse_item(*p, role, &out->v[out->n], err, errlen);
			out->n += ok;
		}
	}
	g_strfreev(v);
	return ok;
}

bool inj_selects(const struct inj_spec *s, int role, uint64_t k, uint32_t xid,
		 const char *const *ops, unsigned n_ops)
{
	if (!s->n_when)
		return role == INJ_RESP || k > 1;
	for (unsigned i = 0; i < s->n_when; i++) {
		bool hit = false;
		switch (s->when[i].kind) {
		case INJ_W_EVERY: hit = k % s->when[i].n == 0; break;
		case INJ_W_NTH: hit = k == s->when[i].n; break;
		case INJ_W_XID: hit = xid == s->when[i].n; break;
		case INJ_W_OP:
			for (unsigned j = 0; j < n_ops && !hit; j++)
				hit = ops[j] && !strcasecmp(ops[j], s->when[i].op);
			break;
		}
		if (!hit)
			return false;
	}
	return true;
}

const struct inj_spec *inj_find(const struct inj_list *l, const bool *sel, const char *name)
{
	for (unsigned i = 0; l && i < l->n; i++)
		if ((!sel || sel[i]) && !strcmp(l->v[i].def->name, name))
			return &l->v[i];
	return NULL;
}

void inj_add_rules(char *out, size_t len, const char *list, const char *skip)
{
	gchar **v = g_strsplit_set(list, " ,", -1);
	for (gchar **p = v; *p; p++) {
		if (!**p || !strcmp(*p, skip) || strstr(out, *p))
			continue;
		if (strlen(out) + strlen(*p) + 2 > len)
			break;
		if (*out)
			g_strlcat(out, ",", len);
		g_strlcat(out, *p, len);
	}
	g_strfreev(v);
}

static void stage_names(unsigned st, char *out, size_t len)
{
	static const char *const names[] = { "prep", "plan", "ops", "header", "wire", "agent", "back" };
	*out = 0;
	for (unsigned b = 0; b < G_N_ELEMENTS(names); b++)
		if (st & (1u << b)) {
			if (*out)
				g_strlcat(out, "+", len);
			g_strlcat(out, names[b], len);
		}
}

/* The first rule an entry names, for the listing's first column. */
static void first_rule(const struct inj_def *d, char *out, size_t len)
{
	const char *r = inj_def_rules(d);
	size_t n = strcspn(r, " ");
	g_strlcpy(out, n ? r : "-", MIN(len, n ? n + 1 : 2));
}

/* The leg a role's row breaks through the proxy (inject_legs.h). */
static const char *proxy_note(const struct inj_def *d, int role)
{
	const char *why;
	unsigned legs = inj_def_legs(d, &why);

	if (role == INJ_RESP)
		return legs & INJ_LEG_CLIENT ? " [proxy: client leg, --inject]" : " [proxy: not through it]";
	return legs & INJ_LEG_SERVER ? " [proxy: server leg, --inject-server]" : " [proxy: not through it]";
}

void inj_list_print(void *file)
{
	FILE *f = file;
	char rule[16], st[64];

	fprintf(f, "# rule\tinjector\trole\tstage\twhat it does, or why it is not injectable live\n");
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		bool any = false;
		first_rule(d, rule, sizeof(rule));
		for (int role = INJ_REQ; role <= INJ_RESP; role++) {
			unsigned s = inj_def_stages(d, role);
			if (!s)
				continue;
			stage_names(s, st, sizeof(st));
			/* the agent's own way of breaking a table entry's rule in this role */
			fprintf(f, "%s\t%s\t%s\t%s\t%s%s [breaks %s]%s\n", rule, d->name, role_name(role), st,
				d->agent_only ? "(agent only) " : "",
				s == INJ_ST_AGENT && d->help ? d->help : inj_def_help(d), inj_def_rules(d),
				proxy_note(d, role));
			any = true;
		}
		if (!any)
			fprintf(f, "%s\t%s\t-\t-\tnot injectable live: %s\n", rule, d->name,
				d->reason ? d->reason : "?");
	}
}
