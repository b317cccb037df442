/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "Normative statements and coverage" section of docs/rules.md, from
 * docs/spec/statements.tsv: the catalogue of the normative statements of
 * RFC 8166, RFC 8167 and RFC 8267 and the rules that check each.  Every
 * row is checked against the rule table first, so the document never names
 * a rule that does not exist or calls an RR_NOCHECK entry a check
 * without saying so on stderr.
 */
#ifndef RR_RULES_DOC_STMT_H
#define RR_RULES_DOC_STMT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Print the section to out.  On a malformed catalogue (unreadable file,
 * wrong column count, unknown value, a cell that is not an RR code, a
 * duplicate ID) print "PATH:LINE: what" on stderr and return false.  A rule
 * rules.def lacks, or has with the other kind, is a warning on stderr only.
 */
bool rd_statements_print(const char *path, FILE *out);

#endif
