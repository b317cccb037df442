/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of the ULP walker tests: a recording rr_ddp_fn. */
#ifndef RR_TEST_ULP_TEST_H
#define RR_TEST_ULP_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

struct rec {
	struct rr_ddp_item items[16];
	unsigned n;
	uint32_t moved;   /* bit i set: the i-th reported item is "not inline" */
};

static inline bool rec_fn(void *ctx, const struct rr_ddp_item *item)
{
	struct rec *r = ctx;
	bool moved = r->n < 32 && (r->moved & (1u << r->n));

	if (r->n < sizeof(r->items) / sizeof(r->items[0]))
		r->items[r->n] = *item;
	r->n++;
	return moved;
}

static inline struct rr_rpc_call mk_call(uint32_t prog, uint32_t vers, uint32_t proc)
{
	struct rr_rpc_call call;

	memset(&call, 0, sizeof(call));
	call.rpcvers = 2;
	call.prog = prog;
	call.vers = vers;
	call.proc = proc;
	call.cred_flavor = RR_AUTH_SYS;
	return call;
}

static inline struct rr_rpc_reply mk_reply(void)
{
	struct rr_rpc_reply r;

	memset(&r, 0, sizeof(r));
	r.reply_stat = RR_MSG_ACCEPTED;
	r.accept_stat = RR_ACCEPT_SUCCESS;
	return r;
}

#endif
