/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proxy.h - rpcrdma-agent proxy: an RPC-over-RDMA relay between a client
 * (it is the responder on that leg) and a server (it is the requester on
 * that leg), each leg captured and recorded in a manifest of its own.
 *
 * A call is decoded by the engine, its read chunks pulled from the client
 * with RDMA Read into buffers registered on both connections, and sent on
 * with the proxy's own chunks (one segment each, the sizes the client
 * offered); the server's reply is decoded, what it wrote into the proxy's
 * write and reply chunks is pushed with RDMA Write into the client's, and
 * the reply re-encoded (the generator's encoder) with the client's chunks
 * returned at the lengths filled.  Backward-direction messages (RFC 8167)
 * and RDMA_ERROR are relayed as they are, inline.  Messages are handled
 * one at a time in arrival order; several calls may be outstanding on the
 * server leg, as many as its grant allows (the rest wait in order).
 *
 * proxy.c: the command, the connections and the event loop;
 * proxy_relay.c: one message from either side; proxy_map.c: the chunk
 * arithmetic (proxy_map.h); proxy_inject.c and proxy_sinject.c: the
 * injections on the client leg's replies and on the server leg's calls.
 */
#ifndef AGENT_PROXY_H
#define AGENT_PROXY_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/hdr.h>
#include <rpcrdma/ulp.h>

#include "common.h"
#include "proxy_back.h"
#include "proxy_inject.h"
#include "proxy_sinject.h"
#include "verbs.h"

#define PX_MAX_READ_CHUNKS 16

/* A buffer registered on both connections: pulled into or pushed from on
 * the client's, offered to the server on the server's. */
struct px_buf {
	uint8_t *data;
	size_t len;
	struct vb_mr on_cl, on_sv;
};

/* One forward call, from its arrival until its reply went back. */
struct px_call {
	uint32_t xid;
	struct rr_hdr ch;                 /* the client's call: its chunks */
	struct px_buf rd[PX_MAX_READ_CHUNKS];
	unsigned n_rd;
	struct px_buf wr[RR_HDR_MAX_WRITE_CHUNKS];
	unsigned n_wr;
	struct px_buf rp;                 /* the reply chunk offered to the server */
	bool info_ok;                     /* info describes the call (the reply's Payload) */
	struct rr_ulp_info info;
	GByteArray *payload;              /* the call's Payload, for the server leg's manifest */
	uint64_t inline_bytes, rdma_bytes;
	GByteArray *wire;                 /* the call toward the server */
	uint32_t sv_xid;                  /* its XID there (a fresh one once resent unbroken) */
	struct px_broken *broken;         /* --inject-server: sent in its place first */
};

struct px_leg {
	struct agent_run run;
	struct vb_conn *conn;
	uint32_t peer_inline;             /* what the peer receives inline (RFC 8797) */
};

struct proxy {
	struct px_leg cl, sv;             /* client leg (we respond), server leg (we request) */
	const char *server;
	uint16_t server_port;
	GHashTable *calls;                /* xid -> struct px_call*, sent to the server */
	GQueue *waiting;                  /* struct px_call*, waiting for a server credit */
	uint32_t server_grant;            /* the server's last grant (1 until its first reply) */
	unsigned n_calls, n_replies, n_errors, n_back;
	bool broken;                      /* a leg failed: end this connection pair */
	struct px_inj inj;                /* --inject on the replies to the client (proxy_inject.h) */
	struct px_sinj sinj;              /* --inject-server on the calls to the server (proxy_sinject.h) */
	struct px_call *pending;          /* a broken call alone at the server, awaiting its reaction */
	struct px_back back;              /* --inject's backward calls of the proxy's own (proxy_back.h) */
	bool client_left;                 /* the relay ended with the client's connection going down */
};

/* One message received on the client leg / the server leg. */
void px_from_client(struct proxy *p, const struct vb_msg *msg);
void px_from_server(struct proxy *p, const struct vb_msg *msg);
/* Sends waiting calls while the server's grant allows (a broken call alone). */
void px_pump(struct proxy *p);
/* No answer to the pending broken call for --timeout, or the server leg ended under it:
 * its reaction (after a timeout the call goes again unbroken). */
void px_pending_silence(struct proxy *p);
void px_pending_gone(struct proxy *p);
void px_call_free(gpointer call);

#endif
