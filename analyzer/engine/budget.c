// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The byte budget: every byte the engine holds for later (partial Sends,
 * segment data, copies of calls) is taken from one bound, so a capture of
 * any size or shape runs in bounded memory.  What does not fit is reported
 * once per refusal (ENG-LIMIT) and not buffered.
 */
#include "engine_int.h"

bool rr_budget_take(struct rr_engine *eng, uint64_t n, uint64_t frame, const char *what)
{
	if (n > eng->lim.max_buffered_bytes - eng->buffered) {
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "%s needs %" G_GUINT64_FORMAT " bytes but %" G_GUINT64_FORMAT
			       " of the %" G_GUINT64_FORMAT "-byte buffer budget are in use; not buffered",
			       what, n, eng->buffered, eng->lim.max_buffered_bytes);
		return false;
	}
	eng->buffered += n;
	return true;
}

void rr_budget_give(struct rr_engine *eng, uint64_t n)
{
	eng->buffered = n > eng->buffered ? 0 : eng->buffered - n;
}
