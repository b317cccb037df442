// SPDX-License-Identifier: GPL-2.0-or-later
/* Does a READ return what WRITE put there (readback.h). */
#include "readback.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>

#include "pg_buf.h"
#include "pg_nfs.h"

void rb_init(struct rb_state *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->store = ss_new(SS_DEFAULT_LIMIT);
}

void rb_free(struct rb_state *rb)
{
	ss_free(rb->store);
	g_free(rb->call);
	memset(rb, 0, sizeof(*rb));
}

void rb_call(struct rb_state *rb, const uint8_t *msg, size_t len)
{
	struct rr_cursor c;
	struct rr_rpc_call rc;

	g_free(rb->call);
	rb->call = g_memdup2(msg, len);
	rb->call_len = len;
	rb->pending = false;
	memset(&rb->info, 0, sizeof(rb->info));
	rr_cursor_init(&c, rb->call, len);
	if (!rr_rpc_decode_call(&c, &rc) || rc.prog != PG_PROG_NFS || rc.is_gss ||
	    rr_ulp_walk_call(&rc, &c, NULL, NULL, &rb->info) != RR_ULP_OK)
		return;
	sa_decode(rb->call + rc.args_off, len - rc.args_off, rc.vers, rc.proc, &rb->args);
	rb->xid = rc.xid;
	rb->pending = rb->args.complete && rb->args.n;
}

/* The READ-class results of a reply: where each one's data is, by ordinal. */
struct items {
	size_t pos[SA_MAX_OPS];
	uint32_t len[SA_MAX_OPS];
	bool set[SA_MAX_OPS];
};

static bool note(void *ctx, const struct rr_ddp_item *it)
{
	struct items *x = ctx;
	if (it->ordinal < SA_MAX_OPS) {
		x->pos[it->ordinal] = it->data_pos;
		x->len[it->ordinal] = it->length;
		x->set[it->ordinal] = true;
	}
	return false;   /* the Payload stream has every item in place */
}

/* One READ's data against what was written in its range. */
static void compare(struct rb_state *rb, const uint8_t *fh, uint32_t fhlen, uint64_t off,
		    const uint8_t *data, uint32_t len, struct rb_result *out)
{
	uint8_t *want = g_memdup2(data, len);
	uint64_t n = ss_read(rb->store, fh, fhlen, off, want, len);

	out->compared += n;
	for (uint32_t i = 0; n && i < len && out->equal; i++) {
		if (want[i] == data[i])
			continue;
		out->equal = false;
		snprintf(out->text, sizeof(out->text), "READ at offset %llu: byte %llu is 0x%02x, "
			 "WRITE put 0x%02x there", (unsigned long long)off,
			 (unsigned long long)(off + i), data[i], want[i]);
	}
	g_free(want);
}

bool rb_reply(struct rb_state *rb, const uint8_t *msg, size_t len, struct rb_result *out)
{
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	struct rr_ulp_info info;
	struct items *x;
	const uint8_t *cur = NULL;
	uint32_t curlen = 0, status;
	unsigned ordinal = 0, ran;
	bool v3 = rb->info.vers == 3;

	memset(out, 0, sizeof(*out));
	out->equal = true;
	if (!rb->pending || len < 4 || pb_get_be32(msg) != rb->xid)
		return false;
	rb->pending = false;
	rr_cursor_init(&c, msg, len);
	if (!rr_rpc_decode_reply(&c, &rep) || rep.reply_stat || rep.accept_stat ||
	    rr_cursor_left(&c) < 4)
		return false;
	x = g_new0(struct items, 1);
	memset(&info, 0, sizeof(info));
	(void)rr_ulp_walk_reply(&rb->info, &rep, &c, note, x, &info);
	status = info.status;   /* the procedure's or COMPOUND's, as the walk read it */
	/* the ops that ran and succeeded: all when the status is OK, else those before the last */
	ran = v3 ? (status ? 0 : 1) : status ? (info.n_ops ? info.n_ops - 1u : 0) : info.n_ops;
	for (unsigned i = 0; i < rb->args.n && i < ran; i++) {
		const struct sa_op *o = &rb->args.op[i];
		uint32_t op = v3 ? o->op + 1000 : o->op;
		const uint8_t *fh = v3 ? o->fh : cur;
		uint32_t fhlen = v3 ? o->fhlen : curlen;
		if (op == OP4_PUTFH) {
			cur = o->fh;
			curlen = o->fhlen;
		} else if (op == OP4_PUTROOTFH || op == OP4_LOOKUP || op == OP4_CREATE) {
			curlen = 0;   /* a handle the call does not name: nothing to compare */
		} else if ((op == 1000 + NFS3_WRITE || op == OP4_WRITE) && fhlen) {
			ss_write(rb->store, fh, fhlen, o->offset, o->data, o->len);
		} else if (op == 1000 + NFS3_READ || op == OP4_READ) {
			if (fhlen && x->set[ordinal] && x->pos[ordinal] + x->len[ordinal] <= len)
				compare(rb, fh, fhlen, o->offset, msg + x->pos[ordinal], x->len[ordinal],
					out);
		}
		if (op == 1000 + NFS3_READ || op == OP4_READ || op == 1000 + NFS3_READLINK ||
		    op == OP4_READLINK)
			ordinal++;
	}
	g_free(x);
	if (!out->compared)
		return false;
	if (out->equal)
		snprintf(out->text, sizeof(out->text), "the %llu bytes WRITE put in the READ's range "
			 "came back", (unsigned long long)out->compared);
	return true;
}
