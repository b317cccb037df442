/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.h - the catalogue: every rule of the binding, every capture
 * condition and engine limit, each once, with its severity in each profile,
 * its RFC section and its text.  The list itself is rules.def, expanded
 * here into the enum and in lib/rules.c into the table.
 */
#ifndef RPCRDMA_RULES_H
#define RPCRDMA_RULES_H

#include <stdbool.h>

enum rr_severity {
	RR_SEV_INFO = 0,
	RR_SEV_WARNING,
	RR_SEV_ERROR,
	RR_SEV_OFF,            /* the rule does not apply in this profile */
};

enum rr_profile {
	RR_PROFILE_RFC8166 = 0,   /* the default: RFC 8166 / RFC 8267 */
	RR_PROFILE_RFC5666,       /* legacy severities where the rules changed (RFC 8166 Appendix A) */
	RR_PROFILE_COUNT,
};

enum rr_rule_kind {
	RR_KIND_RULE,          /* a rule with a check */
	RR_KIND_NOCHECK,       /* a rule a passive observer cannot check */
	RR_KIND_COND,          /* a capture condition or engine limit */
};

/* Which facts a check looks at (check stage, see engine.h). */
enum {
	F_SEND = 1 << 0,       /* a Send, in wire order */
	F_MSG = 1 << 1,        /* a rebuilt message record */
	F_RDMA = 1 << 2,       /* an RDMA Read Request or Write */
	F_CONN = 1 << 3,       /* a connection set up or torn down */
	F_END = 1 << 4,        /* the end of the capture */
};

enum rr_rule_id {
#define RR_RULE(sym, ...) sym,
#define RR_NOCHECK(sym, ...) sym,
#define RR_COND(sym, ...) sym,
#include "rules.def"
	RR_RULE_COUNT
};

struct rr_rule {
	const char *code;       /* "RR-002", "CAP-TRUNC", ... */
	const char *name;       /* "xid-mirrors-rpc" */
	char group;             /* 'A'..'R'; 0 for conditions */
	enum rr_rule_kind kind;
	enum rr_severity severity;            /* in the default profile */
	enum rr_severity sev[RR_PROFILE_COUNT];
	unsigned facts;         /* F_* */
	const char *section;    /* "RFC 8166 §4.2.1" */
	const char *text;       /* the rule, one sentence */
	const char *why;        /* RR_KIND_NOCHECK: why a passive observer cannot check it */
	const char *evidence;   /* RR_KIND_RULE: what on the wire makes the check report */
	const char *example;    /* RR_KIND_RULE: a finding it printed, or "" */
};

const struct rr_rule *rr_rule_get(enum rr_rule_id id);
/* By code ("RR-002") or name ("xid-mirrors-rpc"); RR_RULE_COUNT when unknown. */
enum rr_rule_id rr_rule_find(const char *code_or_name);
const char *rr_severity_name(enum rr_severity sev);
const char *rr_profile_name(enum rr_profile p);
/* "rfc8166" / "rfc5666"; false when unknown. */
bool rr_profile_parse(const char *s, enum rr_profile *out);
const char *rr_group_name(char group);

#endif
