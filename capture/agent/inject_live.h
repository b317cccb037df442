/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject_live.h - the generator's injector hooks run on a message the
 * agent really sends.  The hooks see a pg_exch of their own (pg_exch.c
 * without an audit: a live exchange), whose itc, rp and plan are the
 * message the agent builds; the findings they name are gathered here for
 * the manifest's inject line.
 */
#ifndef AGENT_INJECT_LIVE_H
#define AGENT_INJECT_LIVE_H

#include "inject.h"
#include "pg_exch.h"

struct inj_live {
	pg_exch_env env;
	char expected[160];       /* rules the hooks named for the message, blank-separated */
	int side;                 /* PG_AT_CALL or PG_AT_REPLY: the message being broken */
	bool backward;            /* it builds the proxy's own backward calls: only the entries
				   * of INJ_ST_BACK run, at every stage; elsewhere those never do */
};

/* s: the scenario the run follows (NULL for serve). */
void inj_live_init(struct inj_live *lv, const pg_scenario *s, uint64_t seed);
/* A live exchange for one message of item it (copied into ex->itc). */
pg_exch *inj_live_exch(struct inj_live *lv, const pg_item *it);
/* The names op= matches for the call a reply answers (it: px_inj_item's or serve's item, NULL:
 * not described): its NFSv3 procedure (the item's first op) or its NFSv4 operations; their
 * number, at most max. */
unsigned inj_live_ops(const pg_item *it, const char **ops, unsigned max);
/* The previous forward call, for the injectors that reuse its XID. */
void inj_live_prev_xid(struct inj_live *lv, uint32_t xid);

/*
 * Runs stage (INJ_ST_*) of every selected item of l on the exchange's
 * message: is_call, msg (header and wire stages), xid (prep).  applied[i]
 * is set for the items whose hook changed the message; failed[i] for those
 * whose plan hook found nothing to change (their later hooks do not run).
 */
void inj_live_stage(struct inj_live *lv, pg_exch *ex, const struct inj_list *l, const bool *sel,
		    unsigned stage, bool is_call, pg_rdmamsg *msg, uint32_t *xid, bool *applied,
		    bool *failed);

#endif
