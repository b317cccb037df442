/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the two halves of the scenario parser (pg_scenario.c,
 * pg_scenario_rpc.c): pg_scenario_util.c, pg_names.c, and the injector
 * table (pg_inject.c). */
#ifndef PG_SCENARIO_PRIV_H
#define PG_SCENARIO_PRIV_H

#include "pg_scenario.h"

typedef struct {
	const char *path;
	int line;
	char **err;
	pg_scenario *s;
	pg_item *last_rpc; /* target of "inject" */
} pctx;

bool pg_fail(pctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
bool pg_num(pctx *c, const char *key, const char *s, uint64_t lo, uint64_t hi, uint64_t *v);
bool pg_num32(pctx *c, const char *key, const char *s, uint32_t lo, uint32_t hi, uint32_t *v);
bool pg_onoff(pctx *c, const char *key, const char *s, bool *v);

/* Line handlers: argv[0] is the directive. */
bool pg_parse_rpc(pctx *c, char **argv, int argc, bool cb);
bool pg_parse_done(pctx *c, char **argv, int argc);
bool pg_parse_error(pctx *c, char **argv, int argc);
bool pg_parse_terminate(pctx *c, char **argv, int argc);
bool pg_parse_inject(pctx *c, char **argv, int argc);
bool pg_known_injector(const char *name, bool *needs_arg);

bool pg_nfs_oplookup(int nfsver, bool cb, const char *name, uint32_t *op);
bool pg_acl_proclookup(const char *name, uint32_t *proc);

pg_item *pg_item_new(int line, int kind);
void pg_item_free(gpointer p);

#endif
