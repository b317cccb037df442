/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - the check stage: facts in, findings out.  Internal to the
 * engine library; engine.h is the public contract.
 *
 * The engine hands the check stage four kinds of fact, in capture order:
 *  - a Send judged RPC-over-RDMA (or refused on a connection known to carry
 *    it), in wire order, before anything is rebuilt from it;
 *  - a rebuilt message record;
 *  - an RDMA Write or Read Request, with the live segment it hit, if any;
 *  - the end of the capture.
 * For each fact the stage first updates its own per-connection state
 * (outstanding calls, credits, retired segments, retry episodes), then runs
 * every enabled check of the table that asked for that kind of fact.  A
 * check is one function per rule (rules.def names it); it reads the fact
 * and the state and calls ck_report().  Nothing here calls back into the
 * engine.
 */
#ifndef RPCRDMA_CHECK_H
#define RPCRDMA_CHECK_H

#include <glib.h>

#include "rpcrdma/engine.h"

struct rr_fact_send {
	uint32_t conn_id;
	bool roles_known;
	bool from_requester;          /* valid when roles_known */
	const struct rr_hdr *hdr;     /* decoded as far as status allowed */
	enum rr_hdr_status status;
	bool is_call;                 /* the engine's classification (call, or DONE) */
	bool rejected;                /* not rebuilt: no message record will follow */
	uint64_t frame;               /* first frame of the Send */
	const uint64_t *frames;
	size_t n_frames;
	const uint8_t *data;          /* the Send's bytes */
	size_t len;
	bool truncated;               /* the capture cut it */
	size_t captured;              /* bytes from the start that were captured (len when not cut) */
	bool has_rpc;                 /* the inline Payload starts with an RPC header */
	uint32_t rpc_xid, rpc_msg_type;
	struct rr_conn_info conn;
	uint32_t sender_host;         /* a call advertising segments: its sending host's number (one host,
				       * one number; never 0); else 0 */
};

enum rr_rdma_op {
	RR_RDMA_WRITE,
	RR_RDMA_READ,
};

struct rr_fact_rdma {
	uint32_t conn_id;
	enum rr_rdma_op op;
	bool roles_known;
	bool by_requester;            /* the requester initiated it */
	uint32_t rkey;
	uint64_t va, len;
	uint64_t frame;
	bool handle_live;             /* a call outstanding on this connection advertised rkey */
	bool inside;                  /* [va, va+len) lies inside one such segment */
	uint32_t xid;                 /* handle_live: the call owning the segment */
	bool backchannel;             /* ... a backward call (sent by the responder) */
	uint8_t role;                 /* 0 read, 1 write, 2 reply */
	uint32_t chunk, index;
	uint64_t seg_offset, seg_length;
	bool conn_cut;                /* rr_conn_info.capture_cut of its connection */
	uint32_t memory_host;         /* !handle_live: the number of the host whose memory it reaches */
};

/*
 * A receiver's refusal of a Send.  For want of a posted Receive: an IB/RoCE
 * RNR NAK (AETH syndrome 001xxxxx), or an iWARP Terminate "no buffer
 * available" (Terminate header of RFC 5040 §4.8: layer DDP, untagged
 * buffer error 2 of RFC 5041).  Longer than the Receive posted (too_long):
 * an IB/RoCE NAK "remote invalid request" (syndrome 0x61), or a Terminate
 * "DDP message too long for available buffer" (untagged error 5).
 */
struct rr_fact_rnr {
	uint32_t conn_id;
	uint64_t frame;               /* the NAK or Terminate */
	bool roles_known;
	bool by_requester;            /* the requester refused (the responder's Send) */
	bool iwarp;                   /* a Terminate, not a NAK */
	bool too_long;                /* the Send was longer than the Receive, not without one */
	uint32_t psn;                 /* IB/RoCE: the PSN of the refused Send packet */
	uint8_t timer;                /* IB/RoCE: the RNR timer code */
};

enum rr_fact_kind {
	RR_FACT_SEND,
	RR_FACT_MSG,
	RR_FACT_RDMA,
	RR_FACT_END,
	RR_FACT_CONN_DOWN,            /* conn_id: torn down (DREQ, FIN both ways, RST, end of capture) */
	RR_FACT_RNR,                  /* rnr: a Send found no Receive posted */
};

struct rr_fact {
	enum rr_fact_kind kind;
	uint32_t conn_id;             /* RR_FACT_CONN_DOWN */
	const struct rr_fact_send *send;
	const struct rr_message *msg;
	const struct rr_fact_rdma *rdma;
	const struct rr_fact_rnr *rnr;
};

struct rr_checker;

struct rr_checker *rr_checker_new(const struct rr_diag_sink *sink);
void rr_checker_set_opts(struct rr_checker *ck, const struct rr_check_opts *o);
const struct rr_check_opts *rr_checker_opts(const struct rr_checker *ck);
void rr_checker_fact(struct rr_checker *ck, const struct rr_fact *f);
/*
 * The capture's clock reads ts_usec (microseconds): before each event's
 * facts, and while a live input is idle.  Findings held for a loss to show
 * (held.h) that long after they were held are settled now.
 */
void rr_checker_clock(struct rr_checker *ck, uint64_t ts_usec);
/* Calls outstanding in its direction right after the latest call Send fact (0 after other facts). */
uint32_t rr_checker_last_outstanding(const struct rr_checker *ck);
uint64_t rr_checker_skipped(const struct rr_checker *ck, enum rr_skip_reason why);
void rr_checker_free(struct rr_checker *ck);

/* ---- for the check functions ---- */

typedef void (*rr_check_fn)(struct rr_checker *ck, const struct rr_fact *f);

/* What the stage remembers of a forward or backward call (check/state.c). */
enum {
	CK_CALL_NOT_V1 = 1 << 0,      /* rdma_vers was not 1 */
	CK_CALL_BAD_HDR = 1 << 1,     /* the header did not decode */
	CK_CALL_BAD_CHUNK = 1 << 2,   /* reduced a non-eligible item (RR-141..148) */
	CK_CALL_MSGP = 1 << 3,
	CK_CALL_LONG = 1 << 4,        /* RDMA_NOMSG with a Position-Zero read chunk */
	CK_CALL_OVER_LIMIT = 1 << 5,  /* beyond the RFC 8267 6.4.2 complexity limits */
	CK_CALL_REPLIED = 1 << 6,
	CK_CALL_REFUSED = 1 << 7,     /* the engine could not rebuild it */
	CK_CALL_ARGS_OK = 1 << 8,     /* its arguments walked to the end */
};

struct ck_call {
	uint32_t xid;
	uint32_t conn_id;
	int dir;                      /* 0 forward, 1 backward */
	unsigned flags;
	uint32_t vers;                /* rdma_vers */
	uint64_t send_frame;
	uint32_t pz_segs;             /* Position-Zero read segments */
	uint32_t n_reads;
	bool offered_reply_chunk;
	uint64_t reply_chunk_len;
	uint32_t n_write_chunks;
	uint32_t prog, vers_rpc, proc;
	uint32_t sender_host;         /* rr_fact_send.sender_host: whose handles it put in live_handles */
	char what[48];                /* "NFSACL v3 SETACL", "NFSv4.1 COMPOUND(SEQUENCE,PUTFH,READ)" */
};

/* Findings, skips and options (check/report.c). */
/* Report a finding.  frame is where to point; the record (if f has one) gets it attached. */
void ck_report(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule,
	       uint64_t frame, const char *fmt, ...) RR_PRINTF(5, 6);
/* A frame of another message the next ck_report() or ck_hold() rests on (the
 * call a reply answers, the earlier call an XID repeats): its frames list
 * names it too.  Cleared by that report, or by the next fact. */
void ck_evidence(struct rr_checker *ck, uint64_t frame);
/* The frames of the fact (frames, n) with the staged evidence added, sorted,
 * into out (at most cap); clears the evidence.  Returns how many. */
size_t ck_take_evidence(struct rr_checker *ck, const uint64_t *frames, size_t n, uint64_t *out, size_t cap);
/* Same, with explicit evidence frames, connection and XID (for findings that span messages). */
void ck_report_full(struct rr_checker *ck, enum rr_rule_id rule, uint64_t frame,
		    const uint64_t *frames, size_t n_frames, uint32_t conn_id, bool has_xid,
		    uint32_t xid, const char *fmt, ...) RR_PRINTF(9, 10);
/* A check that cannot judge: counted (as "not captured") instead of guessed. */
void ck_skip(struct rr_checker *ck, enum rr_rule_id rule);
void ck_skip_why(struct rr_checker *ck, enum rr_rule_id rule, enum rr_skip_reason why);
enum rr_profile ck_profile(const struct rr_checker *ck);
const struct rr_check_opts *ck_opts(const struct rr_checker *ck);

/* State lookups (check/state.c). */
struct ck_call *ck_call_find(struct rr_checker *ck, uint32_t conn_id, int dir, uint32_t xid);
/* The call a reply record answers, from the record's connection and direction. */
struct ck_call *ck_call_of_reply(struct rr_checker *ck, const struct rr_message *m);
struct ck_conn_state;
/* ck_conn(): the connection's state, made on first use (conn_state.h). */

/* Helpers shared by the checks (check/util.c). */
/* The big-endian word at off in the Send's bytes, through the bounded cursor; false past the end. */
bool ck_send_word(const struct rr_fact_send *s, size_t off, uint32_t *v);
bool ck_is_nfs(const struct rr_message *m, uint32_t vers_lo, uint32_t vers_hi);
/* The call side's program/version/procedure (replies: from call_ulp). */
bool ck_prog(const struct rr_message *m, uint32_t *prog, uint32_t *vers, uint32_t *proc);
/* Normal read chunks of a call: groups of read segments at one non-zero Position. */
struct ck_rchunk {
	uint32_t position;
	uint32_t first;               /* index in hdr->reads */
	uint32_t n_segs;
	uint64_t length;
	bool split;                   /* its segments are not adjacent in the list */
};
size_t ck_read_chunks(const struct rr_hdr *h, bool nomsg, struct ck_rchunk *out, size_t max);
uint32_t ck_pz_segments(const struct rr_hdr *h);
/* The item a normal read chunk at position carries, or NULL. */
const struct rr_ddp_place *ck_item_at(const struct rr_message *m, uint64_t pos);
/* The result item that owns write chunk k (by ordinal), or NULL. */
const struct rr_ddp_place *ck_result_for_chunk(const struct rr_message *m, uint32_t k);
bool ck_reply_ok(const struct rr_message *m);   /* accepted SUCCESS */
/* A reply's result came back inline although the call offered a non-empty Write chunk for it. */
bool ck_inline_despite_chunk(const struct rr_message *m, const struct rr_ddp_place *it);
const char *ck_reply_status(const struct rr_message *m, char *buf, size_t len);
void ck_describe_call(const struct rr_message *m, char *buf, size_t len);
bool ck_is_backward(const struct rr_message *m);
/* The walk of the whole payload went to its end: items are the complete list. */
bool ck_ulp_ok(const struct rr_message *m);
/* The threshold of the receiver of a Send from the requester (or not). */
uint32_t ck_inline_of_receiver(const struct rr_conn_info *c, bool receiver_is_requester);
const char *ck_inline_source(enum rr_inline_source s);
/* The thresholds come from the handshake or the configuration, not the 1024 assumption. */
static inline bool ck_threshold_known(const struct rr_conn_info *c)
{
	return c->inline_source == RR_INLINE_HANDSHAKE || c->inline_source == RR_INLINE_CONFIG;
}
bool ck_is_long_call(const struct rr_hdr *h);
/* A chunk with more than 16 segments (RFC 8267 6.4.2). */
bool ck_segments_over_limit(const struct rr_hdr *h);

#endif
