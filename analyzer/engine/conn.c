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

#include "conn_int.h"
#include "rpcrdma/hash.h"

/* Keys are canonicalised (canon_key) so padding is zero and bytes compare. */
/* Keys are canonical (canon_key, addr_pair_key: padding zeroed), so their bytes hash, eight at a time. */
static guint flow_key_hash(gconstpointer p)
{
	const uint8_t *b = p;
	uint64_t h = 0x9e3779b97f4a7c15u, w;
	size_t i;

	for (i = 0; i + sizeof(w) <= sizeof(struct rr_flow_key); i += sizeof(w)) {
		memcpy(&w, b + i, sizeof(w));
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	for (; i < sizeof(struct rr_flow_key); i++)
		h = (h ^ b[i]) * 0x100000001b3u;
	return (guint)(h ^ (h >> 29));
}

static gboolean flow_key_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(struct rr_flow_key)) == 0;
}

static void conn_free(gpointer p)
{
	struct conn *c = conn_of(p);

	g_free(c->name);
	g_free(c);
}

struct rr_conn_table *rr_conn_table_new(void)
{
	struct rr_conn_table *t = g_new0(struct rr_conn_table, 1);

	t->flows = g_hash_table_new_full(flow_key_hash, flow_key_equal, NULL, g_free);
	t->by_addrs = g_hash_table_new_full(flow_key_hash, flow_key_equal, g_free,
					    (GDestroyNotify)g_ptr_array_unref);
	t->conns = g_ptr_array_new_with_free_func(conn_free);
	t->by_id = g_hash_table_new(NULL, NULL);
	return t;
}

void rr_conn_table_free(struct rr_conn_table *t)
{
	g_hash_table_destroy(t->flows);
	g_hash_table_destroy(t->by_addrs);
	if (t->cm_pending)
		g_hash_table_destroy(t->cm_pending);
	if (t->hosts)
		g_hash_table_destroy(t->hosts);
	g_ptr_array_free(t->conns, TRUE);
	g_hash_table_destroy(t->by_id);
	g_free(t);
}

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
	return g_hash_table_lookup(eng->conns->by_addrs, &ak);
}

struct rr_flow *rr_flow_peer(const struct rr_flow *f)
{
	return f->conn->flow[1 - f->side];
}

bool rr_flow_is_requester(const struct rr_flow *f)
{
	return f->conn->requester >= 0 && f->side == f->conn->requester;
}

/*
 * A connection is numbered when something about it is first reported, so
 * that the numbers a reader meets run 1, 2, 3: each direction of a
 * connection starts as a connection of its own until the two are paired,
 * and numbering them at once left every second number unused.
 */
uint32_t rr_conn_id(struct rr_engine *eng, struct rr_conn *c)
{
	struct rr_conn_table *t = eng->conns;

	if (!c->id) {
		c->id = ++t->next_conn_id;
		eng->stats.conn_ids = c->id;
		g_hash_table_insert(t->by_id, GUINT_TO_POINTER(c->id), c);
	}
	return c->id;
}

struct rr_conn *rr_conn_by_id(const struct rr_engine *eng, uint32_t id)
{
	return id ? g_hash_table_lookup(eng->conns->by_id, GUINT_TO_POINTER(id)) : NULL;
}

/* x was made before y: numbered ones by number (the older number stays), the others by when they were made. */
bool rr_conn_older(const struct rr_conn *x, const struct rr_conn *y)
{
	if (x->id && y->id)
		return x->id < y->id;
	if (x->id || y->id)
		return x->id != 0;
	return conn_of(x)->made < conn_of(y)->made;
}

static struct conn *conn_new(struct rr_engine *eng, uint8_t transport)
{
	struct conn *c = g_new0(struct conn, 1);

	c->made = ++eng->conns->made;
	c->pub.transport = transport;
	c->pub.requester = -1;
	g_ptr_array_add(eng->conns->conns, &c->pub);
	eng->stats.connections++;
	return c;
}

static void conn_pair(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b)
{
	struct rr_conn *keep, *gone;
	struct rr_flow *mover;
	int requester_flow_was_mover = 0;

	if (a->conn == b->conn || rr_flow_peer(a) || rr_flow_peer(b))
		return;
	/* The one that has a number (findings name it) keeps it; the other one empties. */
	keep = rr_conn_older(a->conn, b->conn) ? a->conn : b->conn;
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
	conn_of(keep)->capture_cut |= conn_of(gone)->capture_cut;
	eng->stats.connections--;
	conn_rename(conn_of(keep));
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
	struct rr_conn *old = f->conn;
	struct rr_flow *leaver;
	struct conn *c;

	if (flow_unpaired(f))
		return;
	leaver = conn_of(old)->home == f ? rr_flow_peer(f) : f;
	old->flow[leaver->side] = NULL;
	c = conn_new(eng, leaver->key.transport);
	c->home = leaver;
	c->pub.carried_rpcrdma = old->carried_rpcrdma;
	c->capture_cut = conn_of(old)->capture_cut;
	if (old->requester >= 0)
		c->pub.requester = old->requester == leaver->side ? 0 : 1;
	c->pub.flow[0] = leaver;
	leaver->side = 0;
	leaver->conn = &c->pub;
	conn_of(old)->tentative = false;
	conn_rename(conn_of(old));
}

/* Can g be given to f as its peer: free, or only tentatively paired? */
static bool flow_available(const struct rr_flow *g)
{
	return flow_unpaired(g) || conn_of(g->conn)->tentative;
}

void rr_conn_pair_proved(struct rr_engine *eng, struct rr_flow *a, struct rr_flow *b)
{
	conn_split(eng, a);
	conn_split(eng, b);
	conn_pair(eng, a, b);
	conn_of(a->conn)->tentative = false;
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
				conn_pair(eng, g, f);
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
	conn_pair(eng, only, f);
	conn_of(f->conn)->tentative = true;
}

static void remember_flow(struct rr_conn_table *t, struct conn_flow *cf)
{
	if (t->last != cf) {
		t->before = t->last;
		t->last = cf;
	}
}

/* One of the two flows found last, if the key is theirs. */
static struct conn_flow *recent_flow(struct rr_conn_table *t, const struct rr_flow_key *k)
{
	if (t->last && flow_key_equal(&t->last->pub.key, k))
		return t->last;
	if (t->before && flow_key_equal(&t->before->pub.key, k)) {
		remember_flow(t, t->before);
		return t->last;
	}
	return NULL;
}

struct rr_flow *rr_conn_flow_lookup(struct rr_engine *eng, const struct rr_flow_key *key, bool eager,
				    uint64_t frame)
{
	struct rr_conn_table *t = eng->conns;
	struct rr_flow_key k, ak;
	struct conn_flow *cf;
	struct rr_flow *f;
	struct conn *c;
	GPtrArray *list;

	canon_key(key, &k);
	cf = recent_flow(t, &k);
	if (cf)
		return &cf->pub;
	cf = g_hash_table_lookup(t->flows, &k);
	if (cf) {
		remember_flow(t, cf);
		return &cf->pub;
	}
	if (g_hash_table_size(t->flows) >= eng->lim.max_flows) {
		rr_diag_report(&eng->diag, ENG_LIMIT, frame,
			       "more than %u one-way flows: new flows are ignored", eng->lim.max_flows);
		return NULL;
	}
	cf = g_new0(struct conn_flow, 1);
	f = &cf->pub;
	f->key = k;
	c = conn_new(eng, k.transport);
	c->pub.flow[0] = f;
	c->home = f;
	f->conn = &c->pub;
	f->side = 0;
	cf->last_frame = frame;
	g_hash_table_insert(t->flows, &f->key, cf);

	addr_pair_key(&k, false, &ak);
	list = g_hash_table_lookup(t->by_addrs, &ak);
	if (!list) {
		list = g_ptr_array_new();
		g_hash_table_insert(t->by_addrs, g_memdup2(&ak, sizeof(ak)), list);
	}
	g_ptr_array_add(list, f);
	if (eager)
		pair_if_unambiguous(eng, f);
	/* A flow that paired on sight joined its peer's connection: the one made for it is empty. */
	if (f->conn != &c->pub)
		g_ptr_array_remove(t->conns, &c->pub);   /* frees c */
	return f;
}

struct rr_flow *rr_flow_get(struct rr_engine *eng, const struct rr_flow_key *key, uint64_t frame)
{
	return rr_conn_flow_lookup(eng, key, true, frame);
}

struct rr_flow *rr_flow_find(struct rr_engine *eng, const struct rr_flow_key *key)
{
	struct rr_flow_key k;
	struct conn_flow *cf;

	canon_key(key, &k);
	cf = recent_flow(eng->conns, &k);
	if (cf)
		return &cf->pub;
	cf = g_hash_table_lookup(eng->conns->flows, &k);
	return cf ? &cf->pub : NULL;
}

guint rr_flow_count(const struct rr_engine *eng)
{
	return g_hash_table_size(eng->conns->flows);
}

void rr_flow_touch(struct rr_flow *f, uint64_t frame)
{
	conn_flow_of(f)->last_frame = frame;
}

guint rr_conn_count(const struct rr_engine *eng)
{
	return eng->conns->conns->len;
}

struct rr_conn *rr_conn_nth(const struct rr_engine *eng, guint i)
{
	return g_ptr_array_index(eng->conns->conns, i);
}

uint64_t rr_conn_last_frame(const struct rr_conn *c)
{
	uint64_t last = 0;
	int s;

	for (s = 0; s < 2; s++)
		if (c->flow[s] && conn_flow_of(c->flow[s])->last_frame > last)
			last = conn_flow_of(c->flow[s])->last_frame;
	return last;
}

void rr_conn_forget(struct rr_engine *eng, struct rr_conn *c)
{
	struct rr_conn_table *t = eng->conns;
	int s;

	for (s = 0; s < 2; s++) {
		struct rr_flow *f = c->flow[s];
		struct rr_flow_key ak;
		GPtrArray *list;

		if (!f || f->conn != c)
			continue;
		addr_pair_key(&f->key, false, &ak);
		list = g_hash_table_lookup(t->by_addrs, &ak);
		if (list) {
			g_ptr_array_remove(list, f);
			if (!list->len)
				g_hash_table_remove(t->by_addrs, &ak);
		}
		if (t->last == conn_flow_of(f))
			t->last = NULL;
		if (t->before == conn_flow_of(f))
			t->before = NULL;
		g_hash_table_remove(t->flows, &f->key);   /* frees f */
	}
	if (c->id)
		g_hash_table_remove(t->by_id, GUINT_TO_POINTER(c->id));
	g_ptr_array_remove(t->conns, c);              /* frees c */
}

struct rr_flow *rr_conn_pair_by_evidence(struct rr_engine *eng, struct rr_flow *f, rr_flow_pred pred,
					 void *arg)
{
	struct rr_flow *peer = rr_flow_peer(f);
	GPtrArray *rev;
	guint i;

	if (peer && !conn_of(f->conn)->tentative)
		return peer;
	if (peer && pred(peer, arg)) {
		conn_of(f->conn)->tentative = false;
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
			rr_conn_pair_proved(eng, g, f);
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

const char *rr_conn_name(struct rr_conn *c)
{
	struct conn *cx = conn_of(c);
	GString *s;
	int first, i;

	if (cx->name)
		return cx->name;
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
	cx->name = g_string_free(s, FALSE);
	return cx->name;
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
	conn_rename(conn_of(c));
}

void rr_conn_mark_rpcrdma(struct rr_conn *c)
{
	c->carried_rpcrdma = true;
}

void rr_conn_mark_cut(struct rr_conn *c)
{
	conn_of(c)->capture_cut = true;
}

bool rr_conn_is_cut(const struct rr_conn *c)
{
	return conn_of(c)->capture_cut;
}

void rr_conn_note_loss(struct rr_flow *f, uint64_t packets, uint64_t bytes)
{
	struct conn_flow *cf = conn_flow_of(f);

	cf->lost_packets += packets;
	cf->lost_bytes += bytes;
	rr_conn_mark_cut(f->conn);
}

void rr_conn_note_found(struct rr_flow *f, uint64_t packets)
{
	struct conn_flow *cf = conn_flow_of(f);

	cf->lost_packets -= MIN(packets, cf->lost_packets);
}

struct rr_flow *rr_flow_proved_peer(const struct rr_flow *f)
{
	return conn_of(f->conn)->tentative ? NULL : rr_flow_peer(f);
}

void rr_conn_reopen(struct rr_conn *c)
{
	int s;

	for (s = 0; s < 2; s++)
		if (c->flow[s])
			conn_flow_of(c->flow[s])->closed = false;
}

/* Hosts numbered one by one up to this many; past it, by a hash (two may then meet). */
#define HOSTS_NUMBERED 65536u

guint rr_conn_host_hash(gconstpointer k)
{
	const struct rr_addr *a = k;

	return rr_fnv1a32(a->bytes, sizeof(a->bytes)) ^ a->family;
}

gboolean rr_conn_host_equal(gconstpointer x, gconstpointer y)
{
	const struct rr_addr *a = x, *b = y;

	return a->family == b->family && !memcmp(a->bytes, b->bytes, sizeof(a->bytes));
}

/*
 * A host's number: what tells a requester's calls from another host's with
 * the same XID (retries across connections, RFC 8166 §4.5.5), and one host's
 * memory handles from another's (RR-212).  A hash of the address would let
 * two hosts share one, and one host's call pass for a retry of the other's.
 */
static uint32_t host_number(struct rr_conn_table *t, const struct rr_addr *a)
{
	struct rr_addr key;
	gpointer v;

	if (!t->hosts)
		t->hosts = g_hash_table_new_full(rr_conn_host_hash, rr_conn_host_equal, g_free, NULL);
	memset(&key, 0, sizeof(key));
	key.family = a->family;
	memcpy(key.bytes, a->bytes, sizeof(key.bytes));
	v = g_hash_table_lookup(t->hosts, &key);
	if (v)
		return GPOINTER_TO_UINT(v);
	if (g_hash_table_size(t->hosts) >= HOSTS_NUMBERED)
		return 0x80000000u | rr_conn_host_hash(&key);
	g_hash_table_insert(t->hosts, g_memdup2(&key, sizeof(key)), GUINT_TO_POINTER(g_hash_table_size(t->hosts) + 1));
	return g_hash_table_size(t->hosts);
}

uint32_t rr_flow_host(const struct rr_engine *eng, const struct rr_flow *f, bool receiver)
{
	struct conn_flow *cf = conn_flow_of(f);
	uint32_t *h = &cf->host[receiver];

	if (!*h)
		*h = host_number(eng->conns, receiver ? &f->key.dst : &f->key.src);
	return *h;
}

void rr_conn_info_fill(const struct rr_engine *eng, const struct rr_conn *c, struct rr_conn_info *out)
{
	const struct conn *cx = conn_of(c);
	int rq = c->requester, i;
	uint32_t cfg = eng->check_opts.inline_threshold;

	memset(out, 0, sizeof(*out));
	out->handshake = cx->from_handshake;
	out->roles_known = rq >= 0;
	out->server_port = cx->server_port;
	if (!out->server_port && rq >= 0 && c->transport == RR_TRANSPORT_IWARP) {
		const struct rr_flow *req = c->flow[rq], *rsp = c->flow[1 - rq];

		out->server_port = req ? req->key.dst.port : rsp ? rsp->key.src.port : 0;
	}
	if (rq >= 0 && cx->has_cm_pd && cx->inline_recv[rq] && cx->inline_recv[1 - rq]) {
		out->inline_source = RR_INLINE_HANDSHAKE;
		out->inline_requester = cx->inline_recv[rq];
		out->inline_responder = cx->inline_recv[1 - rq];
	} else if (cfg) {
		out->inline_source = RR_INLINE_CONFIG;
		out->inline_requester = out->inline_responder = cfg;
	} else if (cx->cm_pd_cut) {
		out->inline_source = RR_INLINE_UNKNOWN;
		out->inline_requester = out->inline_responder = RR_DEFAULT_INLINE_THRESHOLD;
	} else {
		out->inline_source = RR_INLINE_DEFAULT;
		out->inline_requester = out->inline_responder = RR_DEFAULT_INLINE_THRESHOLD;
	}
	if (rq >= 0 && cx->has_cm_flags[rq]) {
		out->inv_flag_known = true;
		out->remote_invalidate_ok = cx->cm_flags[rq] & 1;
	}
	if (rq >= 0) {
		const struct rr_flow *req = c->flow[rq], *rsp = c->flow[1 - rq];

		/* The requester sends req and receives rsp. */
		out->requester_hash = req ? rr_flow_host(eng, req, false) : rsp ? rr_flow_host(eng, rsp, true) : 0;
	}
	out->capture_cut = cx->capture_cut;
	for (i = 0; i < 2; i++) {
		/* By direction: the requester's first; by side while the roles are unknown. */
		const struct rr_flow *f = c->flow[rq >= 0 ? (i ? 1 - rq : rq) : i];

		if (!f)
			continue;
		out->lost_packets[i] = conn_flow_of(f)->lost_packets;
		out->lost_bytes[i] = conn_flow_of(f)->lost_bytes;
	}
}
