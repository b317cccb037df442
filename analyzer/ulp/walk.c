// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * walk.c - rr_ulp_walk_call() and rr_ulp_walk_reply(): pick the walker of
 * the program and version, and deal with RPCSEC_GSS (RFC 2203 5.3.2).
 *
 * RPCSEC_GSS:
 *  - gss_proc INIT, CONTINUE_INIT, DESTROY: the body is GSS protocol
 *    material, never reduced (RR-151); nothing is walked, RR_ULP_OK.
 *  - DATA with service none: arguments and results are plain.
 *  - DATA with service integrity: rpc_gss_integ_data { opaque
 *    databody_integ<>; opaque checksum<>; }, databody_integ being
 *    { unsigned seq_num; args or results }.  No reduction is allowed
 *    (RFC 8166 8.2.2.3 / draft-ietf-nfsv4-rfc5666bis-04 10.2.2.3: "no data
 *    item is DDP-eligible"), so the body is walked inside its own bounds
 *    to list the procedure or ops, and items are skipped inline without
 *    being reported to fn.
 *  - DATA with service privacy: the body is encrypted.  Nothing is
 *    eligible, so the walk ends with RR_ULP_OK and ops_truncated set
 *    (the op list could not be seen).
 */
#include <string.h>

#include "ulp_internal.h"

enum prog_kind { PROG_NONE, PROG_NFS2, PROG_NFS3, PROG_NFS4, PROG_NFS4_CB, PROG_AUX };

static enum prog_kind classify(uint32_t prog, uint32_t vers)
{
	if (prog == RR_NFS_PROGRAM) {
		switch (vers) {
		case 2: return PROG_NFS2;
		case 3: return PROG_NFS3;
		case 4: return PROG_NFS4;
		default: return PROG_NONE;
		}
	}
	if (prog == RR_NFS4_CB_PROGRAM && vers == 1)
		return PROG_NFS4_CB;
	if (aux_program_known(prog, vers))
		return PROG_AUX;
	return PROG_NONE;
}

static enum rr_ulp_result dispatch(struct ulp_walk *w, enum prog_kind kind, bool call)
{
	const struct rr_ulp_info *info = w->info;

	switch (kind) {
	case PROG_NFS2:
		return call ? nfs2_walk_call(w, info->proc) : nfs2_walk_reply(w, info->proc);
	case PROG_NFS3:
		return call ? nfs3_walk_call(w, info->proc) : nfs3_walk_reply(w, info->proc);
	case PROG_NFS4:
		return call ? nfs4_walk_call(w, info->proc) : nfs4_walk_reply(w, info->proc);
	case PROG_NFS4_CB:
		return call ? nfs4_cb_walk_call(w, info->proc) : nfs4_cb_walk_reply(w, info->proc);
	case PROG_AUX:
		if (call)
			return RR_ULP_OK;   /* nothing eligible; the name is all */
		return aux_walk_reply(w, info->prog, info->vers, info->proc);
	case PROG_NONE:
		break;
	}
	return RR_ULP_UNKNOWN_PROGRAM;
}

/* The body under RPCSEC_GSS integrity: walk it inside its own bounds. */
static enum rr_ulp_result walk_integ(struct ulp_walk *outer, enum prog_kind kind, bool call)
{
	struct rr_cursor *c = outer->c;
	struct rr_cursor body;
	struct ulp_walk w;
	uint32_t len, seq;
	enum rr_ulp_result r;

	if (!ulp_u32(c, &len) || !rr_cursor_sub(c, len, &body) || !rr_skip(c, rr_xdr_pad(len)))
		return RR_ULP_MALFORMED;
	if (!ulp_u32(&body, &seq))
		return RR_ULP_MALFORMED;
	ulp_walk_init(&w, &body, NULL, NULL, outer->info);
	w.no_reduction = true;
	w.afn = outer->afn;
	w.actx = outer->actx;
	r = dispatch(&w, kind, call);
	if (r != RR_ULP_OK)
		return r;
	return ulp_skip_opaque(c) ? RR_ULP_OK : RR_ULP_MALFORMED;   /* checksum<> */
}

/* The stop item names where a malformed walk broke; any other end leaves none. */
static enum rr_ulp_result walk_end(struct ulp_walk *w, enum rr_ulp_result r)
{
	if (r != RR_ULP_MALFORMED)
		memset(&w->info->stop_item, 0, sizeof(w->info->stop_item));
	return r;
}

static enum rr_ulp_result walk_body(struct ulp_walk *w, bool call)
{
	struct rr_ulp_info *info = w->info;
	enum prog_kind kind = classify(info->prog, info->vers);

	if (kind == PROG_NONE)
		return RR_ULP_UNKNOWN_PROGRAM;
	if (!info->is_gss || info->proc == 0)
		return dispatch(w, kind, call);
	if (info->gss_proc != RR_GSS_PROC_DATA)
		return RR_ULP_OK;   /* context creation or destruction: no ULP body */
	switch (info->gss_service) {
	case RR_GSS_SVC_NONE:
		return dispatch(w, kind, call);
	case RR_GSS_SVC_INTEGRITY:
		return walk_integ(w, kind, call);
	case RR_GSS_SVC_PRIVACY:
		info->ops_truncated = true;
		return RR_ULP_OK;
	default:
		return RR_ULP_MALFORMED;   /* rpc_gss_service_t has no other value */
	}
}

static enum rr_ulp_result walk_call(const struct rr_rpc_call *call, struct rr_cursor *args,
				    rr_ddp_fn fn, void *ctx, rr_ulp_args_fn afn, void *actx,
				    struct rr_ulp_info *info)
{
	struct ulp_walk w;

	memset(info, 0, sizeof(*info));
	info->prog = call->prog;
	info->vers = call->vers;
	info->proc = call->proc;
	info->is_gss = call->is_gss;
	if (call->is_gss) {
		info->gss_proc = call->gss_proc;
		info->gss_service = call->gss_service;
	}
	ulp_walk_init(&w, args, fn, ctx, info);
	w.afn = afn;
	w.actx = actx;
	return walk_end(&w, walk_body(&w, true));
}

enum rr_ulp_result rr_ulp_walk_call(const struct rr_rpc_call *call, struct rr_cursor *args,
				    rr_ddp_fn fn, void *ctx, struct rr_ulp_info *info)
{
	return walk_call(call, args, fn, ctx, NULL, NULL, info);
}

enum rr_ulp_result rr_ulp_walk_call_args(const struct rr_rpc_call *call, struct rr_cursor *args,
					 rr_ulp_args_fn afn, void *actx, struct rr_ulp_info *info)
{
	return walk_call(call, args, NULL, NULL, afn, actx, info);
}

enum rr_ulp_result rr_ulp_walk_reply(const struct rr_ulp_info *callinfo,
				     const struct rr_rpc_reply *reply, struct rr_cursor *res,
				     rr_ddp_fn fn, void *ctx, struct rr_ulp_info *out)
{
	struct ulp_walk w;
	uint32_t prog = callinfo->prog, vers = callinfo->vers, proc = callinfo->proc;
	uint32_t minor = callinfo->minorversion;
	uint32_t gss_proc = callinfo->gss_proc, gss_service = callinfo->gss_service;
	bool is_gss = callinfo->is_gss;

	/* out may be callinfo itself: everything needed was copied above. */
	memset(out, 0, sizeof(*out));
	out->prog = prog;
	out->vers = vers;
	out->proc = proc;
	out->minorversion = minor;
	out->is_gss = is_gss;
	out->gss_proc = gss_proc;
	out->gss_service = gss_service;
	if (classify(prog, vers) == PROG_NONE)
		return RR_ULP_UNKNOWN_PROGRAM;
	if (reply && (reply->reply_stat != RR_MSG_ACCEPTED ||
		      reply->accept_stat != RR_ACCEPT_SUCCESS))
		return RR_ULP_OK;   /* no results follow the header */
	ulp_walk_init(&w, res, fn, ctx, out);
	return walk_end(&w, walk_body(&w, false));
}
