/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One exchange being generated: a call and its reply (or one header-only
 * message), the RDMA operations the responder posts for it and the
 * injectors aimed at it. The services pg_inject.h lists for the injectors
 * work on it. */
#ifndef PG_EXCH_H
#define PG_EXCH_H

#include "pg_expect.h"
#include "pg_inject.h"

/* What the exchanges of one capture share. */
typedef struct {
	const pg_scenario *s;
	pg_audit *audit;
	pg_mem mem;
	bool have_prev;
	uint32_t prev_xid;     /* the last forechannel call's XID */
} pg_exch_env;

/* One injector of the scenario line, as the stages find it. */
typedef struct {
	const pg_injector *inj;
	const pg_inject_spec *spec;
	bool applied;
	bool plan_tried, plan_ok; /* later hooks run only if the plan hook did */
} pg_inj_state;

struct pg_exch {
	pg_exch_env *env;
	const pg_item *it;
	pg_item itc;           /* the scenario line as injectors may reshape it */
	pg_rpc_pair rp;
	pg_plan plan;
	GArray *inj;           /* pg_inj_state */
	GArray *reads, *writes, *after; /* pg_op */
	GPtrArray *scratch;
	pg_msginfo *cmi, *rmi;
	int cid;
	uint32_t xid;
	bool cb, simple;
	int req, resp;
};

/* inj: the injectors' states (pg_stage_states); the exchange owns it. */
pg_exch *pg_exch_new(pg_exch_env *env, const pg_item *it, GArray *inj);
void pg_exch_free(pg_exch *ex);

#endif
