// SPDX-License-Identifier: GPL-2.0-or-later
/* The catalogue table, expanded from rules.def. */
#include <stddef.h>
#include <string.h>

#include "rules.h"

#define E RR_SEV_ERROR
#define W RR_SEV_WARNING
#define I RR_SEV_INFO
#define OFF RR_SEV_OFF

static const struct rr_rule catalog[RR_RULE_COUNT] = {
#define RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, evidence, example) \
	[sym] = { code, name, group, RR_KIND_RULE, sev, { sev, sev5666 }, facts, ref, text, NULL, evidence, example },
#define RR_NOCHECK(sym, code, name, group, ref, text, why) \
	[sym] = { code, name, group, RR_KIND_NOCHECK, OFF, { OFF, OFF }, 0, ref, text, why, NULL, NULL },
#define RR_COND(sym, code, sev, ref, text) \
	[sym] = { code, code, 0, RR_KIND_COND, sev, { sev, sev }, 0, ref, text, NULL, NULL, NULL },
#include "rules.def"
};

const struct rr_rule *rr_rule_get(enum rr_rule_id id)
{
	if ((unsigned)id >= RR_RULE_COUNT)
		return NULL;
	return &catalog[id];
}

enum rr_rule_id rr_rule_find(const char *s)
{
	unsigned i;

	for (i = 0; s && i < RR_RULE_COUNT; i++)
		if (!strcmp(catalog[i].code, s) || !strcmp(catalog[i].name, s))
			return (enum rr_rule_id)i;
	return RR_RULE_COUNT;
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
	case RR_SEV_OFF:
		return "off";
	}
	return "?";
}

const char *rr_profile_name(enum rr_profile p)
{
	return p == RR_PROFILE_RFC5666 ? "rfc5666" : "rfc8166";
}

bool rr_profile_parse(const char *s, enum rr_profile *out)
{
	if (!strcmp(s, "rfc8166"))
		*out = RR_PROFILE_RFC8166;
	else if (!strcmp(s, "rfc5666"))
		*out = RR_PROFILE_RFC5666;
	else
		return false;
	return true;
}

const char *rr_group_name(char group)
{
	switch (group) {
	case 'A': return "Framing and fixed header";
	case 'B': return "Header encoding and chunk lists";
	case 'C': return "Inline threshold; Short, Chunked and Long messages";
	case 'D': return "Read chunks and the responder's RDMA Reads";
	case 'E': return "Write list and Reply chunk";
	case 'F': return "Credits";
	case 'G': return "RDMA_ERROR and error replies";
	case 'H': return "Deprecated elements";
	case 'I': return "DDP-eligibility (RFC 8267)";
	case 'J': return "NFSv4 COMPOUND Write-chunk pairing";
	case 'K': return "Chunk-list complexity";
	case 'L': return "Reply sizing and retry";
	case 'M': return "Backchannel";
	case 'N': return "Ports";
	case 'O': return "Memory protection";
	case 'P': return "XDR alignment";
	case 'Q': return "Outcomes";
	case 'R': return "Interop hazards";
	}
	return "Capture conditions and engine limits";
}
