// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * expert.c - one expert info per entry of the engine's catalogue
 * (analyzer/include/rpcrdma/rules.def), so Wireshark's Expert Information
 * groups findings rule by rule and a filter names one rule:
 * `rpcrdma.rule.rr_029`, `rpcrdma.rule.cap_trunc`.
 *
 * An expert info has one severity, fixed at registration, while a rule's
 * severity depends on the profile (rfc8166, rfc5666) the user may switch
 * while Wireshark runs.  So a rule gets one expert info per severity it can
 * take in any profile, all under the rule's one filter name; drawing picks
 * the one of the severity the engine reported.  Rules no profile reports
 * (RR_KIND_NOCHECK, or off everywhere) get none.
 *
 * The registration array is built once from the catalogue and lives as
 * long as the program: Wireshark keeps pointers into it.
 */
#include "ws_compat.h"

#include <glib.h>

#include <epan/expert.h>
#include <epan/proto.h>

#include "rpcrdma_plugin.h"
#include "rpcrdma/rules.h"

#define N_SEV 3   /* RR_SEV_INFO, RR_SEV_WARNING, RR_SEV_ERROR */

/* The expert info of each rule at each severity; NULL where the rule never takes it. */
static expert_field *ei_of[RR_RULE_COUNT][N_SEV];

static int pi_severity(enum rr_severity sev)
{
	return sev == RR_SEV_ERROR ? PI_ERROR : sev == RR_SEV_WARNING ? PI_WARN : PI_NOTE;
}

/* Capture conditions name what happened to the capture, not the protocol. */
static int pi_group(enum rr_rule_id id)
{
	switch (id) {
	case CAP_MALFORMED:
		return PI_MALFORMED;
	case CAP_ICRC:
	case CAP_MPA_CRC:
		return PI_CHECKSUM;
	case CAP_TRUNC:
	case CAP_TCP_GAP:
	case CAP_PSN_GAP:
	case CAP_DUP:
	case CAP_JOINED:
		return PI_SEQUENCE;
	case ENG_INCOMPLETE:
		return PI_REASSEMBLE;
	case ENG_ULP:
		return PI_UNDECODED;
	default:
		return PI_PROTOCOL;
	}
}

/* Does the rule take this severity in some profile? */
static bool takes(const struct rr_rule *r, enum rr_severity sev)
{
	unsigned p;

	if (r->kind == RR_KIND_NOCHECK)
		return false;
	/* The checker reports a condition at its catalogue severity in every profile. */
	if (r->kind == RR_KIND_COND)
		return r->severity == sev;
	for (p = 0; p < RR_PROFILE_COUNT; p++)
		if (r->sev[p] == sev)
			return true;
	return false;
}

/* "rpcrdma.rule.rr_029" for "RR-029". */
static char *filter_name(const char *code)
{
	char *s = g_strdup_printf("rpcrdma.rule.%s", code);
	char *c;

	for (c = s + strlen("rpcrdma.rule."); *c; c++)
		*c = *c == '-' ? '_' : g_ascii_tolower(*c);
	return s;
}

/* "RR-029 reply-chunk-one-segment", and for a severity the default profile does not give, which profile does. */
static char *summary(const struct rr_rule *r, enum rr_severity sev)
{
	GString *s = g_string_new(r->code);
	unsigned p;

	if (strcmp(r->name, r->code))
		g_string_append_printf(s, " %s", r->name);
	if (r->kind == RR_KIND_RULE && r->sev[RR_PROFILE_RFC8166] != sev) {
		for (p = 0; p < RR_PROFILE_COUNT; p++)
			if (r->sev[p] == sev)
				g_string_append_printf(s, " (as %s rates it)", rr_profile_name((enum rr_profile)p));
	}
	return g_string_free(s, FALSE);
}

void rrp_expert_register(int proto)
{
	static bool done;
	ei_register_info *ei;
	unsigned n = 0, i, s;

	if (done)
		return;
	done = true;
	for (i = 0; i < RR_RULE_COUNT; i++)
		for (s = 0; s < N_SEV; s++)
			n += takes(rr_rule_get((enum rr_rule_id)i), (enum rr_severity)s);
	ei = g_new0(ei_register_info, n);
	n = 0;
	for (i = 0; i < RR_RULE_COUNT; i++) {
		const struct rr_rule *r = rr_rule_get((enum rr_rule_id)i);
		unsigned first = r->kind == RR_KIND_RULE ? r->sev[RR_PROFILE_RFC8166] : r->severity, j;
		char *name = NULL;

		if (first >= N_SEV)
			first = 0;
		/* The default profile's severity first: `tshark -G fields` lists the first of a name. */
		for (j = 0; j < N_SEV; j++) {
			unsigned k = j ? j - (j <= first) : first;
			expert_field *f;

			if (!takes(r, (enum rr_severity)k))
				continue;
			if (!name)
				name = filter_name(r->code);
			f = g_new(expert_field, 1);
			f->ei = EI_INIT_EI;
			f->hf = EI_INIT_HF;
			ei_of[i][k] = f;
			ei[n].ids = f;
			ei[n].eiinfo.name = name;
			ei[n].eiinfo.group = pi_group((enum rr_rule_id)i);
			ei[n].eiinfo.severity = pi_severity((enum rr_severity)k);
			ei[n].eiinfo.summary = summary(r, (enum rr_severity)k);
			/* The filter field Wireshark makes of it shows this as its description. */
			ei[n].eiinfo.hf_info.hfinfo.blurb = g_strdup_printf("%s (%s)", r->text, r->section);
			n++;
		}
	}
	expert_register_field_array(expert_register_protocol(proto), ei, (int)n);
}

expert_field *rrp_expert_for(enum rr_rule_id id, enum rr_severity sev)
{
	if ((unsigned)id >= RR_RULE_COUNT || (unsigned)sev >= N_SEV)
		return NULL;
	return ei_of[id][sev];
}
