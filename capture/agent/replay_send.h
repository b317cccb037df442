/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_send.h - one variation of a replayed call sent to the server on
 * a connection of its own (RDMA-CM through verbs.h, or TCP through
 * kernel_target.h), and what came back, in the terms an outcome needs:
 * the RPC accept status, the NFS status, RDMA_ERROR, a disconnect, nothing
 * (an RPC reply read by replay_answer.c).
 */
#ifndef AGENT_REPLAY_SEND_H
#define AGENT_REPLAY_SEND_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "replay.h"

enum rp_result {
	RP_SUCCESS,          /* accepted, procedure status 0 */
	RP_NFS_ERROR,        /* accepted, procedure status not 0 */
	RP_GARBAGE_ARGS,
	RP_RPC_ERROR,        /* another accept status, or denied */
	RP_ERR_CHUNK,
	RP_ERR_VERS,
	RP_BAD_REPLY,        /* an answer that does not decode, or for another XID */
	RP_DISCONNECT,
	RP_TIMEOUT,
	RP_NOT_SENT,         /* no connection, or the variation does not apply */
};

struct rp_answer {
	enum rp_result result;
	uint32_t accept_stat, status;
	char text[200];
};

struct rp_target {
	const char *server;
	uint16_t rdma_port, tcp_port;
	int timeout_ms;
	uint32_t credits;
};

const char *rp_result_name(enum rp_result r);
/* The RPC reply (record marks or transport header removed) in words. */
void rp_answer_rpc(const uint8_t *reply, size_t len, uint32_t xid, struct rp_answer *a);

/* msg (XID already set) as plan says, on a new RPC-over-RDMA connection. */
void rp_send_rdma(const struct rp_target *t, const struct rp_plan *p, const GByteArray *msg,
		  uint32_t xid, struct rp_answer *a);
/* msg over TCP, one record of one fragment, on a new connection. */
void rp_send_tcp(const struct rp_target *t, const GByteArray *msg, uint32_t xid,
		 struct rp_answer *a);

#endif
