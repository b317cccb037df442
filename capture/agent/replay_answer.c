// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_answer.c - what an RPC reply says, in the terms of a replay's
 * outcome (replay_send.h), from the engine's reading of it (rr_rpc_outcome):
 * RFC 5531 §9's reply_stat and accept_stat, then the procedure's status
 * word, which every NFSv3 result and NFSACL's GETACL and SETACL open.
 */
#include <stdio.h>

#include <rpcrdma/rpc.h>

#include "replay_send.h"

static const char *const names[] = {
	"success", "NFS error", "GARBAGE_ARGS", "RPC error", "RDMA_ERROR ERR_CHUNK",
	"RDMA_ERROR ERR_VERS", "malformed reply", "disconnect", "timeout", "not sent",
};

const char *rp_result_name(enum rp_result r)
{
	return (unsigned)r < G_N_ELEMENTS(names) ? names[r] : "?";
}

void rp_answer_rpc(const uint8_t *reply, size_t len, uint32_t xid, struct rp_answer *a)
{
	struct rr_rpc_outcome o;

	rr_rpc_outcome(reply, len, &o);
	if (o.kind == RR_OUTCOME_NOT_REPLY) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "a %zu-byte answer that is not an RPC reply", len);
		return;
	}
	if (o.rpc.xid != xid) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "a reply for XID 0x%08x", o.rpc.xid);
		return;
	}
	a->accept_stat = o.rpc.accept_stat;
	switch (o.kind) {
	case RR_OUTCOME_DENIED:
		a->result = RP_RPC_ERROR;
		snprintf(a->text, sizeof(a->text), "MSG_DENIED, reject_stat %u", o.rpc.reject_stat);
		break;
	case RR_OUTCOME_GARBAGE_ARGS:
		a->result = RP_GARBAGE_ARGS;
		snprintf(a->text, sizeof(a->text), "accepted, GARBAGE_ARGS (cannot decode the arguments)");
		break;
	case RR_OUTCOME_ACCEPT_ERROR:
		a->result = RP_RPC_ERROR;
		snprintf(a->text, sizeof(a->text), "accepted, accept_stat %u", o.rpc.accept_stat);
		break;
	default:
		if (!o.has_status) {
			a->result = RP_BAD_REPLY;
			snprintf(a->text, sizeof(a->text), "accepted SUCCESS without a procedure status");
			break;
		}
		a->status = o.status;
		a->result = o.status ? RP_NFS_ERROR : RP_SUCCESS;
		snprintf(a->text, sizeof(a->text), "accepted SUCCESS, NFS status %u%s", o.status,
			 o.status ? "" : " (OK)");
		break;
	}
}
