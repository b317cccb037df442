/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rpc.h - ONC RPC message headers (RFC 5531), as far as the engine needs.
 */
#ifndef RPCRDMA_RPC_H
#define RPCRDMA_RPC_H

#include <stdbool.h>
#include <stdint.h>

#include "cursor.h"

enum { RR_RPC_CALL = 0, RR_RPC_REPLY = 1 };
enum { RR_AUTH_NONE = 0, RR_AUTH_SYS = 1, RR_AUTH_GSS = 6 };

struct rr_rpc_call {
	uint32_t xid;
	uint32_t rpcvers;
	uint32_t prog, vers, proc;
	uint32_t cred_flavor;
	bool is_gss;
	uint32_t gss_proc;        /* RPCSEC_GSS: 0 DATA, 1 INIT, 2 CONTINUE_INIT, 3 DESTROY */
	uint32_t gss_service;     /* 1 none, 2 integrity, 3 privacy */
	size_t args_off;          /* offset of the arguments in the message */
};

struct rr_rpc_reply {
	uint32_t xid;
	uint32_t reply_stat;      /* 0 MSG_ACCEPTED, 1 MSG_DENIED */
	uint32_t accept_stat;     /* valid when accepted: 0 SUCCESS ... */
	uint32_t reject_stat;     /* valid when denied */
	size_t res_off;           /* offset of the results (accepted SUCCESS only) */
};

/* First two words of any RPC message. */
bool rr_rpc_peek(const struct rr_cursor *c, uint32_t *xid, uint32_t *msg_type);
/* Decode the call header; leaves the cursor at the arguments. */
bool rr_rpc_decode_call(struct rr_cursor *c, struct rr_rpc_call *out);
/* Decode the reply header; leaves the cursor at the results. */
bool rr_rpc_decode_reply(struct rr_cursor *c, struct rr_rpc_reply *out);

const char *rr_rpc_program_name(uint32_t prog);   /* "NFS", "MOUNT", ... or NULL */

#endif
