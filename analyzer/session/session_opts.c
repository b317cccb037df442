// SPDX-License-Identifier: GPL-2.0-or-later
/* The options every tool shares, parsed once (session.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "session.h"

void rr_session_default_opts(struct rr_session_opts *o)
{
	memset(o, 0, sizeof(*o));
	rr_check_default_opts(&o->check);
}

static const struct {
	const char *name;
	const char *arg;
	const char *help;
} shared[RR_OPT__COUNT] = {
	[RR_OPT_PROFILE] = { "profile", "rfc8166|rfc5666",
			     "severities of RFC 8166 (default) or the legacy RFC 5666 ones" },
	[RR_OPT_ENABLE] = { "enable", "RULE[,RULE]", "run only these RR- rules (codes or names; repeatable; CAP-/ENG- stay)" },
	[RR_OPT_DISABLE] = { "disable", "RULE[,RULE]", "do not run or report these" },
	[RR_OPT_INLINE_THRESHOLD] = { "inline-threshold", "N",
				      "inline threshold of both peers when the handshake is not captured" },
	[RR_OPT_CREDIT_SLACK] = { "credit-slack", "N",
				  "calls beyond the credit grant forgiven (merged captures; default 0)" },
	[RR_OPT_ICRC] = { "icrc", "check|ignore",
			  "IB/RoCE ICRC: check it (default: a packet that fails is not evidence) or ignore it" },
};

void rr_session_getopt_entries(struct option *dst)
{
	int i;

	for (i = 0; i < RR_OPT__COUNT; i++) {
		dst[i].name = shared[i].name;
		dst[i].has_arg = required_argument;
		dst[i].flag = NULL;
		dst[i].val = RR_SESSION_OPT_BASE + i;
	}
}

void rr_session_print_options(FILE *out)
{
	int i;

	for (i = 0; i < RR_OPT__COUNT; i++) {
		char left[64];

		g_snprintf(left, sizeof(left), "--%s %s", shared[i].name, shared[i].arg);
		fprintf(out, "  %-25s %s\n", left, shared[i].help);
	}
}

/* A count: decimal, or hexadecimal after 0x; no sign, no octal, nothing after it. */
static bool parse_count(const char *s, uint32_t *out)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	if (!g_ascii_isxdigit(*digits) || (!hex && !g_ascii_isdigit(*digits)))
		return false;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (*end || v > 0xffffffffull)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool set_rules(struct rr_session_opts *o, const char *arg, bool on, char *err, size_t errlen)
{
	gchar **parts = g_strsplit(arg, ",", -1);
	bool ok = true;
	unsigned i;

	if (on && !o->enable_narrowed) {
		/* The first --enable narrows to what it names; conditions and limits stay. */
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (rr_rule_get(i)->kind == RR_KIND_RULE)
				o->check.enabled[i] = false;
		o->enable_narrowed = true;
	}
	for (i = 0; parts[i]; i++) {
		enum rr_rule_id id;

		if (!*parts[i])
			continue;
		id = rr_rule_find(parts[i]);
		if (id == RR_RULE_COUNT) {
			if (ok)
				g_snprintf(err, errlen, "unknown rule '%s' (see --list-rules)", parts[i]);
			ok = false;
			continue;
		}
		o->check.enabled[id] = on;
	}
	g_strfreev(parts);
	return ok;
}

bool rr_session_set_option(struct rr_session_opts *o, enum rr_session_option which, const char *value,
			   char *err, size_t errlen)
{
	uint32_t n;

	/* A refused value leaves the option as it was. */
	switch (which) {
	case RR_OPT_PROFILE:
		if (rr_profile_parse(value, &o->check.profile))
			return true;
		g_snprintf(err, errlen, "--profile takes rfc8166 or rfc5666, not '%s'", value);
		return false;
	case RR_OPT_ENABLE:
	case RR_OPT_DISABLE:
		return set_rules(o, value, which == RR_OPT_ENABLE, err, errlen);
	case RR_OPT_INLINE_THRESHOLD:
		if (parse_count(value, &n) && n >= RR_DEFAULT_INLINE_THRESHOLD) {
			o->check.inline_threshold = n;
			return true;
		}
		g_snprintf(err, errlen, "--inline-threshold takes a byte count of at least %u, not '%s'",
			   RR_DEFAULT_INLINE_THRESHOLD, value);
		return false;
	case RR_OPT_ICRC:
		if (!strcmp(value, "check") || !strcmp(value, "ignore")) {
			o->decode.no_icrc_check = !strcmp(value, "ignore");
			return true;
		}
		g_snprintf(err, errlen, "--icrc takes check or ignore, not '%s'", value);
		return false;
	case RR_OPT_CREDIT_SLACK:
		if (parse_count(value, &n)) {
			o->check.credit_slack = n;
			return true;
		}
		g_snprintf(err, errlen, "--credit-slack takes a number, not '%s'", value);
		return false;
	default:
		g_snprintf(err, errlen, "not a shared option");
		return false;
	}
}
