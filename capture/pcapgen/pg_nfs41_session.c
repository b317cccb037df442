// SPDX-License-Identifier: GPL-2.0-or-later
/* The NFSv4.1 session's own COMPOUNDs (pg_nfs41_session.h). */
#include "pg_nfs41_session.h"

#include "pg_buf.h"

/* COMPOUND4args up to the op list: tag<> empty, minorversion, the op count. */
static void compound(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
		     uint32_t nops)
{
	pg_rpc_call_hdr(b, st, xid, PG_PROG_NFS, 4, 1, true);
	pb_be32(b, 0);
	pb_be32(b, minor);
	pb_be32(b, nops);
}

/* channel_attrs4 (RFC 8881 18.36.1), no RDMA IRD given */
static void channel(GByteArray *b, uint32_t maxsize, uint32_t maxops, uint32_t slots)
{
	pb_be32(b, 0);          /* ca_headerpadsize */
	pb_be32(b, maxsize);    /* ca_maxrequestsize */
	pb_be32(b, maxsize);    /* ca_maxresponsesize */
	pb_be32(b, 4096);       /* ca_maxresponsesize_cached */
	pb_be32(b, maxops);
	pb_be32(b, slots);
	pb_be32(b, 0);          /* ca_rdma_ird<1> */
}

/* EXCHANGE_ID4args (RFC 8881 18.35.1) */
void pg_nfs41_exchange_id(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			  const uint8_t verifier[8], const char *owner)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, PG_OP4_EXCHANGE_ID);
	pb_bytes(b, verifier, 8);       /* co_verifier */
	pb_xdr_string(b, owner);        /* co_ownerid */
	pb_be32(b, 0);                  /* eia_flags */
	pb_be32(b, 0);                  /* spa_how: SP4_NONE */
	pb_be32(b, 0);                  /* eia_client_impl_id<1>: none */
}

/* CREATE_SESSION4args (RFC 8881 18.36.1) */
void pg_nfs41_create_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			     uint64_t clientid, uint32_t sequence)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, OP4_CREATE_SESSION);
	pb_be64(b, clientid);
	pb_be32(b, sequence);
	pb_be32(b, 0);                  /* csa_flags: no persistence, no back channel */
	channel(b, PG_NFS41_FORE_MAXSIZE, PG_NFS41_FORE_MAXOPS, PG_NFS41_FORE_SLOTS);
	channel(b, 4096, 2, 1);         /* the back channel's (unused) attributes */
	pb_be32(b, PG_PROG_NFS_CB);     /* csa_cb_program */
	pb_be32(b, 1);                  /* csa_sec_parms<>: one, AUTH_NONE */
	pb_be32(b, 0);
}

/* SEQUENCE4args (RFC 8881 18.46.1) on slot 0 */
static void sequence(GByteArray *b, pg_nfs_state *st)
{
	pb_be32(b, OP4_SEQUENCE);
	pb_bytes(b, st->sessionid, 16);
	pb_be32(b, st->seqid++);
	pb_be32(b, 0);                  /* sa_slotid */
	pb_be32(b, 0);                  /* sa_highest_slotid */
	pb_xdr_bool(b, false);          /* sa_cachethis */
}

/* SEQUENCE, RECLAIM_COMPLETE4args (RFC 8881 18.51.1) */
void pg_nfs41_reclaim_complete(GByteArray *b, pg_nfs_state *st, uint32_t xid, uint32_t minor)
{
	compound(b, st, xid, minor, 2);
	sequence(b, st);
	pb_be32(b, PG_OP4_RECLAIM_COMPLETE);
	pb_xdr_bool(b, false);          /* rca_one_fs: the whole server */
}

/* DESTROY_SESSION4args (RFC 8881 18.37.1) */
void pg_nfs41_destroy_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid,
			      uint32_t minor)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, PG_OP4_DESTROY_SESSION);
	pb_bytes(b, st->sessionid, 16);
}

/* DESTROY_CLIENTID4args (RFC 8881 18.50.1) */
void pg_nfs41_destroy_clientid(GByteArray *b, const pg_nfs_state *st, uint32_t xid,
			       uint32_t minor, uint64_t clientid)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, PG_OP4_DESTROY_CLIENTID);
	pb_be64(b, clientid);
}
