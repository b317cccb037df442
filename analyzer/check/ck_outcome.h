/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ck_outcome.h - what the outcome rules (group Q) learn from the whole
 * capture besides the episodes of check_int.h: every forward call's shape,
 * size, time and NFSv4.1 SEQUENCE slot (ck_outcome_log.c), so that a
 * failure is told with the evidence for and against each of its possible
 * causes (ck_outcome_evidence.c), and retries on new connections are told
 * per client and server as a storm, or as a session replay
 * (ck_outcome_storm.c).  Private to check/.
 */
#ifndef RPCRDMA_CK_OUTCOME_H
#define RPCRDMA_CK_OUTCOME_H

#include "check_int.h"

#define CK_NOTES_MAX 65536        /* forward calls remembered, the oldest forgotten */
#define CK_PAIR_LEN 96

/* One attempt of a forward call, as sent. */
struct ck_note {
	uint64_t key;                 /* ck_episode_key(): requester host and XID */
	uint32_t conn_id;
	uint64_t frame, ts_usec;
	const char *pair;             /* "10.0.0.1 -> 10.0.0.2": client, then server (interned by the log) */
	const char *what;             /* ck_describe_call()'s (interned) */
	bool long_call;
	uint32_t pz_segs;             /* Long Calls: segments at Position zero */
	uint32_t reply_segs;          /* segments of the Reply chunk it offered (0: none) */
	uint64_t size;                /* the RPC call's bytes (its Payload stream) */
	bool retry;                   /* the same XID was sent before on another connection */
	bool lost;                    /* ... and that attempt had no answer (its connection failed) */
	bool has_seq;                 /* an NFSv4.1+ COMPOUND that starts with SEQUENCE */
	uint8_t sessionid[16];
	uint32_t seqid, slotid;
	bool replay;                  /* has_seq, and the attempt before had the same slot */
	bool answered, answered_ok;
	bool no_answer_due;           /* RDMA_DONE: nothing answers it */
	bool rpc;                     /* its RPC call header decoded (a malformed call may go unanswered) */
	uint64_t answer_frame;        /* answered: its answer's Send */
	uint32_t nfs_status;
};

/* Calls that went well, by server, procedure and shape: evidence about a failure's cause. */
struct ck_success {
	const char *pair, *what;      /* interned by the log: compared by address */
	bool long_call, long_reply;
	uint32_t pz_segs, reply_segs;
	uint64_t size_min, size_max;  /* the RPC calls' bytes, smallest and largest */
	uint64_t frame_min, frame_max;  /* their replies' Sends */
	uint32_t count;
};

struct ck_outlog;

/* The log of ck's capture, made at the first use; NULL when out of memory budget. */
struct ck_outlog *ck_outlog(struct rr_checker *ck);
void ck_outlog_free(struct ck_outlog *log);
/* Records a forward call or reply (idempotent: several rules may feed the same fact). */
void ck_outlog_feed(struct rr_checker *ck, const struct rr_fact *f);
/* The newest attempt of the call with this key, or NULL (forgotten, or never seen). */
const struct ck_note *ck_outlog_note(const struct ck_outlog *log, uint64_t key);
/* The message of key is on its way (its Send was seen): its note's slot is fetched meanwhile. */
void ck_outlog_prefetch(const struct ck_outlog *log, uint64_t key);
/* Every attempt remembered, oldest first; n set to their number. */
const struct ck_note *const *ck_outlog_notes(const struct ck_outlog *log, size_t *n);
/* A slot for what ck_outcome_storm.c derives from the log: freed, and emptied when the log grows. */
GHashTable **ck_outlog_cache(struct ck_outlog *log);
/* Successful calls remembered, oldest first. */
const struct ck_success *ck_outlog_successes(const struct ck_outlog *log, size_t *n);

/*
 * The sentences after a failed episode's core: what in the capture argues
 * for or against each cause it could have (the arguments' size, the chunk
 * shape, a transient fault) and, as a possibility only, the interop hazard
 * its shape matches.  Written into buf, each sentence after ". ".
 */
/* also[] gets the frames of the calls the text names (at most CK_OUTCOME_ALSO). */
enum { CK_OUTCOME_ALSO = 2 };
void ck_outcome_evidence(const struct ck_outlog *log, const struct ck_episode *ep, char *buf, size_t len,
			 uint64_t *also, unsigned *n_also);

/* The episode belongs to a reconnect storm (RR-233), which tells it. */
bool ck_outcome_in_storm(struct rr_checker *ck, const struct ck_episode *ep);
/* The episode's retry on a new connection was an NFSv4.1 SEQUENCE replay (RR-234). */
bool ck_outcome_is_replay(struct rr_checker *ck, const struct ck_episode *ep);

#endif
