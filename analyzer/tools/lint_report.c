// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings as a user reads them: compiler style
 *   FILE:FRAME: SEVERITY: RULE message [RFC section]
 * or JSON Lines with file, schema, frame, frames, xid, conn, rule, name,
 * severity, message, ref (docs/ulb-lint-json.md).
 */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "lint.h"

void lint_json_string_in(FILE *out, const char *s, bool in_html)
{
	char *valid = NULL;

	/* JSON is Unicode: bytes that are not UTF-8 (a file name in Latin-1, say) become U+FFFD. */
	if (s && !g_utf8_validate(s, -1, NULL))
		s = valid = g_utf8_make_valid(s, -1);
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n' && !in_html)
			fputs("\\n", out);
		else if (c < 0x20 || (in_html && (c == 0x7f || c == '<' || c == '>' || c == '&')))
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
	g_free(valid);
}

void lint_json_string(FILE *out, const char *s)
{
	lint_json_string_in(out, s, false);
}

void lint_print_finding(FILE *out, enum lint_format fmt, const char *file, const struct rr_diag *d)
{
	const struct rr_rule *r = rr_rule_get(d->id);
	size_t i;

	if (fmt == LINT_TEXT) {
		if (d->frame)
			fprintf(out, "%s:%" PRIu64 ": %s: %s %s [%s]\n", file, d->frame,
				rr_severity_name(d->severity), r->code, d->text, r->section);
		else
			fprintf(out, "%s: %s: %s %s [%s]\n", file, rr_severity_name(d->severity), r->code,
				d->text, r->section);
		return;
	}
	fputs("{\"file\":", out);
	lint_json_string(out, file);
	fprintf(out, ",\"schema\":%d,\"frame\":%" PRIu64 ",\"frames\":[", LINT_JSON_SCHEMA, d->frame);
	for (i = 0; i < d->n_frames; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", d->frames[i]);
	fputs("],\"xid\":", out);
	if (d->has_xid)
		fprintf(out, "\"0x%08x\"", d->xid);
	else
		fputs("null", out);
	fputs(",\"conn\":", out);
	if (d->conn_id)
		fprintf(out, "%u", d->conn_id);
	else
		fputs("null", out);
	fprintf(out, ",\"rule\":\"%s\",\"name\":\"%s\",\"severity\":\"%s\",\"message\":", r->code, r->name,
		rr_severity_name(d->severity));
	lint_json_string(out, d->text);
	fputs(",\"ref\":", out);
	lint_json_string(out, r->section);
	fputs("}\n", out);
}

void lint_repeat_reset(struct lint_repeat *r)
{
	unsigned limit = r->limit;

	memset(r, 0, sizeof(*r));
	r->limit = limit;
}

bool lint_repeat_admit(struct lint_repeat *r, const struct rr_diag *d)
{
	const struct rr_rule *rule = rr_rule_get(d->id);

	if (!r->limit || rule->kind != RR_KIND_COND || strncmp(rule->code, "CAP-", 4))
		return true;
	if (++r->told[d->id] <= r->limit)
		return true;
	if (r->told[d->id] == r->limit + 1ull)
		r->first[d->id] = d->frame;
	r->last[d->id] = d->frame;
	r->sev[d->id] = d->severity;
	return false;
}

void lint_repeat_tail(const struct lint_repeat *r, FILE *out, const char *file)
{
	for (unsigned i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *rule = rr_rule_get(i);

		if (!r->limit || r->told[i] <= r->limit)
			continue;
		fprintf(out, "%s: %s: %s %" PRIu64 " more not listed, frames %" PRIu64 " to %" PRIu64 " (%" PRIu64
			" in all; --cap-lines 0 lists each) [%s]\n", file, rr_severity_name(r->sev[i]), rule->code,
			r->told[i] - r->limit, r->first[i], r->last[i], r->told[i], rule->section);
	}
}
