// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpc.c - ONC RPC version 2 message headers (RFC 5531) and the RPCSEC_GSS
 * credential (RFC 2203 5.3.1).
 *
 *   call:  xid, msg_type = 0, rpcvers = 2, prog, vers, proc,
 *          cred = opaque_auth{flavor, body<400>}, verf = opaque_auth
 *   reply: xid, msg_type = 1, reply_stat
 *          MSG_ACCEPTED: verf, accept_stat
 *                        SUCCESS: results follow
 *                        PROG_MISMATCH: low, high
 *                        others: void
 *          MSG_DENIED:   reject_stat
 *                        RPC_MISMATCH: low, high
 *                        AUTH_ERROR: auth_stat
 *   RPCSEC_GSS cred body: version (1), gss_proc, seq_num, service, handle<>
 */
#include <string.h>

#include "ulp_internal.h"

#define RPC_VERSION 2u
#define RPCSEC_GSS_VERS_1 1u

bool rr_rpc_peek(const struct rr_cursor *c, uint32_t *xid, uint32_t *msg_type)
{
	uint32_t x, t;

	if (!rr_peek_be32(c, 0, &x) || !rr_peek_be32(c, 4, &t))
		return false;
	if (xid)
		*xid = x;
	if (msg_type)
		*msg_type = t;
	return t == RR_RPC_CALL || t == RR_RPC_REPLY;
}

/* opaque_auth: flavor, body<400>.  The body is handed back as a sub-cursor. */
static bool get_auth(struct rr_cursor *c, uint32_t *flavor, struct rr_cursor *body)
{
	uint32_t len;

	if (!rr_xdr_u32(c, flavor) || !rr_xdr_u32(c, &len))
		return false;
	if (len > ULP_MAX_AUTH_BYTES)
		return false;
	if (!rr_cursor_sub(c, len, body))
		return false;
	return rr_skip(c, rr_xdr_pad(len));
}

static bool parse_gss_cred(struct rr_cursor *body, struct rr_rpc_call *out)
{
	uint32_t handle_len;

	if (!rr_xdr_u32(body, &out->gss_version))
		return false;
	if (out->gss_version != RPCSEC_GSS_VERS_1)
		return false;   /* the union has only the version-1 arm */
	if (!rr_xdr_u32(body, &out->gss_proc) || !rr_xdr_u32(body, &out->gss_seq) ||
	    !rr_xdr_u32(body, &out->gss_service))
		return false;
	if (!rr_xdr_u32(body, &handle_len) || !rr_xdr_skip(body, handle_len))
		return false;
	out->gss_handle_len = handle_len;
	return true;
}

bool rr_rpc_decode_call(struct rr_cursor *c, struct rr_rpc_call *out)
{
	uint32_t msg_type;
	struct rr_cursor cred, verf;

	memset(out, 0, sizeof(*out));
	if (!rr_xdr_u32(c, &out->xid) || !rr_xdr_u32(c, &msg_type))
		return false;
	if (msg_type != RR_RPC_CALL)
		return false;
	if (!rr_xdr_u32(c, &out->rpcvers))
		return false;
	if (out->rpcvers != RPC_VERSION)
		return false;   /* the rest of the header is version 2's */
	if (!rr_xdr_u32(c, &out->prog) || !rr_xdr_u32(c, &out->vers) ||
	    !rr_xdr_u32(c, &out->proc))
		return false;
	if (!get_auth(c, &out->cred_flavor, &cred))
		return false;
	out->cred_len = (uint32_t)cred.len;
	if (out->cred_flavor == RR_AUTH_GSS) {
		out->is_gss = true;
		if (!parse_gss_cred(&cred, out))
			return false;
	}
	if (!get_auth(c, &out->verf_flavor, &verf))
		return false;
	out->args_off = rr_cursor_pos(c);
	return true;
}

bool rr_rpc_decode_reply(struct rr_cursor *c, struct rr_rpc_reply *out)
{
	uint32_t msg_type;
	struct rr_cursor verf;

	memset(out, 0, sizeof(*out));
	if (!rr_xdr_u32(c, &out->xid) || !rr_xdr_u32(c, &msg_type))
		return false;
	if (msg_type != RR_RPC_REPLY)
		return false;
	if (!rr_xdr_u32(c, &out->reply_stat))
		return false;
	switch (out->reply_stat) {
	case RR_MSG_ACCEPTED:
		if (!get_auth(c, &out->verf_flavor, &verf) || !rr_xdr_u32(c, &out->accept_stat))
			return false;
		if (out->accept_stat == RR_ACCEPT_PROG_MISMATCH &&
		    (!rr_xdr_u32(c, &out->mismatch_low) || !rr_xdr_u32(c, &out->mismatch_high)))
			return false;
		/* SUCCESS: results follow; any other accept_stat: void. */
		break;
	case RR_MSG_DENIED:
		if (!rr_xdr_u32(c, &out->reject_stat))
			return false;
		switch (out->reject_stat) {
		case RR_REJECT_RPC_MISMATCH:
			if (!rr_xdr_u32(c, &out->mismatch_low) || !rr_xdr_u32(c, &out->mismatch_high))
				return false;
			break;
		case RR_REJECT_AUTH_ERROR:
			if (!rr_xdr_u32(c, &out->auth_stat))
				return false;
			break;
		default:
			return false;   /* rejected_reply has no default arm */
		}
		break;
	default:
		return false;
	}
	out->res_off = rr_cursor_pos(c);
	return true;
}

const char *rr_rpc_program_name(uint32_t prog)
{
	switch (prog) {
	case 100000: return "PORTMAP";
	case 100001: return "RSTAT";
	case 100002: return "RUSERS";
	case 100003: return "NFS";
	case 100004: return "YPSERV";
	case 100005: return "MOUNT";
	case 100007: return "YPBIND";
	case 100011: return "RQUOTA";
	case 100021: return "NLM";
	case 100024: return "NSM";
	case 100227: return "NFSACL";
	case RR_NFS4_CB_PROGRAM: return "NFS4_CB";
	default: return NULL;
	}
}
