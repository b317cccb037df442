/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * back_fixture.h - what the tests of the proxy's backward calls share
 * (capture/agent/proxy_back.c without verbs): recording fakes of common.c,
 * chunk memory malloc'd behind made-up R_Keys, a run with a real manifest
 * read back, and messages of the client's written out by hand: RPC-over-RDMA
 * headers by RFC 8166 §4.2, RPC replies by RFC 5531 §9, the CREATE_SESSION
 * reply by RFC 8881 §18.36.2.
 */
#ifndef TEST_BACK_FIXTURE_H
#define TEST_BACK_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/hdr.h>

#include "proxy_back.h"

/* What the proxy asked of common.c's fakes. */
struct back_seen {
	unsigned injects, events;
	char rule[16];
	uint32_t xid;
	bool reply;
	char event[32];
};
extern struct back_seen seen;
extern unsigned regs, deregs;

struct fixture {
	struct agent_run run;
	struct px_back b;
	char path[64];
};

/* A run with --inject inject and a manifest in a temporary file. */
struct fixture *setup_run(const char *inject);
/* Ends the run as the client leaving would (px_back_gone), checks every region was
 * given back, reads the manifest: the last verdict's result, rule and the answer of the
 * last reaction ("" when none), and how many verdicts there were.  Frees f. */
size_t verdict(struct fixture *f, char *result, char *rule, char *answer);
/* The server's CREATE_SESSION reply to a call asking for the back channel, granting
 * csr_flags (0x2: CONN_BACK_CHAN), as the relay hands it to px_back_replied. */
void bind_with(struct px_back *b, uint32_t csr_flags);
void bind_back(struct px_back *b);
uint32_t be32(const uint8_t *p);
/* A CB_NULL call of program prog, version vers (RFC 5531 §9). */
void assert_cb_null(const uint8_t *p, size_t len, uint32_t xid, uint32_t prog, uint32_t vers);
/* The client's RDMA_MSG (no chunks) to xid with credit, carrying the RPC words rpc: what
 * px_back_answer said of it. */
bool answer_words(struct fixture *f, uint32_t xid, uint32_t credit, const uint32_t *rpc, size_t n);
/* ... carrying an accepted SUCCESS reply (the answer must be taken). */
void answer_reply(struct fixture *f, uint32_t xid, uint32_t credit);
/* RDMA_ERROR ERR_CHUNK to xid (taken). */
void answer_err_chunk(struct fixture *f, uint32_t xid);
/* The back channel bound, the first reply's one backward call, its header in h. */
const struct px_back_call *one_call(struct fixture *f, struct rr_hdr *h);

#endif
