/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Single-rule violation injectors. Each injector may hook these stages of
 * building one message; a hook returns false when it does not apply (for
 * example bad-icrc on an iWARP link), and only injectors that applied are
 * recorded in the truth file.
 *   prep    - before the RPC messages are built: the XID
 *   plan    - before the Payload is reduced: flip knobs in pg_plan, change
 *             the item's chunk shapes or the RPC messages themselves
 *   ops     - the RDMA Reads and Writes are known: add or mark operations
 *   header  - after reduction, before the RPC-over-RDMA header is encoded
 *   wire    - on the RDMA operation that carries the message (CRC damage)
 *   capture - on the frames that carry the message (truncation)
 *
 * Each injector names the rules it breaks (docs/pcapgen.md, "Expected
 * findings"). When it changes a message it records the findings a rule
 * checker must report, as (rule, anchor) pairs: the anchor is the Send of
 * the call or of the reply, or one RDMA operation; the audit (pg_expect.h)
 * turns anchors into frame numbers once the frames are written, and adds
 * the findings that follow from the sequence of messages (credits, XIDs,
 * sizes, chunk shapes).
 */
#ifndef PG_INJECT_H
#define PG_INJECT_H

#include "pg_expect.h"

/* One exchange being generated (pg_exch.h). */
typedef struct pg_exch pg_exch;

typedef struct {
	const pg_scenario *s;
	pg_plan *plan;      /* NULL for header-only messages (DONE/ERROR) */
	pg_rdmamsg *msg;    /* the targeted message (header and wire stages) */
	bool is_call;
	const char *arg;
	pg_op *op;          /* wire stage: the Send carrying the message */
	uint32_t snap;      /* capture stage: output */
	pg_item *item;      /* plan stage: this exchange's copy of the scenario line */
	pg_rpc_pair *rp;    /* the RPC messages as built (unreduced), or NULL */
	pg_exch *ex;        /* NULL for header-only messages */
	uint32_t *xid;      /* prep stage: the exchange's XID */
	bool cb;            /* a backchannel exchange */
} pg_inj_ctx;

typedef struct {
	const char *name;
	bool needs_arg;
	const char *rules;  /* the rules it breaks, blank-separated */
	const char *help;
	bool (*prep)(pg_inj_ctx *c);
	bool (*plan)(pg_inj_ctx *c);
	bool (*ops)(pg_inj_ctx *c);
	bool (*header)(pg_inj_ctx *c);
	bool (*wire)(pg_inj_ctx *c);
	bool (*capture)(pg_inj_ctx *c);
} pg_injector;

const pg_injector *pg_injector_find(const char *name);
const pg_injector *pg_injector_at(size_t i);

/* ---- services pg_exch.c offers the injectors ----
 * An exchange whose environment has no audit is a live one (the agent
 * running the hooks on messages it really sends): the services then keep
 * no frames, and the findings the injectors name go to the observer. */

typedef void (*pg_live_observer)(void *ctx, const char *rule, int at);
/* Where a live exchange's expected findings go (NULL: nowhere). */
void pg_ex_live_observe(pg_live_observer fn, void *ctx);

enum { PG_AT_CALL, PG_AT_REPLY };
/* when an added RDMA operation is posted by the responder */
enum { PG_OPS_READS, PG_OPS_WRITES, PG_OPS_AFTER_REPLY };

/* A finding at the first frame of the call's or the reply's Send. */
void pg_ex_expect(pg_exch *ex, const char *rule, int at);
/* Post an extra operation; a rule, if given, is expected at its first frame. */
void pg_ex_add_op(pg_exch *ex, int when, const pg_op *op, const char *rule);
/* A finding at the first RDMA Write of this exchange into the given handle. */
bool pg_ex_expect_write(pg_exch *ex, const char *rule, uint32_t handle);
/* The index-th operation the responder posts at that time (NULL if none). */
pg_op *pg_ex_op(pg_exch *ex, int when, guint index);
/* Bytes that live as long as the exchange. */
uint8_t *pg_ex_scratch(pg_exch *ex, uint32_t len);
/* Facts (PG_EXF_*) the audit needs about the call or the reply. */
void pg_ex_flag(pg_exch *ex, unsigned flags, bool call);
/* The previous forechannel call's XID (0 and false if none). */
bool pg_ex_prev_xid(pg_exch *ex, uint32_t *xid);
/* Threshold the peer assumes (the RFC 8797 value with the handshake, else 1024). */
uint32_t pg_ex_threshold(pg_exch *ex);

#endif
