// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4.c - NFSv4 COMPOUND (program 100003 version 4) and CB_COMPOUND
 * (NFSv4 callback program) walkers.
 *
 *   COMPOUND4args    { utf8str_cs tag; uint32_t minorversion; nfs_argop4 argarray<>; }
 *   COMPOUND4res     { nfsstat4 status; utf8str_cs tag; nfs_resop4 resarray<>; }
 *   CB_COMPOUND4args { utf8str_cs tag; uint32_t minorversion; uint32_t callback_ident;
 *                      nfs_cb_argop4 argarray<>; }
 *   CB_COMPOUND4res  { nfsstat4 status; utf8str_cs tag; nfs_cb_resop4 resarray<>; }
 *
 * Every nfs_resop4 arm begins with the op's nfsstat4, so the walker reads
 * opnum and status and hands the rest to the op's result skipper.
 *
 * Ordinals of eligible items (RFC 8267 6.4.1):
 *
 *   Calls: an NFSv4 client "provides XDR Position values in each Read chunk
 *   to disambiguate which chunk is associated with which argument data
 *   item", so argument items need no pairing rule; their ordinal is simply
 *   the count of eligible argument items (WRITE data, CREATE NF4LNK
 *   linkdata) before them in the COMPOUND.
 *
 *   Replies: "In the following list, a 'READ operation' refers to any NFS
 *   version 4 operation that has a DDP-eligible result data item." ...
 *   "The first chunk in the Write list MUST be used by the first READ
 *   operation in an NFS version 4 COMPOUND procedure.  The next Write chunk
 *   is used by the next READ operation, and so on." ... "If a READ
 *   operation returns a union arm that does not contain a DDP-eligible
 *   result, and the NFS version 4 client has provided a matching non-empty
 *   Write chunk, an NFS version 4 server MUST return an empty Write chunk
 *   in that Write list position."
 *
 *   So the class is the ops whose result type has an eligible item: READ
 *   (READ4resok data) and READLINK (READLINK4resok link) -- RFC 8267 6.1
 *   lists no other, so READ_PLUS, GETXATTR, READDIR etc. do not count.
 *   Pairing is by the op's position in the request; the reply's resarray
 *   is the executed prefix of the request's argarray, in the same order,
 *   so counting READ-class resops in the reply gives the same index.  An
 *   op that returned an error arm still takes its position (the last
 *   bullet above makes its chunk come back empty), so the ordinal of a
 *   READ or READLINK result is the number of READ and READLINK resops
 *   before it, whatever their status.  The 6.4.3 example (READ, READLINK,
 *   READ paired with chunks A, B, C) is exactly this count.
 */
#include "ulp_internal.h"

#define NFSPROC4_NULL 0u
#define NFSPROC4_COMPOUND 1u

static enum rr_ulp_result walk_call_ops(struct ulp_walk *w, bool cb)
{
	struct rr_ulp_info *info = w->info;
	uint32_t n, op;
	enum rr_ulp_result r;

	if (!ulp_count(w->c, 4, &n) || n > ULP_MAX_COMPOUND_OPS) {
		info->ops_truncated = true;
		return RR_ULP_MALFORMED;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!ulp_u32(w->c, &op)) {
			info->ops_truncated = true;
			return RR_ULP_MALFORMED;
		}
		ulp_note_op(info, op);
		if (!cb && nfs4_op_is_read_class(op))
			info->n_ddp_capable++;
		ulp_args_begin(w, op);
		r = cb ? nfs4_cb_skip_args(w, op) : nfs4_skip_args(w, op);
		if (r != RR_ULP_OK) {
			info->ops_truncated = true;
			return r;
		}
		if (!cb)
			ulp_args_end(w);
	}
	return RR_ULP_OK;
}

static enum rr_ulp_result walk_reply_ops(struct ulp_walk *w, bool cb)
{
	struct rr_ulp_info *info = w->info;
	uint32_t n, op, st;
	enum rr_ulp_result r;

	if (!ulp_count(w->c, 8, &n) || n > ULP_MAX_COMPOUND_OPS) {
		info->ops_truncated = true;
		return RR_ULP_MALFORMED;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!ulp_u32(w->c, &op) || !ulp_u32(w->c, &st)) {
			info->ops_truncated = true;
			return RR_ULP_MALFORMED;
		}
		ulp_note_op(info, op);
		w->cur_ordinal = w->read_ops;
		if (!cb && nfs4_op_is_read_class(op)) {
			w->read_ops++;
			info->n_ddp_capable++;
		}
		r = cb ? nfs4_cb_skip_res(w, op, st) : nfs4_skip_res(w, op, st);
		if (r != RR_ULP_OK) {
			info->ops_truncated = true;
			return r;
		}
	}
	return RR_ULP_OK;
}

static enum rr_ulp_result walk_compound_call(struct ulp_walk *w, bool cb)
{
	if (!ulp_skip_opaque(w->c) || !ulp_u32(w->c, &w->info->minorversion))
		return RR_ULP_MALFORMED;
	if (cb && !rr_skip(w->c, 4))   /* callback_ident */
		return RR_ULP_MALFORMED;
	return walk_call_ops(w, cb);
}

static enum rr_ulp_result walk_compound_reply(struct ulp_walk *w, bool cb)
{
	if (!ulp_u32(w->c, &w->info->status) || !ulp_skip_opaque(w->c))
		return RR_ULP_MALFORMED;
	return walk_reply_ops(w, cb);
}

enum rr_ulp_result nfs4_walk_call(struct ulp_walk *w, uint32_t proc)
{
	switch (proc) {
	case NFSPROC4_NULL:
		return RR_ULP_OK;
	case NFSPROC4_COMPOUND:
		return walk_compound_call(w, false);
	default:
		return RR_ULP_UNSUPPORTED;
	}
}

enum rr_ulp_result nfs4_walk_reply(struct ulp_walk *w, uint32_t proc)
{
	switch (proc) {
	case NFSPROC4_NULL:
		return RR_ULP_OK;
	case NFSPROC4_COMPOUND:
		return walk_compound_reply(w, false);
	default:
		return RR_ULP_UNSUPPORTED;
	}
}

enum rr_ulp_result nfs4_cb_walk_call(struct ulp_walk *w, uint32_t proc)
{
	switch (proc) {
	case 0:   /* CB_NULL */
		return RR_ULP_OK;
	case 1:   /* CB_COMPOUND */
		return walk_compound_call(w, true);
	default:
		return RR_ULP_UNSUPPORTED;
	}
}

enum rr_ulp_result nfs4_cb_walk_reply(struct ulp_walk *w, uint32_t proc)
{
	switch (proc) {
	case 0:
		return RR_ULP_OK;
	case 1:
		return walk_compound_reply(w, true);
	default:
		return RR_ULP_UNSUPPORTED;
	}
}
