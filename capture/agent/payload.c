// SPDX-License-Identifier: GPL-2.0-or-later
/* A reply's Payload stream from the pieces the requester holds (payload.h). */
#include "payload.h"

#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>

static const uint8_t zeros[4];

bool pl_describe_call(const uint8_t *msg, size_t len, struct rr_rpc_call *call,
		      struct rr_ulp_info *info)
{
	struct rr_cursor c;
	rr_cursor_init(&c, msg, len);
	memset(info, 0, sizeof(*info));
	if (!rr_rpc_decode_call(&c, call))
		return false;
	return rr_ulp_walk_call(call, &c, NULL, NULL, info) != RR_ULP_MALFORMED;
}

struct reply_walk {
	const struct pl_chunk *writes;
	unsigned n_writes;
	struct { size_t pos; unsigned k; uint32_t len; } moved[RR_ULP_MAX_OPS];
	unsigned n_moved;
};

static bool moved_out(void *ctx, const struct rr_ddp_item *it)
{
	struct reply_walk *w = ctx;
	/* a zero-length item has nothing to fetch, whatever the chunk says */
	if (it->ordinal >= w->n_writes || !w->writes[it->ordinal].len || !it->length ||
	    w->n_moved >= RR_ULP_MAX_OPS)
		return false;
	w->moved[w->n_moved].len = it->length;
	w->moved[w->n_moved].pos = it->data_pos;
	w->moved[w->n_moved].k = it->ordinal;
	w->n_moved++;
	return true;
}

bool pl_reply(const struct rr_ulp_info *callinfo, const uint8_t *base, size_t base_len,
	      const struct pl_chunk *writes, unsigned n_writes, GByteArray *out, char *err,
	      size_t errlen)
{
	struct reply_walk w = { .writes = writes, .n_writes = n_writes };
	struct rr_rpc_reply rep;
	struct rr_ulp_info info;
	struct rr_cursor c;
	size_t used = 0;

	g_byte_array_set_size(out, 0);
	rr_cursor_init(&c, base, base_len);
	if (n_writes && callinfo && rr_rpc_decode_reply(&c, &rep))
		(void)rr_ulp_walk_reply(callinfo, &rep, &c, moved_out, &w, &info);
	for (unsigned i = 0; i < w.n_moved; i++) {
		const struct pl_chunk *ch = &writes[w.moved[i].k];
		if (w.moved[i].pos < used || w.moved[i].pos > base_len) {
			snprintf(err, errlen, "result %u: position %zu out of order", i, w.moved[i].pos);
			return false;
		}
		g_byte_array_append(out, base + used, (guint)(w.moved[i].pos - used));
		used = w.moved[i].pos;
		/* the item is as long as its length word says; a chunk that came
		 * back longer (a responder's fault) does not add bytes to it */
		g_byte_array_append(out, ch->data, MIN(ch->len, w.moved[i].len));
		if (out->len % 4)
			g_byte_array_append(out, zeros, 4 - out->len % 4);
	}
	g_byte_array_append(out, base + used, (guint)(base_len - used));
	return true;
}
