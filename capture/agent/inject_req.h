/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject_req.h - the requester's injections on one call, for every side
 * that sends calls: drive (drive_inject.c adds its own agent-made items
 * around these) and the proxy's server leg (proxy_sinject.c).  Which
 * --inject items hit the call, the generator's hooks at each stage of
 * building it (inject_live.c), whether the call as sent still rebuilds,
 * and the manifest's inject, reaction and verdict lines (judge.c).
 */
#ifndef AGENT_INJECT_REQ_H
#define AGENT_INJECT_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "inject_live.h"
#include "judge.h"

/* The injections aimed at one call. */
struct req_inj {
	bool sel[INJ_MAX_SPECS], applied[INJ_MAX_SPECS], failed[INJ_MAX_SPECS];
	char expected[INJ_MAX_SPECS][160];   /* the findings each hook named */
	bool any, wire;                      /* an item changed the call / its Send's bytes */
};

/* Which items of l hit the k-th call (xid, of item it: its procedure or operations). */
void req_inj_select(const struct inj_list *l, struct req_inj *ri, uint64_t k, uint32_t xid,
		    const pg_item *it);
/* One stage (INJ_ST_*) of the table's hooks on the call msg (header and wire
 * stages) or its XID (prep), each selected item on its own so that each
 * inject line names its own findings.  The agent-made items are the caller's. */
void req_inj_stage(struct inj_live *lv, const struct inj_list *l, struct req_inj *ri, pg_exch *ex,
		   unsigned stage, pg_rdmamsg *msg, uint32_t *xid);
/* Whether the engine can rebuild the call as sent (the rpc line's rebuilt=):
 * call is the message sent, flags the exchange's facts (PG_EXF_*). */
bool req_inj_rebuildable(const struct inj_list *l, const struct req_inj *ri, const pg_rdmamsg *call,
			 unsigned flags);
/* Is item name asked for and hitting this call? */
const struct inj_spec *req_inj_on(const struct inj_list *l, const struct req_inj *ri, const char *name);
/* The inject lines of the call (xid: its transport header's). */
void req_inj_record(struct agent_run *run, const struct req_inj *ri, uint32_t xid);
/* The reaction and verdict lines for every applied item. */
void req_inj_react(struct agent_run *run, const struct req_inj *ri, uint32_t xid,
		   const struct jd_reaction *r);

#endif
