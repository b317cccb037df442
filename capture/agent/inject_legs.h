/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject_legs.h - which leg an entry of the injection table (inject.h)
 * breaks through `rpcrdma-agent proxy`.  On the client leg the proxy is the
 * responder: it relays replies the server built, so only the responder's
 * hooks that leave the results and RDMA operations alone apply (--inject).
 * On the server leg it is the requester: it relays calls the client built,
 * not a scenario line, so only the requester's hooks on the transport
 * header or the Send apply (--inject-server).  The lists are
 * inject_table.c's; the proxy (proxy_inject.c, proxy_sinject.c) and the
 * listings read them.
 */
#ifndef AGENT_INJECT_LEGS_H
#define AGENT_INJECT_LEGS_H

#include <stdbool.h>

#include "inject.h"

enum { INJ_LEG_CLIENT = 1, INJ_LEG_SERVER = 2 };

/* Can an injector with these responder (client leg) or requester (server leg)
 * stages run on a relayed reply or call? */
bool inj_leg_client_ok(const char *name, unsigned resp_stages);
bool inj_leg_server_ok(const char *name, unsigned req_stages);
/* The legs (INJ_LEG_*) an entry breaks through the proxy; 0 with *why set when none. */
unsigned inj_def_legs(const struct inj_def *d, const char **why);

#endif
