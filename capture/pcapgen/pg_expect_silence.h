/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit of answers that must come and answers that must not
 * (pg_expect_silence.c): a call the responder must refuse with RDMA_ERROR
 * and leaves unanswered on a connection that stays up (RR-121), and an
 * answer to RDMA_DONE (RR-133) or to an RDMA_ERROR (RR-117). pg_expect.c hands it every message, in
 * emission order, and takes the RR-121 findings when it writes the truth.
 */
#ifndef PG_EXPECT_SILENCE_H
#define PG_EXPECT_SILENCE_H

#include "pg_expect.h"

typedef struct pg_silence pg_silence;

pg_silence *pg_silence_new(const pg_scenario *s);
void pg_silence_free(pg_silence *z);
/* A connection opens: what waited on the old one goes with it. */
void pg_silence_conn(pg_silence *z);
/* A message after pg_expect.c's own audit of it; answered: the call a
 * reply or RDMA_ERROR answers (NULL: none, or not an answer). */
void pg_silence_msg(pg_silence *z, const pg_msginfo *mi, const pg_msginfo *answered);
/* The silent calls found so far, in the order they were told: RR-121 at each one's Send. */
const GPtrArray *pg_silence_found(const pg_silence *z);
/* Is this answer to no call an answer to the RDMA_DONE before it (RR-133, not RR-003)? */
bool pg_silence_answers_done(const pg_silence *z, const pg_msginfo *mi);
/* A reply or RDMA_ERROR (normal: a reply) that answers no call: RR-003 for
 * a reply, and the rule of what it answers instead: RR-133 the RDMA_DONE
 * before it (RFC 8166 4.6.2), RR-117 an RDMA_ERROR of the peer (4.2.4,
 * 4.5); else an RDMA_ERROR whose XID no call had breaks RR-110, told
 * always when it answers a reply of the peer whose transport header has
 * errors (which the receiver discards, 4.5, 4.6.1), else where the
 * handshake shows no call was missed.  Fills rules (at most 2), returns how many. */
size_t pg_silence_orphan(pg_silence *z, const pg_msginfo *mi, bool normal, const char **rules);

#endif
