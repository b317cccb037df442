/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * recent.h - calls seen lately (recent.c), by requester host and XID: the
 * one place a repeated call is found (rr_msg_view.retry).  Bounded by
 * RR_RECENT_CALLS distinct keys, oldest forgotten.
 */
#ifndef RPCRDMA_RECENT_H
#define RPCRDMA_RECENT_H

#include <stdbool.h>
#include <stdint.h>

struct rr_recent;
struct rr_recent *rr_recent_new(void);
/* key was seen among the last RR_RECENT_CALLS distinct keys; else it is remembered. */
bool rr_recent_repeat(struct rr_recent *r, uint64_t key);
/*
 * A hint that key will be asked for soon: its slot is fetched into the
 * cache meanwhile (the set is a megabyte; each lookup would wait on memory).
 */
void rr_recent_prefetch(const struct rr_recent *r, uint64_t key);
void rr_recent_free(struct rr_recent *r);

#endif
