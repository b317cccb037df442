// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_finding.c - a finding of the engine's check stage on the frame it
 * names: its rule, severity, RFC section and text as tree items, and the
 * expert info of its rule at its severity (expert.c).
 *
 * Wireshark cuts every label and expert message at ITEM_LABEL_LENGTH (240
 * bytes).  A finding's text is a core sentence, then sentences that explain
 * it (rpcrdma/diag.h): the expert message and the finding's label carry the
 * core, and each further sentence is an item of its own, so every word
 * stays readable.  A piece still too long for a label is split at a clause
 * ("; ") or, failing that, a word.
 */
#include "ws_compat.h"

#include <string.h>

#include <epan/expert.h>
#include <epan/packet.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/rules.h"

/* Room for text in a label, after the longest prefix drawn before it ("RR-000 (warning): "). */
#define TEXT_ROOM (ITEM_LABEL_LENGTH - 40)

/* Length of the first sentence of s (up to its ". ", which is not part of it). */
static size_t sentence_len(const char *s)
{
	const char *e = strstr(s, ". ");

	return e ? (size_t)(e - s) : strlen(s);
}

/* The longest head of s[0, n) that fits room and ends at a clause or a word, without its separator. */
static size_t piece_len(const char *s, size_t n, size_t *skip)
{
	size_t i, word = 0, clause = 0;

	*skip = 0;
	if (n <= TEXT_ROOM)
		return n;
	for (i = 1; i + 1 < TEXT_ROOM; i++) {
		if (s[i] == ';' && s[i + 1] == ' ')
			clause = i;
		else if (s[i] == ' ')
			word = i;
	}
	if (clause) {
		*skip = 2;
		return clause;
	}
	if (word) {
		*skip = 1;
		return word;
	}
	return TEXT_ROOM;
}

/* The text after its first piece, as detail items: one per sentence, each split to fit. */
static void draw_rest(proto_tree *vt, tvbuff_t *tvb, wmem_allocator_t *pool, const char *s)
{
	while (*s) {
		size_t n = sentence_len(s), skip, k = piece_len(s, n, &skip);

		proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_detail, tvb, 0, 0,
							       wmem_strndup(pool, s, k)));
		s += k + skip;
		if (k + skip >= n)
			s += strncmp(s, ". ", 2) ? 0 : 2;
	}
}

/* The rule is broken: a rule of the binding (not a capture condition) reported as an error or a warning. */
static bool is_violation(const struct rr_rule *r, enum rr_severity sev)
{
	return r->kind == RR_KIND_RULE && (sev == RR_SEV_ERROR || sev == RR_SEV_WARNING);
}

void rrp_draw_finding(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const struct rrp_finding *f)
{
	const struct rr_rule *r = rr_rule_get(f->id);
	const char *sev = rr_severity_name(f->severity);
	size_t skip, core = piece_len(f->text, sentence_len(f->text), &skip);
	expert_field *ei = rrp_expert_for(f->id, f->severity);
	const char *rest;
	proto_item *ti;
	proto_tree *vt;
	unsigned i;

	ti = proto_tree_add_none_format(tree, hf_rr_finding, tvb, 0, 0, "%s (%s): %.*s", r->code, sev, (int)core,
					f->text);
	proto_item_set_generated(ti);
	vt = proto_item_add_subtree(ti, ett_rr_violation);
	if (is_violation(r, f->severity))
		proto_item_set_generated(proto_tree_add_none_format(vt, hf_rr_violation, tvb, 0, 0,
					 "Rule violation: %s %s (%s)", r->code, r->name, sev));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule, tvb, 0, 0, r->code));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_name, tvb, 0, 0, r->name));
	proto_item_set_generated(proto_tree_add_uint(vt, hf_rr_rule_severity, tvb, 0, 0, f->severity));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_section, tvb, 0, 0, r->section));
	/* The field holds the whole text (filters see it all); its label, the core. */
	proto_item_set_generated(proto_tree_add_string_format_value(vt, hf_rr_rule_text, tvb, 0, 0, f->text, "%.*s",
								    (int)core, f->text));
	/* The rest starts after the core's ". ", or after the separator where a long core was split. */
	rest = f->text + core;
	if (*rest)
		rest += core == sentence_len(f->text) ? 2 : skip;
	draw_rest(vt, tvb, pinfo->pool, rest);
	for (i = 0; i < f->n_evidence; i++)
		proto_item_set_generated(proto_tree_add_uint(vt, hf_rr_evidence, tvb, 0, 0, f->evidence[i]));
	if (ei)
		expert_add_info_format(pinfo, ti, ei, "%s: %.*s", r->code, (int)core, f->text);
}
