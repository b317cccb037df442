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
