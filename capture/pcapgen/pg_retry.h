/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calls re-sent on a new connection ("reconnect" in a scenario), as the
 * audit (pg_expect.c) must expect them (docs/pcapgen.md, "Expected
 * findings"): a call sent with the same XID on two or more connections is
 * RR-231; three or more connections that each re-sent a call the one before
 * left unanswered are one RR-233 for the client and server; the newest
 * attempt of an NFSv4.1 call that repeats the SEQUENCE (session, slot,
 * sequence ID) of the attempt before it on another connection is RR-234;
 * a call sent on three or more connections and never answered is RR-119.
 * This module only counts: the audit turns its findings into expectations.
 */
#ifndef PG_RETRY_H
#define PG_RETRY_H

#include "pg_expect.h"

typedef struct pg_retry pg_retry;

typedef struct {
	const char *rule;
	const pg_msginfo *at;  /* the finding is at this message's Send */
} pg_retry_finding;

pg_retry *pg_retry_new(void);
void pg_retry_free(pg_retry *r);
/* A forward call's Send (mi->conn names its connection). */
void pg_retry_call(pg_retry *r, const pg_msginfo *mi);
/* The reply or RDMA_ERROR that answered call c. failed: RDMA_ERROR or an
 * RPC GARBAGE_ARGS; lng: the failure of a Long Call or a Long Reply. */
void pg_retry_answer(pg_retry *r, const pg_msginfo *c, const pg_msginfo *reply, bool failed,
		     bool lng);
/* How many connections carried this XID so far. */
guint pg_retry_conns(const pg_retry *r, uint32_t xid);
/* The findings at the end of the capture (pg_retry_finding), in no order. */
GArray *pg_retry_findings(const pg_retry *r);

#endif
