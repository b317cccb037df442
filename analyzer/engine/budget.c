// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The byte budget: every byte the engine holds for later (partial Sends,
 * segment data, copies of calls) is taken from one bound, so a capture of
 * any size or shape runs in bounded memory.  What does not fit is reported
 * once per refusal (ENG-LIMIT) and not buffered.
 */
#include "budget.h"

struct rr_budget {
	uint64_t used;            /* bytes held in Sends, segments and call copies */
};

struct rr_budget *rr_budget_new(void)
{
	return g_new0(struct rr_budget, 1);
}

void rr_budget_free(struct rr_budget *b)
{
	g_free(b);
}

bool rr_budget_take(struct rr_engine *eng, uint64_t n, uint64_t frame, const char *what)
{
	struct rr_budget *b = eng->budget;

	if (n > eng->lim.max_buffered_bytes - b->used) {
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "%s needs %" G_GUINT64_FORMAT " bytes but %" G_GUINT64_FORMAT
			       " of the %" G_GUINT64_FORMAT "-byte buffer budget are in use; not buffered",
			       what, n, b->used, eng->lim.max_buffered_bytes);
		return false;
	}
	b->used += n;
	return true;
}

void rr_budget_give(struct rr_engine *eng, uint64_t n)
{
	struct rr_budget *b = eng->budget;

	b->used = n > b->used ? 0 : b->used - n;
}
