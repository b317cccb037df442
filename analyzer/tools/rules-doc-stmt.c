// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statements section of docs/rules.md (rules-doc-stmt.h).  The
 * catalogue is a tab-separated file whose comment lines start with '#'; its
 * first other line names the columns.  Only kinds "norm" and "table" are
 * counted in the totals: permissions (MAY), statements RFC 8267 quotes
 * from other RFCs and derived rows are shown apart.
 */
#include "rules-doc-stmt.h"

#include <string.h>

#include <glib.h>

#include "rpcrdma/rules.h"

enum col { C_ID, C_RFC, C_SECTION, C_KIND, C_TEXT, C_WIRE, C_WHY, C_CHECKS, C_COVER, C_NOCHECK, C_NOTE, C_COUNT };

static const char *const col_name[C_COUNT] = {
	"id", "rfc", "section", "kind", "statement", "wire", "why", "checks", "cover", "nocheck", "note",
};

struct stmt {
	char **f;               /* C_COUNT cells, owned */
	unsigned line;
};

struct totals {
	unsigned stmts, checkable, wire_full, wire_partly, full, partly, none, perm, quoted, derived;
};

static bool one_of(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(v, *set))
			return true;
	return false;
}

static bool bad(const char *path, unsigned line, const char *what, const char *value)
{
	fprintf(stderr, "%s:%u: %s%s%s\n", path, line, what, value ? ": " : "", value ? value : "");
	return false;
}

static bool counted(const struct stmt *s)
{
	return !strcmp(s->f[C_KIND], "norm") || !strcmp(s->f[C_KIND], "table");
}

/*
 * Each code in a space-separated cell is an RR code.  One that rules.def
 * lacks, or has with the other kind, is only warned about: a rule table
 * changed ahead of the catalogue must not stop the build (the test
 * rules_statements fails on it instead).
 */
static bool codes_ok(const char *path, const struct stmt *s, enum col c, enum rr_rule_kind want)
{
	char **codes;
	bool ok = true;
	size_t i;

	if (!strcmp(s->f[c], "-"))
		return true;
	codes = g_strsplit(s->f[c], " ", -1);
	for (i = 0; codes[i] && ok; i++) {
		enum rr_rule_id id = rr_rule_find(codes[i]);

		if (strncmp(codes[i], "RR-", 3) || strlen(codes[i]) != 6)
			ok = bad(path, s->line, "not an RR-nnn code", codes[i]);
		else if (id == RR_RULE_COUNT)
			fprintf(stderr, "%s:%u: warning: no such rule in rules.def: %s\n", path, s->line, codes[i]);
		else if (rr_rule_get(id)->kind != want)
			fprintf(stderr, "%s:%u: warning: %s is %s, yet the %s column names it\n", path, s->line,
				codes[i], want == RR_KIND_RULE ? "an RR_NOCHECK entry" : "a rule with a check",
				want == RR_KIND_RULE ? "checks" : "nocheck");
	}
	g_strfreev(codes);
	return ok;
}

/* The cells agree with each other: the id's letter with the kind, the coverage with the checks. */
static bool row_ok(const char *path, const struct stmt *s)
{
	static const char *const kinds[] = { "norm", "table", "perm", "quoted", "derived", NULL };
	static const char *const wires[] = { "full", "partly", "no", NULL };
	static const char *const covers[] = { "full", "partly", "none", "info", "-", NULL };
	static const char letter[] = { 'S', 'S', 'P', 'Q', 'D' };
	const char *wire = s->f[C_WIRE], *cover = s->f[C_COVER];
	bool checks = strcmp(s->f[C_CHECKS], "-") != 0;
	size_t k;

	if (!one_of(s->f[C_KIND], kinds))
		return bad(path, s->line, "unknown kind", s->f[C_KIND]);
	for (k = 0; strcmp(kinds[k], s->f[C_KIND]); k++)
		;
	if (s->f[C_ID][0] != letter[k])
		return bad(path, s->line, "the id's first letter does not match the kind", s->f[C_ID]);
	if (!one_of(wire, wires))
		return bad(path, s->line, "wire is not full, partly or no", wire);
	if (!one_of(cover, covers))
		return bad(path, s->line, "cover is not full, partly, none, info or -", cover);
	if (!strcmp(wire, "no") ? strcmp(cover, "-") && strcmp(cover, "info")
				: !strcmp(cover, "-") || !strcmp(cover, "info"))
		return bad(path, s->line, "cover does not fit wire (no: - or info; full or partly: full, partly or none)",
			   cover);
	if (checks == (!strcmp(cover, "none") || !strcmp(cover, "-")))
		return bad(path, s->line, "checks and cover disagree (none and - have no checks; the others have)",
			   s->f[C_CHECKS]);
	if (strcmp(wire, "full") && !strcmp(s->f[C_WHY], "-"))
		return bad(path, s->line, "a statement not fully checkable needs a why", s->f[C_ID]);
	return codes_ok(path, s, C_CHECKS, RR_KIND_RULE) && codes_ok(path, s, C_NOCHECK, RR_KIND_NOCHECK);
}

static bool header_ok(const char *path, unsigned line, char **cells)
{
	size_t i;

	for (i = 0; i < C_COUNT; i++)
		if (!cells[i] || strcmp(cells[i], col_name[i]))
			return bad(path, line, "the header line does not name the columns id, rfc, section, kind, "
				   "statement, wire, why, checks, cover, nocheck, note", NULL);
	return !cells[C_COUNT] || bad(path, line, "the header line has extra columns", NULL);
}

static void stmt_free(gpointer p)
{
	struct stmt *s = p;

	g_strfreev(s->f);
	g_free(s);
}

/* The rows of the catalogue, each checked; NULL (after saying why) on any error. */
static GPtrArray *load(const char *path)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(stmt_free);
	GHashTable *ids = g_hash_table_new(g_str_hash, g_str_equal);
	gchar *text = NULL, **lines;
	GError *err = NULL;
	bool header = false, ok = true;
	unsigned i;

	if (!g_file_get_contents(path, &text, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", path, err->message);
		g_error_free(err);
		g_ptr_array_free(rows, TRUE);
		g_hash_table_destroy(ids);
		return NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; ok && lines[i]; i++) {
		char **cells;
		struct stmt *s;

		if (!*lines[i] || lines[i][0] == '#')
			continue;
		cells = g_strsplit(lines[i], "\t", -1);
		if (!header) {
			ok = header = header_ok(path, i + 1, cells);
			g_strfreev(cells);
			continue;
		}
		if (g_strv_length(cells) != C_COUNT) {
			ok = bad(path, i + 1, "a row needs 11 tab-separated cells", NULL);
			g_strfreev(cells);
			break;
		}
		s = g_new0(struct stmt, 1);
		s->f = cells;
		s->line = i + 1;
		g_ptr_array_add(rows, s);
		ok = row_ok(path, s);
		if (ok && !g_hash_table_add(ids, s->f[C_ID]))
			ok = bad(path, s->line, "duplicate id", s->f[C_ID]);
	}
	if (ok && !header)
		ok = bad(path, i, "no header line", NULL);
	g_strfreev(lines);
	g_free(text);
	g_hash_table_destroy(ids);
	if (!ok) {
		g_ptr_array_free(rows, TRUE);
		return NULL;
	}
	return rows;
}

static struct totals count(const GPtrArray *rows)
{
	struct totals t = { 0 };
	guint i;

	for (i = 0; i < rows->len; i++) {
		const struct stmt *s = g_ptr_array_index(rows, i);
		const char *cover = s->f[C_COVER];

		t.perm += !strcmp(s->f[C_KIND], "perm");
		t.quoted += !strcmp(s->f[C_KIND], "quoted");
		t.derived += !strcmp(s->f[C_KIND], "derived");
		if (!counted(s))
			continue;
		t.stmts++;
		if (!strcmp(s->f[C_WIRE], "no"))
			continue;
		t.checkable++;
		t.wire_full += !strcmp(s->f[C_WIRE], "full");
		t.wire_partly += !strcmp(s->f[C_WIRE], "partly");
		t.full += !strcmp(cover, "full");
		t.partly += !strcmp(cover, "partly");
		t.none += !strcmp(cover, "none");
	}
	return t;
}

/* A table cell: '|' escaped, "-" shown as nothing. */
static void cell(FILE *out, const char *v)
{
	if (!strcmp(v, "-"))
		return;
	for (; *v; v++)
		if (*v == '|')
			fputs("\\|", out);
		else
			fputc(*v, out);
}

/* "RR-061 (no check of its own); note" for the notes column. */
static void notes(FILE *out, const struct stmt *s)
{
	bool nocheck = strcmp(s->f[C_NOCHECK], "-") != 0;

	if (nocheck) {
		cell(out, s->f[C_NOCHECK]);
		fputs(" (no check of its own)", out);
	}
	if (nocheck && strcmp(s->f[C_NOTE], "-"))
		fputs("; ", out);
	cell(out, s->f[C_NOTE]);
}

static void print_intro(FILE *out, const GPtrArray *rows, const struct totals *t)
{
	bool first = true;
	guint i;

	fprintf(out, "\n## Normative statements and coverage\n\n"
		"`docs/spec/statements.tsv` lists the normative statements of RFC 8166, RFC 8167 and RFC 8267:\n"
		"one per BCP 14 key word of requirement (MUST, MUST NOT, REQUIRED, SHALL, SHOULD, SHOULD NOT,\n"
		"RECOMMENDED) in the body of each RFC, read in its context, and one per DDP-eligibility table of\n"
		"RFC 8267 sections 4 to 6. For each it says whether a passive observer of a full capture can\n"
		"check it (`full`; `partly`, with what the capture cannot show; `no`, with why not) and which\n"
		"rules check it. *Coverage* `full` means those checks report every breach the capture can show;\n"
		"`partly`, that some visible breaches pass them (the notes say which).\n\n"
		"**%u statements; %u checkable by a passive observer (%u in full, %u in part); %u checked in\n"
		"full, %u checked in part, %u checkable but not checked.**\n\n",
		t->stmts, t->checkable, t->wire_full, t->wire_partly, t->full, t->partly, t->none);
	fputs("Checkable but not checked:", out);
	for (i = 0; i < rows->len; i++) {
		const struct stmt *s = g_ptr_array_index(rows, i);

		if (!counted(s) || strcmp(s->f[C_COVER], "none"))
			continue;
		fprintf(out, "%s* %s (%s §%s): ", first ? "\n\n" : "", s->f[C_ID], s->f[C_RFC], s->f[C_SECTION]);
		cell(out, s->f[C_TEXT]);
		fputc('\n', out);
		first = false;
	}
	if (first)
		fputs(" none.\n", out);
}

static void print_tables(FILE *out, const GPtrArray *rows, const struct totals *t)
{
	guint i;

	fputs("\n| Statement | Section | What it says | Checkable | What a capture cannot show | Checked by | "
	      "Coverage | Notes |\n|---|---|---|---|---|---|---|---|\n", out);
	for (i = 0; i < rows->len; i++) {
		const struct stmt *s = g_ptr_array_index(rows, i);

		if (!counted(s))
			continue;
		fprintf(out, "| %s | %s §%s | ", s->f[C_ID], s->f[C_RFC], s->f[C_SECTION]);
		cell(out, s->f[C_TEXT]);
		fprintf(out, " | %s | ", s->f[C_WIRE]);
		cell(out, s->f[C_WHY]);
		fputs(" | ", out);
		cell(out, s->f[C_CHECKS]);
		fprintf(out, " | %s | ", strcmp(s->f[C_COVER], "-") ? s->f[C_COVER] : "");
		notes(out, s);
		fputs(" |\n", out);
	}
	fprintf(out, "\n### Not counted: permissions, quoted statements, derived rules\n\n"
		"%u MAY statements (permissions: nothing on the wire can break them), %u statements RFC 8267\n"
		"§6.7.1 quotes from RFC 7530 and RFC 5661, and %u rules the catalogue ties to RFC text without a\n"
		"key word, so that every rule citing these RFCs is named by a row.\n\n"
		"| Row | Section | Kind | What it says | Checkable | Why not | Checked by | Notes |\n"
		"|---|---|---|---|---|---|---|---|\n", t->perm, t->quoted, t->derived);
	for (i = 0; i < rows->len; i++) {
		const struct stmt *s = g_ptr_array_index(rows, i);

		if (counted(s))
			continue;
		fprintf(out, "| %s | %s §%s | %s | ", s->f[C_ID], s->f[C_RFC], s->f[C_SECTION], s->f[C_KIND]);
		cell(out, s->f[C_TEXT]);
		fprintf(out, " | %s | ", s->f[C_WIRE]);
		cell(out, s->f[C_WHY]);
		fputs(" | ", out);
		cell(out, s->f[C_CHECKS]);
		if (!strcmp(s->f[C_COVER], "info"))
			fputs(" (shown for visibility)", out);
		fputs(" | ", out);
		notes(out, s);
		fputs(" |\n", out);
	}
}

bool rd_statements_print(const char *path, FILE *out)
{
	GPtrArray *rows = load(path);
	struct totals t;

	if (!rows)
		return false;
	t = count(rows);
	print_intro(out, rows, &t);
	print_tables(out, rows, &t);
	g_ptr_array_free(rows, TRUE);
	return true;
}
