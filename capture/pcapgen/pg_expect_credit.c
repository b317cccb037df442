// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_expect_credit.h"

void pg_credit_init(pg_audit_credit *c)
{
	c->ord = g_hash_table_new(g_direct_hash, g_direct_equal);
	c->next = 0;
	pg_credit_conn(c);
}

void pg_credit_free(pg_audit_credit *c)
{
	g_hash_table_destroy(c->ord);
}

void pg_credit_conn(pg_audit_credit *c)
{
	c->n = c->at = 0;
}

void pg_credit_call(pg_audit_credit *c, const pg_msginfo *call)
{
	g_hash_table_insert(c->ord, (gpointer)call, GUINT_TO_POINTER(++c->next));
}

static uint32_t ordinal(const pg_audit_credit *c, const pg_msginfo *call)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(c->ord, call));
}

void pg_credit_answer(pg_audit_credit *c, const pg_msginfo *call)
{
	c->ring[c->at] = ordinal(c, call);
	c->at = (c->at + 1) % PG_CREDIT_RING;
	if (c->n < PG_CREDIT_RING)
		c->n++;
}

uint32_t pg_credit_stale(const pg_audit_credit *c, const GPtrArray *outstanding, int64_t limit)
{
	uint32_t window = (uint32_t)MIN(MAX(limit, 1), PG_CREDIT_RING), stale = 0;

	for (guint i = 0; i < outstanding->len; i++) {
		uint32_t me = ordinal(c, outstanding->pdata[i]), later = 0;
		for (unsigned k = 0; k < c->n; k++)
			later += c->ring[k] > me;
		stale += later >= window;
	}
	return stale;
}
