// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rr-rules-doc: print docs/rules.md from the rule table.  The build writes
 * it and a test compares it with the committed file, so the document is
 * never edited by hand and never drifts from rules.def.  Its last section
 * comes from the statement catalogue (rules-doc-stmt.h): the path given as
 * the first argument, or the source tree's docs/spec/statements.tsv.
 */
#include <stdio.h>

#include "rpcrdma/rules.h"
#include "rules-doc-stmt.h"

/*
 * A rule's own anchor, docs/rules.md#RR-104, for links to one rule (the
 * HTML report's): it leads the row's Reference cell, the first cell after
 * the ones tools read back (code, name, severities).
 */
static void anchor(const struct rr_rule *r)
{
	printf("<a id=\"%s\"></a>", r->code);
}

static void cell(const char *s)
{
	for (; s && *s; s++)
		if (*s == '|')
			fputs("\\|", stdout);
		else
			putchar(*s);
}

int main(int argc, char **argv)
{
	unsigned i, nrule = 0, nno = 0;
	char group = 0;

	for (i = 0; i < RR_RULE_COUNT; i++) {
		nrule += rr_rule_get(i)->kind == RR_KIND_RULE;
		nno += rr_rule_get(i)->kind == RR_KIND_NOCHECK;
	}
	printf("<!-- Generated from analyzer/include/rpcrdma/rules.def by rr-rules-doc. Do not edit. -->\n"
	       "# The rules ulb-lint checks\n\n"
	       "Every rule of the RPC-over-RDMA version 1 (RFC 8166) and NFS Upper-Layer Binding (RFC 8267)\n"
	       "catalogue whose breach a passive observer can see on the wire: %u rules with a check, and\n"
	       "%u that cannot be checked from a capture, with the reason. Severities are given for the\n"
	       "two profiles: `rfc8166` (the default) and `rfc5666` (`--profile rfc5666`: the legacy\n"
	       "severities where the rules changed). `off` means the rule does not apply in that profile.\n\n"
	       "A finding points at one frame: for a rule about a message, the first frame of that\n"
	       "message's Send; for a rule about an RDMA operation, its first frame (the Write's first\n"
	       "packet, the Read Request); for an outcome (group Q), the Send of the reply that carried the\n"
	       "failure. Every frame that is evidence is listed in the JSON output (`frames`).\n\n"
	       "A check that needs bytes the capture did not hold (snaplen, lost packets) is skipped, never\n"
	       "guessed; ulb-lint's statistics line counts the skipped checks. When the ULP walker meets an\n"
	       "operation or union arm it does not know, ENG-ULP names it (\"not understood (open_delegation4\n"
	       "type 6)\"), once per connection and item, and that message's chunk checks stop: they are\n"
	       "counted as skipped because the walker did not understand the message, not as lost bytes.\n",
	       nrule, nno);
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get(i);

		if (r->kind != RR_KIND_RULE)
			continue;
		if (r->group != group) {
			group = r->group;
			printf("\n## %c. %s\n\n", group, rr_group_name(group));
			printf("| Rule | Name | rfc8166 | rfc5666 | Reference | The rule | Evidence that triggers it | Example finding |\n"
			       "|---|---|---|---|---|---|---|---|\n");
		}
		printf("| %s | `%s` | %s | %s | ", r->code, r->name, rr_severity_name(r->sev[RR_PROFILE_RFC8166]),
		       rr_severity_name(r->sev[RR_PROFILE_RFC5666]));
		anchor(r);
		cell(r->section);
		fputs(" | ", stdout);
		cell(r->text);
		fputs(" | ", stdout);
		cell(r->evidence);
		fputs(" | ", stdout);
		if (r->example && *r->example) {
			fputs("`", stdout);
			cell(r->example);
			fputs("`", stdout);
		} else {
			fputs("(none recorded)", stdout);
		}
		fputs(" |\n", stdout);
	}
	printf("\n## Rules a passive observer cannot check\n\n| Rule | Name | Reference | The rule | Why not |\n"
	       "|---|---|---|---|---|\n");
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get(i);

		if (r->kind != RR_KIND_NOCHECK)
			continue;
		printf("| %s | `%s` | ", r->code, r->name);
		anchor(r);
		cell(r->section);
		fputs(" | ", stdout);
		cell(r->text);
		fputs(" | ", stdout);
		cell(r->why);
		fputs(" |\n", stdout);
	}
	printf("\n## Capture conditions and engine limits\n\nNot rules of the binding: what the decoder and the "
	       "engine report about the capture itself.\n\n| Code | Severity | Reference | Meaning |\n|---|---|---|---|\n");
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get(i);

		if (r->kind != RR_KIND_COND)
			continue;
		printf("| %s | %s | ", r->code, rr_severity_name(r->severity));
		anchor(r);
		cell(r->section);
		fputs(" | ", stdout);
		cell(r->text);
		fputs(" |\n", stdout);
	}
	return rd_statements_print(argc > 1 ? argv[1] : RR_STATEMENTS_TSV, stdout) ? 0 : 1;
}
