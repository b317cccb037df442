// SPDX-License-Identifier: GPL-2.0-or-later
/* The NFSv4.1 session's COMPOUNDs and their replies (v41_xdr.h). */
#include "v41_xdr.h"

#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>

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

void v41_exchange_id(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
		     const uint8_t verifier[8], const char *owner)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, V41_OP_EXCHANGE_ID);
	pb_bytes(b, verifier, 8);       /* co_verifier */
	pb_xdr_string(b, owner);        /* co_ownerid */
	pb_be32(b, 0);                  /* eia_flags */
	pb_be32(b, 0);                  /* spa_how: SP4_NONE */
	pb_be32(b, 0);                  /* eia_client_impl_id<1>: none */
}

void v41_create_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			uint64_t clientid, uint32_t sequence)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, V41_OP_CREATE_SESSION);
	pb_be64(b, clientid);
	pb_be32(b, sequence);
	pb_be32(b, 0);                  /* csa_flags: no persistence, no back channel */
	channel(b, V41_FORE_MAXSIZE, V41_FORE_MAXOPS, V41_FORE_SLOTS);
	channel(b, 4096, 2, 1);         /* the back channel's (unused) attributes */
	pb_be32(b, PG_PROG_NFS_CB);     /* csa_cb_program */
	pb_be32(b, 1);                  /* csa_sec_parms<>: one, AUTH_NONE */
	pb_be32(b, 0);
}

static void sequence(GByteArray *b, pg_nfs_state *st)
{
	pb_be32(b, V41_OP_SEQUENCE);
	pb_bytes(b, st->sessionid, 16);
	pb_be32(b, st->seqid++);
	pb_be32(b, 0);                  /* sa_slotid */
	pb_be32(b, 0);                  /* sa_highest_slotid */
	pb_xdr_bool(b, false);          /* sa_cachethis */
}

void v41_reclaim_complete(GByteArray *b, pg_nfs_state *st, uint32_t xid, uint32_t minor)
{
	compound(b, st, xid, minor, 2);
	sequence(b, st);
	pb_be32(b, V41_OP_RECLAIM_COMPLETE);
	pb_xdr_bool(b, false);          /* rca_one_fs: the whole server */
}

void v41_destroy_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, V41_OP_DESTROY_SESSION);
	pb_bytes(b, st->sessionid, 16);
}

void v41_destroy_clientid(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			  uint64_t clientid)
{
	compound(b, st, xid, minor, 1);
	pb_be32(b, V41_OP_DESTROY_CLIENTID);
	pb_be64(b, clientid);
}

/* One resok arm the session needs; false when it does not decode. */
static bool resok(struct rr_cursor *c, uint32_t op, struct v41_reply *r)
{
	switch (op) {
	case V41_OP_EXCHANGE_ID:
		/* eir_clientid, eir_sequenceid, eir_flags; the rest is not needed */
		r->have_clientid = rr_get_be64(c, &r->clientid) && rr_get_be32(c, &r->sequenceid) &&
				   rr_get_be32(c, &r->eir_flags);
		return r->have_clientid;
	case V41_OP_CREATE_SESSION:
		/* csr_sessionid, csr_sequence, csr_flags, then the fore channel:
		 * headerpad, maxrequest, maxresponse, maxresponse_cached, maxops, maxrequests */
		if (!rr_copy_bytes(c, r->sessionid, 16) || !rr_get_be32(c, &r->cs_sequence) ||
		    !rr_get_be32(c, &r->cs_flags) || !rr_skip(c, 20) ||
		    !rr_get_be32(c, &r->fore_maxrequests))
			return false;
		r->have_session = true;
		return true;
	case V41_OP_SEQUENCE:
		/* sessionid, sequenceid, slotid, highest, target highest, status flags */
		return rr_skip(c, 16 + 4 * 5);
	case V41_OP_RECLAIM_COMPLETE:
	case V41_OP_DESTROY_SESSION:
	case V41_OP_DESTROY_CLIENTID:
		return true;
	default:
		return false;
	}
}

bool v41_parse_reply(const uint8_t *msg, size_t len, uint32_t xid, struct v41_reply *r,
		     char *err, size_t errlen)
{
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	uint32_t n;

	memset(r, 0, sizeof(*r));
	rr_cursor_init(&c, msg, len);
	if (!rr_rpc_decode_reply(&c, &rep) || rep.xid != xid) {
		snprintf(err, errlen, "not an RPC reply to XID 0x%08x", xid);
		return false;
	}
	if (rep.reply_stat || rep.accept_stat) {
		snprintf(err, errlen, "the call was not accepted (reply_stat %u, accept_stat %u)",
			 rep.reply_stat, rep.accept_stat);
		return false;
	}
	if (!rr_get_be32(&c, &r->status) || !rr_xdr_skip_opaque(&c, 1024) || !rr_get_be32(&c, &n)) {
		snprintf(err, errlen, "XID 0x%08x: the COMPOUND4res does not decode", xid);
		return false;
	}
	for (uint32_t i = 0; i < n && r->n_res < V41_RES_MAX; i++) {
		uint32_t op, st;
		if (!rr_get_be32(&c, &op) || !rr_get_be32(&c, &st)) {
			snprintf(err, errlen, "XID 0x%08x: result %u does not decode", xid, i);
			return false;
		}
		r->res_op[r->n_res] = op;
		r->res_status[r->n_res++] = st;
		if (st)
			break;   /* an error ends the COMPOUND (RFC 8881 16.2.3) */
		if (!resok(&c, op, r)) {
			snprintf(err, errlen, "XID 0x%08x: the result of op %u does not decode", xid, op);
			return false;
		}
	}
	return true;
}
