/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * held.h - findings that wait for the capture to show it lost nothing.
 *
 * Some findings say a message is missing: a reply without its call
 * (RR-003), an RDMA_ERROR without its call (RR-110), calls outstanding
 * beyond the credits because no reply came (RR-102, RR-103, RR-104), a call
 * XID reused while the first one is unanswered (RR-004).  If the capture
 * lost that message, the finding is false, and the loss shows only when
 * the stream that carried it goes on: the next packet of that sender (a
 * PSN gap on IB/RoCE, a TCP gap on iWARP) or an ACK of it.  So such a
 * finding is held until its connection's next Send from that side: told
 * then, unless the connection lost packets meanwhile (then it is skipped
 * and counted as not captured); at the connection's end it is told unless
 * the connection lost packets.  An idle connection may not send again for
 * minutes, so the hold is bounded in time as well: once the capture's clock
 * is a bound (held.c) past the moment it was held, it is settled as at its
 * connection's end.  Checks call ck_hold() (below report.c in the call
 * graph; it reports through it); the dispatcher settles them.
 */
#ifndef RPCRDMA_CK_HELD_H
#define RPCRDMA_CK_HELD_H

#include "check_int.h"

/*
 * Like ck_report(), held until the side that sends the messages whose loss
 * would explain it sends again: calls of direction dir (calls true) or
 * their replies (calls false).
 */
void ck_hold(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule, uint64_t frame, int dir,
	     bool calls, const char *fmt, ...) G_GNUC_PRINTF(7, 8);

/* The dispatcher: each fact settles what it can (after the connection's cut mark is updated). */
void ck_held_settle(struct rr_checker *ck, const struct rr_fact *f);
/* The capture's clock reads ts_usec: the findings held that long before it are settled. */
void ck_held_clock(struct rr_checker *ck, uint64_t ts_usec);
void ck_held_free(struct rr_checker *ck);

#endif
