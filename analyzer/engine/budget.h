/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * budget.h - the byte budget (budget.c): how many bytes the engine holds
 * for later, against rr_engine_limits.max_buffered_bytes.  Owns that count
 * (rr_engine.budget, opaque elsewhere); every module that holds bytes takes
 * them here and gives them back.
 */
#ifndef RPCRDMA_BUDGET_H
#define RPCRDMA_BUDGET_H

#include "engine_int.h"

struct rr_budget *rr_budget_new(void);
void rr_budget_free(struct rr_budget *b);
/* Take n bytes (false, reported as ENG-LIMIT for what at frame, when they do not fit). */
bool rr_budget_take(struct rr_engine *eng, uint64_t n, uint64_t frame, const char *what);
void rr_budget_give(struct rr_engine *eng, uint64_t n);

#endif
