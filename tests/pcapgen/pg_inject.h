/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Single-rule violation injectors. Each injector may hook four stages of
 * building one message; a hook returns false when it does not apply (for
 * example bad-icrc on an iWARP link), and only injectors that applied are
 * recorded in the truth file.
 *   plan    - before the Payload is reduced: flip knobs in pg_plan
 *   header  - after reduction, before the RPC-over-RDMA header is encoded
 *   wire    - on the RDMA operation that carries the message (CRC damage)
 *   capture - on the frames that carry the message (truncation)
 */
#ifndef PG_INJECT_H
#define PG_INJECT_H

#include "pg_rpcrdma.h"
#include "pg_xport.h"

typedef struct {
	const pg_scenario *s;
	pg_plan *plan;      /* NULL for header-only messages (DONE/ERROR) */
	pg_rdmamsg *msg;    /* the targeted message */
	bool is_call;
	const char *arg;
	pg_op *op;          /* wire stage: the Send carrying the message */
	uint32_t snap;      /* capture stage: output */
} pg_inj_ctx;

typedef struct {
	const char *name;
	bool needs_arg;
	const char *help;
	bool (*plan)(pg_inj_ctx *c);
	bool (*header)(pg_inj_ctx *c);
	bool (*wire)(pg_inj_ctx *c);
	bool (*capture)(pg_inj_ctx *c);
} pg_injector;

const pg_injector *pg_injector_find(const char *name);
const pg_injector *pg_injector_at(size_t i);

#endif
