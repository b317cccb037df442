// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * feed_undo.c - what feed.c records while the engine finishes, so that it
 * can be taken back.
 *
 * In a live capture the end of the input is never announced: the plugin
 * finishes the engine whenever Wireshark redraws, and the session reopens
 * when more frames come (rpcrdma/session.h, rr_session_keep_frames).  What
 * the finish delivered (calls never answered, outcomes told at the end)
 * is then void.  Every change feed.c makes to its per-frame records goes
 * through the three setters below; while a finish runs they are logged,
 * and rrp_undo_apply() reverts them newest first.  wmem arrays cannot
 * shrink, so an array is reverted by a copy of its first elements.
 */
#include "ws_compat.h"

#include <stdbool.h>
#include <string.h>

#include <epan/wmem_scopes.h>

#include "feed_undo.h"

enum undo_kind { UNDO_ARRAY, UNDO_MAP, UNDO_PTR };

struct undo {
	enum undo_kind kind;
	wmem_array_t **array;        /* UNDO_ARRAY: the slot, and its count before */
	unsigned count;
	wmem_map_t *map;             /* UNDO_MAP: the key, and its value before (NULL: absent) */
	const void *key;
	void *old;
	void **ptr;                  /* UNDO_PTR: the slot; old value in old */
};

static struct {
	bool logging;
	GArray *log;                 /* struct undo */
} U;

void rrp_undo_begin(void)
{
	if (!U.log)
		U.log = g_array_new(FALSE, FALSE, sizeof(struct undo));
	U.logging = true;
}

void rrp_undo_end(void)
{
	U.logging = false;
}

static void log_it(const struct undo *u)
{
	if (U.logging)
		g_array_append_val(U.log, *u);
}

void rrp_push(wmem_array_t **slot, const void *p)
{
	struct undo u = { .kind = UNDO_ARRAY, .array = slot, .count = *slot ? wmem_array_get_count(*slot) : 0 };

	log_it(&u);
	if (!*slot)
		*slot = wmem_array_new(wmem_file_scope(), sizeof(void *));
	wmem_array_append(*slot, &p, 1);     /* the array holds the pointers themselves */
}

void rrp_map_set(wmem_map_t *map, const void *key, void *value)
{
	struct undo u = { .kind = UNDO_MAP, .map = map, .key = key, .old = wmem_map_lookup(map, key) };

	log_it(&u);
	if (value)
		wmem_map_insert(map, key, value);
	else
		wmem_map_remove(map, key);
}

void rrp_set_ptr(void **slot, void *value)
{
	struct undo u = { .kind = UNDO_PTR, .ptr = slot, .old = *slot };

	log_it(&u);
	*slot = value;
}

static void revert_array(wmem_array_t **slot, unsigned count)
{
	wmem_array_t *a;

	if (!count) {
		*slot = NULL;
		return;
	}
	a = wmem_array_sized_new(wmem_file_scope(), sizeof(void *), count);
	wmem_array_append(a, wmem_array_get_raw(*slot), count);
	*slot = a;
}

void rrp_undo_apply(void)
{
	guint i;

	for (i = U.log ? U.log->len : 0; i > 0; i--) {
		struct undo *u = &g_array_index(U.log, struct undo, i - 1);

		switch (u->kind) {
		case UNDO_ARRAY:
			revert_array(u->array, u->count);
			break;
		case UNDO_MAP:
			if (u->old)
				wmem_map_insert(u->map, u->key, u->old);
			else
				wmem_map_remove(u->map, u->key);
			break;
		case UNDO_PTR:
			*u->ptr = u->old;
			break;
		}
	}
	rrp_undo_forget();
}

void rrp_undo_forget(void)
{
	if (U.log)
		g_array_set_size(U.log, 0);
	U.logging = false;
}

void rrp_undo_free(void)
{
	if (U.log)
		g_array_free(U.log, TRUE);
	memset(&U, 0, sizeof(U));
}
