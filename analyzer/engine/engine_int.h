/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine_int.h - the engine as its modules see it.  Not installed.
 *
 * Every module owns its state: it alone makes, writes and frees it, and the
 * others reach it only through the functions of the module's header (or
 * read a public part that header defines).  A module's per-flow state hangs
 * from one opaque pointer in struct rr_flow, its per-engine state from one
 * opaque pointer below.
 *
 *   engine.c          dispatch: which stage runs next, teardown order, the
 *                     flow table's bound.  Owns the event being fed and
 *                     whether ENG-LIMIT was said (behind this struct).
 *   conn.c conn_cm.c  flows and connections, pairing, the handshake
 *   (conn.h)          (rr_engine.conns; rr_flow and rr_conn).
 *   xfer.c xfer_send.c  Sends from packets; RDMA Write and Read Response
 *   (xfer.h)          bytes to placements (rr_flow.xfer, rr_engine.xfer).
 *   segstore.c        segments calls advertised, bytes placed in them
 *   (segstore.h)      (rr_flow.segs, rr_engine.segstore; rr_seg).
 *   call.c (call.h)   calls kept until their reply (rr_flow.calls; rr_call).
 *   rebuild.c rebuild_reply.c (rebuild.h), mbuf.c (mbuf.h)
 *                     the Payload rebuilt; no state of their own.
 *   record.c record_view.c (record.h)  the message record and its view,
 *                     through the check stage to the reporter.
 *   recent.c (recent.h)  calls seen lately, for the view's retry flag
 *                     (rr_engine.recent, made and written by record.c).
 *   budget.c (budget.h)  bytes held for later (rr_engine.budget).
 *   frames.c (frames.h)  sorted frame lists.
 *
 * Calls go one way (no file calls a file that calls it back):
 * engine.c -> conn, xfer, call, segstore, rebuild, budget; rebuild -> call,
 * record, mbuf, conn, segstore; xfer -> conn, segstore; call, mbuf ->
 * segstore; segstore, xfer, call -> budget, frames; record -> conn,
 * record_view, recent;
 * conn_cm.c -> conn.c.  conn.c calls no module (the pairing predicates it
 * runs are passed in).
 */
#ifndef RPCRDMA_ENGINE_INT_H
#define RPCRDMA_ENGINE_INT_H

#include <glib.h>

#include "engine.h"
#include "scratch.h"

struct rr_checker;
struct rr_flow;
struct rr_conn;
struct rr_call;

/* A byte range [start, end). */
struct rr_range {
	uint64_t start, end;
};

/* Freed calls the engine keeps, with their buffers, for new calls (call.c). */
#define RR_CALL_SPARES 32

struct rr_engine {
	/* Set by engine.c (from rr_engine_new and the setters); every module reads them. */
	struct rr_engine_limits lim;
	struct rr_diag_sink diag;
	struct rr_checker *checker;   /* the check stage (check/check.h) */
	struct rr_check_opts check_opts;
	rr_message_fn fn;
	void *ctx;
	rr_send_fn send_fn;
	void *send_ctx;
	rr_rdma_fn rdma_fn;           /* called by segstore.c (placements) and xfer.c (requests, misses) */
	void *rdma_ctx;
	/*
	 * The public counters, each counted by the one module that sees what it
	 * counts: events (engine.c), connections (conn.c), dup_packets and
	 * rdma_unmatched (xfer.c), not_rpcrdma (rebuild.c), messages, calls,
	 * replies and incomplete (record.c).
	 */
	struct rr_engine_stats stats;
	/* Each module's own state, opaque outside it; engine.c has it made and freed. */
	struct rr_budget *budget;
	struct rr_conn_table *conns;
	struct rr_xfer *xfer;
	struct rr_segstore *segstore;
	struct rr_recent *recent;     /* record.c's recent calls, for rr_msg_view.retry (made at the first) */
	GHashTable *ulp_unknown;      /* record.c: "conn what value" of unknown ULP items told (made at the first) */
	struct rr_scratch scratch;    /* the rebuild's arrays, given back after each message (scratch.c) */
	struct rr_hdr *send_hdr;      /* rebuild.c: the Send being judged's header (made at the first) */
	struct rr_call *call_spares[RR_CALL_SPARES];   /* call.c: freed calls kept for the next ones */
	unsigned n_call_spares;
};

#endif
