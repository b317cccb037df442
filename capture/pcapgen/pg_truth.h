/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ground-truth registry: what each RPC-over-RDMA message is and which
 * frames carried its bytes; written as JSON next to the capture. */
#ifndef PG_TRUTH_H
#define PG_TRUTH_H

#include "pg_rpcrdma.h"

typedef struct pg_truth pg_truth;

typedef struct {
	uint32_t xid, rdma_xid;
	bool call;
	int sender;
	const char *rdma_proc;
	uint32_t credit;
	bool has_rpc;
	uint32_t program, version, procedure;
	const GPtrArray *opnames;   /* COMPOUND: names instead of a number */
	const GByteArray *payload;  /* full Payload stream, or NULL */
	bool backchannel;
	bool not_on_wire; /* some chunk data was never transferred */
	int line;
} pg_tmsg_info;

pg_truth *pg_truth_new(void);
void pg_truth_free(pg_truth *t);
int pg_truth_add(pg_truth *t, const pg_tmsg_info *info);
void pg_truth_chunks(pg_truth *t, int id, const pg_rdmamsg *m);
void pg_truth_inject(pg_truth *t, int id, const char *name);
void pg_truth_set_snap(pg_truth *t, int id, uint32_t snaplen);
uint32_t pg_truth_snap(const pg_truth *t, int id);
void pg_truth_frame(pg_truth *t, int id, uint32_t frame);
const char *pg_truth_label(const pg_truth *t, int id);
/* The findings a rule checker must report on this capture: (rule, frame)
 * pairs. The "expect" list is written only once enabled. */
void pg_truth_expect_enable(pg_truth *t);
void pg_truth_expect(pg_truth *t, const char *rule, uint32_t frame);

typedef struct {
	const char *name;
	const char *client, *server;   /* address strings */
	uint32_t client_qpn, server_qpn; /* 0 for iWARP */
	uint32_t client_psn, server_psn;
} pg_conninfo;

/* A connection opens: the messages added from now on belong to it (the
 * truth keeps its own copy of the strings). */
void pg_truth_conn(pg_truth *t, const pg_conninfo *conn);
bool pg_truth_write(const pg_truth *t, const char *path, const pg_scenario *s, uint32_t nframes,
		    char **err);

#endif
