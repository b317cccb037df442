/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit's forward credit count (RR-102, docs/pcapgen.md "Expected
 * findings"): a call the responder never answered, or whose reply the
 * capture does not show, stops counting as outstanding once the responder
 * answered a whole credit window of calls sent after it.
 */
#ifndef PG_EXPECT_CREDIT_H
#define PG_EXPECT_CREDIT_H

#include "pg_expect.h"

#define PG_CREDIT_RING 128     /* as many answered calls as ulb-lint remembers */

typedef struct {
	GHashTable *ord;       /* pg_msginfo* of a forward call -> its ordinal + 1 */
	uint32_t next;
	uint32_t ring[PG_CREDIT_RING];   /* ordinals of the calls the latest replies answered */
	unsigned n, at;
} pg_audit_credit;

void pg_credit_init(pg_audit_credit *c);
void pg_credit_free(pg_audit_credit *c);
/* A new connection: its replies start a new count. */
void pg_credit_conn(pg_audit_credit *c);
/* A forward call is sent; a reply or RDMA_ERROR answers call. */
void pg_credit_call(pg_audit_credit *c, const pg_msginfo *call);
void pg_credit_answer(pg_audit_credit *c, const pg_msginfo *call);
/* How many of the outstanding calls no longer count against limit. */
uint32_t pg_credit_stale(const pg_audit_credit *c, const GPtrArray *outstanding, int64_t limit);

#endif
