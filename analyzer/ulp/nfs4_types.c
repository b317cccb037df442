// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs4_types.c - skippers for the NFSv4 data types that several ops use
 * (RFC 7530, RFC 8881, RFC 7862, RFC 9754 XDR).
 */
#include "ulp_internal.h"

/* typedef uint32_t bitmap4<>; */
bool nfs4_skip_bitmap(struct rr_cursor *c)
{
	return ulp_skip_fixed_array(c, 4, 0);
}

/* struct fattr4 { bitmap4 attrmask; attrlist4 attr_vals; }; attrlist4 = opaque<> */
bool nfs4_skip_fattr(struct rr_cursor *c)
{
	return nfs4_skip_bitmap(c) && ulp_skip_opaque(c);
}

/* struct stateid4 { uint32_t seqid; opaque other[12]; }; */
bool nfs4_skip_stateid(struct rr_cursor *c)
{
	return rr_skip(c, NFS4_STATEID_SIZE);
}

/* typedef opaque nfs_fh4<NFS4_FHSIZE>; */
bool nfs4_skip_fh(struct rr_cursor *c)
{
	return ulp_skip_opaque_max(c, NFS4_FHSIZE);
}

/* struct change_info4 { bool atomic; changeid4 before; changeid4 after; }; */
bool nfs4_skip_change_info(struct rr_cursor *c)
{
	bool atomic;

	return ulp_bool(c, &atomic) && rr_skip(c, 16);
}

/* struct state_owner4 { clientid4 clientid; opaque owner<NFS4_OPAQUE_LIMIT>; }; */
bool nfs4_skip_state_owner(struct rr_cursor *c)
{
	return rr_skip(c, 8) && ulp_skip_opaque_max(c, NFS4_OPAQUE_LIMIT);
}

/* struct netaddr4 { string na_r_netid<>; string na_r_addr<>; }; */
bool nfs4_skip_netaddr(struct rr_cursor *c)
{
	return ulp_skip_opaque(c) && ulp_skip_opaque(c);
}

/* union netloc4 switch (netloc_type4 nl_type): NL4_NAME 1, NL4_URL 2: utf8str_cis;
 * NL4_NETADDR 3: netaddr4.  No default arm. */
bool nfs4_skip_netloc(struct rr_cursor *c)
{
	uint32_t type;

	if (!ulp_u32(c, &type))
		return false;
	switch (type) {
	case 1:
	case 2:
		return ulp_skip_opaque(c);
	case 3:
		return nfs4_skip_netaddr(c);
	default:
		return false;
	}
}

/* struct nfsace4 { acetype4 type; aceflag4 flag; acemask4 access_mask; utf8str_mixed who; }; */
bool nfs4_skip_nfsace(struct rr_cursor *c)
{
	return ulp_skip_words(c, 3) && ulp_skip_opaque(c);
}

/* union nfs_space_limit4 switch (limit_by4): NFS_LIMIT_SIZE 1: uint64_t;
 * NFS_LIMIT_BLOCKS 2: { uint32_t num_blocks; uint32_t bytes_per_block; }. */
static bool skip_space_limit(struct rr_cursor *c)
{
	uint32_t by;

	if (!ulp_u32(c, &by))
		return false;
	if (by != 1 && by != 2)
		return false;
	return rr_skip(c, 8);
}

/*
 * union open_delegation4 switch (open_delegation_type4):
 *   NONE 0: void
 *   READ 1: open_read_delegation4 { stateid4; bool recall; nfsace4 permissions; }
 *   WRITE 2: open_write_delegation4 { stateid4; bool recall; nfs_space_limit4;
 *                                     nfsace4 permissions; }
 *   NONE_EXT 3 (RFC 8881): union switch (why_no_delegation4) {
 *           CONTENTION 1: bool; RESOURCE 2: bool; default: void; }
 *   READ_ATTRS_DELEG 4, WRITE_ATTRS_DELEG 5 (RFC 9754, delegated
 *           timestamps): the bodies of READ and WRITE, open_read_delegation4
 *           and open_write_delegation4.
 * Any other type is an arm this walker does not know.
 */
bool nfs4_skip_open_delegation(struct ulp_walk *w)
{
	struct rr_cursor *c = w->c;
	uint32_t type, why;
	bool b;

	if (!ulp_u32(c, &type))
		return false;
	switch (type) {
	case 0:
		return true;
	case 1:
	case 4:
		return nfs4_skip_stateid(c) && ulp_bool(c, &b) && nfs4_skip_nfsace(c);
	case 2:
	case 5:
		return nfs4_skip_stateid(c) && ulp_bool(c, &b) && skip_space_limit(c) &&
		       nfs4_skip_nfsace(c);
	case 3:
		if (!ulp_u32(c, &why))
			return false;
		if (why == 1 || why == 2)
			return ulp_bool(c, &b);
		return true;
	default:
		return ulp_unknown(w, "open_delegation4 type", type);
	}
}

/* struct write_response4 { stateid4 wr_callback_id<1>; length4 wr_count;
 *                          stable_how4 wr_committed; verifier4 wr_writeverf; }; */
bool nfs4_skip_write_response(struct rr_cursor *c)
{
	return ulp_skip_fixed_array(c, NFS4_STATEID_SIZE, 1) && rr_skip(c, 8 + 4 + NFS4_VERIFIER_SIZE);
}

/* RFC 5531 authsys_parms { stamp; string machinename<255>; uid; gid; gid gids<16>; } */
bool nfs4_skip_authsys_parms(struct rr_cursor *c)
{
	return rr_skip(c, 4) && ulp_skip_opaque_max(c, 255) && rr_skip(c, 8) &&
	       ulp_skip_fixed_array(c, 4, 16);
}

/* union callback_sec_parms4 switch (uint32_t cb_secflavor):
 *   AUTH_NONE 0: void; AUTH_SYS 1: authsys_parms;
 *   RPCSEC_GSS 6: { rpc_gss_svc_t; gsshandle4_t from_server; gsshandle4_t from_client; } */
bool nfs4_skip_callback_sec_parms(struct rr_cursor *c)
{
	uint32_t flavor;

	if (!ulp_u32(c, &flavor))
		return false;
	switch (flavor) {
	case RR_AUTH_NONE:
		return true;
	case RR_AUTH_SYS:
		return nfs4_skip_authsys_parms(c);
	case RR_AUTH_GSS:
		return rr_skip(c, 4) && ulp_skip_opaque(c) && ulp_skip_opaque(c);
	default:
		return false;
	}
}

/*
 * struct channel_attrs4 { count4 ca_headerpadsize; count4 ca_maxrequestsize;
 *   count4 ca_maxresponsesize; count4 ca_maxresponsesize_cached;
 *   count4 ca_maxoperations; count4 ca_maxrequests; uint32_t ca_rdma_ird<1>; };
 */
bool nfs4_read_channel_attrs(struct rr_cursor *c, uint32_t *maxreq, uint32_t *maxresp,
			     uint32_t *maxrequests)
{
	return rr_skip(c, 4) && ulp_u32(c, maxreq) && ulp_u32(c, maxresp) &&
	       ulp_skip_words(c, 2) && ulp_u32(c, maxrequests) && ulp_skip_fixed_array(c, 4, 1);
}


/* struct state_protect_ops4 { bitmap4 spo_must_enforce; bitmap4 spo_must_allow; }; */
bool nfs4_skip_state_protect_ops(struct rr_cursor *c)
{
	return nfs4_skip_bitmap(c) && nfs4_skip_bitmap(c);
}

/* nfs_impl_id4 x<1>; nfs_impl_id4 { utf8str_cis; utf8str_cs; nfstime4 (12 octets); } */
bool nfs4_skip_nfs_impl_id_opt(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 4, &n) || n > 1)
		return false;
	if (n == 1)
		return ulp_skip_opaque(c) && ulp_skip_opaque(c) && rr_skip(c, 12);
	return true;
}

/* struct layoutupdate4 { layouttype4 lou_type; opaque lou_body<>; }; */
bool nfs4_skip_layoutupdate(struct rr_cursor *c)
{
	return rr_skip(c, 4) && ulp_skip_opaque(c);
}
