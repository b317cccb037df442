// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One-way flows and their pairing into connections.
 *
 * A transport event names the flow it travelled on.  Without the RDMA-CM or
 * MPA handshake nothing on an IB/RoCE packet says which QP sent it (the BTH
 * carries only the destination QP), so the two directions of a connection
 * are paired here:
 *  - iWARP: the reverse TCP 4-tuple is the other direction.
 *  - IB/RoCE: a new flow A->B(qp x) is paired at once, tentatively, with
 *    the only unpaired flow B->A when there is exactly one and no other
 *    unpaired A->B flow competes for it; otherwise the flows stay unpaired.
 *    Traffic proves or disproves a pairing: a reply whose XID matches a
 *    call, an RDMA Read or Write whose R_Key a call advertised, a Read
 *    Response whose PSN answers a Read Request (rr_conn_pair_by_evidence()).
 *    When another flow holds the evidence, a tentative pair is split and
 *    the flows are paired as the evidence says (NFS nconnect: several
 *    connections between the same two hosts).
 *  - With the handshake (IB CM REQ/REP, MPA Request/Reply) the pairing and
 *    the requester role come from it directly.
 */
#include <arpa/inet.h>
#include <string.h>

#include "rpcrdma/rfc8797.h"
#include "engine_int.h"

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

static void canon_key(const struct rr_flow_key *in, struct rr_flow_key *out)
{
	memset(out, 0, sizeof(*out));
	out->transport = in->transport;
	out->src.family = in->src.family;
	memcpy(out->src.bytes, in->src.bytes, sizeof(out->src.bytes));
	out->src.port = in->src.port;
	out->dst.family = in->dst.family;
	memcpy(out->dst.bytes, in->dst.bytes, sizeof(out->dst.bytes));
	out->dst.port = in->dst.port;
	out->dst_qp = in->dst_qp;
}

static void addr_pair_key(const struct rr_flow_key *k, bool reverse, struct rr_flow_key *out)
{
	memset(out, 0, sizeof(*out));
	out->transport = k->transport;
	out->src = reverse ? k->dst : k->src;
	out->dst = reverse ? k->src : k->dst;
}

static GPtrArray *flows_between(struct rr_engine *eng, const struct rr_flow_key *k, bool reverse)
{
	struct rr_flow_key ak;

	addr_pair_key(k, reverse, &ak);
	return g_hash_table_lookup(eng->by_addrs, &ak);
}

struct rr_flow *rr_flow_peer(const struct rr_flow *f)
{
	return f->conn->flow[1 - f->side];
}

bool rr_flow_is_requester(const struct rr_flow *f)
{
	return f->conn->requester >= 0 && f->side == f->conn->requester;
}

static struct rr_conn *conn_new(struct rr_engine *eng, uint8_t transport)
{
	struct rr_conn *c = g_new0(struct rr_conn, 1);

	c->id = ++eng->next_conn_id;
	c->transport = transport;
	c->requester = -1;
	g_ptr_array_add(eng->conns, c);
	eng->stats.connections++;
	return c;
}

static void conn_rename(struct rr_conn *c)
{
	g_free(c->name);
	c->name = NULL;
}

void rr_conn_pair(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b)
{
	struct rr_conn *keep, *gone;
	struct rr_flow *mover;
	int requester_flow_was_mover = 0;

	if (a->conn == b->conn || rr_flow_peer(a) || rr_flow_peer(b))
		return;
	/* The older connection keeps its id; the other one empties. */
	keep = a->conn->id < b->conn->id ? a->conn : b->conn;
	gone = keep == a->conn ? b->conn : a->conn;
	mover = keep == a->conn ? b : a;
	if (gone->requester == mover->side)
		requester_flow_was_mover = 1;
	else if (gone->requester >= 0)
		requester_flow_was_mover = -1;

	gone->flow[mover->side] = NULL;
	mover->side = keep->flow[0] ? 1 : 0;
	keep->flow[mover->side] = mover;
	mover->conn = keep;
	if (keep->requester < 0 && requester_flow_was_mover)
		keep->requester = requester_flow_was_mover > 0 ? mover->side : 1 - mover->side;
	keep->carried_rpcrdma |= gone->carried_rpcrdma;
	keep->capture_cut |= gone->capture_cut;
	eng->stats.connections--;
	conn_rename(keep);
}

static bool flow_unpaired(const struct rr_flow *f)
{
	return rr_flow_peer(f) == NULL;
}

/*
 * Undo f's pairing.  The connection and its id stay with the flow it was
 * made for (messages were reported under that id); the flow that joined it
 * moves to a new connection of its own.
 */
static void conn_split(struct rr_engine *eng, struct rr_flow *f)
{
	struct rr_conn *old = f->conn, *c;
	struct rr_flow *leaver;

	if (flow_unpaired(f))
		return;
	leaver = old->home == f ? rr_flow_peer(f) : f;
	old->flow[leaver->side] = NULL;
	c = conn_new(eng, leaver->key.transport);
	c->home = leaver;
	c->carried_rpcrdma = old->carried_rpcrdma;
	if (old->requester >= 0)
		c->requester = old->requester == leaver->side ? 0 : 1;
	c->flow[0] = leaver;
	leaver->side = 0;
	leaver->conn = c;
	old->tentative = false;
	conn_rename(old);
}

/* Can g be given to f as its peer: free, or only tentatively paired? */
static bool flow_available(const struct rr_flow *g)
{
	return flow_unpaired(g) || g->conn->tentative;
}

static void pair_proved(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b)
{
	conn_split(eng, a);
	conn_split(eng, b);
	rr_conn_pair(eng, a, b);
	a->conn->tentative = false;
}

/* Eager pairing: only when the choice is unambiguous (see the top comment). */
static void pair_if_unambiguous(struct rr_engine *eng, struct rr_flow *f)
{
	GPtrArray *rev, *same;
	struct rr_flow *only = NULL;
	guint i, n = 0;

	rev = flows_between(eng, &f->key, true);
	if (!rev)
		return;
	for (i = 0; i < rev->len; i++) {
		struct rr_flow *g = g_ptr_array_index(rev, i);

		if (f->key.transport == RR_TRANSPORT_IWARP) {
			if (g->key.src.port == f->key.dst.port && g->key.dst.port == f->key.src.port &&
			    flow_unpaired(g)) {
				rr_conn_pair(eng, g, f);
				return;
			}
			continue;
		}
		if (flow_unpaired(g)) {
			only = g;
			n++;
		}
	}
	if (n != 1)
		return;
	same = flows_between(eng, &f->key, false);
	for (i = 0; same && i < same->len; i++) {
		struct rr_flow *g = g_ptr_array_index(same, i);

		if (g != f && flow_unpaired(g))
			return;
	}
	rr_conn_pair(eng, only, f);
	f->conn->tentative = true;
}

static struct rr_flow *flow_lookup(struct rr_engine *eng, const struct rr_flow_key *key,
				   bool eager)
{
	struct rr_flow_key k, ak;
	struct rr_flow *f;
	GPtrArray *list;

	canon_key(key, &k);
	f = g_hash_table_lookup(eng->flows, &k);
	if (f)
		return f;
	if (g_hash_table_size(eng->flows) >= eng->lim.max_flows) {
		rr_diag_report(&eng->diag, ENG_LIMIT, eng->cur_frame,
			       "more than %u one-way flows: new flows are ignored", eng->lim.max_flows);
		return NULL;
	}
	f = g_new0(struct rr_flow, 1);
	f->key = k;
	f->conn = conn_new(eng, k.transport);
	f->conn->flow[0] = f;
	f->conn->home = f;
	f->side = 0;
	f->last_frame = eng->cur_frame;
	g_hash_table_insert(eng->flows, &f->key, f);

	addr_pair_key(&k, false, &ak);
	list = g_hash_table_lookup(eng->by_addrs, &ak);
	if (!list) {
		list = g_ptr_array_new();
		g_hash_table_insert(eng->by_addrs, g_memdup2(&ak, sizeof(ak)), list);
	}
	g_ptr_array_add(list, f);
	if (eager)
		pair_if_unambiguous(eng, f);
	return f;
}

struct rr_flow *rr_flow_get(struct rr_engine *eng, const struct rr_flow_key *key)
{
	return flow_lookup(eng, key, true);
}

struct rr_flow *rr_flow_find(struct rr_engine *eng, const struct rr_flow_key *key)
{
	struct rr_flow_key k;

	canon_key(key, &k);
	return g_hash_table_lookup(eng->flows, &k);
}

/* eng->conns is in id order (ids only grow, removal keeps the order). */
struct rr_conn *rr_conn_by_id(struct rr_engine *eng, uint32_t id)
{
	guint lo = 0, hi = eng->conns->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		struct rr_conn *c = g_ptr_array_index(eng->conns, mid);

		if (c->id == id)
			return c;
		if (c->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void rr_conn_forget(struct rr_engine *eng, struct rr_conn *c)
{
	int s;

	for (s = 0; s < 2; s++) {
		struct rr_flow *f = c->flow[s];
		struct rr_flow_key ak;
		GPtrArray *list;

		if (!f || f->conn != c)
			continue;
		addr_pair_key(&f->key, false, &ak);
		list = g_hash_table_lookup(eng->by_addrs, &ak);
		if (list) {
			g_ptr_array_remove(list, f);
			if (!list->len)
				g_hash_table_remove(eng->by_addrs, &ak);
		}
		g_hash_table_remove(eng->flows, &f->key);   /* frees f */
	}
	g_ptr_array_remove(eng->conns, c);              /* frees c */
}

struct rr_flow *rr_conn_pair_by_evidence(struct rr_engine *eng, struct rr_flow *f, rr_flow_pred pred,
					 void *arg)
{
	struct rr_flow *peer = rr_flow_peer(f);
	GPtrArray *rev;
	guint i;

	if (peer && !f->conn->tentative)
		return peer;
	if (peer && pred(peer, arg)) {
		f->conn->tentative = false;
		return peer;
	}
	/* Unpaired, or tentatively paired with a flow that lacks the evidence. */
	rev = flows_between(eng, &f->key, true);
	for (i = 0; rev && i < rev->len; i++) {
		struct rr_flow *g = g_ptr_array_index(rev, i);

		if (g == peer)
			continue;
		if (f->key.transport == RR_TRANSPORT_IWARP &&
		    (g->key.src.port != f->key.dst.port || g->key.dst.port != f->key.src.port))
			continue;
		if (flow_available(g) && pred(g, arg)) {
			pair_proved(eng, g, f);
			return g;
		}
	}
	return peer;
}

static void format_addr(GString *s, const struct rr_addr *a)
{
	char buf[64];

	switch (a->family) {
	case RR_ADDR_LID:
		g_string_append_printf(s, "lid 0x%x", a->bytes[0] << 8 | a->bytes[1]);
		break;
	case RR_ADDR_IPV4:
		g_string_append_printf(s, "%u.%u.%u.%u", a->bytes[0], a->bytes[1], a->bytes[2],
				       a->bytes[3]);
		break;
	case RR_ADDR_IPV6:
		g_string_append(s, inet_ntop(AF_INET6, a->bytes, buf, sizeof(buf)) ? buf : "?");
		break;
	default:
		g_string_append(s, "?");
	}
	if (a->port)
		g_string_append_printf(s, a->family == RR_ADDR_IPV6 ? " port %u" : ":%u", a->port);
}

static const char *transport_name(uint8_t t)
{
	switch (t) {
	case RR_TRANSPORT_IB:
		return "ib";
	case RR_TRANSPORT_ROCEV1:
		return "rocev1";
	case RR_TRANSPORT_ROCEV2:
		return "rocev2";
	case RR_TRANSPORT_IWARP:
		return "iwarp";
	}
	return "?";
}

/* "rocev2 10.0.0.1 qp 0x11 <-> 10.0.0.2 qp 0x12", requester first when known. */
const char *rr_conn_name(struct rr_conn *c)
{
	GString *s;
	int first, i;

	if (c->name)
		return c->name;
	s = g_string_new(transport_name(c->transport));
	first = c->requester >= 0 ? c->requester : 0;
	for (i = 0; i < 2; i++) {
		int side = i == 0 ? first : 1 - first;
		struct rr_flow *out = c->flow[side], *in = c->flow[1 - side];
		const struct rr_addr *a = out ? &out->key.src : in ? &in->key.dst : NULL;

		g_string_append(s, i == 0 ? " " : " <-> ");
		if (!a) {
			g_string_append(s, "?");
			continue;
		}
		format_addr(s, a);
		if (c->transport != RR_TRANSPORT_IWARP) {
			if (in)
				g_string_append_printf(s, " qp 0x%x", in->key.dst_qp);
			else
				g_string_append(s, " qp ?");
		}
	}
	c->name = g_string_free(s, FALSE);
	return c->name;
}

/* Callback programs are the backward direction (RFC 8166 7, RFC 8267 6.5). */
static bool is_callback_program(uint32_t prog)
{
	return prog >= 0x40000000u && prog <= 0x5fffffffu;
}

void rr_conn_note_call(struct rr_engine *eng, struct rr_flow *f, uint32_t prog)
{
	struct rr_conn *c = f->conn;

	if (c->requester >= 0)
		return;
	c->requester = is_callback_program(prog) ? 1 - f->side : f->side;
	conn_rename(c);
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
	c->from_handshake = true;
	conn_rename(c);
}

#define RR_MAX_CM_PENDING 4096

/* Bounded: past the cap, handshakes that never completed are forgotten first. */
static void cm_pending_room(struct rr_engine *eng)
{
	GHashTableIter it;
	gpointer v;

	if (g_hash_table_size(eng->cm_pending) < RR_MAX_CM_PENDING)
		return;
	g_hash_table_iter_init(&it, eng->cm_pending);
	while (g_hash_table_iter_next(&it, NULL, &v))
		if (!((struct rr_cm_pending *)v)->conn_id)
			g_hash_table_iter_remove(&it);
	if (g_hash_table_size(eng->cm_pending) >= RR_MAX_CM_PENDING)
		g_hash_table_remove_all(eng->cm_pending);
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
		g_hash_table_replace(eng->cm_pending, GUINT_TO_POINTER(cm->local_comm_id), p);
		break;
	case RR_CM_REP: {
		struct rr_flow_key k1, k2;
		struct rr_flow *f1, *f2;
		struct rr_conn *c;
		uint32_t ps, pr;
		uint8_t pf;

		p = g_hash_table_lookup(eng->cm_pending, GUINT_TO_POINTER(cm->remote_comm_id));
		if (!p)
			break;
		memset(&k1, 0, sizeof(k1));
		k1.transport = p->transport;
		k1.src = p->active;
		k1.dst = p->passive;
		k1.dst_qp = cm->local_qpn;
		k2 = k1;
		k2.src = p->passive;
		k2.dst = p->active;
		k2.dst_qp = p->active_qpn;
		f1 = flow_lookup(eng, &k1, false);
		f2 = flow_lookup(eng, &k2, false);
		if (!f1 || !f2)
			break;
		/* The handshake wins over any pairing guessed before (QP numbers are reused). */
		if (rr_flow_peer(f1) != f2)
			pair_proved(eng, f1, f2);
		c = f1->conn;
		if (c != f2->conn)
			break;
		c->tentative = false;
		/* A new connection starts new PSN sequences. */
		out->restarted[0] = f1;
		out->restarted[1] = f2;
		set_requester(c, f1->side);
		if (p->has_pd) {
			c->has_cm_pd = true;
			c->inline_send[f1->side] = p->send_size;
			c->inline_recv[f1->side] = p->recv_size;
			c->has_cm_flags[f1->side] = true;
			c->cm_flags[f1->side] = p->flags;
		}
		if (p->pd_cut || (cm->private_cut && !parse_rfc8797(cm->private_data, cm->private_len,
								   &ps, &pr, &pf)))
			c->capture_cut = true;      /* thresholds may have been in the cut bytes */
		if (parse_rfc8797(cm->private_data, cm->private_len, &ps, &pr, &pf)) {
			c->has_cm_pd = true;
			c->inline_send[f2->side] = ps;
			c->inline_recv[f2->side] = pr;
			c->has_cm_flags[f2->side] = true;
			c->cm_flags[f2->side] = pf;
		}
		if (p->port)
			c->server_port = p->port;
		p->conn_id = c->id;
		/* DREQ may name either end's comm id. */
		cm_pending_room(eng);
		g_hash_table_replace(eng->cm_pending, GUINT_TO_POINTER(cm->local_comm_id),
				     g_memdup2(p, sizeof(*p)));
		break;
	}
	case RR_CM_REJ:
		g_hash_table_remove(eng->cm_pending, GUINT_TO_POINTER(cm->remote_comm_id));
		break;
	case RR_CM_DREQ:
		p = g_hash_table_lookup(eng->cm_pending, GUINT_TO_POINTER(cm->remote_comm_id));
		if (!p)
			p = g_hash_table_lookup(eng->cm_pending, GUINT_TO_POINTER(cm->local_comm_id));
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
	struct rr_flow *f = rr_flow_get(eng, &ev->flow);
	struct rr_flow *peer;
	uint32_t s, r;
	uint8_t fl;

	if (!f)
		return NULL;
	switch (cm->kind) {
	case RR_CM_REQ:
		set_requester(f->conn, f->side);
		f->conn->server_port = ev->flow.dst.port;
		break;
	case RR_CM_REP:
		set_requester(f->conn, 1 - f->side);
		f->conn->server_port = ev->flow.src.port;
		break;
	case RR_CM_DREQ:
		f->closed = true;
		peer = rr_flow_peer(f);
		return peer && peer->closed ? f->conn : NULL;
	case RR_CM_RESET:
		return f->conn;
	default:
		return NULL;
	}
	if (parse_rfc8797(cm->private_data, cm->private_len, &s, &r, &fl)) {
		f->conn->has_cm_pd = true;
		f->conn->inline_send[f->side] = s;
		f->conn->inline_recv[f->side] = r;
		f->conn->has_cm_flags[f->side] = true;
		f->conn->cm_flags[f->side] = fl;
	}
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

void rr_conn_reopen(struct rr_conn *c)
{
	int s;

	for (s = 0; s < 2; s++)
		if (c->flow[s])
			c->flow[s]->closed = false;
}

/* The flow's transfer state was freed by rr_xfer_flow_free() (engine.c calls both). */
void rr_flow_free(struct rr_flow *f)
{
	g_free(f);
}

void rr_conn_free(struct rr_conn *c)
{
	g_free(c->name);
	g_free(c);
}

static uint32_t addr_hash(const struct rr_addr *a)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(a->bytes); i++)
		h = (h ^ a->bytes[i]) * 16777619u;
	return h ^ a->family;
}

void rr_conn_info_fill(const struct rr_engine *eng, const struct rr_conn *c, struct rr_conn_info *out)
{
	int rq = c->requester;
	uint32_t cfg = eng->check_opts.inline_threshold;

	memset(out, 0, sizeof(*out));
	out->handshake = c->from_handshake;
	out->roles_known = rq >= 0;
	out->server_port = c->server_port;
	if (!out->server_port && rq >= 0 && c->transport == RR_TRANSPORT_IWARP) {
		const struct rr_flow *req = c->flow[rq], *rsp = c->flow[1 - rq];

		out->server_port = req ? req->key.dst.port : rsp ? rsp->key.src.port : 0;
	}
	if (rq >= 0 && c->has_cm_pd && c->inline_recv[rq] && c->inline_recv[1 - rq]) {
		out->inline_source = RR_INLINE_HANDSHAKE;
		out->inline_requester = c->inline_recv[rq];
		out->inline_responder = c->inline_recv[1 - rq];
	} else if (cfg) {
		out->inline_source = RR_INLINE_CONFIG;
		out->inline_requester = out->inline_responder = cfg;
	} else {
		out->inline_source = RR_INLINE_DEFAULT;
		out->inline_requester = out->inline_responder = 1024;
	}
	if (rq >= 0 && c->has_cm_flags[rq]) {
		out->inv_flag_known = true;
		out->remote_invalidate_ok = c->cm_flags[rq] & 1;
	}
	if (rq >= 0) {
		const struct rr_flow *req = c->flow[rq], *rsp = c->flow[1 - rq];
		const struct rr_addr *a = req ? &req->key.src : rsp ? &rsp->key.dst : NULL;

		out->requester_hash = a ? addr_hash(a) : 0;
	}
	out->capture_cut = c->capture_cut;
}
