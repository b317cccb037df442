// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The injections drive makes on a call (drive.h): the requester's
 * (inject_req.h: selection, the generator's hooks, the manifest's lines)
 * and the few drive makes itself (inject_table.c's agent-only entries).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "agent.h"
#include "drive.h"
#include "pg_exch.h"

void drive_inj_select(struct drive *d, struct drive_inj *di, uint64_t k, uint32_t xid,
		      const pg_item *it)
{
	req_inj_select(&d->run.inj, &di->r, k, xid, it);
}

const struct inj_spec *drive_inj_on(const struct drive *d, const struct drive_inj *di,
				    const char *name)
{
	return req_inj_on(&d->run.inj, &di->r, name);
}

static uint32_t spec_arg(const struct inj_spec *sp, uint32_t dflt)
{
	return sp->has_arg ? (uint32_t)strtoul(sp->arg, NULL, 0) : dflt;
}

/* The agent's own injections (no table hook), at the stage they belong to. */
static void agent_only(struct drive *d, struct drive_inj *di, pg_exch *ex, unsigned stage)
{
	for (unsigned i = 0; i < d->run.inj.n; i++) {
		const struct inj_spec *sp = &d->run.inj.v[i];
		const char *nm = sp->def->name;
		pg_item *it = &ex->itc;

		if (!di->r.sel[i] || !(inj_def_stages(sp->def, INJ_REQ) & INJ_ST_AGENT))
			continue;
		if (stage == INJ_ST_PREP && !strcmp(nm, "small-reply-chunk")) {
			if (!it->reply.long_segs)
				ex->plan.knobs.offer_unused_reply_chunk = true;
		} else if (stage == INJ_ST_OPS && !strcmp(nm, "small-reply-chunk") &&
			   ex->plan.reply_chunk && ex->plan.reply_chunk->segs->len) {
			GArray *sg = ex->plan.reply_chunk->segs;
			uint32_t each = MAX(4u, pg_round4(spec_arg(sp, 64) / sg->len));
			for (guint k = 0; k < sg->len; k++)
				g_array_index(sg, pg_seg, k).length = each;
			di->r.applied[i] = true;
		} else if (stage == INJ_ST_PREP && (!strcmp(nm, "reconnect-xid") ||
						    !strcmp(nm, "credit-overrun") || !strcmp(nm, "dup-xid"))) {
			di->r.applied[i] = true;   /* drive.c does it around the exchange */
		}
	}
}

void drive_inj_stage(struct drive *d, struct drive_inj *di, pg_exch *ex, unsigned stage,
		     pg_rdmamsg *msg, uint32_t *xid)
{
	agent_only(d, di, ex, stage);
	req_inj_stage(&d->lv, &d->run.inj, &di->r, ex, stage, msg, xid);
}

bool drive_inj_rebuildable(struct drive *d, const struct drive_inj *di, const pg_exch *ex)
{
	return req_inj_rebuildable(&d->run.inj, &di->r, &ex->plan.call, ex->cmi->flags);
}

void drive_inj_record(struct drive *d, const struct drive_inj *di, uint32_t xid)
{
	req_inj_record(&d->run, &di->r, xid);
}

void drive_inj_react(struct drive *d, const struct drive_inj *di, uint32_t xid,
		     const struct jd_reaction *r)
{
	req_inj_react(&d->run, &di->r, xid, r);
}

