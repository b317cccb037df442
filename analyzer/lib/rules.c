// SPDX-License-Identifier: GPL-2.0-or-later
/* The catalog table, expanded from rules.def. */
#include <stddef.h>

#include "rules.h"

static const struct rr_rule catalog[RR_RULE_COUNT] = {
#define RR_RULE(sym, code, sev, section, text) [sym] = { code, sev, section, text },
#include "rules.def"
#undef RR_RULE
};

const struct rr_rule *rr_rule_get(enum rr_rule_id id)
{
	if ((unsigned)id >= RR_RULE_COUNT)
		return NULL;
	return &catalog[id];
}

const char *rr_severity_name(enum rr_severity sev)
{
	switch (sev) {
	case RR_SEV_INFO:
		return "info";
	case RR_SEV_WARNING:
		return "warning";
	case RR_SEV_ERROR:
		return "error";
	}
	return "?";
}
