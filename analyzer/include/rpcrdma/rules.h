/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.h - the catalog of diagnostics.  Each entry lives here once:
 * its ID, severity, RFC section and text.  The list itself is in rules.def
 * so that code can expand it in different ways (enum, tables).
 */
#ifndef RPCRDMA_RULES_H
#define RPCRDMA_RULES_H

enum rr_severity {
	RR_SEV_INFO = 0,
	RR_SEV_WARNING,
	RR_SEV_ERROR,
};

enum rr_rule_id {
#define RR_RULE(sym, code, sev, section, text) sym,
#include "rules.def"
#undef RR_RULE
	RR_RULE_COUNT
};

struct rr_rule {
	const char *code;       /* "RR-002", "CAP-TRUNC", ... */
	enum rr_severity severity;
	const char *section;    /* "RFC 8166 4.2" style reference */
	const char *text;       /* the rule, one sentence */
};

const struct rr_rule *rr_rule_get(enum rr_rule_id id);
const char *rr_severity_name(enum rr_severity sev);

#endif
