/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readback.h - drive's check that a READ returns what an earlier WRITE
 * put there.  drive hands over each call it sends (the whole RPC message,
 * WRITE data in place) and each reply it put back together; a WRITE the
 * server acknowledged (NFS status OK) is kept, per file handle and offset
 * (serve_store.h, the same limit as serve's), and the data of every READ
 * result is compared, byte for byte, with the written bytes in its range.
 * Bytes nothing was written to are not compared (a server's own data).
 */
#ifndef AGENT_READBACK_H
#define AGENT_READBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/ulp.h>

#include "serve_args.h"
#include "serve_store.h"

struct rb_result {
	bool equal;                /* every written byte in every READ's range came back */
	uint64_t compared;         /* written bytes found in the READ ranges */
	char text[200];
};

struct rb_state {
	struct ss_store *store;    /* what the server acknowledged */
	/* the call in flight */
	bool pending;
	uint32_t xid;
	uint8_t *call;
	size_t call_len;
	struct sa_call args;       /* points into call */
	struct rr_ulp_info info;
};

void rb_init(struct rb_state *rb);
void rb_free(struct rb_state *rb);
/* A call sent: msg is the RPC call (copied). */
void rb_call(struct rb_state *rb, const uint8_t *msg, size_t len);
/*
 * Its reply (the Payload stream, chunk data in place): true when a READ
 * in it covered written bytes, *out then says whether they came back.
 */
bool rb_reply(struct rb_state *rb, const uint8_t *msg, size_t len, struct rb_result *out);

#endif
