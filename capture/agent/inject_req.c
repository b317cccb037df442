// SPDX-License-Identifier: GPL-2.0-or-later
/* The requester's injections on one call (inject_req.h). */
#include "react.h"
#include "inject_req.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "agent.h"
#include "pg_exch.h"

void req_inj_select(const struct inj_list *l, struct req_inj *ri, uint64_t k, uint32_t xid,
		    const pg_item *it)
{
	const char *ops[PG_MAX_CHUNKS * 4 + 2];
	unsigned n = 0;

	memset(ri, 0, sizeof(*ri));
	if (it->nfsver == PG_V3)
		ops[n++] = pg_nfs_opname(PG_V3, false, it->proc);
	else if (it->proc == 0)
		ops[n++] = "NULL";
	for (guint i = 0; it->nfsver != PG_V3 && it->ops && i < it->ops->len && n < G_N_ELEMENTS(ops); i++)
		ops[n++] = pg_nfs_opname(it->nfsver, false, g_array_index(it->ops, pg_nfsop, i).op);
	for (unsigned i = 0; i < l->n; i++)
		ri->sel[i] = inj_selects(&l->v[i], INJ_REQ, k, xid, ops, n);
}

const struct inj_spec *req_inj_on(const struct inj_list *l, const struct req_inj *ri, const char *name)
{
	return inj_find(l, ri->sel, name);
}

void req_inj_stage(struct inj_live *lv, const struct inj_list *l, struct req_inj *ri, pg_exch *ex,
		   unsigned stage, pg_rdmamsg *msg, uint32_t *xid)
{
	for (unsigned i = 0; i < l->n; i++) {
		bool one[INJ_MAX_SPECS] = { false }, was = ri->applied[i];
		if (!ri->sel[i] || l->v[i].def->agent_only)
			continue;
		one[i] = true;
		*lv->expected = 0;
		inj_live_stage(lv, ex, l, one, stage, true, msg, xid, ri->applied, ri->failed);
		if (*lv->expected) {
			if (*ri->expected[i])
				g_strlcat(ri->expected[i], " ", sizeof(ri->expected[i]));
			g_strlcat(ri->expected[i], lv->expected, sizeof(ri->expected[i]));
		}
		if (stage == INJ_ST_WIRE && ri->applied[i] && !was)
			ri->wire = true;
	}
	for (unsigned i = 0; i < l->n; i++)
		ri->any |= ri->applied[i];
}

/* Injections after which the Payload a checker rebuilds is still the RPC call
 * as built (the header's chunks still rebuild it, or only credits/XIDs/shape
 * changed); any other applied one makes the call's rpc line rebuilt=no. */
static bool keeps_payload(const char *name)
{
	static const char *const t[] = {
		"ineligible-chunk", "zero-credit", "msgp", "resend-xid", "retry-xid", "dup-xid",
		"reconnect-xid", "credit-overrun", "small-reply-chunk", "oversize-send", "pad-segment",
		"pad-room", "small-write-chunk", "null-write-chunk", "extra-write-chunk", "minorversion",
		"readdir-count", "rpcb-nfs4", "rpcb-mount", "split-run", "pz-interleave", "count-in-chunk",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++)
		if (!strcmp(t[i], name))
			return true;
	return false;
}

bool req_inj_rebuildable(const struct inj_list *l, const struct req_inj *ri, const pg_rdmamsg *call,
			 unsigned flags)
{
	for (unsigned i = 0; i < l->n; i++)
		if (ri->applied[i] && !keeps_payload(l->v[i].def->name))
			return false;
	return call->vers == 1 && call->proc <= RDMA_MSGP && !ri->wire &&
	       !(flags & (PG_EXF_MALFORMED | PG_EXF_CALL_OFF_WIRE));
}

/* Rules a conforming engine may add to a broken call's finding: what the
 * answer to it says (refused, answered, retried). */
#define ALSO_ANSWER "RR-003,RR-004,RR-065,RR-110,RR-111,RR-113,RR-116,RR-131,RR-173"

/* The rule an applied item is checked for in verify: the first finding its
 * hook named, else the first its entry lists. */
static void broke_rule(const struct inj_spec *sp, const char *expected, char *out, size_t len)
{
	const char *src = *expected ? expected : inj_def_rules(sp->def);
	size_t n = strcspn(src, " ,");
	/* a conforming engine reports the version itself (ENG-NOT-V1) and RR-001
	 * only if the responder then answers anything but ERR_VERS */
	if (!strcmp(sp->def->name, "bad-vers"))
		src = "ENG-NOT-V1", n = strlen(src);
	g_strlcpy(out, src, MIN(len, n + 1));
}

/* What the agent's inject lines for the rule codes it always took tolerated. */
static const char *legacy_also(const char *name)
{
	static const struct { const char *name, *also; } t[] = {
		{ "bad-vers", "RR-110,RR-111,RR-003,RR-113,RR-001" },
		{ "xid-mismatch", "RR-003,RR-004,RR-113,RR-110" },
		{ "msgp", "RR-131,RR-173" },
		{ "ineligible-chunk", "RR-140,RR-142,RR-024,RR-222,RR-023,RR-065,RR-173,RR-116" },
		{ "resend-xid", "RR-004,RR-180,RR-181,RR-131,RR-130" },
		{ "dup-xid", "RR-092,RR-003" },   /* the second answer writes into the same chunks */
		{ "retry-xid", "RR-004,RR-116,RR-181,RR-131,RR-130" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++)
		if (!strcmp(t[i].name, name))
			return t[i].also;
	return "";
}

/* Injections no checker reports on the call itself (legal on the wire, or
 * seen only in what follows): no inject line, the reaction and verdict only. */
static bool unseen(const char *name)
{
	static const char *const t[] = {
		"zero-credit",        /* requesting 0 credits: RR-100 is about grants */
		"reconnect-xid",      /* a retransmission on a new connection is no duplicate */
		"small-reply-chunk",  /* a small Reply chunk is legal; the answer tells */
		"credit-overrun",     /* past a grant of 0: a checker counts that grant as one */
		"extra-write-chunk",  /* surplus Write chunks: reported only past the binding's limits */
	};
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++)
		if (!strcmp(t[i], name))
			return true;
	return false;
}

void req_inj_record(struct agent_run *run, const struct req_inj *ri, uint32_t xid)
{
	for (unsigned i = 0; i < run->inj.n; i++) {
		const struct inj_spec *sp = &run->inj.v[i];
		char rule[16], also[128] = "", note[256];
		if (!ri->applied[i] || unseen(sp->def->name))
			continue;
		broke_rule(sp, ri->expected[i], rule, sizeof(rule));
		if (!*rule)
			continue;   /* an entry that breaks no rule (legal on purpose) */
		inj_add_rules(also, sizeof(also), ri->expected[i], rule);
		inj_add_rules(also, sizeof(also), legacy_also(sp->def->name), rule);
		inj_add_rules(also, sizeof(also), inj_def_rules(sp->def), rule);
		inj_add_rules(also, sizeof(also), ALSO_ANSWER, rule);
		snprintf(note, sizeof(note), "%s: %s", sp->def->name, inj_def_help(sp->def));
		agent_mf_inject(run, rule, xid, false, also, note, false);
	}
}

void req_inj_react(struct agent_run *run, const struct req_inj *ri, uint32_t xid,
		   const struct jd_reaction *r)
{
	for (unsigned i = 0; i < run->inj.n; i++) {
		const struct inj_spec *sp = &run->inj.v[i];
		char rule[16];

		if (!ri->applied[i])
			continue;
		broke_rule(sp, ri->expected[i], rule, sizeof(rule));
		if (!strcmp(rule, "ENG-NOT-V1"))
			g_strlcpy(rule, "RR-001", sizeof(rule));
		inj_react_record(run->mf, sp->def->name, INJ_REQ, *rule ? rule : sp->def->name, xid, false, r);
	}
}
