/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - `rpcrdma-agent replay`: one failed call of a capture sent
 * again, with variations, to find out what decides its outcome.
 *
 * The offline half, which needs no RDMA device:
 *   replay_select.c  the call with a given XID, as the engine rebuilt it
 *                    (session.h: the Send and the RDMA Reads put back
 *                    together), with its chunk shape and captured answer;
 *   replay_args.c    NFSACL v3 SETACL arguments (the engine reads them)
 *                    cut to fewer ACL entries, and the fresh XID written
 *                    into a call;
 *   replay_shape.c   how one variation carries the call: the segments of
 *                    its read chunk, its RPC-over-RDMA header (RFC 8166
 *                    §4.2), or TCP record marking (RFC 5531 §11).
 * The live half is replay_send.h; the command, replay_cmd.c.
 */
#ifndef AGENT_REPLAY_H
#define AGENT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/ulp.h>

/* The subcommand (replay_cmd.c), called as main.c calls the others. */
int agent_cmd_replay(int argc, char **argv);

#define RP_MAX_SEGS 16u
#define RP_PROG_NFSACL 100227u
#define RP_ACL3_SETACL 2u

/* One read segment: its XDR position and length (handles are the sender's business). */
struct rp_seg {
	uint32_t position;
	uint32_t length;
};

/* What the capture holds of the call and its answer. */
struct rp_call {
	uint32_t xid;
	uint32_t prog, vers, proc;
	uint32_t cred_flavor;
	GByteArray *msg;          /* the rebuilt RPC call, as it would travel on TCP */
	size_t args_off;          /* where the procedure's arguments start in msg */
	uint32_t rdma_proc;       /* RDMA_MSG or RDMA_NOMSG, as sent */
	uint32_t n_reads;
	struct rp_seg reads[RP_MAX_SEGS];
	uint32_t n_reads_all;     /* the header's read segments, also beyond RP_MAX_SEGS */
	uint32_t server_inline;   /* what the responder receives inline (RFC 8797), 0: unknown */
	uint64_t frame;           /* the Send of the first complete copy */
	unsigned copies;          /* how often the call went (retransmissions included) */
	bool answered;            /* a reply with this XID was seen */
	uint32_t reply_stat, accept_stat;
	char answer[96];          /* the captured answer, in words */
};

/*
 * Runs the engine over the capture at path and keeps the first complete
 * call whose transport or RPC XID is xid.  false, with a sentence in err,
 * when the capture cannot be read or holds no such complete call.
 */
bool rp_select(const char *path, uint32_t xid, struct rp_call *out, char *err, size_t errlen);
void rp_call_clear(struct rp_call *c);

/* ---- NFSACL v3 SETACL3args, as the engine reads them (rpcrdma/ulp.h) ---- */

enum { RP_ACL_USER_OBJ = RR_NFSACL_USER_OBJ, RP_ACL_USER = RR_NFSACL_USER,
       RP_ACL_GROUP_OBJ = RR_NFSACL_GROUP_OBJ, RP_ACL_GROUP = RR_NFSACL_GROUP,
       RP_ACL_MASK = RR_NFSACL_MASK, RP_ACL_OTHER = RR_NFSACL_OTHER };

/* The engine's description of the arguments (struct rr_nfsacl_setacl), under replay's name. */
#define rp_acl_args rr_nfsacl_setacl

bool rp_acl_parse(const uint8_t *args, size_t len, struct rp_acl_args *a, char *err, size_t errlen);
/*
 * The call msg (arguments at args_off) with its access ACL cut to n
 * entries: the entries that close a sorted POSIX ACL and name no one
 * (GROUP_OBJ, MASK, OTHER at its end) are kept, the named entries before
 * them are cut from the back, so the ACL stays valid.  Both counts (aclcnt
 * and the array length) say n.  NULL, with err, when the arguments do not
 * parse or n is more than the ACL has or fewer than its closing entries.
 */
GByteArray *rp_acl_resize(const GByteArray *msg, size_t args_off, uint32_t n, char *err,
			  size_t errlen);
/* The call msg with the NFSv3 file handle that opens its arguments replaced by fh. */
GByteArray *rp_replace_fh(const GByteArray *msg, size_t args_off, const uint8_t *fh, uint32_t len,
			  char *err, size_t errlen);
/* The RPC XID, the message's first word. */
void rp_set_xid(GByteArray *msg, uint32_t xid);

/* ---- how a variation carries the call ---- */

enum rp_carrier { RP_CHUNKS, RP_INLINE, RP_TCP };

struct rp_plan {
	enum rp_carrier how;
	uint32_t rdma_proc;       /* RDMA_MSG (inline part present) or RDMA_NOMSG */
	uint32_t n_segs;
	struct rp_seg segs[RP_MAX_SEGS];
	size_t seg_from[RP_MAX_SEGS];   /* where each segment's bytes start in msg */
	/* the inline part: msg[0, gap_at) then msg[gap_end, len) */
	size_t gap_at, gap_end;
	size_t msg_len;
};

/*
 * The captured shape for a message of msg_len bytes: as many segments at
 * the same positions with the same lengths; when msg_len differs from
 * what the capture carried, the last segment takes the difference.
 * Position zero: the segments carry the whole message (RDMA_NOMSG).
 * Another position P: the chunk carries msg[P, P + its length) and the
 * rest goes inline (RDMA_MSG); one such chunk.  false with err otherwise.
 */
bool rp_plan_captured(const struct rp_call *c, size_t msg_len, struct rp_plan *p, char *err,
		      size_t errlen);
/* The whole message in one Position-Zero segment. */
void rp_plan_pzrc(size_t msg_len, uint32_t n_segs, struct rp_plan *p);
/* RDMA_MSG with no chunk: false (err) when header and message exceed thresh. */
bool rp_plan_inline(size_t msg_len, uint32_t thresh, struct rp_plan *p, char *err, size_t errlen);
/* Bytes of the RPC-over-RDMA header the plan needs (RFC 8166 §4.2). */
size_t rp_plan_hdr_len(const struct rp_plan *p);

/*
 * The Send for plan: transport header (XID, version 1, credits, the read
 * list with handles[i] and offsets[i] for each segment, no write list, no
 * reply chunk) and the inline part of msg.
 */
GByteArray *rp_rdma_send(const struct rp_plan *p, const GByteArray *msg, uint32_t xid,
			 uint32_t credits, const uint32_t *handles, const uint64_t *offsets);
/* RFC 5531 §11 record marking: msg in fragments of at most frag bytes (0: one fragment). */
GByteArray *rp_record_mark(const uint8_t *msg, size_t len, uint32_t frag);

#endif
