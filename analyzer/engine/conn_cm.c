// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The connection handshake: IB CM REQ/REP/REJ/DREQ MADs and the iWARP MPA
 * Request/Reply, FIN and RST.  They pair flows and give the requester role
 * directly (winning over any pairing guessed from traffic), carry the
 * RFC 8797 private data (inline thresholds, flags), and say when a
 * connection ends.
 */
#include <string.h>

#include "rpcrdma/rfc8797.h"
#include "conn_int.h"

/* An IB CM handshake seen from its REQ (and, after the REP, its connection). */
struct rr_cm_pending {
	uint8_t transport;
	struct rr_addr active, passive;   /* REQ sender, REQ receiver */
	uint32_t active_qpn;
	uint32_t conn_id;                 /* after REP */
	bool has_pd;
	bool pd_cut;                      /* REQ private data cut before its RFC 8797 part */
	uint32_t send_size, recv_size;    /* active side's RFC 8797 values */
	uint8_t flags;
	uint16_t port;                    /* from the Service ID (RDMA_PS_TCP) */
};

#define RR_MAX_CM_PENDING 4096

/*
 * A communication ID is chosen by one host's CM and is unique only there
 * (IBTA 12.6.1: Local Communication ID), so a handshake is known by the
 * ID and the host that chose it: two hosts may pick the same ID at once.
 */
struct cm_key {
	struct rr_addr host;          /* port 0 */
	uint32_t comm_id;
};

static guint cm_key_hash(gconstpointer k)
{
	const struct cm_key *c = k;

	return rr_conn_host_hash(&c->host) ^ c->comm_id * 2654435761u;
}

static gboolean cm_key_equal(gconstpointer a, gconstpointer b)
{
	const struct cm_key *x = a, *y = b;

	return x->comm_id == y->comm_id && rr_conn_host_equal(&x->host, &y->host);
}

static struct cm_key cm_key_of(const struct rr_addr *host, uint32_t comm_id)
{
	struct cm_key k;

	memset(&k, 0, sizeof(k));
	k.host.family = host->family;
	memcpy(k.host.bytes, host->bytes, sizeof(k.host.bytes));
	k.comm_id = comm_id;
	return k;
}

/* The handshakes under way, by the ID and host of either end. */
static GHashTable *pending(struct rr_engine *eng)
{
	struct rr_conn_table *t = eng->conns;

	if (!t->cm_pending)
		t->cm_pending = g_hash_table_new_full(cm_key_hash, cm_key_equal, g_free, g_free);
	return t->cm_pending;
}

static struct rr_cm_pending *pending_find(struct rr_engine *eng, const struct rr_addr *host, uint32_t comm_id)
{
	struct cm_key k = cm_key_of(host, comm_id);

	return g_hash_table_lookup(pending(eng), &k);
}

static void pending_put(struct rr_engine *eng, const struct rr_addr *host, uint32_t comm_id,
			struct rr_cm_pending *p)
{
	struct cm_key k = cm_key_of(host, comm_id);

	g_hash_table_replace(pending(eng), g_memdup2(&k, sizeof(k)), p);
}

static void pending_drop(struct rr_engine *eng, const struct rr_addr *host, uint32_t comm_id)
{
	struct cm_key k = cm_key_of(host, comm_id);

	g_hash_table_remove(pending(eng), &k);
}

/* RFC 8797: an RPC-over-RDMA CM private message somewhere in the CM private data. */
static bool parse_rfc8797(const uint8_t *pd, uint32_t len, uint32_t *send, uint32_t *recv,
			  uint8_t *flags_out)
{
	struct rr_rfc8797 m;

	if (!rr_rfc8797_find(pd, len, &m))
		return false;
	*send = m.send_size;
	*recv = m.recv_size;
	*flags_out = m.flags;
	return true;
}

static void set_requester(struct rr_conn *c, int side)
{
	c->requester = side;
	conn_of(c)->from_handshake = true;
	conn_rename(conn_of(c));
}

/* One side's RFC 8797 values. */
static void set_private_data(struct rr_conn *c, int side, uint32_t send, uint32_t recv, uint8_t flags)
{
	struct conn *cx = conn_of(c);

	cx->has_cm_pd = true;
	cx->inline_send[side] = send;
	cx->inline_recv[side] = recv;
	cx->has_cm_flags[side] = true;
	cx->cm_flags[side] = flags;
}

/* Bounded: past the cap, handshakes that never completed are forgotten first. */
static void cm_pending_room(struct rr_engine *eng)
{
	GHashTable *pend = pending(eng);
	GHashTableIter it;
	gpointer v;

	if (g_hash_table_size(pend) < RR_MAX_CM_PENDING)
		return;
	g_hash_table_iter_init(&it, pend);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!((struct rr_cm_pending *)v)->conn_id)
			g_hash_table_iter_remove(&it);
	if (g_hash_table_size(pend) >= RR_MAX_CM_PENDING)
		g_hash_table_remove_all(pend);
}

/* A REP: the two flows of the REQ's connection are paired, the REQ's sender is the requester. */
static void ib_cm_rep(struct rr_engine *eng, const struct rr_event *ev, struct rr_cm_outcome *out)
{
	const struct rr_cm_info *cm = &ev->cm;
	/* The REP goes to the REQ's sender, whose ID it names as the remote one. */
	struct rr_cm_pending *p = pending_find(eng, &ev->flow.dst, cm->remote_comm_id);
	struct rr_flow_key k1, k2;
	struct rr_flow *f1, *f2;
	struct rr_conn *c;
	uint32_t ps, pr;
	uint8_t pf;

	if (!p)
		return;
	memset(&k1, 0, sizeof(k1));
	k1.transport = p->transport;
	k1.src = p->active;
	k1.dst = p->passive;
	k1.dst_qp = cm->local_qpn;
	k2 = k1;
	k2.src = p->passive;
	k2.dst = p->active;
	k2.dst_qp = p->active_qpn;
	f1 = rr_conn_flow_lookup(eng, &k1, false, ev->frame);
	f2 = rr_conn_flow_lookup(eng, &k2, false, ev->frame);
	if (!f1 || !f2)
		return;
	/* The handshake wins over any pairing guessed before (QP numbers are reused). */
	if (rr_flow_peer(f1) != f2)
		rr_conn_pair_proved(eng, f1, f2);
	c = f1->conn;
	if (c != f2->conn)
		return;
	conn_of(c)->tentative = false;
	/* A new connection starts new PSN sequences. */
	out->restarted[0] = f1;
	out->restarted[1] = f2;
	set_requester(c, f1->side);
	if (p->has_pd)
		set_private_data(c, f1->side, p->send_size, p->recv_size, p->flags);
	if (p->pd_cut || (cm->private_cut && !parse_rfc8797(cm->private_data, cm->private_len,
							   &ps, &pr, &pf)))
		conn_of(c)->cm_pd_cut = true;        /* thresholds may have been in the cut bytes */
	if (parse_rfc8797(cm->private_data, cm->private_len, &ps, &pr, &pf))
		set_private_data(c, f2->side, ps, pr, pf);
	if (p->port)
		conn_of(c)->server_port = p->port;
	p->conn_id = rr_conn_id(eng, c);
	/* DREQ may name either end's comm id. */
	cm_pending_room(eng);
	pending_put(eng, &ev->flow.src, cm->local_comm_id, g_memdup2(p, sizeof(*p)));
}

static struct rr_conn *handle_ib_cm(struct rr_engine *eng, const struct rr_event *ev,
				    struct rr_cm_outcome *out)
{
	const struct rr_cm_info *cm = &ev->cm;
	struct rr_cm_pending *p;

	switch (cm->kind) {
	case RR_CM_REQ:
		cm_pending_room(eng);
		p = g_new0(struct rr_cm_pending, 1);
		p->transport = ev->flow.transport;
		p->active = ev->flow.src;
		p->passive = ev->flow.dst;
		p->active_qpn = cm->local_qpn;
		p->has_pd = parse_rfc8797(cm->private_data, cm->private_len, &p->send_size,
					  &p->recv_size, &p->flags);
		p->pd_cut = !p->has_pd && cm->private_cut;
		/* RDMA-CM IP service IDs: 0x0000000001 | port space (0x06 TCP) | port. */
		if ((cm->service_id >> 16) == 0x0000000001060000ull >> 16)
			p->port = (uint16_t)(cm->service_id & 0xffff);
		pending_put(eng, &ev->flow.src, cm->local_comm_id, p);
		break;
	case RR_CM_REP:
		ib_cm_rep(eng, ev, out);
		break;
	case RR_CM_REJ:
		pending_drop(eng, &ev->flow.dst, cm->remote_comm_id);
		break;
	case RR_CM_DREQ:
		p = pending_find(eng, &ev->flow.dst, cm->remote_comm_id);
		if (!p)
			p = pending_find(eng, &ev->flow.src, cm->local_comm_id);
		if (p && p->conn_id)
			return rr_conn_by_id(eng, p->conn_id);
		break;
	default:
		break;
	}
	return NULL;
}

static struct rr_conn *handle_iwarp_cm(struct rr_engine *eng, const struct rr_event *ev)
{
	const struct rr_cm_info *cm = &ev->cm;
	struct rr_flow *f = rr_flow_get(eng, &ev->flow, ev->frame);
	struct rr_flow *peer;
	uint32_t s, r;
	uint8_t fl;

	if (!f)
		return NULL;
	switch (cm->kind) {
	case RR_CM_REQ:
		set_requester(f->conn, f->side);
		conn_of(f->conn)->server_port = ev->flow.dst.port;
		break;
	case RR_CM_REP:
		set_requester(f->conn, 1 - f->side);
		conn_of(f->conn)->server_port = ev->flow.src.port;
		break;
	case RR_CM_DREQ:
		conn_flow_of(f)->closed = true;
		peer = rr_flow_peer(f);
		return peer && conn_flow_of(peer)->closed ? f->conn : NULL;
	case RR_CM_RESET:
		return f->conn;
	default:
		return NULL;
	}
	if (parse_rfc8797(cm->private_data, cm->private_len, &s, &r, &fl))
		set_private_data(f->conn, f->side, s, r, fl);
	return NULL;
}

void rr_conn_handle_cm(struct rr_engine *eng, const struct rr_event *ev, struct rr_cm_outcome *out)
{
	memset(out, 0, sizeof(*out));
	if (ev->flow.transport == RR_TRANSPORT_IWARP)
		out->gone = handle_iwarp_cm(eng, ev);
	else
		out->gone = handle_ib_cm(eng, ev, out);
}

void rr_conn_forget_handshakes(struct rr_engine *eng)
{
	g_hash_table_remove_all(pending(eng));
}
