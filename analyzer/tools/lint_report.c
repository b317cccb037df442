// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings as a user reads them: compiler style
 *   FILE:FRAME: SEVERITY: RULE message [RFC section]
 * or JSON Lines with file, schema, frame, frames, xid, conn, rule, name,
 * severity, message, ref (docs/ulb-lint-json.md).
 */
#include <glib.h>
#include <inttypes.h>

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
