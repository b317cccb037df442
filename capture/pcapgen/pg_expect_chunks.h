/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the audit expects of how a normal answer returned the chunks its call
 * offered (pg_expect_chunks.c): pure judgements on the two messages' facts,
 * which pg_expect.c turns into expected findings. */
#ifndef PG_EXPECT_CHUNKS_H
#define PG_EXPECT_CHUNKS_H

#include "pg_expect.h"

#define PG_ANSWER_CHUNK_RULES_MAX 4

/* The rules that a normal answer r (RDMA_MSG, RDMA_NOMSG, RDMA_MSGP) to
 * the call c breaks by how it returned c's chunks: up to
 * PG_ANSWER_CHUNK_RULES_MAX names into rules, their number returned. */
size_t pg_answer_chunk_rules(const pg_msginfo *c, const pg_msginfo *r, const char **rules);

/* RFC 8166 §3.4.5.2: did the requester put the XDR pad of a reduced
 * argument into its read chunk (pad=on)?  That is RR-071 at the call c. */
bool pg_call_pad_in_read_chunk(const pg_msginfo *c, const pg_plan *plan);

#endif
