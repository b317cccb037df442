/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tcp_table.h - the TCP directions of a capture (tcp_table.c): found by
 * their addresses and ports, paired with the other direction of their
 * connection, and counted against one memory budget.
 *
 * What to do when the budget or the table overflows is the reassembly's
 * policy (tcp_stream.c); this module only answers which direction holds
 * most and which were active least recently.
 */
#ifndef RR_DECODE_TCP_TABLE_H
#define RR_DECODE_TCP_TABLE_H

#include "iwarp.h"

struct tcp_table *tcp_table_new(void);
void tcp_table_free(struct tcp_table *t);
/* Forget every direction: a new capture part starts. */
void tcp_table_clear(struct tcp_table *t);

/* The direction with key k, or NULL; find remembers it for the next call
 * (most segments repeat the last direction), get does not. */
struct tcp_stream *tcp_table_find(struct tcp_table *t, const struct stream_key *k);
struct tcp_stream *tcp_table_get(struct tcp_table *t, const struct stream_key *k);
/* A new direction with key k (all else zero), remembered for find. */
struct tcp_stream *tcp_table_add(struct tcp_table *t, const struct stream_key *k);
guint tcp_table_size(const struct tcp_table *t);
/* The other direction of s's connection, once seen. */
struct tcp_stream *stream_peer(struct rr_frame_ctx *fx, const struct tcp_stream *s);

/* Every direction, in the table's order: tcp_table_walk() once, then
 * tcp_table_next() until false.  The table must not change meanwhile. */
void tcp_table_walk(struct tcp_table *t, GHashTableIter *it);
bool tcp_table_next(GHashTableIter *it, struct tcp_stream **s);

/* ---- memory budget ---- */
/* Give back capacity s no longer uses, and count s as it is now. */
void tcp_table_settle(struct tcp_table *t, struct tcp_stream *s);
/* What all directions hold together, as last settled. */
size_t tcp_table_held(const struct tcp_table *t);
/* The direction counted for most, or NULL when the table is empty. */
struct tcp_stream *tcp_table_biggest(struct tcp_table *t);
/* True once: the first time the table is found full (for a report said once). */
bool tcp_table_first_full(struct tcp_table *t);
/* Every direction but keep, least recently active first (g_free the array). */
struct tcp_stream **tcp_table_by_age(struct tcp_table *t, const struct tcp_stream *keep,
				     guint *n);
/* Remove s from the table and free it. */
void tcp_table_forget(struct tcp_table *t, struct tcp_stream *s);

#endif
