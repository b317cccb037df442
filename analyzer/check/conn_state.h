/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conn_state.h - a connection's check state, for the checks that keep one
 * (state.c owns it).  Apart from check_int.h so that the files that never
 * ask for it do not reach state.c through its inline fast path.
 */
#ifndef RPCRDMA_CK_CONN_STATE_H
#define RPCRDMA_CK_CONN_STATE_H

#include "check_int.h"

/*
 * The connection's state, made on first use.  Most facts in a row are of
 * one connection and each check asks again: the one found last answers
 * without a call.
 */
static inline struct ck_conn_state *ck_conn(struct rr_checker *ck, uint32_t id)
{
	struct ck_conn_state *cs = ck->last_conn;

	return cs && cs->id == id ? cs : ck_conn_slow(ck, id);
}

#endif
