// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_expect_back.h"

#include <string.h>

/* pg_nfs4.c's CREATE_SESSION asks for, and is granted, this back-channel ca_maxrequestsize. */
#define BACK_MAXREQ 4096u

void pg_back_conn(pg_audit_back *b)
{
	memset(b, 0, sizeof(*b));
}

void pg_back_session(pg_audit_back *b)
{
	b->session = true;
	b->back_maxreq = BACK_MAXREQ;
}

/* RFC 8267 6.5.2: Long backward messages only when the client's back
 * channel ca_maxrequestsize is larger than the inline threshold. Without
 * the handshake ulb-lint knows the threshold only as at least 1024. */
bool pg_back_long_forbidden(const pg_audit_back *b, const pg_scenario *s)
{
	if (!b->session)
		return false;
	return s->handshake ? b->back_maxreq <= s->inline_max : b->back_maxreq <= 1024;
}

/* RFC 8167 4.1 with RFC 8166 3.3.3: the server assumes one backward
 * credit until a backward reply grants more. */
bool pg_back_call_early(pg_audit_back *b, const pg_scenario *s)
{
	return s->handshake && !b->cb_reply_seen && b->cb_calls++ >= 1;
}

void pg_back_reply(pg_audit_back *b)
{
	b->cb_reply_seen = true;
}
