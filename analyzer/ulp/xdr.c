// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xdr.c - XDR skipping helpers of the ULP walkers, the one place a
 * DDP-eligible item is reported, and the one place an op's arguments are
 * (rr_ulp_walk_call_args).
 */
#include <string.h>

#include "ulp_internal.h"

void ulp_walk_init(struct ulp_walk *w, struct rr_cursor *c, rr_ddp_fn fn, void *ctx,
		   struct rr_ulp_info *info)
{
	w->c = c;
	w->fn = fn;
	w->ctx = ctx;
	w->info = info;
	w->arg_items = 0;
	w->read_ops = 0;
	w->cur_ordinal = 0;
	w->cur_op = 0;
	w->no_reduction = false;
	w->afn = NULL;
	w->actx = NULL;
	memset(&w->args, 0, sizeof(w->args));
	w->n_args = 0;
}

void ulp_args_begin(struct ulp_walk *w, uint32_t op)
{
	memset(&w->args, 0, sizeof(w->args));
	w->args.op = op;
}

void ulp_args_end(struct ulp_walk *w)
{
	if (w->afn)
		w->afn(w->actx, w->n_args, &w->args);
	w->n_args++;
}

/* The item's length word (UINT32_MAX: none) or its bytes ran past the stream: name it. */
static bool stopped_in_item(struct ulp_walk *w, unsigned ordinal, uint32_t op, uint32_t len, size_t at)
{
	struct rr_ulp_stop_item *s = &w->info->stop_item;

	s->set = true;
	s->op = op;
	s->ordinal = ordinal;
	s->length = len;
	s->pos = at;
	s->left = w->c->len > at ? w->c->len - at : 0;   /* a failed read leaves the cursor in error */
	return false;
}

/* An item's bytes and pad, inline: skipped, and kept as the op's argument item. */
static bool skip_item(struct ulp_walk *w, unsigned ordinal, uint32_t op, uint32_t len, size_t at)
{
	const uint8_t *p;

	if (rr_get_bytes(w->c, len, &p) && rr_skip(w->c, rr_xdr_pad(len))) {
		w->args.item = p;
		return true;
	}
	return stopped_in_item(w, ordinal, op, len, at);
}

bool ulp_ddp_item(struct ulp_walk *w, unsigned ordinal, uint32_t op, uint32_t max)
{
	struct rr_ddp_item item;
	size_t at = rr_cursor_pos(w->c);
	uint32_t len;

	if (!rr_xdr_u32(w->c, &len))
		return stopped_in_item(w, ordinal, op, UINT32_MAX, at);
	if (len > max)
		return false;
	w->args.item_len = len;
	if (w->no_reduction)
		return skip_item(w, ordinal, op, len, at);
	item.ordinal = ordinal;
	item.op = op;
	item.length = len;
	item.data_pos = rr_cursor_pos(w->c);
	w->info->n_ddp_items++;
	/* Moved to a chunk: neither the bytes nor their pad are inline. */
	if (w->fn && w->fn(w->ctx, &item))
		return true;
	return skip_item(w, ordinal, op, len, at);
}

void ulp_note_op(struct rr_ulp_info *info, uint32_t op)
{
	if (info->n_ops < RR_ULP_MAX_OPS)
		info->ops[info->n_ops++] = op;
	else
		info->ops_truncated = true;
}

bool ulp_unknown(struct ulp_walk *w, const char *what, uint32_t value)
{
	if (!w->info->unknown_what) {
		w->info->unknown_what = what;
		w->info->unknown_value = value;
	}
	return false;
}

enum rr_ulp_result ulp_stop(const struct ulp_walk *w, bool known)
{
	return known && !w->info->unknown_what ? RR_ULP_MALFORMED : RR_ULP_UNSUPPORTED;
}

bool ulp_u32(struct rr_cursor *c, uint32_t *v)
{
	return rr_xdr_u32(c, v);
}

bool ulp_skip_words(struct rr_cursor *c, size_t words)
{
	if (words > SIZE_MAX / 4)
		return false;
	return rr_skip(c, words * 4);
}

bool ulp_skip_opaque(struct rr_cursor *c)
{
	return rr_xdr_skip_opaque(c, UINT32_MAX);
}

bool ulp_skip_opaque_max(struct rr_cursor *c, uint32_t max)
{
	return rr_xdr_skip_opaque(c, max);
}

bool ulp_bool(struct rr_cursor *c, bool *v)
{
	return rr_xdr_bool(c, v);
}

bool ulp_count(struct rr_cursor *c, size_t min_size, uint32_t *n)
{
	uint32_t v;

	if (!rr_xdr_u32(c, &v))
		return false;
	if (min_size && v > rr_cursor_left(c) / min_size)
		return false;
	*n = v;
	return true;
}

bool ulp_skip_opaque_array(struct rr_cursor *c)
{
	uint32_t n;

	if (!ulp_count(c, 4, &n))
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!ulp_skip_opaque(c))
			return false;
	return true;
}

bool ulp_skip_fixed_array(struct rr_cursor *c, size_t size, uint32_t max)
{
	uint32_t n;

	if (!ulp_count(c, size, &n))
		return false;
	if (max && n > max)
		return false;
	return rr_skip(c, (size_t)n * size);
}
