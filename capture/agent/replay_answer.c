// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_answer.c - what an RPC reply says, in the terms of a replay's
 * outcome (replay_send.h): RFC 5531 §9's reply_stat and accept_stat, then
 * the procedure's status word, which every NFSv3 and NFSACL result opens.
 */
#include <stdio.h>

#include <rpcrdma/cursor.h>
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
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	uint32_t st;

	rr_cursor_init(&c, reply, len);
	if (!rr_rpc_decode_reply(&c, &rep)) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "a %zu-byte answer that is not an RPC reply", len);
		return;
	}
	if (rep.xid != xid) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "a reply for XID 0x%08x", rep.xid);
		return;
	}
	a->accept_stat = rep.accept_stat;
	if (rep.reply_stat) {
		a->result = RP_RPC_ERROR;
		snprintf(a->text, sizeof(a->text), "MSG_DENIED, reject_stat %u", rep.reject_stat);
	} else if (rep.accept_stat == RR_ACCEPT_GARBAGE_ARGS) {
		a->result = RP_GARBAGE_ARGS;
		snprintf(a->text, sizeof(a->text), "accepted, GARBAGE_ARGS (cannot decode the arguments)");
	} else if (rep.accept_stat) {
		a->result = RP_RPC_ERROR;
		snprintf(a->text, sizeof(a->text), "accepted, accept_stat %u", rep.accept_stat);
	} else if (!rr_get_be32(&c, &st)) {
		a->result = RP_BAD_REPLY;
		snprintf(a->text, sizeof(a->text), "accepted SUCCESS without a procedure status");
	} else {
		a->status = st;
		a->result = st ? RP_NFS_ERROR : RP_SUCCESS;
		snprintf(a->text, sizeof(a->text), "accepted SUCCESS, NFS status %u%s", st,
			 st ? "" : " (OK)");
	}
}
