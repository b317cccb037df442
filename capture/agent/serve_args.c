// SPDX-License-Identifier: GPL-2.0-or-later
/* What a call asks of serve, for its subset of NFS (serve_args.h). */
#include "serve_args.h"

#include <string.h>

#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "pg_nfs.h"

/* The procedures and ops serve answers (serve_fs.c); any other leaves the call incomplete. */
static bool in_subset(bool v3, uint32_t op)
{
	static const uint32_t v3_ops[] = { NFS3_NULL, NFS3_GETATTR, PG_NFS3_LOOKUP, NFS3_READLINK,
					   NFS3_READ, NFS3_WRITE, NFS3_SYMLINK, NFS3_READDIR };
	static const uint32_t v4_ops[] = { OP4_SEQUENCE, OP4_PUTFH, OP4_PUTROOTFH, OP4_GETFH,
					   OP4_READLINK, OP4_GETATTR, OP4_LOOKUP, OP4_READ,
					   OP4_WRITE, OP4_READDIR, OP4_CREATE };
	const uint32_t *t = v3 ? v3_ops : v4_ops;
	size_t n = v3 ? G_N_ELEMENTS(v3_ops) : G_N_ELEMENTS(v4_ops);

	for (size_t i = 0; i < n; i++)
		if (t[i] == op)
			return true;
	return false;
}

struct keep {
	struct sa_call *out;
	bool v3;
	bool outside;               /* an op beyond SA_MAX_OPS or outside the subset */
};

/* One op's arguments as the engine read them, in serve's terms. */
static void keep_op(void *ctx, unsigned index, const struct rr_ulp_op_args *a)
{
	struct keep *k = ctx;
	struct sa_op *o;

	if (k->outside || index >= SA_MAX_OPS || !in_subset(k->v3, a->op)) {
		k->outside = true;
		return;
	}
	o = &k->out->op[k->out->n++];
	o->op = a->op;
	o->fh = a->fh;
	o->fhlen = a->fh_len;
	o->offset = a->offset;
	o->target_len = a->item_len;
	o->seqid = a->seqid;
	if (a->op == (k->v3 ? (uint32_t)NFS3_WRITE : (uint32_t)OP4_WRITE)) {
		o->data = a->item;
		o->len = a->item_len;
		o->target_len = 0;
	} else if (!k->v3 && a->op == OP4_SEQUENCE) {
		o->data = a->sessionid;
		o->len = 16;
	} else {
		o->data = a->name;
		o->len = a->name_len;
	}
}

void sa_decode(const uint8_t *args, size_t len, uint32_t vers, uint32_t proc, struct sa_call *out)
{
	const struct rr_rpc_call call = { .prog = RR_NFS_PROGRAM, .vers = vers, .proc = proc };
	struct keep k = { .out = out, .v3 = vers == 3 };
	struct rr_ulp_info info;
	struct rr_cursor c;

	memset(out, 0, sizeof(*out));
	if (vers != 3 && (vers != 4 || proc != 1))
		return;
	rr_cursor_init(&c, args, len);
	out->complete = rr_ulp_walk_call_args(&call, &c, keep_op, &k, &info) == RR_ULP_OK &&
			!info.ops_truncated && !k.outside;
}
