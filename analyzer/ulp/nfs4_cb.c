// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4_cb.c - skip the arguments and results of NFSv4 callback ops
 * (CB_COMPOUND of the NFS4_CALLBACK program, RFC 7530 17.2, 18; RFC 8881 19.2, 20;
 * RFC 7862 16).  Nothing in the callback program is DDP-eligible
 * (RFC 8267 6.5.1, 6.5.2); the walker only lists the ops.
 */
#include "ulp_internal.h"

/* union layoutrecall4 switch (layoutrecall_type4); no default arm */
static bool skip_layoutrecall(struct rr_cursor *c)
{
	uint32_t type;

	if (!ulp_u32(c, &type))
		return false;
	switch (type) {
	case 1:   /* FILE: layoutrecall_file4 { nfs_fh4; offset4; length4; stateid4; } */
		return nfs4_skip_fh(c) && rr_skip(c, 16) && nfs4_skip_stateid(c);
	case 2:   /* FSID: fsid4 { major; minor; } */
		return rr_skip(c, 16);
	case 3:   /* ALL */
		return true;
	default:
		return false;
	}
}

/* notify4 x<>: { bitmap4 notify_mask; notifylist4 notify_vals (opaque<>); } */
static bool skip_notify_array(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 8, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!nfs4_skip_bitmap(c) || !ulp_skip_opaque(c))
			return false;
	return true;
}

/* referring_call_list4 x<>: { sessionid4; referring_call4 { sequenceid4; slotid4; } calls<>; } */
static bool skip_referring_call_lists(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, NFS4_SESSIONID_SIZE + 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!rr_skip(c, NFS4_SESSIONID_SIZE) || !ulp_skip_fixed_array(c, 8, 0))
			return false;
	return true;
}

/* union offload_info4 switch (nfsstat4): NFS4_OK: write_response4; default: length4 */
static bool skip_offload_info(struct rr_cursor *c)
{
	uint32_t st;

	if (!ulp_u32(c, &st))
		return false;
	if (st == NFS4_OK)
		return nfs4_skip_write_response(c);
	return rr_skip(c, 8);
}

static bool skip_cb_args(struct ulp_walk *w, uint32_t op, bool *known)
{
	struct rr_cursor *c = w->c;
	bool b;

	*known = true;
	switch (op) {
	case 3:   /* CB_GETATTR { nfs_fh4; bitmap4; } */
		return nfs4_skip_fh(c) && nfs4_skip_bitmap(c);
	case 4:   /* CB_RECALL { stateid4; bool truncate; nfs_fh4; } */
		return nfs4_skip_stateid(c) && ulp_bool(c, &b) && nfs4_skip_fh(c);
	case 5:   /* CB_LAYOUTRECALL { layouttype4; iomode; bool changed; layoutrecall4; } */
		return rr_skip(c, 8) && ulp_bool(c, &b) && skip_layoutrecall(c);
	case 6:   /* CB_NOTIFY { stateid4; nfs_fh4; notify4 changes<>; } */
		return nfs4_skip_stateid(c) && nfs4_skip_fh(c) && skip_notify_array(c);
	case 7:   /* CB_PUSH_DELEG { nfs_fh4; open_delegation4; } */
		return nfs4_skip_fh(c) && nfs4_skip_open_delegation(w);
	case 8:   /* CB_RECALL_ANY { objects_to_keep; bitmap4 type_mask; } */
	case 9:   /* CB_RECALLABLE_OBJ_AVAIL: same arguments */
		return rr_skip(c, 4) && nfs4_skip_bitmap(c);
	case 10:  /* CB_RECALL_SLOT { slotid4; } */
		return rr_skip(c, 4);
	case 11:  /* CB_SEQUENCE { sessionid4; sequenceid4; slotid4; highest_slotid;
		   *               bool cachethis; referring_call_list4 lists<>; } */
		return rr_skip(c, NFS4_SESSIONID_SIZE + 12) && ulp_bool(c, &b) &&
		       skip_referring_call_lists(c);
	case 12:  /* CB_WANTS_CANCELLED { bool; bool; } */
		return ulp_bool(c, &b) && ulp_bool(c, &b);
	case 13:  /* CB_NOTIFY_LOCK { nfs_fh4; lock_owner4; } */
		return nfs4_skip_fh(c) && nfs4_skip_state_owner(c);
	case 14:  /* CB_NOTIFY_DEVICEID { notify4 changes<>; } */
		return skip_notify_array(c);
	case 15:  /* CB_OFFLOAD { nfs_fh4; stateid4; offload_info4; } */
		return nfs4_skip_fh(c) && nfs4_skip_stateid(c) && skip_offload_info(c);
	case RR_NFS4_OP_ILLEGAL:   /* CB_ILLEGAL: void */
		return true;
	default:
		*known = false;
		return false;
	}
}

static bool skip_cb_res(struct rr_cursor *c, uint32_t op, uint32_t st, bool *known)
{
	*known = true;
	switch (op) {
	case 3:   /* CB_GETATTR4resok { fattr4; } */
		return st != NFS4_OK || nfs4_skip_fattr(c);
	case 11:  /* CB_SEQUENCE4resok { sessionid4; sequenceid4; slotid4 x3; } */
		return st != NFS4_OK || rr_skip(c, NFS4_SESSIONID_SIZE + 16);
	case 4:
	case 5:
	case 6:
	case 7:
	case 8:
	case 9:
	case 10:
	case 12:
	case 13:
	case 14:
	case 15:
	case RR_NFS4_OP_ILLEGAL:
		return true;   /* the status only */
	default:
		*known = false;
		return false;
	}
}

enum rr_ulp_result nfs4_cb_skip_args(struct ulp_walk *w, uint32_t op)
{
	bool known;

	w->cur_op = op;
	if (skip_cb_args(w, op, &known))
		return RR_ULP_OK;
	if (!known)
		ulp_unknown(w, "NFSv4 callback op", op);
	return ulp_stop(w, known);
}

enum rr_ulp_result nfs4_cb_skip_res(struct ulp_walk *w, uint32_t op, uint32_t status)
{
	bool known;

	w->cur_op = op;
	if (skip_cb_res(w->c, op, status, &known))
		return RR_ULP_OK;
	if (!known)
		ulp_unknown(w, "NFSv4 callback op", op);
	return ulp_stop(w, known);
}
