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
/* XID, message type and the words up to a call's procedure (a reply's accept state is as near). */
#define RR_RPC_HEAD_LEN 24u
enum { RR_AUTH_NONE = 0, RR_AUTH_SYS = 1, RR_AUTH_GSS = 6 };
enum { RR_MSG_ACCEPTED = 0, RR_MSG_DENIED = 1 };
enum {
	RR_ACCEPT_SUCCESS = 0, RR_ACCEPT_PROG_UNAVAIL = 1, RR_ACCEPT_PROG_MISMATCH = 2,
	RR_ACCEPT_PROC_UNAVAIL = 3, RR_ACCEPT_GARBAGE_ARGS = 4, RR_ACCEPT_SYSTEM_ERR = 5,
};
enum { RR_REJECT_RPC_MISMATCH = 0, RR_REJECT_AUTH_ERROR = 1 };
enum { RR_GSS_PROC_DATA = 0, RR_GSS_PROC_INIT = 1, RR_GSS_PROC_CONTINUE_INIT = 2,
       RR_GSS_PROC_DESTROY = 3 };
enum { RR_GSS_SVC_NONE = 1, RR_GSS_SVC_INTEGRITY = 2, RR_GSS_SVC_PRIVACY = 3 };

struct rr_rpc_call {
	uint32_t xid;
	uint32_t rpcvers;
	uint32_t prog, vers, proc;
	uint32_t cred_flavor;
	bool is_gss;
	uint32_t gss_proc;        /* RPCSEC_GSS: 0 DATA, 1 INIT, 2 CONTINUE_INIT, 3 DESTROY */
	uint32_t gss_service;     /* 1 none, 2 integrity, 3 privacy */
	size_t args_off;          /* offset of the arguments in the message */
	/* The credential and verifier as far as the checks need them; zero when not applicable. */
	uint32_t cred_len;        /* length of the credential body (<= 400) */
	uint32_t verf_flavor;
	uint32_t gss_version;     /* RPCSEC_GSS credential version (1) */
	uint32_t gss_seq;         /* RPCSEC_GSS sequence number */
	uint32_t gss_handle_len;  /* RPCSEC_GSS context handle length */
};

struct rr_rpc_reply {
	uint32_t xid;
	uint32_t reply_stat;      /* 0 MSG_ACCEPTED, 1 MSG_DENIED */
	uint32_t accept_stat;     /* valid when accepted: 0 SUCCESS ... */
	uint32_t reject_stat;     /* valid when denied */
	size_t res_off;           /* offset of the results (accepted SUCCESS only) */
	/* Verifier and mismatch/auth details; zero when not applicable. */
	uint32_t verf_flavor;     /* accepted */
	uint32_t mismatch_low;    /* accepted PROG_MISMATCH or denied RPC_MISMATCH */
	uint32_t mismatch_high;
	uint32_t auth_stat;       /* denied AUTH_ERROR */
};

/*
 * First two words of any RPC message.  False when fewer than 8 bytes are
 * left, or when msg_type is neither CALL nor REPLY (xid and msg_type are
 * still set when they could be read).  Does not move the cursor.
 */
bool rr_rpc_peek(const struct rr_cursor *c, uint32_t *xid, uint32_t *msg_type);
/*
 * Decode the call header; leaves the cursor at the arguments.  False when
 * it is not a version-2 RPC call or does not decode (fields read so far
 * stay in out).
 */
bool rr_rpc_decode_call(struct rr_cursor *c, struct rr_rpc_call *out);
/*
 * Decode the reply header; leaves the cursor at the results (accepted
 * SUCCESS) or after the header.  False when it does not decode.
 */
bool rr_rpc_decode_reply(struct rr_cursor *c, struct rr_rpc_reply *out);

/*
 * What an RPC reply says (RFC 5531 §9), decoded once for every user of a
 * reply's outcome.  The first word of an accepted SUCCESS's results is the
 * procedure's status for: the NFSv2 and NFSv3 procedures but NULL (and
 * NFSv2's ROOT and WRITECACHE, which return nothing) (stat, nfsstat3:
 * RFC 1094 §2.3.1, RFC 1813 §2.6); NFSv4 COMPOUND and the NFSv4 callback
 * program's CB_COMPOUND (nfsstat4 status: RFC 7530 §15.2 and §17.2,
 * RFC 8881 §16.2 and §19.2); NFSACL GETACL and SETACL, and version 2's
 * GETATTR and ACCESS (Linux's nfs_acl.x); MOUNT MNT (fhstatus, mountres3:
 * RFC 1813 Appendix I); NSM SM_STAT and SM_MON.  It is not a status for
 * NULL procedures (no results: has_status false), NLM (a cookie comes
 * first), portmap/rpcbind, or MOUNT's other procedures: a caller that
 * knows the program reads status only for the procedures named here.
 */
enum rr_rpc_outcome_kind {
	RR_OUTCOME_NOT_REPLY = 0,   /* no RPC reply: short, a call, another msg_type, a verifier
				     * over 400 bytes, a reply_stat or reject_stat without an arm */
	RR_OUTCOME_DENIED,          /* MSG_DENIED: rpc.reject_stat, rpc.mismatch_*, rpc.auth_stat */
	RR_OUTCOME_GARBAGE_ARGS,    /* MSG_ACCEPTED, GARBAGE_ARGS: the arguments did not decode */
	RR_OUTCOME_ACCEPT_ERROR,    /* MSG_ACCEPTED, another accept_stat than SUCCESS */
	RR_OUTCOME_SUCCESS,         /* MSG_ACCEPTED, SUCCESS: results at rpc.res_off */
};

struct rr_rpc_outcome {
	enum rr_rpc_outcome_kind kind;
	struct rr_rpc_reply rpc;    /* the header as far as it decoded (xid once 4 bytes are there) */
	bool has_status;            /* SUCCESS with at least one word of results */
	uint32_t status;            /* that word (see above for whose status it is); 0 otherwise */
};

/* The outcome of the reply in msg[0..len); never reads past len.  The XID is the caller's to match. */
void rr_rpc_outcome(const uint8_t *msg, size_t len, struct rr_rpc_outcome *out);

const char *rr_rpc_program_name(uint32_t prog);   /* "NFS", "MOUNT", ... or NULL */

#endif
