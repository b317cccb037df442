/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running the injectors of a scenario line, one stage of building a
 * message at a time (the stages pg_inject.h describes). */
#ifndef PG_STAGE_H
#define PG_STAGE_H

#include "pg_exch.h"

enum pg_stage { PG_ST_PREP, PG_ST_PLAN, PG_ST_OPS, PG_ST_HEADER, PG_ST_WIRE, PG_ST_CAPTURE };

/* The states (pg_inj_state) of the line's injectors, none applied yet. */
GArray *pg_stage_states(const pg_item *it);
/* Run one stage of every injector aimed at this message. Returns the
 * capture snap length requested, if any. */
uint32_t pg_stage_run(pg_exch *ex, enum pg_stage st, bool is_call, pg_rdmamsg *msg, pg_op *op,
		      uint32_t *xid);
bool pg_stage_any_applied(GArray *states);
/* Name the injectors that applied to message id in the truth file; true if
 * there was one. simple: a header-only message, which every target hits. */
bool pg_stage_record(pg_truth *t, GArray *states, int id, bool is_call, bool simple);

#endif
