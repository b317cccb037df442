/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rnr.h - a receiver refusing a Send because no Receive was posted: an
 * IB/RoCE RNR NAK or an iWARP Terminate "no buffer available", told to the
 * check stage (RR-107), and one longer than the Receive posted (what RR-045
 * infers from).  Keeps no state.
 */
#ifndef RPCRDMA_RNR_H
#define RPCRDMA_RNR_H

#include "engine_int.h"

/* An ACK or Terminate event: a fact for the check stage if it is such a refusal on an RPC-over-RDMA connection. */
void rr_rnr_event(struct rr_engine *eng, const struct rr_event *ev);

#endif
