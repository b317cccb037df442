// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4_args.c - skip the arguments of one NFSv4 COMPOUND op (nfs_argop4
 * after its argop word), NFSv4.0 (RFC 7530), 4.1 (RFC 8881), 4.2 (RFC 7862)
 * and the extended attribute ops of RFC 8276.
 *
 * DDP-eligible arguments (RFC 8267 6.1): the opaque data of WRITE4args and
 * the linkdata of the NF4LNK arm of createtype4 (CREATE).  Their ordinal is
 * the count of eligible argument items before them in the COMPOUND.
 *
 * What a responder acts on is kept in w->args as it is read (PUTFH's
 * handle, LOOKUP's and CREATE's names, READ's and WRITE's offsets, the
 * eligible item, SEQUENCE's session id and sequence id) for
 * rr_ulp_walk_call_args.
 */
#include "ulp_internal.h"

#define NF4BLK 3u
#define NF4CHR 4u
#define NF4LNK 5u

/* union createtype4 switch (nfs_ftype4 type) */
static bool skip_createtype(struct ulp_walk *w)
{
	uint32_t type;

	if (!ulp_u32(w->c, &type))
		return false;
	switch (type) {
	case NF4LNK:   /* linktext4 linkdata: DDP-eligible */
		return ulp_ddp_item(w, w->arg_items++, RR_NFS4_OP_CREATE, UINT32_MAX);
	case NF4BLK:
	case NF4CHR:   /* specdata4 devdata */
		return rr_skip(w->c, 8);
	default:       /* NF4SOCK, NF4FIFO, NF4DIR: void; others: void (NFS4ERR_BADTYPE) */
		return true;
	}
}

/* union locker4 switch (bool new_lock_owner) */
static bool skip_locker(struct rr_cursor *c)
{
	bool new_owner;

	if (!ulp_bool(c, &new_owner))
		return false;
	if (new_owner)   /* open_to_lock_owner4 { seqid4; stateid4; seqid4; lock_owner4; } */
		return rr_skip(c, 4) && nfs4_skip_stateid(c) && rr_skip(c, 4) &&
		       nfs4_skip_state_owner(c);
	/* exist_lock_owner4 { stateid4 lock_stateid; seqid4 lock_seqid; } */
	return nfs4_skip_stateid(c) && rr_skip(c, 4);
}

/* union openflag4 switch (opentype4): OPEN4_CREATE 1: createhow4; default: void */
static bool skip_openflag(struct ulp_walk *w)
{
	struct rr_cursor *c = w->c;
	uint32_t opentype, mode;

	if (!ulp_u32(c, &opentype))
		return false;
	if (opentype != 1)
		return true;
	if (!ulp_u32(c, &mode))
		return false;
	switch (mode) {
	case 0:   /* UNCHECKED4 */
	case 1:   /* GUARDED4: fattr4 createattrs */
		return nfs4_skip_fattr(c);
	case 2:   /* EXCLUSIVE4: verifier4 */
		return rr_skip(c, NFS4_VERIFIER_SIZE);
	case 3:   /* EXCLUSIVE4_1: creatverfattr { verifier4; fattr4; } */
		return rr_skip(c, NFS4_VERIFIER_SIZE) && nfs4_skip_fattr(c);
	default:
		return ulp_unknown(w, "createmode4", mode);
	}
}

/* union open_claim4 switch (open_claim_type4 claim); no default arm */
static bool skip_open_claim(struct ulp_walk *w)
{
	struct rr_cursor *c = w->c;
	uint32_t claim;

	if (!ulp_u32(c, &claim))
		return false;
	switch (claim) {
	case 0:   /* CLAIM_NULL: component4 file */
	case 3:   /* CLAIM_DELEGATE_PREV: component4 file_delegate_prev */
		return ulp_skip_opaque(c);
	case 1:   /* CLAIM_PREVIOUS: open_delegation_type4 */
		return rr_skip(c, 4);
	case 2:   /* CLAIM_DELEGATE_CUR: open_claim_delegate_cur4 { stateid4; component4; } */
		return nfs4_skip_stateid(c) && ulp_skip_opaque(c);
	case 4:   /* CLAIM_FH */
	case 6:   /* CLAIM_DELEG_PREV_FH */
		return true;
	case 5:   /* CLAIM_DELEG_CUR_FH: stateid4 */
		return nfs4_skip_stateid(c);
	default:
		return ulp_unknown(w, "open_claim4 type", claim);
	}
}

/* union state_protect4_a switch (state_protect_how4 spa_how) */
static bool skip_state_protect_a(struct rr_cursor *c)
{
	uint32_t how;

	if (!ulp_u32(c, &how))
		return false;
	switch (how) {
	case 0:   /* SP4_NONE */
		return true;
	case 1:   /* SP4_MACH_CRED: state_protect_ops4 */
		return nfs4_skip_state_protect_ops(c);
	case 2:   /* SP4_SSV: ssv_sp_parms4 { ops; sec_oid4 hash<>; sec_oid4 encr<>; window; n_handles; } */
		return nfs4_skip_state_protect_ops(c) && ulp_skip_opaque_array(c) &&
		       ulp_skip_opaque_array(c) && rr_skip(c, 8);
	default:
		return false;
	}
}

/* callback_sec_parms4 x<> */
static bool skip_cb_sec_parms_array(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!nfs4_skip_callback_sec_parms(c))
			return false;
	return true;
}

/* union newoffset4 / newsize4 switch (bool): TRUE: 8 octets */
static bool skip_opt_u64(struct rr_cursor *c)
{
	bool present;

	return ulp_bool(c, &present) && (!present || rr_skip(c, 8));
}

/* union newtime4 switch (bool): TRUE: nfstime4 (12 octets) */
static bool skip_opt_time(struct rr_cursor *c)
{
	bool present;

	return ulp_bool(c, &present) && (!present || rr_skip(c, 12));
}

/* union layoutreturn4 switch (layoutreturn_type4): FILE 1: layoutreturn_file4; default: void */
static bool skip_layoutreturn(struct rr_cursor *c)
{
	uint32_t type;

	if (!ulp_u32(c, &type))
		return false;
	if (type != 1)
		return true;
	/* { offset4; length4; stateid4; opaque lrf_body<>; } */
	return rr_skip(c, 16) && nfs4_skip_stateid(c) && ulp_skip_opaque(c);
}

/* union deleg_claim4 switch (open_claim_type4): CLAIM_FH 4, CLAIM_DELEG_PREV_FH 6: void;
 * CLAIM_PREVIOUS 1: open_delegation_type4.  No default arm. */
static bool skip_deleg_claim(struct rr_cursor *c)
{
	uint32_t claim;

	if (!ulp_u32(c, &claim))
		return false;
	switch (claim) {
	case 4:
	case 6:
		return true;
	case 1:
		return rr_skip(c, 4);
	default:
		return false;
	}
}

/* netloc4 x<> */
static bool skip_netloc_array(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!nfs4_skip_netloc(c))
			return false;
	return true;
}

/*
 * struct app_data_block4 { offset4; length4 block_size; length4 block_count;
 *   length4 reloff_blocknum; count4 block_num; length4 reloff_pattern; opaque pattern<>; }
 */
static bool skip_app_data_block(struct rr_cursor *c)
{
	return rr_skip(c, 8 * 4 + 4 + 8) && ulp_skip_opaque(c);
}

/* GETATTR's attr_request: its first three words OR'ed into info->getattr_mask. */
static bool read_getattr_mask(struct ulp_walk *w)
{
	uint32_t n, word;

	if (!ulp_count(w->c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		if (!ulp_u32(w->c, &word))
			return false;
		if (i < 3)
			w->info->getattr_mask[i] |= word;
	}
	return true;
}

/* CREATE_SESSION4args up to csa_back_chan_attrs: client id, sequence id, flags and
 * channel sizes into info->sess (RFC 8881 18.36.1). */
static bool read_create_session(struct ulp_walk *w)
{
	struct rr_ulp_session *s = &w->info->sess;
	uint32_t back_slots;

	s->create_session = true;
	return rr_get_be64(w->c, &s->clientid) && ulp_u32(w->c, &s->sequenceid) &&
	       ulp_u32(w->c, &s->cs_flags) &&
	       nfs4_read_channel_attrs(w->c, &s->fore_maxrequest, &s->fore_maxresponse,
				       &s->fore_maxrequests) &&
	       nfs4_read_channel_attrs(w->c, &s->back_maxrequest, &s->back_maxresponse, &back_slots);
}

/*
 * Read the op's offset (when has_offset) and count arguments into ulp.h
 * op_offset/op_count (ulp_note_op() has recorded the op already).
 */
static bool read_op_count(struct ulp_walk *w, bool has_offset)
{
	uint64_t offset = 0;
	uint32_t count;
	uint16_t i = w->info->n_ops;

	if ((has_offset && !rr_get_be64(w->c, &offset)) || !ulp_u32(w->c, &count))
		return false;
	w->args.offset = offset;
	if (i > 0 && i <= RR_ULP_MAX_OPS && !w->info->ops_truncated) {
		w->info->op_count[i - 1] = count;
		w->info->op_offset[i - 1] = offset;
	}
	return true;
}

/* The ops of NFSv4.0 (RFC 7530), 3 to 39, and OP_ILLEGAL. */
static bool skip_args_v40(struct ulp_walk *w, uint32_t op, bool *known)
{
	struct rr_cursor *c = w->c;
	bool b;

	switch (op) {
	case 3:   /* ACCESS { uint32_t access; } */
		return rr_skip(c, 4);
	case 4:   /* CLOSE { seqid4; stateid4; } */
		return rr_skip(c, 4) && nfs4_skip_stateid(c);
	case 5:   /* COMMIT { offset4; count4; } */
		return rr_skip(c, 12);
	case 6:   /* CREATE { createtype4 objtype; component4 objname; fattr4 createattrs; } */
		return skip_createtype(w) &&
		       rr_xdr_opaque(c, UINT32_MAX, &w->args.name, &w->args.name_len) &&
		       nfs4_skip_fattr(c);
	case 7:   /* DELEGPURGE { clientid4; } */
		return rr_skip(c, 8);
	case 8:   /* DELEGRETURN { stateid4; } */
		return nfs4_skip_stateid(c);
	case 9:   /* GETATTR { bitmap4 attr_request; } */
		return read_getattr_mask(w);
	case 10:  /* GETFH: void */
		return true;
	case 11:  /* LINK { component4 newname; } */
		return ulp_skip_opaque(c);
	case 12:  /* LOCK { locktype; bool reclaim; offset4; length4; locker4; } */
		return rr_skip(c, 4) && ulp_bool(c, &b) && rr_skip(c, 16) && skip_locker(c);
	case 13:  /* LOCKT { locktype; offset4; length4; lock_owner4; } */
		return rr_skip(c, 20) && nfs4_skip_state_owner(c);
	case 14:  /* LOCKU { locktype; seqid4; stateid4; offset4; length4; } */
		return rr_skip(c, 8) && nfs4_skip_stateid(c) && rr_skip(c, 16);
	case 15:  /* LOOKUP { component4 objname; } */
		return rr_xdr_opaque(c, UINT32_MAX, &w->args.name, &w->args.name_len);
	case 16:  /* LOOKUPP: void */
		return true;
	case 17:  /* NVERIFY { fattr4; } */
		return nfs4_skip_fattr(c);
	case 18:  /* OPEN { seqid4; share_access; share_deny; open_owner4; openflag4; open_claim4; }
		   * share_access is one word whatever WANT flags it carries (RFC 8881
		   * OPEN4_SHARE_ACCESS_WANT_*, RFC 9754 WANT_DELEG_TIMESTAMPS 0x100000 and
		   * WANT_OPEN_XOR_DELEGATION 0x200000). */
		return rr_skip(c, 12) && nfs4_skip_state_owner(c) && skip_openflag(w) &&
		       skip_open_claim(w);
	case 19:  /* OPENATTR { bool createdir; } */
		return ulp_bool(c, &b);
	case 20:  /* OPEN_CONFIRM { stateid4; seqid4; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 4);
	case 21:  /* OPEN_DOWNGRADE { stateid4; seqid4; share_access; share_deny; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 12);
	case 22:  /* PUTFH { nfs_fh4; } */
		return rr_xdr_opaque(c, NFS4_FHSIZE, &w->args.fh, &w->args.fh_len);
	case 23:  /* PUTPUBFH: void */
	case 24:  /* PUTROOTFH: void */
		return true;
	case 25:  /* READ { stateid4; offset4; count4; } */
		return nfs4_skip_stateid(c) && read_op_count(w, true);
	case 26:  /* READDIR { cookie4; verifier4; dircount; maxcount; bitmap4; } */
		return rr_skip(c, 8 + NFS4_VERIFIER_SIZE + 4) && read_op_count(w, false) &&
		       nfs4_skip_bitmap(c);
	case 27:  /* READLINK: void */
		return true;
	case 28:  /* REMOVE { component4 target; } */
		return ulp_skip_opaque(c);
	case 29:  /* RENAME { component4 oldname; component4 newname; } */
		return ulp_skip_opaque(c) && ulp_skip_opaque(c);
	case 30:  /* RENEW { clientid4; } */
		return rr_skip(c, 8);
	case 31:  /* RESTOREFH: void */
	case 32:  /* SAVEFH: void */
		return true;
	case 33:  /* SECINFO { component4 name; } */
		return ulp_skip_opaque(c);
	case 34:  /* SETATTR { stateid4; fattr4; } */
		return nfs4_skip_stateid(c) && nfs4_skip_fattr(c);
	case 35:  /* SETCLIENTID { nfs_client_id4 { verifier4; opaque id<1024>; };
		   *               cb_client4 { cb_program; netaddr4; }; callback_ident; } */
		return rr_skip(c, NFS4_VERIFIER_SIZE) && ulp_skip_opaque_max(c, NFS4_OPAQUE_LIMIT) &&
		       rr_skip(c, 4) && nfs4_skip_netaddr(c) && rr_skip(c, 4);
	case 36:  /* SETCLIENTID_CONFIRM { clientid4; verifier4; } */
		return rr_skip(c, 8 + NFS4_VERIFIER_SIZE);
	case 37:  /* VERIFY { fattr4; } */
		return nfs4_skip_fattr(c);
	case 38:  /* WRITE { stateid4; offset4; stable_how4; opaque data<>; }: data is DDP-eligible */
		return nfs4_skip_stateid(c) && rr_get_be64(c, &w->args.offset) && rr_skip(c, 4) &&
		       ulp_ddp_item(w, w->arg_items++, RR_NFS4_OP_WRITE, UINT32_MAX);
	case 39:  /* RELEASE_LOCKOWNER { lock_owner4; } */
		return nfs4_skip_state_owner(c);
	case RR_NFS4_OP_ILLEGAL:  /* void */
		return true;
	default:
		*known = false;
		return false;
	}
}

/* The ops NFSv4.1 adds (RFC 8881), 40 to 58. */
static bool skip_args_v41(struct ulp_walk *w, uint32_t op, bool *known)
{
	struct rr_cursor *c = w->c;
	bool b;

	switch (op) {
	case 40:  /* BACKCHANNEL_CTL { cb_program; callback_sec_parms4 sec_parms<>; } */
		return rr_skip(c, 4) && skip_cb_sec_parms_array(c);
	case 41:  /* BIND_CONN_TO_SESSION { sessionid4; channel_dir_from_client4 dir; bool rdma_mode; } */
		w->info->sess.bind_conn = true;
		return rr_skip(c, NFS4_SESSIONID_SIZE) && ulp_u32(c, &w->info->sess.bind_dir) &&
		       ulp_bool(c, &b);
	case 42:  /* EXCHANGE_ID { client_owner4; flags; state_protect4_a; nfs_impl_id4<1>; } */
		return rr_skip(c, NFS4_VERIFIER_SIZE) && ulp_skip_opaque_max(c, NFS4_OPAQUE_LIMIT) &&
		       rr_skip(c, 4) && skip_state_protect_a(c) && nfs4_skip_nfs_impl_id_opt(c);
	case 43:  /* CREATE_SESSION { clientid4; sequenceid4; flags; channel_attrs4 fore, back;
		   *                  cb_program; callback_sec_parms4 sec_parms<>; } */
		return read_create_session(w) && rr_skip(c, 4) && skip_cb_sec_parms_array(c);
	case 44:  /* DESTROY_SESSION { sessionid4; } */
		return rr_skip(c, NFS4_SESSIONID_SIZE);
	case 45:  /* FREE_STATEID { stateid4; } */
		return nfs4_skip_stateid(c);
	case 46:  /* GET_DIR_DELEGATION { bool; bitmap4; attr_notice4 x2; bitmap4 x2; } */
		return ulp_bool(c, &b) && nfs4_skip_bitmap(c) && rr_skip(c, 24) &&
		       nfs4_skip_bitmap(c) && nfs4_skip_bitmap(c);
	case 47:  /* GETDEVICEINFO { deviceid4; layouttype4; count4 maxcount; bitmap4; } */
		return rr_skip(c, NFS4_DEVICEID_SIZE + 8) && nfs4_skip_bitmap(c);
	case 48:  /* GETDEVICELIST { layouttype4; count4; nfs_cookie4; verifier4; } */
		return rr_skip(c, 8 + 8 + NFS4_VERIFIER_SIZE);
	case 49:  /* LAYOUTCOMMIT { offset4; length4; bool reclaim; stateid4; newoffset4;
		   *                newtime4; layoutupdate4; } */
		return rr_skip(c, 16) && ulp_bool(c, &b) && nfs4_skip_stateid(c) &&
		       skip_opt_u64(c) && skip_opt_time(c) && nfs4_skip_layoutupdate(c);
	case 50:  /* LAYOUTGET { bool; layouttype4; iomode; offset4; length4; minlength;
		   *             stateid4; count4 maxcount; } */
		return ulp_bool(c, &b) && rr_skip(c, 8 + 24) && nfs4_skip_stateid(c) && rr_skip(c, 4);
	case 51:  /* LAYOUTRETURN { bool reclaim; layouttype4; iomode; layoutreturn4; } */
		return ulp_bool(c, &b) && rr_skip(c, 8) && skip_layoutreturn(c);
	case 52:  /* SECINFO_NO_NAME: secinfo_style4 */
		return rr_skip(c, 4);
	case 53:  /* SEQUENCE { sessionid4; sequenceid4; slotid4; highest_slotid; bool cachethis; } */
		return rr_get_bytes(c, NFS4_SESSIONID_SIZE, &w->args.sessionid) &&
		       ulp_u32(c, &w->args.seqid) && rr_skip(c, 8) && ulp_bool(c, &b);
	case 54:  /* SET_SSV { opaque ssv<>; opaque digest<>; } */
		return ulp_skip_opaque(c) && ulp_skip_opaque(c);
	case 55:  /* TEST_STATEID { stateid4 ts_stateids<>; } */
		return ulp_skip_fixed_array(c, NFS4_STATEID_SIZE, 0);
	case 56:  /* WANT_DELEGATION { uint32_t want; deleg_claim4; } */
		return rr_skip(c, 4) && skip_deleg_claim(c);
	case 57:  /* DESTROY_CLIENTID { clientid4; } */
		return rr_skip(c, 8);
	case 58:  /* RECLAIM_COMPLETE { bool one_fs; } */
		return ulp_bool(c, &b);
	default:
		*known = false;
		return false;
	}
}

/* The ops NFSv4.2 adds (RFC 7862), 59 to 71, and the extended attribute
 * ops of RFC 8276, 72 to 75. */
static bool skip_args_v42(struct ulp_walk *w, uint32_t op, bool *known)
{
	struct rr_cursor *c = w->c;
	bool b;

	switch (op) {
	case 59:  /* ALLOCATE { stateid4; offset4; length4; } */
	case 62:  /* DEALLOCATE { stateid4; offset4; length4; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 16);
	case 60:  /* COPY { stateid4 src, dst; offset4 src, dst; length4; bool consecutive;
		   *        bool synchronous; netloc4 source_server<>; } */
		return nfs4_skip_stateid(c) && nfs4_skip_stateid(c) && rr_skip(c, 24) &&
		       ulp_bool(c, &b) && ulp_bool(c, &b) && skip_netloc_array(c);
	case 61:  /* COPY_NOTIFY { stateid4; netloc4 destination; } */
		return nfs4_skip_stateid(c) && nfs4_skip_netloc(c);
	case 63:  /* IO_ADVISE { stateid4; offset4; length4; bitmap4 hints; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 16) && nfs4_skip_bitmap(c);
	case 64:  /* LAYOUTERROR { offset4; length4; stateid4;
		   *              device_error4 { deviceid4; nfsstat4; nfs_opnum4; } errors<>; } */
		return rr_skip(c, 16) && nfs4_skip_stateid(c) &&
		       ulp_skip_fixed_array(c, NFS4_DEVICEID_SIZE + 8, 0);
	case 65:  /* LAYOUTSTATS { offset4; length4; stateid4; io_info4 read, write;
		   *              deviceid4; layoutupdate4; } */
		return rr_skip(c, 16) && nfs4_skip_stateid(c) &&
		       rr_skip(c, 32 + NFS4_DEVICEID_SIZE) && nfs4_skip_layoutupdate(c);
	case 66:  /* OFFLOAD_CANCEL { stateid4; } */
	case 67:  /* OFFLOAD_STATUS { stateid4; } */
		return nfs4_skip_stateid(c);
	case 68:  /* READ_PLUS { stateid4; offset4; count4; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 12);
	case 69:  /* SEEK { stateid4; offset4; data_content4 what; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 12);
	case 70:  /* WRITE_SAME { stateid4; stable_how4; app_data_block4; } */
		return nfs4_skip_stateid(c) && rr_skip(c, 4) && skip_app_data_block(c);
	case 71:  /* CLONE { stateid4 src, dst; offset4 src, dst; length4; } */
		return nfs4_skip_stateid(c) && nfs4_skip_stateid(c) && rr_skip(c, 24);
	case 72:  /* GETXATTR { xattrkey4 name; } */
		return ulp_skip_opaque(c);
	case 73:  /* SETXATTR { setxattr_option4; xattrkey4 key; xattrvalue4 value; }
		   * value is not DDP-eligible: RFC 8267 6.1 does not list it, and an
		   * extension is covered only when a standards action extends the
		   * binding (RFC 8267 7), which RFC 8276 does not do. */
		return rr_skip(c, 4) && ulp_skip_opaque(c) && ulp_skip_opaque(c);
	case 74:  /* LISTXATTRS { nfs_cookie4; count4 maxcount; } */
		return rr_skip(c, 12);
	case 75:  /* REMOVEXATTR { xattrkey4 name; } */
		return ulp_skip_opaque(c);
	default:
		*known = false;
		return false;
	}
}

/* Op numbers are allotted by minor version: the op picks the one to read it. */
static bool skip_args(struct ulp_walk *w, uint32_t op, bool *known)
{
	*known = true;
	if (op < 40 || op == RR_NFS4_OP_ILLEGAL)
		return skip_args_v40(w, op, known);
	if (op < 59)
		return skip_args_v41(w, op, known);
	return skip_args_v42(w, op, known);
}

enum rr_ulp_result nfs4_skip_args(struct ulp_walk *w, uint32_t op)
{
	bool known;

	w->cur_op = op;
	if (skip_args(w, op, &known))
		return RR_ULP_OK;
	if (!known)
		ulp_unknown(w, "NFSv4 op", op);
	return ulp_stop(w, known);
}
