// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4_res.c - skip the result of one NFSv4 COMPOUND op (nfs_resop4 after
 * its resop word and its nfsstat4), NFSv4.0/4.1/4.2 and RFC 8276.
 *
 * DDP-eligible results (RFC 8267 6.1): the opaque data of READ4resok and
 * the link of READLINK4resok.  Their ordinal is w->cur_ordinal, which the
 * COMPOUND walker sets to the op's index among the READ-class ops
 * (nfs4_op_is_read_class) of the COMPOUND, error arms included.
 */
#include "ulp_internal.h"

#define NFS4ERR_TOOSMALL 10005u
#define NFS4ERR_DENIED 10010u
#define NFS4ERR_CLID_INUSE 10017u
#define NFS4ERR_LAYOUTTRYLATER 10058u
#define NFS4ERR_OFFLOAD_NO_REQS 10094u

bool nfs4_op_is_read_class(uint32_t op)
{
	/* RFC 8267 6.4.1: "a 'READ operation' refers to any NFS version 4
	 * operation that has a DDP-eligible result data item"; 6.1 lists
	 * READ4resok data and READLINK4resok linkdata only. */
	return op == RR_NFS4_OP_READ || op == RR_NFS4_OP_READLINK;
}

/* struct LOCK4denied { offset4; length4; nfs_lock_type4; lock_owner4 owner; } */
static bool skip_lock_denied(struct rr_cursor *c)
{
	return rr_skip(c, 20) && nfs4_skip_state_owner(c);
}

/* SECINFO4resok = secinfo4<>; union secinfo4 switch (uint32_t flavor):
 * RPCSEC_GSS: rpcsec_gss_info { sec_oid4 oid; qop4; rpc_gss_svc_t; }; default: void */
static bool skip_secinfo_list(struct rr_cursor *c)
{
	uint32_t n, flavor;

	if (!ulp_count(c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		if (!ulp_u32(c, &flavor))
			return false;
		if (flavor == RR_AUTH_GSS && !(ulp_skip_opaque(c) && rr_skip(c, 8)))
			return false;
	}
	return true;
}

/*
 * READDIR4resok { verifier4 cookieverf; dirlist4 { entry4 *entries; bool eof; } }
 * entry4 { nfs_cookie4; component4 name; fattr4 attrs; entry4 *nextentry; }
 * The optional-data chain is walked in a loop, never by recursion.
 */
static bool skip_readdir_ok(struct rr_cursor *c)
{
	bool more, eof;

	if (!rr_skip(c, NFS4_VERIFIER_SIZE) || !ulp_bool(c, &more))
		return false;
	while (more) {
		if (!rr_skip(c, 8) || !ulp_skip_opaque(c) || !nfs4_skip_fattr(c) ||
		    !ulp_bool(c, &more))
			return false;
	}
	return ulp_bool(c, &eof);
}

/* union state_protect4_r switch (state_protect_how4) */
static bool skip_state_protect_r(struct rr_cursor *c)
{
	uint32_t how;

	if (!ulp_u32(c, &how))
		return false;
	switch (how) {
	case 0:
		return true;
	case 1:
		return nfs4_skip_state_protect_ops(c);
	case 2:   /* ssv_prot_info4 { ops; hash_alg; encr_alg; ssv_len; window; gsshandle4_t handles<>; } */
		return nfs4_skip_state_protect_ops(c) && rr_skip(c, 16) && ulp_skip_opaque_array(c);
	default:
		return false;
	}
}

/* EXCHANGE_ID4resok (RFC 8881 18.35.2): the client id, sequence id and flags into info->sess. */
static bool read_exchange_id_ok(struct ulp_walk *w)
{
	struct rr_ulp_session *s = &w->info->sess;
	struct rr_cursor *c = w->c;

	/* clientid4; sequenceid4; flags; state_protect4_r;
	 * server_owner4 { minor_id; opaque major_id<1024>; }; opaque server_scope<1024>;
	 * nfs_impl_id4 server_impl_id<1>; */
	s->exchange_id = true;
	return rr_get_be64(c, &s->clientid) && ulp_u32(c, &s->sequenceid) &&
	       ulp_u32(c, &s->eir_flags) && skip_state_protect_r(c) && rr_skip(c, 8) &&
	       ulp_skip_opaque_max(c, NFS4_OPAQUE_LIMIT) &&
	       ulp_skip_opaque_max(c, NFS4_OPAQUE_LIMIT) && nfs4_skip_nfs_impl_id_opt(c);
}

/* union GET_DIR_DELEGATION4res_non_fatal switch (gddrnf4_status) */
static bool skip_gdd_ok(struct rr_cursor *c)
{
	uint32_t st;
	bool b;

	if (!ulp_u32(c, &st))
		return false;
	switch (st) {
	case 0:   /* GDD4_OK { verifier4; stateid4; bitmap4 x3; } */
		return rr_skip(c, NFS4_VERIFIER_SIZE) && nfs4_skip_stateid(c) &&
		       nfs4_skip_bitmap(c) && nfs4_skip_bitmap(c) && nfs4_skip_bitmap(c);
	case 1:   /* GDD4_UNAVAIL: bool */
		return ulp_bool(c, &b);
	default:
		return false;
	}
}

/* layout4 x<>: { offset4; length4; iomode; layout_content4 { type; opaque body<>; } } */
static bool skip_layout_array(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 28, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!rr_skip(c, 24) || !ulp_skip_opaque(c))
			return false;
	return true;
}

/* read_plus_content x<>, union switch (data_content4):
 * DATA 0: data4 { offset4; opaque d_data<>; }; HOLE 1: data_info4 { offset4; length4; };
 * default: void */
static bool skip_read_plus_contents(struct rr_cursor *c)
{
	uint32_t n, what;

	if (!ulp_count(c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		if (!ulp_u32(c, &what))
			return false;
		if (what == 0 && !(rr_skip(c, 8) && ulp_skip_opaque(c)))
			return false;
		if (what == 1 && !rr_skip(c, 16))
			return false;
	}
	return true;
}

static bool skip_opt_stateid(struct rr_cursor *c)
{
	bool present;

	return ulp_bool(c, &present) && (!present || nfs4_skip_stateid(c));
}

/* CREATE_SESSION4resok (RFC 8881 18.36.2): the session id, sequence id, csr_flags and the
 * channel sizes the server granted, into info->sess. */
static bool read_create_session_ok(struct ulp_walk *w)
{
	struct rr_ulp_session *s = &w->info->sess;
	uint32_t back_slots;

	s->create_session = true;
	return rr_copy_bytes(w->c, s->sessionid, NFS4_SESSIONID_SIZE) &&
	       ulp_u32(w->c, &s->sequenceid) && ulp_u32(w->c, &s->cs_flags) &&
	       nfs4_read_channel_attrs(w->c, &s->fore_maxrequest, &s->fore_maxresponse,
				       &s->fore_maxrequests) &&
	       nfs4_read_channel_attrs(w->c, &s->back_maxrequest, &s->back_maxresponse, &back_slots);
}

/* The ops of NFSv4.0 (RFC 7530), 3 to 39, and OP_ILLEGAL. */
static bool skip_res_v40(struct ulp_walk *w, uint32_t op, uint32_t st, bool *known)
{
	struct rr_cursor *c = w->c;
	bool ok = st == NFS4_OK;
	bool b;

	switch (op) {
	/* Results that are only the status. */
	case 7:   /* DELEGPURGE */
	case 8:   /* DELEGRETURN */
	case 15:  /* LOOKUP */
	case 16:  /* LOOKUPP */
	case 17:  /* NVERIFY */
	case 19:  /* OPENATTR */
	case 22:  /* PUTFH */
	case 23:  /* PUTPUBFH */
	case 24:  /* PUTROOTFH */
	case 30:  /* RENEW */
	case 31:  /* RESTOREFH */
	case 32:  /* SAVEFH */
	case 36:  /* SETCLIENTID_CONFIRM */
	case 37:  /* VERIFY */
	case 39:  /* RELEASE_LOCKOWNER */
	case RR_NFS4_OP_ILLEGAL:
		return true;

	case 3:   /* ACCESS4resok { supported; access; } */
		return !ok || rr_skip(c, 8);
	case 4:   /* CLOSE: stateid4 */
	case 14:  /* LOCKU: stateid4 */
	case 20:  /* OPEN_CONFIRM4resok { stateid4; } */
	case 21:  /* OPEN_DOWNGRADE4resok { stateid4; } */
		return !ok || nfs4_skip_stateid(c);
	case 5:   /* COMMIT4resok { verifier4; } */
		return !ok || rr_skip(c, NFS4_VERIFIER_SIZE);
	case 6:   /* CREATE4resok { change_info4; bitmap4 attrset; } */
		return !ok || (nfs4_skip_change_info(c) && nfs4_skip_bitmap(c));
	case 9:   /* GETATTR4resok { fattr4; } */
		return !ok || nfs4_skip_fattr(c);
	case 10:  /* GETFH4resok { nfs_fh4; } */
		return !ok || nfs4_skip_fh(c);
	case 11:  /* LINK4resok { change_info4; } */
	case 28:  /* REMOVE4resok { change_info4; } */
		return !ok || nfs4_skip_change_info(c);
	case 12:  /* LOCK: OK: stateid4; NFS4ERR_DENIED: LOCK4denied */
		if (ok)
			return nfs4_skip_stateid(c);
		return st != NFS4ERR_DENIED || skip_lock_denied(c);
	case 13:  /* LOCKT: NFS4ERR_DENIED: LOCK4denied; others void */
		return st != NFS4ERR_DENIED || skip_lock_denied(c);
	case 18:  /* OPEN4resok { stateid4; change_info4; rflags; bitmap4 attrset; open_delegation4; }
		   * (rflags may carry RFC 9754's OPEN4_RESULT_NO_OPEN_STATEID: the
		   * stateid is still there, all zeros) */
		return !ok || (nfs4_skip_stateid(c) && nfs4_skip_change_info(c) && rr_skip(c, 4) &&
			       nfs4_skip_bitmap(c) && nfs4_skip_open_delegation(w));
	case 25:  /* READ4resok { bool eof; opaque data<>; }: data is DDP-eligible */
		return !ok || (ulp_bool(c, &b) &&
			       ulp_ddp_item(w, w->cur_ordinal, RR_NFS4_OP_READ, UINT32_MAX));
	case 26:  /* READDIR4resok */
		return !ok || skip_readdir_ok(c);
	case 27:  /* READLINK4resok { linktext4 link; }: DDP-eligible */
		return !ok || ulp_ddp_item(w, w->cur_ordinal, RR_NFS4_OP_READLINK, UINT32_MAX);
	case 29:  /* RENAME4resok { change_info4 source, target; } */
		return !ok || (nfs4_skip_change_info(c) && nfs4_skip_change_info(c));
	case 33:  /* SECINFO4resok */
		return !ok || skip_secinfo_list(c);
	case 34:  /* SETATTR4res { nfsstat4 status; bitmap4 attrsset; }: not a union */
		return nfs4_skip_bitmap(c);
	case 35:  /* SETCLIENTID: OK { clientid4; verifier4; }; NFS4ERR_CLID_INUSE: clientaddr4 */
		if (ok)
			return rr_skip(c, 8 + NFS4_VERIFIER_SIZE);
		return st != NFS4ERR_CLID_INUSE || nfs4_skip_netaddr(c);
	case 38:  /* WRITE4resok { count4; stable_how4; verifier4; } */
		return !ok || rr_skip(c, 8 + NFS4_VERIFIER_SIZE);
	default:
		*known = false;
		return false;
	}
}

/* The ops NFSv4.1 adds (RFC 8881), 40 to 58. */
static bool skip_res_v41(struct ulp_walk *w, uint32_t op, uint32_t st, bool *known)
{
	struct rr_cursor *c = w->c;
	bool ok = st == NFS4_OK;
	bool b;

	switch (op) {
	/* Results that are only the status. */
	case 40:  /* BACKCHANNEL_CTL */
	case 44:  /* DESTROY_SESSION */
	case 45:  /* FREE_STATEID */
	case 57:  /* DESTROY_CLIENTID */
	case 58:  /* RECLAIM_COMPLETE */
		return true;

	case 41:  /* BIND_CONN_TO_SESSION4resok { sessionid4; channel_dir_from_server4 dir;
		   *                             bool rdma_mode; } */
		if (!ok)
			return true;
		w->info->sess.bind_conn = true;
		return rr_skip(c, NFS4_SESSIONID_SIZE) && ulp_u32(c, &w->info->sess.bind_dir) &&
		       ulp_bool(c, &b);
	case 42:  /* EXCHANGE_ID4resok */
		return !ok || read_exchange_id_ok(w);
	case 43:  /* CREATE_SESSION4resok { sessionid4; sequenceid4; flags; channel_attrs4 fore, back; } */
		return !ok || read_create_session_ok(w);
	case 46:  /* GET_DIR_DELEGATION */
		return !ok || skip_gdd_ok(c);
	case 47:  /* GETDEVICEINFO: OK { device_addr4 { type; opaque body<>; }; bitmap4; };
		   * NFS4ERR_TOOSMALL: count4 mincount */
		if (ok)
			return rr_skip(c, 4) && ulp_skip_opaque(c) && nfs4_skip_bitmap(c);
		return st != NFS4ERR_TOOSMALL || rr_skip(c, 4);
	case 48:  /* GETDEVICELIST4resok { cookie; verifier4; deviceid4 list<>; bool eof; } */
		return !ok || (rr_skip(c, 8 + NFS4_VERIFIER_SIZE) &&
			       ulp_skip_fixed_array(c, NFS4_DEVICEID_SIZE, 0) && ulp_bool(c, &b));
	case 49:  /* LAYOUTCOMMIT4resok { newsize4 (bool; TRUE: length4) } */
		return !ok || (ulp_bool(c, &b) && (!b || rr_skip(c, 8)));
	case 50:  /* LAYOUTGET: OK { bool return_on_close; stateid4; layout4 layout<>; };
		   * NFS4ERR_LAYOUTTRYLATER: bool */
		if (ok)
			return ulp_bool(c, &b) && nfs4_skip_stateid(c) && skip_layout_array(c);
		return st != NFS4ERR_LAYOUTTRYLATER || ulp_bool(c, &b);
	case 51:  /* LAYOUTRETURN: OK: layoutreturn_stateid (bool; TRUE: stateid4) */
		return !ok || skip_opt_stateid(c);
	case 52:  /* SECINFO_NO_NAME4res = SECINFO4res */
		return !ok || skip_secinfo_list(c);
	case 53:  /* SEQUENCE4resok { sessionid4; sequenceid4; slotid4 x3; status_flags; } */
		return !ok || rr_skip(c, NFS4_SESSIONID_SIZE + 20);
	case 54:  /* SET_SSV4resok { opaque digest<>; } */
		return !ok || ulp_skip_opaque(c);
	case 55:  /* TEST_STATEID4resok { nfsstat4 codes<>; } */
		return !ok || ulp_skip_fixed_array(c, 4, 0);
	case 56:  /* WANT_DELEGATION: OK: open_delegation4 */
		return !ok || nfs4_skip_open_delegation(w);
	default:
		*known = false;
		return false;
	}
}

/* The ops NFSv4.2 adds (RFC 7862), 59 to 71, and the extended attribute
 * ops of RFC 8276, 72 to 75. */
static bool skip_res_v42(struct ulp_walk *w, uint32_t op, uint32_t st, bool *known)
{
	struct rr_cursor *c = w->c;
	bool ok = st == NFS4_OK;
	bool b;

	switch (op) {
	/* Results that are only the status. */
	case 59:  /* ALLOCATE */
	case 62:  /* DEALLOCATE */
	case 64:  /* LAYOUTERROR */
	case 65:  /* LAYOUTSTATS */
	case 66:  /* OFFLOAD_CANCEL */
	case 71:  /* CLONE */
		return true;

	case 60:  /* COPY: OK { write_response4; copy_requirements4 (2 bools); };
		   * NFS4ERR_OFFLOAD_NO_REQS: copy_requirements4 */
		if (ok && !nfs4_skip_write_response(c))
			return false;
		if (ok || st == NFS4ERR_OFFLOAD_NO_REQS)
			return ulp_bool(c, &b) && ulp_bool(c, &b);
		return true;
	case 61:  /* COPY_NOTIFY4resok { nfstime4; stateid4; netloc4 source_server<>; } */
		if (!ok)
			return true;
		if (!rr_skip(c, 12) || !nfs4_skip_stateid(c))
			return false;
		{
			uint32_t n;

			if (!ulp_count(c, 4, &n))
				return false;
			for (uint32_t i = 0; i < n; i++)
				if (!nfs4_skip_netloc(c))
					return false;
		}
		return true;
	case 63:  /* IO_ADVISE4resok { bitmap4 hints; } */
		return !ok || nfs4_skip_bitmap(c);
	case 67:  /* OFFLOAD_STATUS4resok { length4 count; nfsstat4 complete<1>; } */
		return !ok || (rr_skip(c, 8) && ulp_skip_fixed_array(c, 4, 1));
	case 68:  /* READ_PLUS: read_plus_res4 { bool eof; read_plus_content contents<>; }
		   * (not DDP-eligible: RFC 8267 6.1 does not list it) */
		return !ok || (ulp_bool(c, &b) && skip_read_plus_contents(c));
	case 69:  /* SEEK: seek_res4 { bool eof; offset4; } */
		return !ok || (ulp_bool(c, &b) && rr_skip(c, 8));
	case 70:  /* WRITE_SAME: write_response4 */
		return !ok || nfs4_skip_write_response(c);
	case 72:  /* GETXATTR: xattrvalue4 (not DDP-eligible: RFC 8267 6.1, 7) */
		return !ok || ulp_skip_opaque(c);
	case 73:  /* SETXATTR: change_info4 */
	case 75:  /* REMOVEXATTR: change_info4 */
		return !ok || nfs4_skip_change_info(c);
	case 74:  /* LISTXATTRS4resok { nfs_cookie4; xattrkey4 names<>; bool eof; } */
		return !ok || (rr_skip(c, 8) && ulp_skip_opaque_array(c) && ulp_bool(c, &b));
	default:
		*known = false;
		return false;
	}
}

/* Op numbers are allotted by minor version: the op picks the one to read it. */
static bool skip_res(struct ulp_walk *w, uint32_t op, uint32_t st, bool *known)
{
	*known = true;
	if (op < 40 || op == RR_NFS4_OP_ILLEGAL)
		return skip_res_v40(w, op, st, known);
	if (op < 59)
		return skip_res_v41(w, op, st, known);
	return skip_res_v42(w, op, st, known);
}

enum rr_ulp_result nfs4_skip_res(struct ulp_walk *w, uint32_t op, uint32_t status)
{
	bool known;

	w->cur_op = op;
	if (skip_res(w, op, status, &known))
		return RR_ULP_OK;
	if (!known)
		ulp_unknown(w, "NFSv4 op", op);
	return ulp_stop(w, known);
}
