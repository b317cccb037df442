/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_int.h - the check stage's own state.  Private to check/. */
#ifndef RPCRDMA_CHECK_INT_H
#define RPCRDMA_CHECK_INT_H

#include "check.h"
#include "keymap.h"

#define CK_RETIRED_MAX 512        /* segments of completed calls remembered per connection */
#define CK_ERRORED_MAX 1024       /* XIDs completed by RDMA_ERROR remembered per connection */
#define CK_EPISODES_MAX 4096      /* calls with a failure or a retry in flight */
#define CK_EPISODE_FRAMES 32
#define CK_CALLS_MAX 8192         /* outstanding calls remembered per connection and direction */
#define CK_LIVE_HANDLES_MAX 65536 /* handles of all connections (RR-212); past it, all forgotten */
#define CK_EVIDENCE_MAX 8          /* frames of other messages one finding names (ck_evidence) */
#define CK_ANSWERED_MAX 128       /* answered calls' Send frames remembered per direction (RR-102/104) */
/*
 * What all connections' state may hold together (calls, handle uses,
 * retired segments, errored XIDs): past it, new entries are not kept and
 * the checks that would have needed them are counted as skipped.
 */
#define CK_HELD_MAX (8u << 20)

struct ck_retired {
	uint32_t handle;
	uint64_t offset, length;
	uint32_t xid;
	uint8_t role;
	uint64_t reply_frame;
};

#define CK_SENDS_MAX 64             /* recent Sends remembered per sender (RR-051) */

/* One sender's recent Sends, and how far its receiver is known to have taken them (ck_recv_size.c). */
struct ck_sends {
	uint64_t frame[CK_SENDS_MAX];
	uint32_t len[CK_SENDS_MAX], xid[CK_SENDS_MAX];
	unsigned n, next;
	uint64_t proven;              /* the receiver answered a call sent at this frame: it took all before */
	uint64_t evicted;             /* the newest Send that fell out of the ring */
	bool reported_051;
};

struct ck_dir_state {
	uint32_t outstanding;         /* calls sent and not yet answered */
	bool have_grant;
	uint32_t granted, requested;
	bool over_reported;           /* RR-102/104 reported for the current overrun */
	bool change_reported;         /* RR-106 */
	bool reserve_reported;        /* RR-105 */
	bool inline_default_reported; /* RR-041 */
	uint32_t calls_before_reply;  /* RR-103 */
	bool saw_reply;
	uint32_t unmatched_at_start;  /* RR-003: replies taken for answers to calls sent before the capture */
	bool rnr_reported;            /* RR-107, for Sends in this direction */
	/* RR-045 without a known threshold: the latest RDMA_MSG reply that needed one. */
	bool long_reply_pending;
	uint32_t long_reply_xid;
	uint64_t long_reply_frame;
	size_t long_reply_len;
	/* RR-102/104: the Send frames of the calls the latest replies answered, a ring. */
	uint64_t answered[CK_ANSWERED_MAX];
	unsigned n_answered, next_answered;
	struct ck_sends sends;        /* RR-051: by sender, [0] the requester's Sends */
};

/* A call the responder must refuse with RDMA_ERROR and has not answered yet (ck_silence.c). */
#define CK_REFUSALS_MAX 8         /* per connection and direction; past it the oldest goes */
/* The latest few messages of one kind, oldest first; past CK_RING_MAX the oldest goes (ck_errors.c). */
#define CK_RING_MAX 16
struct ck_xid_ring {
	uint32_t xid[CK_RING_MAX];
	uint64_t frame[CK_RING_MAX];
	unsigned n;
};
struct ck_refusal {
	uint32_t xid;
	uint32_t vers;                /* its rdma_vers */
	uint8_t why;                  /* ck_silence.c's CK_SIL_* */
	uint64_t frame;               /* its Send */
	uint64_t since;               /* the responder had it whole: its Send, or the end of its read chunks */
	uint64_t later_call;          /* a call sent after that ... */
	uint64_t later_reply;         /* ... and that call's answer (0: none seen yet) */
};

struct ck_conn_state {
	uint32_t id;
	bool handshake;
	bool cut;                     /* a fact showed rr_conn_info.capture_cut */
	struct ck_dir_state dir[2];
	struct ck_keymap calls[2];    /* xid -> struct ck_call* (owned), by direction */
	struct ck_retired *retired;   /* grows to CK_RETIRED_MAX, then a ring */
	unsigned n_retired, next_retired, retired_alloc;
	size_t acct;                  /* bytes counted in the checker's held */
	GHashTable *errored;          /* xid -> rdma err code + 1 */
	GHashTable *handle_uses;      /* handle -> distinct calls that advertised it (RR-210) */
	bool handle_reuse_reported;
	bool nfs4_seen;
	bool port_reported;
	bool reported_029, reported_241;  /* routine shapes: told once per connection */
	uint64_t last_call_frame;     /* the newest forward call's Send */
	bool has_last_err[2];         /* by sender: [0] responder, [1] requester */
	uint32_t last_err_xid[2];
	/* The last call answered ERR_CHUNK (RR-181/182). */
	char err_chunk_what[48];
	uint64_t err_chunk_rc_len;
	uint32_t err_chunk_retries;
	bool err_chunk_run_reported;
	/* NFSv4.1 session setup on this connection (ck_session.c). */
	bool nfs41_seen;              /* a forward NFSv4.1+ COMPOUND */
	bool back_bound;              /* a call bound the back channel here (RR-193) */
	bool call_unread;             /* a forward call here was not read whole (it may have bound it) */
	bool back_unbound_reported;
	bool sess_sizes;              /* a CREATE_SESSION result gave the limits (RR-184) */
	uint32_t fore_maxresp, back_maxresp;
	/* Answers that must come or must not (ck_silence.c), by direction. */
	struct ck_refusal refusals[2][CK_REFUSALS_MAX];
	unsigned n_refusals[2];
	bool probe[2];                /* a call record to look at once group I has judged it */
	uint32_t probe_xid[2];
	uint64_t probe_frame[2];      /* ... the last frame of its record */
	bool has_done[2];             /* the latest RDMA_DONE, until an answer or a call reuses its XID */
	uint32_t done_xid[2];
	uint64_t done_frame[2];
	/* The back channel's ca_maxrequestsize a CREATE_SESSION here gave (RR-192). */
	bool back_attrs;
	uint32_t back_maxreq;
	uint64_t back_attrs_frame;
	bool server_connected_reported;   /* RR-195 */
	bool fwd_vers_known;          /* RR-197: the rdma_vers of the first forward call */
	uint32_t fwd_vers;
	/* rpcbind over this connection (ck_rpcbind.c): RR-201 told; the last TCP query for MOUNT/NLM/NSM (RR-203). */
	bool rpcb_nfs4_reported, rpcb_query;
	uint32_t rpcb_xid, rpcb_prog, rpcb_vers, rpcb_rpcvers;
	uint64_t rpcb_frame;
	/* Messages a receiver silently discards, so nothing answers them (ck_errors.c). By sender,
	 * [0] responder, [1] requester: RDMA_ERRORs, replies whose header has errors, calls
	 * shorter than a minimal header; by direction: calls whose arguments do not decode. */
	struct ck_xid_ring errs[2], bad_replies[2], short_calls[2], garbled[2];
};

/* A call with a failure or a retry: concluded as one finding (group Q). */
struct ck_episode {
	uint64_t key;                 /* requester address hash << 32 | XID */
	uint32_t xid;
	char what[48];
	uint32_t sends;
	uint32_t conns[8];
	uint32_t n_conns;
	uint64_t frames[CK_EPISODE_FRAMES];
	uint32_t n_frames;
	uint32_t pz_segs;             /* the shape of the first attempt */
	bool long_call;
	bool reply_chunk;
	uint32_t reply_chunk_segs;
	uint64_t reply_chunk_len;
	bool over_limit;
	bool long_reply;              /* a reply came through the Reply chunk */
	uint32_t failures, successes;
	bool fail_long;               /* the first failing attempt was a Long Call or came back Long */
	char failure[40];             /* "GARBAGE_ARGS", "SYSTEM_ERR", "ERR_CHUNK" */
	uint64_t fail_frame;          /* the first failing reply's Send */
	uint64_t first_frame;
	uint64_t last_send_frame;
	uint32_t conn_id;
	bool uncertain;               /* a fact about it was not (wholly) captured */
	GList order;                  /* its link in rr_checker.episode_order (no allocation of its own) */
};

/* Where the RDMA Writes into one segment of a call went, from its first to its last byte (ck_writes.c). */
#define CK_WEXT_MAX 256
#define CK_WEXT_BUCKETS 4096          /* the live-extent filter in front of the ring */
struct ck_wextent {
	uint32_t conn_id, xid;
	uint8_t role;                 /* rr_fact_rdma.role: 1 write, 2 reply; 0 an empty slot */
	uint32_t chunk, index;
	uint64_t lo, hi;              /* offsets in the segment */
};

struct rr_checker {
	struct rr_diag_sink sink;
	struct rr_check_opts opts;
	/* The enabled checks that read each kind of fact, in table order. */
	uint16_t run[5][RR_RULE_COUNT];
	unsigned n_run[5];
	/* Of run[] for a Send (0) or a message (1), those that can act on a call (0) or a reply (1). */
	uint16_t run_dir[2][2][RR_RULE_COUNT];
	unsigned n_run_dir[2][2];
	uint64_t n_told;              /* findings reported or held so far (the direction lists' guard) */
	uint64_t n_facts;             /* facts seen, the one being checked included */
	uint64_t stray_owner_fact;    /* ck_ddp.c: the fact whose stray-chunk owner is stray_owner */
	uint16_t stray_owner;
	uint64_t skipped[RR_SKIP__COUNT];
	bool cur_cut;                 /* the fact being checked was not wholly captured */
	bool cur_not_understood;      /* its message's ULP walk stopped at what the walker does not know */
	bool cur_undecoded;           /* ... it is a message captured whole that does not decode */
	bool cur_no_payload;          /* ... it is an RDMA_ERROR or RDMA_DONE: no Payload to check */
	uint32_t last_outstanding;    /* calls outstanding after the latest call Send (0: not a call) */
	/* Frames of other messages the next finding rests on (ck_evidence()). */
	uint64_t evidence[CK_EVIDENCE_MAX];
	unsigned n_evidence;
	size_t held;                  /* bytes of all connections' state (CK_HELD_MAX) */
	GHashTable *conns;            /* id -> struct ck_conn_state* */
	struct ck_conn_state *last_conn;  /* state.c: the one ck_conn() found last (or NULL) */
	/* state.c: the call ck_call_find() found last (or did not): checks ask for the same one
	 * many times a fact; forgotten whenever a call table changes. */
	struct {
		bool valid;
		int dir;
		uint32_t conn_id, xid;
		struct ck_call *call;
	} call_memo;
	struct ck_keymap episodes;    /* key -> struct ck_episode*, owned */
	GQueue episode_order;         /* oldest first; links embedded in the episodes */
	struct ck_episode *episode_spare;  /* the episode dropped last, reused by the next one */
	struct ck_call *call_spare;   /* state.c: the call forgotten last, reused by the next one */
	/*
	 * (host << 32 | handle) -> conn id of the newest call that advertised
	 * the handle, host being the host that sent it (whose memory it names):
	 * a handle means nothing off the host that registered it (RR-212).
	 */
	struct ck_keymap live_handles;
	uint64_t retired_keys;        /* episodes set aside when their XID was reused (see state.c) */
	struct ck_outlog *outlog;     /* what the outcome rules learn of the capture (ck_outcome.h) */
	GQueue *held_findings;        /* held.c's: findings a loss could explain, oldest first */
	uint64_t clock_usec;          /* held.c's: the capture's clock (rr_checker_clock) */
	bool header_only[RR_RULE_COUNT];  /* checker.c: runs on a Send cut after its transport header */
	struct ck_wextent wext[CK_WEXT_MAX];  /* ck_writes.c: a ring, the oldest overwritten */
	unsigned wext_next;
	uint16_t wext_live[CK_WEXT_BUCKETS];  /* ck_writes.c: live extents per (connection, XID) hash */
};

/* For the dispatcher (check/report.c). */
bool ck_rule_on(const struct rr_checker *ck, enum rr_rule_id id);

void ck_state_init(struct rr_checker *ck);
/* The connection's state if it has any (ck_conn() makes it). */
struct ck_conn_state *ck_conn_find(struct rr_checker *ck, uint32_t id);
/* The connection's state, found in the table or made (conn_state.h's ck_conn() asks it past its cache). */
struct ck_conn_state *ck_conn_slow(struct rr_checker *ck, uint32_t id);
void ck_state_before(struct rr_checker *ck, const struct rr_fact *f);
void ck_state_after(struct rr_checker *ck, const struct rr_fact *f);
void ck_state_free(struct rr_checker *ck);

int ck_send_dir(const struct rr_fact_send *s);          /* the direction of the call it is or answers */
const struct ck_retired *ck_retired_find(struct ck_conn_state *cs, uint32_t handle, uint64_t va,
					 uint64_t len);
struct ck_episode *ck_episode_find(struct rr_checker *ck, uint64_t key);
/* The key of a retry episode: the requester host and the XID (so it spans connections). */
static inline uint64_t ck_episode_key(const struct rr_conn_info *c, uint32_t xid)
{
	return (uint64_t)c->requester_hash << 32 | xid;
}

/* The key of a live handle: the host that registered it, and the handle. */
static inline uint64_t ck_handle_key(uint32_t host, uint32_t handle)
{
	return (uint64_t)host << 32 | handle;
}

/*
 * ck_missing.c: a reply whose results stop inside a DDP-eligible result
 * (its data neither in the Write chunk it pairs with nor inline), and the
 * responder rule of RFC 8267 §6.4.1 that names it (RR_RULE_COUNT: none fits).
 */
struct ck_missing {
	enum rr_rule_id rule;
	struct rr_ulp_stop_item stop;
	uint32_t offered;             /* Write chunks the call offered */
};
bool ck_missing_result(const struct rr_message *m, struct ck_missing *out);
/* Reports it under rule when that is the rule it breaks; true when it did. */
bool ck_report_missing(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule);
/*
 * A check skipped on a reply whose walk failed, counted by why: bytes the
 * capture lost, a message captured whole that does not decode (a result
 * missing, chunks that do not rebuild it), or the walker's own limit.
 */
void ck_skip_walk(struct rr_checker *ck, const struct rr_message *m, enum rr_rule_id rule);
/* ck_ddp.c: an NFSv4 reply's Write chunk k pairs with no READ-class op, yet bytes were written into it. */
bool ck_write_chunk_stray(const struct rr_message *m, uint32_t k);

#endif
