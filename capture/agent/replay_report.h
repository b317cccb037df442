/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_report.h - what one replay run tried and got, and what it
 * concludes: the lines printed, the conclusion sentence, the JSON file.
 * replay_cmd.c fills it; replay_report.c reads it.
 */
#ifndef AGENT_REPLAY_REPORT_H
#define AGENT_REPLAY_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "replay.h"
#include "replay_send.h"

enum rp_kind { RP_V_CAPTURED, RP_V_PZRC, RP_V_INLINE, RP_V_TCP };

struct rp_try {
	char name[32];            /* captured, pzrc, inline, tcp, entries-300/rdma ... */
	enum rp_kind kind;
	bool full;                /* the arguments as captured (not cut) */
	bool probe;               /* a step of the bisection (the boundary sentence tells them) */
	bool superseded;          /* an anomaly sent again: the next try counts, not this one */
	uint32_t named, entries;  /* SETACL: named ACL entries and all access ACL entries sent */
	size_t bytes;             /* the RPC call's length */
	char how[160];            /* sent how, in words */
	uint32_t xid;             /* the fresh XID it went with */
	struct rp_answer ans;
	bool ok;                  /* the server carried the call out (SUCCESS, status 0) */
};

struct rp_report {
	const char *capture, *server;
	const struct rp_call *call;
	bool acl;                 /* NFSACL v3 SETACL: sizes can be cut */
	struct rp_acl_args acl_args;
	GArray *tries;            /* struct rp_try, in the order sent */
	/* the bisection: the largest size that worked and the smallest that failed (named entries) */
	bool have_works, have_fails;
	uint32_t works, fails;
	size_t works_bytes, fails_bytes;
	bool have_split;          /* a size the carriers answered differently (the bisection stops) */
	char split[160];
	char conclusion[1024];
};

/* One line per try on standard output, as it is made. */
void rp_report_line(const struct rp_try *t);
/* What the tries show: rep->conclusion. */
void rp_report_conclude(struct rp_report *rep);
/* The whole run as JSON at path; false with err. */
bool rp_report_json(const struct rp_report *rep, const char *path, char *err, size_t errlen);

#endif
