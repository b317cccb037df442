// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_expect_chunks.h"

size_t pg_answer_chunk_rules(const pg_msginfo *c, const pg_msginfo *r, const char **rules)
{
	size_t n = 0;
	if (r->damaged || c->damaged)
		return 0;
	/* RFC 8166 §4.3.3: the responder copies the offered Reply chunk into
	 * the reply's header, used or not */
	if (c->reply_segs && !r->reply_segs)
		rules[n++] = "RR-093";
	return n;
}

bool pg_call_pad_in_read_chunk(const pg_msginfo *c, const pg_plan *plan)
{
	if (c->flags & (PG_EXF_DAMAGED | PG_EXF_INELIGIBLE) || c->backchannel)
		return false;
	for (guint i = 0; i < plan->call.reads->len; i++) {
		const pg_chunk *ch = plan->call.reads->pdata[i];
		uint32_t total = 0;
		if (!ch->position || ch->item_len % 4 == 0)
			continue;
		for (guint k = 0; k < ch->segs->len; k++)
			total += g_array_index(ch->segs, pg_seg, k).length;
		if (total == pg_round4(ch->item_len))
			return true;
	}
	return false;
}
