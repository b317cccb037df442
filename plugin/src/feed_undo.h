/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * feed_undo.h - changes to the per-frame records that a reopened session
 * can take back (feed_undo.c).  Records live in wmem file scope.
 */
#ifndef RRP_FEED_UNDO_H
#define RRP_FEED_UNDO_H

#include <epan/wmem_scopes.h>

/* From here to rrp_undo_end(), every change below is logged (a finish runs). */
void rrp_undo_begin(void);
void rrp_undo_end(void);
/* Revert what was logged, newest first, and forget it. */
void rrp_undo_apply(void);
/* Keep what was logged (nothing will take it back), and forget the log. */
void rrp_undo_forget(void);
void rrp_undo_free(void);

/* Append pointer p to the array in *slot (made in file scope when NULL). */
void rrp_push(wmem_array_t **slot, const void *p);
/* Set key's value in map; NULL removes it. */
void rrp_map_set(wmem_map_t *map, const void *key, void *value);
/* *slot = value */
void rrp_set_ptr(void **slot, void *value);

#endif
