/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proxy_back.h - `rpcrdma-agent proxy --inject` in the backward direction
 * (RFC 8167).  Once the client has bound its connection to a session's
 * back channel (CREATE_SESSION with CONN_BACK_CHAN, or BIND_CONN_TO_SESSION
 * toward the back channel: RFC 8881 §18.36, §18.34), the proxy, in the
 * server's place, sends the client backward calls of its own: CB_NULL,
 * built by the generator and broken by the entries of INJ_ST_BACK
 * (inject.h): offered with chunks (cb-long-call, cb-reply-chunk), under
 * the NFS program (cb-nfs-program), or more of them at once than the
 * client's backward grant (cb-over-grant, after one call whose answer
 * carries the grant when none was seen yet).  The client's answers to them
 * are the proxy's and never reach the server; what the client did is the
 * reaction, judged by judge.c.
 *
 * Without WHEN an entry fires once per run, after the first reply the
 * proxy sends once the back channel is bound; with WHEN, after each reply
 * it selects while none of its calls is waiting.
 */
#ifndef AGENT_PROXY_BACK_H
#define AGENT_PROXY_BACK_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/ulp.h>

#include "common.h"
#include "inject_live.h"
#include "judge.h"
#include "pg_nfs.h"
#include "verbs.h"

#define PXB_MAX_CALLS 64

/* Chunk memory on the client's connection (verbs.c's vb_reg/vb_dereg in the proxy). */
struct px_back_mem {
	bool (*reg)(void *ctx, struct vb_mr *m, size_t len, bool remote_write);
	void (*dereg)(void *ctx, struct vb_mr *m);
	void *ctx;
};

/* One backward call of the proxy's. */
struct px_back_call {
	uint32_t xid;
	GByteArray *wire;            /* the transport message to send */
	GByteArray *payload;         /* the RPC call it conveys */
	bool rebuilt;                /* inline: the capture shows it whole */
	struct vb_mr chunk[2];       /* its Position-Zero read chunk, its Reply chunk */
	unsigned n_chunks;
	int reply_chunk;             /* chunk[] of its Reply chunk; -1: none offered */
	bool answered;
	enum jd_answer answer;       /* the client's answer, and its rdma_credit */
	uint32_t credit;
};

struct px_back {
	struct inj_live lv;
	pg_nfs_state nfs;
	struct px_back_mem mem;
	bool ready;                  /* the back channel is bound on this connection */
	bool have_grant;
	uint32_t grant;              /* the client's backward grant, from its last backward reply */
	uint32_t next_xid;
	bool fired[INJ_MAX_SPECS];   /* an entry without WHEN has fired (once per run) */
	/* the calls of the injection waiting for the client's answers */
	int item;                    /* its --inject item; -1: none */
	bool probe;                  /* cb-over-grant's one call to learn the grant (no injection) */
	struct px_back_call calls[PXB_MAX_CALLS];
	unsigned n, n_sent, n_answered;
	unsigned within;             /* how many of them the client's grant covered */
	uint32_t granted;            /* that grant, when they went */
	bool judged;                 /* their reaction is written; kept for late answers */
	unsigned server_out;         /* the server's backward calls the client has not answered */
	gint64 t0;
	char rule[16];               /* the rule the inject line named ("": legal on purpose) */
};

void px_back_init(struct px_back *b, const struct px_back_mem *mem);
/* A new client connection: nothing bound, no grant known. */
void px_back_connection(struct px_back *b);
/* A reply (its RPC message rpc) went to the client for the call described as call (NULL:
 * not described): the back channel is bound once a CREATE_SESSION or BIND_CONN_TO_SESSION
 * reply granted it, and no longer after a DESTROY_SESSION. */
void px_back_replied(struct px_back *b, const struct rr_ulp_info *call, const uint8_t *rpc, size_t len);
/* A backward call of the server's relayed to the client; the client's reply to one (its
 * rdma_credit is the client's backward grant, RFC 8167 §4.1). */
void px_back_server_call(struct px_back *b);
void px_back_client_reply(struct px_back *b, uint32_t credit);
/*
 * After the k-th reply to the client (xid; info its call): the calls an
 * injection sends now, built with their chunks registered, in b->calls;
 * their number, 0 when none is due.  cl_inline: what the client receives
 * inline.  The caller sends them in order and says how many went out.
 */
unsigned px_back_due(struct px_back *b, struct agent_run *cl, uint64_t k, uint32_t xid,
		     const struct rr_ulp_info *info, uint32_t cl_inline);
void px_back_sent(struct px_back *b, struct agent_run *cl, unsigned n_sent);
/* Does the client's message msg answer one of the proxy's backward calls (a REPLY of its
 * XID, an RDMA_ERROR, a Long Reply into its Reply chunk), waiting or judged already? */
bool px_back_owns(struct px_back *b, const uint8_t *msg, size_t len);
/* A message from the client: an answer to one of the proxy's calls?  Then it is taken
 * (true), and once every call is answered, the reaction is written. */
bool px_back_answer(struct px_back *b, struct agent_run *cl, const uint8_t *msg, size_t len);
bool px_back_waiting(const struct px_back *b);
/* Milliseconds left of timeout_ms since the calls went out (0: the time is up). */
int px_back_left_ms(const struct px_back *b, uint32_t timeout_ms);
/* The time is up: the reaction so far. */
void px_back_silence(struct px_back *b, struct agent_run *cl);
/* The relay ended (client_left: the client's connection went down, its reaction; else the
 * server's side or a signal ended it, no reaction); the calls are freed. */
void px_back_gone(struct px_back *b, struct agent_run *cl, bool client_left);

#endif
