/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * v41_xdr.h - the NFSv4.1 session's own COMPOUNDs (RFC 8881 18.35,
 * 18.36, 18.37, 18.46, 18.50, 18.51) as RPC call messages, and what their
 * replies say: EXCHANGE_ID's client id and sequence id, CREATE_SESSION's
 * session id, the status of every result.  No verbs: the session module
 * (v41_session.h) carries them, the unit test reads them.
 *
 * The session asks for no back channel (csa_flags 0): a callback from the
 * server would arrive where drive waits for a reply.
 */
#ifndef AGENT_V41_XDR_H
#define AGENT_V41_XDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "pg_nfs.h"

enum { V41_OP_EXCHANGE_ID = 42, V41_OP_CREATE_SESSION = 43, V41_OP_DESTROY_SESSION = 44,
       V41_OP_SEQUENCE = 53, V41_OP_DESTROY_CLIENTID = 57, V41_OP_RECLAIM_COMPLETE = 58 };

/* The fore channel drive asks for: 1 MiB of data plus headers, 16 ops, 16 slots. */
#define V41_FORE_MAXSIZE (1049600u)
#define V41_FORE_MAXOPS 16u
#define V41_FORE_SLOTS 16u
#define V41_RES_MAX 8u

/* What a session COMPOUND's reply says. */
struct v41_reply {
	uint32_t status;               /* the COMPOUND's */
	unsigned n_res;
	uint32_t res_op[V41_RES_MAX], res_status[V41_RES_MAX];
	bool have_clientid;            /* EXCHANGE_ID4resok */
	uint64_t clientid;
	uint32_t sequenceid, eir_flags;
	bool have_session;             /* CREATE_SESSION4resok */
	uint8_t sessionid[16];
	uint32_t cs_sequence, cs_flags, fore_maxrequests;
};

/*
 * The calls: the RPC header (AUTH_SYS from st) and one COMPOUND of
 * minorversion minor.  A SEQUENCE uses st->sessionid and st->seqid (then
 * increments it), on slot 0.
 */
void v41_exchange_id(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
		     const uint8_t verifier[8], const char *owner);
void v41_create_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			uint64_t clientid, uint32_t sequence);
void v41_reclaim_complete(GByteArray *b, pg_nfs_state *st, uint32_t xid, uint32_t minor);
void v41_destroy_session(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor);
void v41_destroy_clientid(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t minor,
			  uint64_t clientid);

/* An RPC reply to xid: false (and a sentence) when it is not an accepted COMPOUND4res. */
bool v41_parse_reply(const uint8_t *msg, size_t len, uint32_t xid, struct v41_reply *r,
		     char *err, size_t errlen);

#endif
