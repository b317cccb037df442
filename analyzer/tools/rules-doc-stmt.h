/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "Normative statements and coverage" section of docs/rules.md, from
 * docs/spec/statements.tsv: the catalogue of the normative statements of
 * RFC 8166, RFC 8167 and RFC 8267 and the rules that check each.  Every
 * row is checked against the rule table first, so the document never names
 * a rule that does not exist or calls an RR_NOCHECK entry a check.
 */
#ifndef RR_RULES_DOC_STMT_H
#define RR_RULES_DOC_STMT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Print the section to out.  On a malformed catalogue (unreadable file,
 * wrong column count, unknown value, a rule that is not in rules.def or of
 * the wrong kind, a duplicate ID) print "PATH:LINE: what" on stderr and
 * return false.
 */
bool rd_statements_print(const char *path, FILE *out);

#endif
