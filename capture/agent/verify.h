/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.h - verify's view of a capture: what the engine rebuilt and found
 * (verify_engine.c), kept whole so that verify.c can hold every manifest
 * line against all of it, in any order.
 */
#ifndef AGENT_VERIFY_H
#define AGENT_VERIFY_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "rpcrdma/session.h"

/* One rebuilt message. */
struct vf_msg {
	uint32_t xid;             /* rdma_xid, as the engine keys messages */
	uint32_t rpc_xid;         /* the RPC header's, when has_rpc (differs only when RR-002 is broken) */
	bool has_rpc;
	bool reply;
	bool backchannel;
	bool complete;
	uint32_t conn_id;
	uint64_t send_frame;
	uint64_t len;
	char sha256[65];
};

/* One Send the engine judged RPC-over-RDMA, rebuilt or not: where messages the engine refused were. */
struct vf_send {
	uint64_t frame;
	uint32_t xid;             /* the transport header's */
	bool xid_known;           /* at least the XID word was captured */
	bool is_call;
	bool rejected;
	uint32_t conn_id;
};

struct vf_result {
	GArray *msgs;             /* struct vf_msg, in delivery order */
	GArray *sends;            /* struct vf_send, in wire order */
	GArray *findings;         /* struct rr_diag (owned copies), in report order */
	GHashTable *msg_by_xid;   /* XID -> GArray of guint indexes into msgs (rdma_xid and RPC XID) */
	GHashTable *send_by_xid;  /* XID -> GArray of guint indexes into sends, ascending */
	uint64_t frames;          /* frames read; frame numbers run 1..frames */
	struct rr_decode_stats dstats;
	struct rr_engine_stats estats;
};

/*
 * Runs a session over the capture at path with the options o.
 * false with a sentence naming the file in err when it cannot be opened or
 * read to its end (r then holds nothing).
 */
bool vf_run_engine(const char *path, const struct rr_session_opts *o, struct vf_result *r, char *err,
		   size_t errlen);
void vf_result_free(struct vf_result *r);

/* ---- where a message of the manifest is in the result ---- */

/* Indexes of the messages (Sends) known by xid, ascending; NULL when none. */
const GArray *vf_msgs_of(const struct vf_result *r, uint32_t xid);
const GArray *vf_sends_of(const struct vf_result *r, uint32_t xid);
/* m is the message (xid, dir): by its rdma_xid or its RPC XID. */
bool vf_same_msg(const struct vf_msg *m, uint32_t xid, bool reply);
/* A Send of that XID and direction the engine refused to rebuild, or NULL. */
const struct vf_send *vf_refused_send(const struct vf_result *r, uint32_t xid, bool reply);

struct vf_place {
	uint64_t frames[64];      /* Send frames of the (xid, dir) message(s), rebuilt or not */
	unsigned n_frames;
	bool rebuilt;             /* the engine rebuilt a message of that (xid, dir) */
	uint32_t alias[2];        /* the other XID of such a message (rdma_xid vs RPC XID) */
	unsigned n_alias;
};
void vf_locate(const struct vf_result *r, uint32_t xid, bool reply, struct vf_place *p);
/* A finding's XID names the message: its XID, or the other XID of that message. */
bool vf_xid_ok(const struct vf_place *p, uint32_t want, uint32_t xid);
bool vf_at_send(const struct vf_place *p, uint64_t frame);
/*
 * Whether frame lies in an exchange of xid: from a call's Send to the
 * next call Send on that connection after the call's reply, or to the end
 * of the capture when no reply or no later call came.
 */
bool vf_in_exchange(const struct vf_result *r, uint32_t xid, uint64_t frame);

#endif
