/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * react.h - how the agent records a peer's reaction to one injection, for
 * drive, serve and the proxy alike: the reaction line and the verdict line
 * of the manifest (docs/rpcrdma-agent.8, MANIFEST), the verdict as judge.h
 * gives it, and the line on standard error.
 */
#ifndef RPCRDMA_AGENT_REACT_H
#define RPCRDMA_AGENT_REACT_H

#include <stdbool.h>
#include <stdint.h>

#include "judge.h"

struct mf_writer;

/*
 * The peer's reaction r to injection `inject` on the message with XID xid
 * (reply: a reply the agent broke, else a call), role as jd_judge() takes
 * it, broke the rule the agent broke.  mf may be NULL (no manifest).
 */
void inj_react_record(struct mf_writer *mf, const char *inject, int role, const char *broke, uint32_t xid,
		      bool reply, const struct jd_reaction *r);

#endif
