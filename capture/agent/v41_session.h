/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * v41_session.h - a real NFSv4.1 session for `drive --target kernel`.
 *
 * Before the scenario: EXCHANGE_ID, CREATE_SESSION and SEQUENCE +
 * RECLAIM_COMPLETE on the RPC-over-RDMA connection (RFC 8881 18.35,
 * 18.36, 18.51), inline RDMA_MSG each, recorded in the manifest like the
 * scenario's own calls.  The client id and session id come from the
 * server's replies; the session id and the next slot-0 sequence id go into
 * the generator's NFS state, so every SEQUENCE the scenario's COMPOUNDs
 * carry names the live session with a sequence id one above the last.
 * READ and WRITE then use the special stateids (RFC 8881 8.2.3: READ
 * bypass for READ, anonymous for WRITE), as no OPEN gave one.
 * After the scenario: DESTROY_SESSION and DESTROY_CLIENTID.
 *
 * Only scenarios with an NFSv4.1 or later COMPOUND get a session.
 */
#ifndef AGENT_V41_SESSION_H
#define AGENT_V41_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "pg_nfs.h"

struct vb_conn;

struct v41_session {
	bool open;
	uint32_t minor;            /* the minorversion of the scenario's first 4.1+ COMPOUND */
	uint32_t credits;
	uint64_t clientid;
};

/*
 * Opens the session when the scenario asks for one; false (and a line on
 * stderr) when the server refused it, and drive then goes on without.
 * *xid: the next XID to use, advanced past those used.
 */
bool v41_open(struct v41_session *v, struct agent_run *run, struct vb_conn *conn,
	      const pg_scenario *s, pg_nfs_state *nfs, uint32_t *xid);
/* Ends an open session and its client id (nothing when none is open). */
void v41_close(struct v41_session *v, struct agent_run *run, struct vb_conn *conn,
	       pg_nfs_state *nfs, uint32_t *xid);

#endif
