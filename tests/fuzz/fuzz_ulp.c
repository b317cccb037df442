// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the RPC/NFS walkers.  The input is an RPC call
 * followed by a 4-byte length and an RPC reply to it; the call is walked,
 * then the reply with what the call taught.  Any DDP item the walker
 * reports must lie inside the message.
 */
#include <stdint.h>
#include <stdlib.h>

#include "rpcrdma/cursor.h"
#include "rpcrdma/rpc.h"
#include "rpcrdma/ulp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct span {
	size_t len;
	unsigned calls;
};

static bool on_item(void *ctx, const struct rr_ddp_item *item)
{
	struct span *s = ctx;

	if (item->data_pos > s->len)
		abort();
	/* Alternate inline and moved so both paths are walked. */
	return (s->calls++ & 1) != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_cursor all, cur;
	struct rr_rpc_call call;
	struct rr_rpc_reply reply;
	struct rr_ulp_info info, out;
	const uint8_t *call_bytes, *rest = NULL;
	size_t call_len = size, rest_len = 0;
	uint32_t n;
	struct span sp;

	rr_cursor_init(&all, data, size);
	if (rr_get_be32(&all, &n) && n <= rr_cursor_left(&all)) {
		rr_get_bytes(&all, n, &call_bytes);
		call_len = n;
		rr_get_rest(&all, &rest, &rest_len);
	} else {
		call_bytes = data;
	}
	rr_cursor_init(&cur, call_bytes, call_len);
	if (!rr_rpc_decode_call(&cur, &call))
		return 0;
	sp.len = call_len;
	sp.calls = 0;
	if (rr_ulp_walk_call(&call, &cur, on_item, &sp, &info) == RR_ULP_UNKNOWN_PROGRAM)
		return 0;
	rr_cursor_init(&cur, rest, rest_len);
	if (!rr_rpc_decode_reply(&cur, &reply))
		return 0;
	sp.len = rest_len;
	rr_ulp_walk_reply(&info, &reply, &cur, on_item, &sp, &out);
	return 0;
}
