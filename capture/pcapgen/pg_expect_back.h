/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit's view of the backward direction that pg_expect.c asks about
 * (docs/pcapgen.md, "Expected findings"): what the session allows (RR-192)
 * and the backward credits at a connection's start (RR-108).  Kept per
 * connection.
 */
#ifndef PG_EXPECT_BACK_H
#define PG_EXPECT_BACK_H

#include "pg_scenario.h"

typedef struct {
	bool session;          /* a CREATE_SESSION on this connection was executed */
	uint32_t back_maxreq;  /* ... and the back channel's ca_maxrequestsize it granted */
	bool cb_reply_seen;    /* a backward reply has granted credits on this connection */
	uint32_t cb_calls;     /* backward calls sent before it */
} pg_audit_back;

/* A new connection: nothing is known of its session or backward credits. */
void pg_back_conn(pg_audit_back *b);
/* An executed CREATE_SESSION on the current connection. */
void pg_back_session(pg_audit_back *b);
/* A backward Long Call: is it beyond what the session allows (RR-192)? */
bool pg_back_long_forbidden(const pg_audit_back *b, const pg_scenario *s);
/* A backward call: is it the second before any backward reply, on a
 * connection whose start the capture holds (RR-108)? */
bool pg_back_call_early(pg_audit_back *b, const pg_scenario *s);
/* A backward reply (a normal answer, not RDMA_ERROR): credits granted. */
void pg_back_reply(pg_audit_back *b);

#endif
