// SPDX-License-Identifier: GPL-2.0-or-later
/* Small facts about a message record that several checks need. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "check_int.h"
#include "rpcrdma/hash.h"

bool ck_prog(const struct rr_message *m, uint32_t *prog, uint32_t *vers, uint32_t *proc)
{
	if (m->dir == RR_DIR_CALL && m->has_rpc) {
		*prog = m->call.prog;
		*vers = m->call.vers;
		*proc = m->call.proc;
		return true;
	}
	if (m->dir == RR_DIR_REPLY && m->call_ulp) {
		*prog = m->call_ulp->prog;
		*vers = m->call_ulp->vers;
		*proc = m->call_ulp->proc;
		return true;
	}
	return false;
}

bool ck_is_nfs(const struct rr_message *m, uint32_t lo, uint32_t hi)
{
	uint32_t p, v, pr;

	return ck_prog(m, &p, &v, &pr) && p == RR_NFS_PROGRAM && v >= lo && v <= hi;
}

uint32_t ck_pz_segments(const struct rr_hdr *h)
{
	uint32_t i, n = 0;

	for (i = 0; i < h->n_reads; i++)
		n += h->reads[i].position == 0;
	return n;
}

bool ck_is_long_call(const struct rr_hdr *h)
{
	return h->proc == RR_RDMA_NOMSG && ck_pz_segments(h) > 0;
}

size_t ck_read_chunks(const struct rr_hdr *h, bool nomsg, struct ck_rchunk *out, size_t max)
{
	size_t n = 0, j;
	uint32_t i;

	for (i = 0; i < h->n_reads; i++) {
		uint32_t p = h->reads[i].position;

		if (p == 0)
			continue;   /* a Position-Zero chunk is not a normal chunk (RR-027, RR-028) */
		for (j = 0; j < n && out[j].position != p; j++)
			;
		if (j == n) {
			if (n == max)
				break;
			memset(&out[n], 0, sizeof(out[n]));
			out[n].position = p;
			out[n].first = i;
			n++;
		} else if (i > 0 && h->reads[i - 1].position != p) {
			out[j].split = true;
		}
		out[j].n_segs++;
		out[j].length += h->reads[i].seg.length;
	}
	return n;
}

const struct rr_ddp_place *ck_item_at(const struct rr_message *m, uint64_t pos)
{
	size_t i;

	for (i = 0; i < m->n_items; i++)
		if (m->items[i].data_pos == pos)
			return &m->items[i];
	return NULL;
}

const struct rr_ddp_place *ck_result_for_chunk(const struct rr_message *m, uint32_t k)
{
	size_t i;

	for (i = 0; i < m->n_items; i++)
		if (m->items[i].ordinal == k)
			return &m->items[i];
	return NULL;
}

bool ck_inline_despite_chunk(const struct rr_message *m, const struct rr_ddp_place *it)
{
	const struct rr_hdr *c = m->call_hdr;

	return c && it->chunk < 0 && it->length && it->ordinal < c->n_write_chunks &&
	       c->writes[it->ordinal].count && rr_chunk_length(c, &c->writes[it->ordinal]);
}

bool ck_reply_ok(const struct rr_message *m)
{
	return m->has_rpc && m->reply.reply_stat == RR_MSG_ACCEPTED &&
	       m->reply.accept_stat == RR_ACCEPT_SUCCESS;
}

const char *ck_reply_status(const struct rr_message *m, char *buf, size_t len)
{
	static const char *const accept[] = { "SUCCESS", "PROG_UNAVAIL", "PROG_MISMATCH",
					      "PROC_UNAVAIL", "GARBAGE_ARGS", "SYSTEM_ERR" };

	if (m->hdr->proc == RR_RDMA_ERROR)
		snprintf(buf, len, "%s", m->hdr->err == RR_ERR_VERS ? "ERR_VERS" :
			 m->hdr->err == RR_ERR_CHUNK ? "ERR_CHUNK" : "RDMA_ERROR");
	else if (!m->has_rpc)
		snprintf(buf, len, "an undecodable reply");
	else if (m->reply.reply_stat == RR_MSG_DENIED)
		snprintf(buf, len, "MSG_DENIED");
	else if (m->reply.accept_stat < G_N_ELEMENTS(accept))
		snprintf(buf, len, "%s", accept[m->reply.accept_stat]);
	else
		snprintf(buf, len, "accept_stat %u", m->reply.accept_stat);
	return buf;
}

/* A text cut to the buffer: what fits of what is appended (as snprintf cuts). */
struct text {
	char *buf;
	size_t len, at;
};

static void put(struct text *t, const char *s)
{
	size_t n = strlen(s), room = t->len - 1 - t->at;   /* at < len always: the text ends in a 0 */

	if (n > room)
		n = room;
	memcpy(t->buf + t->at, s, n);
	t->at += n;
	t->buf[t->at] = 0;
}

static void put_u32(struct text *t, uint32_t v, unsigned base, int width)
{
	char d[12];
	int n = 0;

	do {
		d[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n < width)
		d[n++] = '0';
	while (n && t->at + 1 < t->len)
		t->buf[t->at++] = d[--n];
	t->buf[t->at] = 0;
}

/* The ops of the NFSv4 COMPOUND a message of program p, version v, procedure pr is or answers; NULL otherwise. */
static const struct rr_ulp_info *compound_of(const struct rr_message *m, uint32_t p, uint32_t v, uint32_t pr)
{
	const struct rr_ulp_info *u = m->dir == RR_DIR_CALL ? (m->has_ulp ? &m->ulp : NULL) : m->call_ulp;

	return p == RR_NFS_PROGRAM && v == 4 && pr == 1 && u && u->n_ops ? u : NULL;
}

/*
 * "NFSACL v3 SETACL", "NFSv4.1 COMPOUND(SEQUENCE,PUTFH,READ)", "NFSv4
 * CB_COMPOUND" (ulp/names.c spells ops alike).  A COMPOUND whose ops do
 * not all fit lists the ops that do and ",...)": never half an op name
 * ("GET" for GETATTR).  Otherwise cut short, it is the prefix of the
 * whole that fits (len >= 1).
 */
static void describe(const struct rr_message *m, char *buf, size_t len)
{
	const struct rr_ulp_info *u;
	struct text t = { buf, len, 0 };
	const char *pname, *proc;
	uint32_t p, v, pr, i;

	buf[0] = 0;
	if (!ck_prog(m, &p, &v, &pr)) {
		put(&t, "XID 0x");
		put_u32(&t, m->xid, 16, 8);
		return;
	}
	if ((u = compound_of(m, p, v, pr))) {
		put(&t, "NFSv4.");
		put_u32(&t, u->minorversion, 10, 0);
		put(&t, " COMPOUND(");
		for (i = 0; i < u->n_ops; i++) {
			const char *op = rr_nfs4_op_name(u->ops[i]);
			size_t need = strlen(op ? op : "?") + (i ? 1 : 0) + (i + 1 < u->n_ops ? strlen(",...)") : 1);

			if (t.at + need >= len) {
				put(&t, i ? ",...)" : "...)");
				return;
			}
			put(&t, i ? "," : "");
			put(&t, op ? op : "?");
		}
		put(&t, ")");
		return;
	}
	pname = rr_rpc_program_name(p);
	proc = rr_ulp_proc_name(p, v, pr);
	if (pname && proc && p == RR_NFS4_CB_PROGRAM) {
		put(&t, "NFSv4 ");
		put(&t, proc);
	} else if (pname && proc) {
		put(&t, pname);
		put(&t, p == RR_NFS_PROGRAM ? "v" : " v");
		put_u32(&t, v, 10, 0);
		put(&t, " ");
		put(&t, proc);
	} else {
		put(&t, "program ");
		put_u32(&t, p, 10, 0);
		put(&t, " v");
		put_u32(&t, v, 10, 0);
		put(&t, " procedure ");
		put_u32(&t, pr, 10, 0);
	}
}

/*
 * A call's description is a function of its kind: its program, version and
 * procedure, and for an NFSv4 COMPOUND its minor version and ops (and the
 * room it is given).  Several checks describe each message (six times a
 * message on real traffic) and calls of a kind repeat, so the descriptions
 * of the kinds met lately are kept, and describing a call is mostly a copy
 * (describing each anew took 2.5 % of ulb-lint's instructions on the
 * bench's real-traffic mix).  Per thread: ulb-lint --jobs checks in several.
 */
#define KINDS 64                      /* a power of two */
#define KIND_OPS 16                   /* a COMPOUND of more ops is described each time */
#define KIND_TEXT 256

struct kind {
	uint32_t prog, vers, proc, minor;
	uint32_t n_ops;
	uint32_t ops[KIND_OPS];
	size_t len;                   /* the room the text was made for; 0: the slot is empty */
	char text[KIND_TEXT];
};

static _Thread_local struct kind kinds[KINDS];

/* The message's kind, without its text; false when it has none to keep (no program, a long COMPOUND). */
static bool kind_of(const struct rr_message *m, struct kind *k)
{
	const struct rr_ulp_info *u;

	if (!ck_prog(m, &k->prog, &k->vers, &k->proc))
		return false;
	k->minor = 0;
	k->n_ops = 0;
	if ((u = compound_of(m, k->prog, k->vers, k->proc))) {
		if (u->n_ops > KIND_OPS)
			return false;
		k->minor = u->minorversion;
		k->n_ops = u->n_ops;
		memcpy(k->ops, u->ops, u->n_ops * sizeof(k->ops[0]));
	}
	return true;
}

static bool same_kind(const struct kind *a, const struct kind *b, size_t len)
{
	return a->len == len && a->prog == b->prog && a->vers == b->vers && a->proc == b->proc &&
	       a->minor == b->minor && a->n_ops == b->n_ops &&
	       !memcmp(a->ops, b->ops, a->n_ops * sizeof(a->ops[0]));
}

void ck_describe_call(const struct rr_message *m, char *buf, size_t len)
{
	struct kind k, *slot;
	uint32_t h;

	if (!len)
		return;
	if (len > KIND_TEXT || !kind_of(m, &k)) {
		describe(m, buf, len);
		return;
	}
	h = rr_fnv1a32(k.ops, k.n_ops * sizeof(k.ops[0])) ^ k.prog * 0x9e3779b1u ^ k.vers << 24 ^
	    k.proc * 0x85ebca6bu ^ k.minor << 16 ^ (uint32_t)len << 8;
	slot = &kinds[(h ^ h >> 15) & (KINDS - 1)];
	if (!same_kind(slot, &k, len)) {
		describe(m, slot->text, len);
		memcpy(slot, &k, offsetof(struct kind, len));
		slot->len = len;
	}
	memcpy(buf, slot->text, strlen(slot->text) + 1);
}

bool ck_is_backward(const struct rr_message *m)
{
	return m->backchannel;
}

uint32_t ck_inline_of_receiver(const struct rr_conn_info *c, bool receiver_is_requester)
{
	return receiver_is_requester ? c->inline_requester : c->inline_responder;
}

const char *ck_inline_source(enum rr_inline_source s)
{
	switch (s) {
	case RR_INLINE_HANDSHAKE:
		return "from the RFC 8797 private data in the handshake";
	case RR_INLINE_CONFIG:
		return "as configured";
	case RR_INLINE_UNKNOWN:
		return "unknown: the handshake's private data was cut by the snaplen";
	case RR_INLINE_DEFAULT:
		break;
	}
	return "assumed: the RFC 8166 default, no handshake in the capture";
}

bool ck_ulp_ok(const struct rr_message *m)
{
	return m->has_rpc && m->ulp_result == RR_ULP_OK && !m->capture_loss;
}

bool ck_segments_over_limit(const struct rr_hdr *h)
{
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;
	uint32_t k;

	if (ck_pz_segments(h) > 16 || (h->has_reply && h->reply.count > 16))
		return true;
	n = ck_read_chunks(h, true, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++)
		if (rc[i].n_segs > 16)
			return true;
	for (k = 0; k < h->n_write_chunks; k++)
		if (h->writes[k].count > 16)
			return true;
	return false;
}

bool ck_send_word(const struct rr_fact_send *s, size_t off, uint32_t *v)
{
	struct rr_cursor c;

	rr_cursor_init(&c, s->data, s->len);
	return rr_peek_be32(&c, off, v);
}
