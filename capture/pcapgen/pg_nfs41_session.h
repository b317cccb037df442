/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pg_nfs41_session.h - the COMPOUNDs that open and close an NFSv4.1
 * session (RFC 8881 18.35 EXCHANGE_ID, 18.36 CREATE_SESSION, 18.37
 * DESTROY_SESSION, 18.46 SEQUENCE, 18.50 DESTROY_CLIENTID, 18.51
 * RECLAIM_COMPLETE) as whole RPC call messages.  The live agent sends
 * them to a real server before its scenario; their replies are read by
 * the engine (rpcrdma/ulp.h, struct rr_ulp_session).
 *
 * The session asks for no back channel (csa_flags 0): a callback from the
 * server would arrive where the requester waits for a reply.
 */
#ifndef PG_NFS41_SESSION_H
#define PG_NFS41_SESSION_H

#include <stdint.h>

#include <glib.h>

#include "pg_nfs.h"

/* The ops of RFC 8881 the scenario's ops (pg_scenario.h) do not name. */
enum { PG_OP4_EXCHANGE_ID = 42, PG_OP4_DESTROY_SESSION = 44, PG_OP4_DESTROY_CLIENTID = 57,
       PG_OP4_RECLAIM_COMPLETE = 58 };

/* The fore channel asked for: 1 MiB of data plus headers, 16 ops, 16 slots. */
#define PG_NFS41_FORE_MAXSIZE 1049600u
#define PG_NFS41_FORE_MAXOPS 16u
#define PG_NFS41_FORE_SLOTS 16u

/*
 * Each appends to b the RPC header (AUTH_SYS from st) and one COMPOUND of
 * minorversion minor.  A SEQUENCE uses st->sessionid and st->seqid (then
 * increments it), on slot 0.
 */
void pg_nfs41_exchange_id(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			  const uint8_t verifier[8], const char *owner);
void pg_nfs41_create_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			     uint64_t clientid, uint32_t sequence);
void pg_nfs41_reclaim_complete(GByteArray *b, pg_nfs_state *st, uint32_t xid, uint32_t minor);
void pg_nfs41_destroy_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid,
			      uint32_t minor);
void pg_nfs41_destroy_clientid(GByteArray *b, const pg_nfs_state *st, uint32_t xid,
			       uint32_t minor, uint64_t clientid);

#endif
