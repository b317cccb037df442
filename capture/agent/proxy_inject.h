/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proxy_inject.h - `rpcrdma-agent proxy --inject`: on the client leg the
 * proxy is the responder, so the responder's injectors (serve_inject.h)
 * break the replies it sends the client, and the client's next move is
 * their reaction: a call with the same XID (a retransmission), a new call,
 * a disconnect, or nothing until --timeout (a hang).  The manifest of the
 * client leg gets serve's inject, reaction and verdict lines.
 */
#ifndef AGENT_PROXY_INJECT_H
#define AGENT_PROXY_INJECT_H

#include <stdbool.h>
#include <stdint.h>

#include <rpcrdma/ulp.h>

#include "common.h"
#include "judge.h"
#include "pg_rpcrdma.h"
#include "serve_inject.h"

struct px_inj {
	struct inj_live lv;
	struct serve_inj si;            /* the reply being built */
	bool building;                  /* si is live */
	uint64_t replies;               /* replies sent the client (inject.h's count) */
	struct serve_pending pending;   /* a broken reply waiting for the client's next move */
};

/*
 * Whether the reply now being built still conveys the message the manifest
 * records: not when it went out in another version, with a message type
 * RFC 8166 does not define, or under another XID (orphan-reply); the
 * engine rebuilds none of those as that reply.
 */
bool px_inj_conveys(const struct px_inj *pi, const struct agent_run *cl, const pg_rdmamsg *m);

/* The reply being built was broken and its Send failed: marks it so (sent=failed); false when
 * no injection applied to it. */
bool px_inj_failed_send(struct px_inj *pi);

/* The client leg's --inject, for the responder role; false and a sentence when an item is not. */
bool px_inj_parse(struct agent_run *cl, char *err, size_t errlen);
void px_inj_init(struct px_inj *pi);

/* The client's next move after a broken reply to pending_xid, seen as a call of xid. */
enum jd_answer px_inj_answer(uint32_t pending_xid, uint32_t xid);
/* The NFS program, version and procedures of a call as the generator's item (op= selects on it);
 * false when the call is no NFS call the walk described.  Free out->ops with px_inj_item_clear. */
bool px_inj_item(const struct rr_ulp_info *info, pg_item *out);
void px_inj_item_clear(pg_item *it);

/* A call from the client (xid): the reaction of a pending broken reply. */
void px_inj_call(struct px_inj *pi, struct agent_run *cl, uint32_t xid);
/* The reply to xid (info: its call, NULL when not described) is being built. */
void px_inj_begin(struct px_inj *pi, struct agent_run *cl, uint32_t xid, const struct rr_ulp_info *info);
/* The plan stage on the reply's RPC message msg (the server's, results in place): a copy of
 * it as the hooks left it when one changed it, else NULL. */
GByteArray *px_inj_plan(struct px_inj *pi, struct agent_run *cl, const uint8_t *msg, size_t len);
/* Can an injector with these responder stages (INJ_ST_*) run on a relayed reply? */
bool px_inj_plan_ok(const char *name, unsigned stages);
/* Its header is final (before the encoding) / its wire is encoded. */
void px_inj_header(struct px_inj *pi, struct agent_run *cl, pg_rdmamsg *m);
void px_inj_wire(struct px_inj *pi, struct agent_run *cl, pg_rdmamsg *m);
/* Is the agent's own item name asked for on this reply (oversize-send)? */
bool px_inj_agent(struct px_inj *pi, struct agent_run *cl, const char *name);
/* The reply went out (or the connection went down under it: sent anyway). */
void px_inj_sent(struct px_inj *pi, struct agent_run *cl, const pg_rdmamsg *m);
void px_inj_end(struct px_inj *pi);
/* Is a broken reply waiting for the client's answer (the event loop waits --timeout for it)? */
bool px_inj_waiting(const struct px_inj *pi);
/* No message for --timeout, or the client leg ended: the reaction of a pending broken reply. */
void px_inj_silence(struct px_inj *pi, struct agent_run *cl);
void px_inj_gone(struct px_inj *pi, struct agent_run *cl);

#endif
