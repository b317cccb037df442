// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_finding.c - a finding of the engine's check stage on the frame it
 * names: its rule, severity, RFC section and text as tree items, and an
 * expert info.
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/expert.h>
#include <epan/packet.h>

#include "fields.h"
#include "rpcrdma_plugin.h"
#include "rpcrdma/rules.h"

/* ---- findings ---- */

static expert_field *expert_for(enum rr_severity sev)
{
	return sev == RR_SEV_ERROR ? &ei_rr_error : sev == RR_SEV_WARNING ? &ei_rr_warning : &ei_rr_note;
}

void rrp_draw_finding(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const struct rrp_finding *f)
{
	const struct rr_rule *r = rr_rule_get(f->id);
	proto_item *ti;
	proto_tree *vt;
	unsigned i;

	ti = proto_tree_add_none_format(tree, hf_rr_violation, tvb, 0, 0, "%s (%s, %s): %s", r->code,
					rr_severity_name(f->severity), r->section, f->text);
	proto_item_set_generated(ti);
	vt = proto_item_add_subtree(ti, ett_rr_violation);
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule, tvb, 0, 0, r->code));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_name, tvb, 0, 0, r->name));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_severity, tvb, 0, 0,
						       rr_severity_name(f->severity)));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_section, tvb, 0, 0, r->section));
	proto_item_set_generated(proto_tree_add_string(vt, hf_rr_rule_text, tvb, 0, 0, f->text));
	for (i = 0; i < f->n_evidence; i++)
		proto_item_set_generated(proto_tree_add_uint(vt, hf_rr_evidence, tvb, 0, 0, f->evidence[i]));
	expert_add_info_format(pinfo, ti, expert_for(f->severity), "%s: %s", r->code, f->text);
}

