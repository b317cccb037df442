/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject.h - what `--inject` asks for, and which messages it hits.
 *
 * An item is NAME[=ARG][:WHEN[:WHEN...]]: NAME an injector of the
 * generator's table (capture/pcapgen/pg_inject.c) or of the agent's own
 * (inject_table.c), or a rule ID the agent has always taken (RR-001 is
 * bad-vers, ...); ARG the injector's argument; each WHEN narrows the
 * messages it hits, all of them must hold:
 *   every=N   the N-th, 2N-th, ... message this side sends
 *   nth=K     the K-th message only
 *   op=NAME   messages of that NFS procedure or NFSv4 operation (READ)
 *   xid=0xX   the message of that XID
 * Without WHEN: every message but the first call of a drive run (a capture
 * shows the connection carrying version 1 first), every reply of serve.
 * The messages counted are the calls drive sends, the replies serve sends.
 */
#ifndef AGENT_INJECT_H
#define AGENT_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The roles: a requester (drive; a proxy's server leg) breaks calls, a
 * responder (serve; a proxy's client leg) breaks replies. */
enum { INJ_REQ = 1, INJ_RESP = 2 };

/* The stages of building a message a hook may run at (pg_inject.h). */
enum { INJ_ST_PREP = 1, INJ_ST_PLAN = 2, INJ_ST_OPS = 4, INJ_ST_HEADER = 8, INJ_ST_WIRE = 16,
       INJ_ST_AGENT = 32, /* the agent's own code does it, no table hook */
       INJ_ST_BACK = 64   /* on a backward call the proxy makes in the server's place (proxy_back.h) */ };

/* How the agent runs one injector (inject_table.c). */
struct inj_def {
	const char *name;
	unsigned req_stages, resp_stages;   /* live stages per role; 0: not live in that role */
	const char *reason;                 /* not injectable live (in a role the entry has): why */
	const char *rules, *help;           /* agent-only entries; table entries take the table's */
	bool agent_only;                    /* not in the generator's table */
};

const struct inj_def *inj_def_find(const char *name);
const struct inj_def *inj_def_at(size_t i);
/* The rules an entry breaks (the generator's list, or the agent's). */
const char *inj_def_rules(const struct inj_def *d);
const char *inj_def_help(const struct inj_def *d);
/* The stages hooks run at for role (INJ_REQ or INJ_RESP). */
unsigned inj_def_stages(const struct inj_def *d, int role);

enum inj_when { INJ_W_EVERY, INJ_W_NTH, INJ_W_OP, INJ_W_XID };
#define INJ_MAX_WHEN 4
#define INJ_MAX_SPECS 16

struct inj_cond {
	enum inj_when kind;
	uint32_t n;                /* every, nth, xid */
	char op[24];
};

struct inj_spec {
	const struct inj_def *def;
	char asked[48];            /* the name as given (RR-001 or bad-vers) */
	char arg[32];
	bool has_arg;
	unsigned n_when;
	struct inj_cond when[INJ_MAX_WHEN];
};

struct inj_list {
	int role;
	unsigned n;
	struct inj_spec v[INJ_MAX_SPECS];
};

/* Parses a comma list for role; false and a sentence naming the item when
 * one is not valid or not live in that role. */
bool inj_parse(const char *text, int role, struct inj_list *out, char *err, size_t errlen);
/* Does spec hit the k-th message (from 1) of its side, of that XID, whose
 * procedure or operations are named ops[0..n_ops)? */
bool inj_selects(const struct inj_spec *s, int role, uint64_t k, uint32_t xid,
		 const char *const *ops, unsigned n_ops);
/* Is an injector of that name asked for (and selected: sel[i] for v[i], or NULL for any)? */
const struct inj_spec *inj_find(const struct inj_list *l, const bool *sel, const char *name);

/* Appends the rules of list (blank- or comma-separated) to the comma list
 * out, leaving out skip and those already there, as long as they fit. */
void inj_add_rules(char *out, size_t len, const char *list, const char *skip);

/* `rpcrdma-agent list-injections`: every entry of the generator's table and
 * the agent's own, per role, with its stage or why it is not live. */
void inj_list_print(void *file);

#endif
