// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outcome.c - what an RPC reply says (rpc.h): the reply header of RFC 5531
 * §9 through rr_rpc_decode_reply, then, for an accepted SUCCESS, the first
 * word of the results, which most NFS-family procedures open with their
 * status.
 */
#include <string.h>

#include "ulp_internal.h"

void rr_rpc_outcome(const uint8_t *msg, size_t len, struct rr_rpc_outcome *out)
{
	struct rr_cursor c;

	memset(out, 0, sizeof(*out));
	rr_cursor_init(&c, msg, len);
	if (!rr_rpc_decode_reply(&c, &out->rpc)) {
		out->kind = RR_OUTCOME_NOT_REPLY;
		return;
	}
	if (out->rpc.reply_stat == RR_MSG_DENIED)
		out->kind = RR_OUTCOME_DENIED;
	else if (out->rpc.accept_stat == RR_ACCEPT_GARBAGE_ARGS)
		out->kind = RR_OUTCOME_GARBAGE_ARGS;
	else if (out->rpc.accept_stat != RR_ACCEPT_SUCCESS)
		out->kind = RR_OUTCOME_ACCEPT_ERROR;
	else
		out->kind = RR_OUTCOME_SUCCESS;
	if (out->kind == RR_OUTCOME_SUCCESS && rr_get_be32(&c, &out->status))
		out->has_status = true;
}
