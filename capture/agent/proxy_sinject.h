/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proxy_sinject.h - `rpcrdma-agent proxy --inject-server`: on the server
 * leg the proxy is the requester, so the requester's injectors
 * (inject_req.h, the generator's hooks through inject_live.c) break the
 * calls it relays to the server.  The relay builds a call from the
 * client's (its own chunks, the client's Payload), not from a scenario
 * line, so the injectors it carries are those whose hooks work on the
 * transport header or on the Send's bytes alone (px_sinj_carried).
 *
 * A broken call goes to the server alone (no other call outstanding), so
 * that the server's next forward message, its silence or its disconnect
 * is the reaction, judged by judge.c in the server leg's manifest.  The
 * client never sees the injection: a normal reply (or an NFS error) to
 * the broken call is relayed as the answer; after any other reaction the
 * proxy sends the call again unbroken under a fresh XID (reusing the
 * broken call's XID after an RDMA_ERROR would itself break RFC 8166 §4.5)
 * and relays that answer, with the client's XID put back.
 */
#ifndef AGENT_PROXY_SINJECT_H
#define AGENT_PROXY_SINJECT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/ulp.h>

#include "common.h"
#include "inject_req.h"
#include "judge.h"
#include "pg_rpcrdma.h"

struct px_sinj {
	struct inj_live lv;
	uint64_t calls;           /* calls built toward the server (inject.h's count) */
	uint32_t fresh;           /* the last XID given to an unbroken resend */
};

/* A call's broken twin, sent to the server in its place. */
struct px_broken {
	struct req_inj ri;
	GByteArray *wire;         /* the broken Send */
	uint32_t xid;             /* its transport header's XID (the inject lines') */
	bool rebuilt;             /* the engine can rebuild it (its rpc line) */
	gint64 t0;                /* when it was sent */
};

/* The server leg's --inject-server for the requester role; false and a sentence
 * when an item is not one the relay carries. */
bool px_sinj_parse(struct agent_run *sv, char *err, size_t errlen);
/* Can an injector with these requester stages (INJ_ST_*) run on a relayed call? */
bool px_sinj_carried(const char *name, unsigned stages);
void px_sinj_init(struct px_sinj *si);

/* The next call toward the server, m its message as the relay built and
 * encoded it (the clean Send is the caller's copy), payload its RPC call,
 * info its description (NULL: not described; op= then selects nothing).
 * Its broken twin, or NULL when no item hits it or none changed it; m is
 * left as the hooks left it. */
struct px_broken *px_sinj_break(struct px_sinj *si, const struct inj_list *l, uint32_t xid,
				const GByteArray *payload, const struct rr_ulp_info *info, pg_rdmamsg *m);
void px_broken_free(struct px_broken *b);

/* The server's answer to a call as the requester sees it: msg its transport
 * message, rpc the RPC reply it carries (NULL: none, an RDMA_ERROR). */
enum jd_answer px_sinj_classify(const uint8_t *msg, size_t len, const uint8_t *rpc, size_t rpc_len,
				uint32_t *credit);
/* Is that answer relayed to the client as the answer to its call (else the
 * call goes again unbroken)? */
bool px_sinj_relays(enum jd_answer a);
/* The reaction and verdict lines of a broken call. */
void px_sinj_react(struct agent_run *sv, const struct px_broken *b, enum jd_answer a, uint32_t credit);
/* A fresh XID for an unbroken resend: none of those in use (calls: xid -> call). */
uint32_t px_sinj_fresh_xid(struct px_sinj *si, GHashTable *calls, uint32_t avoid);
/* The XID word at p (XDR, big-endian). */
void px_put_xid(uint8_t *p, uint32_t xid);
/* A relayed call under another XID: its Send's transport header and RPC message (inline
 * after the header for RDMA_MSG, else the first word of pzrc, a Long Call's Position-Zero
 * chunk), and payload, the RPC call the manifest hashes. */
void px_sinj_rexid(GByteArray *wire, uint8_t *pzrc, size_t pzrc_len, GByteArray *payload, uint32_t xid);

#endif
