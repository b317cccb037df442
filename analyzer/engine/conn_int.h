/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conn_int.h - what conn.c (flows, pairing) and conn_cm.c (the handshake)
 * keep of flows and connections behind their public parts.  conn_cm.c
 * calls into conn.c, never the other way round.
 */
#ifndef RPCRDMA_CONN_INT_H
#define RPCRDMA_CONN_INT_H

#include <stddef.h>

#include "conn.h"

struct conn_flow {
	struct rr_flow pub;
	bool closed;              /* FIN seen */
	uint64_t last_frame;      /* last event on this flow: the least recent are forgotten first */
	uint64_t lost_packets;    /* IB/RoCE: PSNs of its request stream the capture did not hold */
	uint64_t lost_bytes;      /* iWARP: bytes of its TCP stream the capture did not hold */
	uint32_t host[2];         /* rr_flow_host() of its sender [0] and receiver [1] (requester numbers
				   * too, rr_conn_info_fill); 0 until asked */
};

struct conn {
	struct rr_conn pub;
	struct rr_flow *home;     /* the flow the connection (and its id) was made for */
	bool tentative;           /* paired on first sight, not yet proved by traffic */
	bool from_handshake;
	/* RFC 8797 private data, when the handshake was captured */
	bool has_cm_pd;
	bool cm_pd_cut;                            /* the handshake's private data was cut by the snaplen */
	uint32_t inline_send[2], inline_recv[2];   /* by side */
	bool has_cm_flags[2];
	uint8_t cm_flags[2];      /* RFC 8797 flags, by side */
	uint16_t server_port;     /* CM service port / iWARP listening port */
	char *name;
	bool capture_cut;         /* see rr_conn_info */
	uint64_t made;            /* when it was made, among the table's connections (1, 2, ...) */
};

struct rr_conn_table {
	GHashTable *flows;        /* struct rr_flow_key* -> struct conn_flow* */
	struct conn_flow *last;   /* the flow found last (frames come in runs of one flow), or NULL */
	struct conn_flow *before; /* the one found before it (a run's answers come the other way), or NULL */
	GHashTable *by_addrs;     /* address pair -> GPtrArray of flows (pairing candidates) */
	GPtrArray *conns;         /* live connections (struct conn*), in the order they were made */
	GHashTable *by_id;        /* connection number -> struct rr_conn*, once numbered (rr_conn_id) */
	uint32_t next_conn_id;
	uint64_t made;            /* connections made so far */
	GHashTable *cm_pending;   /* conn_cm.c's: IB CM comm id -> its handshake; made on first use */
	GHashTable *hosts;        /* host address (struct rr_addr, port 0) -> its number (rr_flow_host) */
};

static inline struct conn_flow *conn_flow_of(const struct rr_flow *f)
{
	return (struct conn_flow *)((char *)f - offsetof(struct conn_flow, pub));
}

static inline struct conn *conn_of(const struct rr_conn *c)
{
	return (struct conn *)((char *)c - offsetof(struct conn, pub));
}

/* The name is made again when next asked for (the roles or the flows changed). */
static inline void conn_rename(struct conn *c)
{
	g_free(c->name);
	c->name = NULL;
}

/* The flow of key, made when new at frame; paired at once only when eager. */
/* A host by its address alone (struct rr_addr, its port not read): conn.c's requester numbers, conn_cm.c's handshakes. */
guint rr_conn_host_hash(gconstpointer addr);
gboolean rr_conn_host_equal(gconstpointer a, gconstpointer b);

struct rr_flow *rr_conn_flow_lookup(struct rr_engine *eng, const struct rr_flow_key *key, bool eager,
				    uint64_t frame);
/* a and b are each other's peer, as proved by traffic or the handshake. */
void rr_conn_pair_proved(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b);

#endif
