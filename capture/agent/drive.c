// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-agent drive: the requester.  Each exchange of a scenario is built
 * by the generator's encoders (pcapgen_core), its chunks are registered as
 * real memory regions whose R_Keys and addresses replace the generator's
 * placeholders, the call is sent, and the reply is put back together from
 * what really arrived: the Send and the bytes RDMA wrote into our regions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/engine.h>
#include <rpcrdma/hdr.h>
#include <rpcrdma/rpc.h>

#include "agent.h"
#include "common.h"
#include "kernel_target.h"
#include "payload.h"
#include "pg_nfs.h"
#include "pg_rpcrdma.h"
#include "pg_scenario.h"
#include "readback.h"
#include "v41_session.h"
#include "verbs.h"

struct drive {
	struct agent_run run;
	const char *server, *scenario_path, *target;
	const char *export_path;
	pg_scenario *s;
	pg_nfs_state nfs;
	pg_mem mem;
	struct vb_conn *conn;
	uint32_t next_xid, granted;
	unsigned exchanges, failures;
	uint64_t msg_index;
	uint64_t ddp_bytes;         /* moved by RDMA Read and Write, both ways */
	struct kt_handles kh;
	struct v41_session v41;     /* --target kernel: the NFSv4.1 session (v41_session.h) */
	struct rb_state rb;         /* READ returns what WRITE put there (readback.h) */
	enum outcome { OUT_NONE, OUT_REPLY, OUT_NFS_ERROR, OUT_GARBAGE, OUT_RPC_ERROR, OUT_ERR_CHUNK,
		       OUT_ERR_VERS, OUT_BAD_REPLY, OUT_DISCONNECT, OUT_TIMEOUT } last;
};

static const char *const outcome_text[] = {
	"nothing", "a normal reply", "an NFS error", "GARBAGE_ARGS", "an RPC error",
	"RDMA_ERROR ERR_CHUNK", "RDMA_ERROR ERR_VERS", "a malformed reply", "a disconnect",
	"no answer (timeout)",
};

/* The regions behind one chunk: one per segment, or one for all (cover=coalesce). */
struct chunk_mem {
	struct vb_mr mr[PG_MAX_SEGS];
	unsigned n_mr;
	pg_chunk *c;
};

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent drive [-d DEV] [-p PORT] [-w CAPTURE] [-m MANIFEST] [-F pcap|pcapng]\n"
	      "                           [--inject RULE[,RULE...]] [--target agent|kernel]\n"
	      "                           [--export PATH] [--rxe NETDEV|--siw NETDEV] [--netdev IF]\n"
	      "                           [--timeout SEC] [--force] [--overwrite] SERVER SCENARIO\n"
	      "Runs SCENARIO (rpcrdma-pcapgen's format) against the RPC-over-RDMA server SERVER.\n", f);
}

static bool map_chunk(struct drive *d, struct chunk_mem *cm, pg_chunk *c, bool remote_write)
{
	uint32_t off = 0;
	cm->c = c;
	cm->n_mr = 0;
	if (c->one_mr) {
		uint64_t total = 0;
		for (guint k = 0; k < c->segs->len; k++)
			total += g_array_index(c->segs, pg_seg, k).length;
		if (!vb_reg(d->conn, &cm->mr[0], total, remote_write, !remote_write))
			return false;
		cm->n_mr = 1;
	}
	for (guint k = 0; k < c->segs->len && k < PG_MAX_SEGS; k++) {
		pg_seg *s = &g_array_index(c->segs, pg_seg, k);
		struct vb_mr *m;
		if (c->one_mr) {
			m = &cm->mr[0];
			s->handle = m->mr->rkey;
			s->offset = (uint64_t)(uintptr_t)(m->buf + off);
		} else {
			m = &cm->mr[cm->n_mr];
			if (!vb_reg(d->conn, m, s->length, remote_write, !remote_write))
				return false;
			cm->n_mr++;
			s->handle = m->mr->rkey;
			s->offset = (uint64_t)(uintptr_t)m->buf;
		}
		if (!remote_write) {
			/* the bytes the responder is to pull */
			uint32_t n = s->length;
			if (off + n > c->data->len)
				n = off < c->data->len ? c->data->len - off : 0;
			memcpy((uint8_t *)(uintptr_t)s->offset, c->data->data + off, n);
		}
		off += s->length;
	}
	return true;
}

static void unmap_chunk(struct chunk_mem *cm)
{
	for (unsigned i = 0; i < cm->n_mr; i++)
		vb_dereg(&cm->mr[i]);
	cm->n_mr = 0;
}

/* What came back in one of our chunks: its segments filled in order, as returned. */
static GByteArray *gather(const struct chunk_mem *cm, const struct rr_hdr *h,
			  const struct rr_write_chunk *wc)
{
	GByteArray *b = g_byte_array_new();
	for (uint32_t k = 0; k < wc->count && k < cm->c->segs->len; k++) {
		const pg_seg *s = &g_array_index(cm->c->segs, pg_seg, k);
		uint32_t n = h->wsegs[wc->first + k].length;
		if (n > s->length)
			n = s->length;   /* beyond what we registered nothing can have landed */
		g_byte_array_append(b, (const uint8_t *)(uintptr_t)s->offset, n);
	}
	return b;
}

/* An argument that is not DDP-eligible is handed to the reduction as if it were. */
static bool inject_ineligible(pg_item *it, pg_rpc_pair *rp)
{
	pg_ddp bulk, *d;
	guint at;
	uint8_t old[PG_MAX_CHUNKS];
	unsigned oldn = it->call.n;

	if (!rp->call.bulk->len)
		return false;
	bulk = g_array_index(rp->call.bulk, pg_ddp, 0);
	bulk.slot = -1;
	for (at = 0; at < rp->call.ddp->len; at++)
		if (g_array_index(rp->call.ddp, pg_ddp, at).off > bulk.off)
			break;
	memcpy(old, it->call.nseg, sizeof(old));
	g_array_insert_val(rp->call.ddp, at, bulk);
	for (guint j = 0; j < rp->call.ddp->len && j < PG_MAX_CHUNKS; j++) {
		unsigned src = j < at ? j : j - 1;
		uint8_t v = oldn ? old[src < oldn ? src : oldn - 1] : 0;
		it->call.nseg[j] = j == at ? 1 : v;
	}
	it->call.n = (uint8_t)MIN(rp->call.ddp->len, PG_MAX_CHUNKS);
	d = &g_array_index(rp->call.ddp, pg_ddp, at);
	(void)d;
	return true;
}


static void record_call(struct drive *d, const pg_plan *p, const pg_rpc_pair *rp, bool rebuilt)
{
	struct mf_rpc m;
	struct rr_hdr h;

	memset(&m, 0, sizeof(m));
	rr_hdr_decode(p->call.wire->data, p->call.wire->len, &h);
	agent_mf_from_hdr(&m, &h);
	m.xid = p->call.xid;
	m.reply = false;
	m.vers = p->call.vers;
	m.credit = p->call.credit;
	m.len = rp->call.msg->len;
	if (d->run.mf)
		rr_sha256_hex(rp->call.msg->data, rp->call.msg->len, m.sha256);
	m.rebuilt = rebuilt;
	m.inline_bytes = p->call.inline_payload->len;
	m.rdma_bytes = 0;
	for (guint i = 0; i < p->read_chunks->len; i++)
		m.rdma_bytes += ((pg_chunk *)p->read_chunks->pdata[i])->data->len;
	d->ddp_bytes += m.rdma_bytes;
	if (d->run.mf)
		mf_write_rpc(d->run.mf, &m);
}

/* What the RPC reply in payload says (GARBAGE_ARGS, an RPC or NFS error): d->last and an event. */
static void rpc_outcome(struct drive *d, uint32_t xid, const GByteArray *payload)
{
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	uint32_t nst = 0;

	rr_cursor_init(&c, payload->data, payload->len);
	if (!rr_rpc_decode_reply(&c, &rep))
		return;
	if (rep.reply_stat == 0 && rep.accept_stat == 4)
		d->last = OUT_GARBAGE;
	else if (rep.reply_stat || rep.accept_stat)
		d->last = OUT_RPC_ERROR;
	if (rep.reply_stat == 0 && rep.accept_stat == 4) {
		agent_mf_event(&d->run, "garbage-args", xid, "RPC GARBAGE_ARGS");
	} else if (rep.reply_stat == 0 && rep.accept_stat == 0) {
		if (rr_get_be32(&c, &nst) && nst)
			d->last = OUT_NFS_ERROR;
		if (nst)
			agent_mf_event(&d->run, "nfs-error", xid, "NFS status %u", nst);
	} else {
		agent_mf_event(&d->run, "rpc-error", xid, "reply_stat %u accept_stat %u", rep.reply_stat,
			       rep.accept_stat);
	}
}

/* The reply as it arrived; returns its decoded header in *h. */
static bool take_reply(struct drive *d, uint32_t xid, const struct rr_ulp_info *callinfo,
		       struct chunk_mem *wmem, unsigned n_w, struct chunk_mem *rmem,
		       struct rr_hdr *h, bool *err_reply)
{
	struct vb_msg msg;
	bool disc;
	char err[512];
	struct mf_rpc m;
	GByteArray *payload = g_byte_array_new(), *base = NULL;
	struct pl_chunk wr[RR_HDR_MAX_WRITE_CHUNKS];
	GByteArray *wdata[RR_HDR_MAX_WRITE_CHUNKS];
	unsigned nw = 0;
	enum rr_hdr_status st;
	struct rb_result rbr;

	*err_reply = false;
	if (!vb_recv(d->conn, &msg, d->run.timeout_ms, &disc, err, sizeof(err))) {
		agent_mf_event(&d->run, disc ? "disconnect" : "timeout", xid, "%s", err);
		d->last = disc ? OUT_DISCONNECT : OUT_TIMEOUT;
		g_byte_array_free(payload, TRUE);
		return false;
	}
	st = rr_hdr_decode(msg.data, msg.len, h);
	d->last = st == RR_HDR_OK ? OUT_REPLY : OUT_BAD_REPLY;
	memset(&m, 0, sizeof(m));
	m.xid = h->xid;
	m.reply = true;
	m.rebuilt = true;
	if (st == RR_HDR_E_NOT_V1 && h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS) {
		/* ERR_VERS keeps the failing message's version (RFC 8166 4.5) */
		*err_reply = true;
		d->last = OUT_ERR_VERS;
		agent_mf_event(&d->run, "err-vers", h->xid, "RDMA_ERROR ERR_VERS (versions %u-%u), "
			       "rdma_vers %u", h->vers_low, h->vers_high, h->vers);
		m.rebuilt = false;
	} else if (st != RR_HDR_OK) {
		agent_mf_event(&d->run, "bad-reply", h->xid, "reply header: %s", rr_hdr_status_text(st));
		m.rebuilt = false;
	}
	agent_mf_from_hdr(&m, h);
	if (h->xid != xid)
		agent_mf_event(&d->run, "reply", h->xid, "reply XID 0x%08x for call 0x%08x", h->xid, xid);
	d->granted = h->credit;
	if (st == RR_HDR_OK && h->proc == RR_RDMA_ERROR) {
		*err_reply = true;
		d->last = h->err == RR_ERR_VERS ? OUT_ERR_VERS : OUT_ERR_CHUNK;
		agent_mf_event(&d->run, h->err == RR_ERR_VERS ? "err-vers" : "err-chunk", h->xid,
			       "RDMA_ERROR %s", h->err == RR_ERR_VERS ? "ERR_VERS" : "ERR_CHUNK");
	} else if (st == RR_HDR_OK && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_NOMSG)) {
		if (h->proc == RR_RDMA_NOMSG && h->has_reply && rmem->c)
			base = gather(rmem, h, &h->reply);
		else
			base = g_byte_array_new();
		if (h->proc == RR_RDMA_MSG)
			g_byte_array_append(base, msg.data + h->hdr_len, msg.len - (guint)h->hdr_len);
		for (uint32_t k = 0; k < h->n_write_chunks && k < n_w; k++) {
			wdata[nw] = gather(&wmem[k], h, &h->writes[k]);
			wr[nw].data = wdata[nw]->data;
			wr[nw].len = wdata[nw]->len;
			nw++;
		}
		/* without a manifest (a benchmark) nothing is put back together */
		if (d->run.mf &&
		    !pl_reply(callinfo, base->data, base->len, wr, nw, payload, err, sizeof(err)))
			agent_mf_event(&d->run, "bad-reply", h->xid, "%s", err);
		m.inline_bytes = h->proc == RR_RDMA_MSG ? msg.len - h->hdr_len : 0;
		m.rdma_bytes = 0;
		for (unsigned k = 0; k < nw; k++)
			m.rdma_bytes += wr[k].len;
		if (rmem->c && h->proc == RR_RDMA_NOMSG)
			m.rdma_bytes += base->len;
		d->ddp_bytes += m.rdma_bytes;
		rpc_outcome(d, h->xid, payload);
		if (rb_reply(&d->rb, payload->data, payload->len, &rbr))
			agent_mf_event(&d->run, rbr.equal ? "readback" : "readback-differs", h->xid,
				       "%s", rbr.text);
	}
	m.len = payload->len;
	if (d->run.mf)
		rr_sha256_hex(payload->data, payload->len, m.sha256);
	if (d->run.mf)
		mf_write_rpc(d->run.mf, &m);
	for (unsigned k = 0; k < nw; k++)
		g_byte_array_free(wdata[k], TRUE);
	if (base)
		g_byte_array_free(base, TRUE);
	g_byte_array_free(payload, TRUE);
	return true;
}


/*
 * What the responder should have done with a call we broke on purpose
 * (responder-side rules), judged from what it did.
 */
static void judge(struct drive *d, const char *inj, uint32_t xid)
{
	struct mf_verdict v;
	const char *rule = NULL;
	bool pass = false, na = false;
	enum outcome o = d->last;

	if (!inj)
		return;
	if (!strcmp(inj, "RR-001")) {
		rule = "RR-110";
		pass = o == OUT_ERR_VERS;
	} else if (!strcmp(inj, "RR-130")) {
		rule = "RR-131";
		pass = o == OUT_ERR_CHUNK;
	} else if (!strcmp(inj, "RR-141") || !strcmp(inj, "RR-143")) {
		rule = "RR-065";
		pass = o == OUT_ERR_CHUNK || o == OUT_GARBAGE;
	} else if (!strcmp(inj, "RR-002")) {
		rule = "RR-113";
		pass = o == OUT_ERR_CHUNK;
		na = o == OUT_REPLY;   /* it may take the RPC XID; the rule asks nothing then */
	} else if (!strcmp(inj, "RR-116")) {
		rule = "RR-116";
		na = true;
	}
	if (!rule)
		return;
	memset(&v, 0, sizeof(v));
	g_strlcpy(v.rule, rule, sizeof(v.rule));
	v.xid = xid;
	g_strlcpy(v.result, na ? "n/a" : pass ? "pass" : "fail", sizeof(v.result));
	snprintf(v.text, sizeof(v.text), "injected %s; the server answered with %s", inj,
		 outcome_text[o]);
	fprintf(stderr, AGENT_NAME ": verdict %s %s: %s\n", v.rule, v.result, v.text);
	if (d->run.mf)
		mf_write_verdict(d->run.mf, &v);
}

/* A rule the call breaks on purpose: the manifest's inject line. */
struct injection {
	const char *rule, *also, *note;
};

/* The memory behind one call's chunks. */
#define DRIVE_MAX_READ_CHUNKS (PG_MAX_CHUNKS + 1)
struct call_mem {
	struct chunk_mem r[DRIVE_MAX_READ_CHUNKS], w[PG_MAX_CHUNKS], reply;
	unsigned n_r, n_w;
};

/*
 * The call for one scenario item, encoded by the generator and reduced
 * into chunks, with the injections that change what it carries.  false:
 * a scenario error (said and counted), nothing left to clear.
 */
static bool build_call(struct drive *d, pg_item *it, bool inject, uint32_t xid, pg_rng *rng,
		       pg_rpc_pair *rp, pg_plan *plan, struct injection *inj)
{
	bool v4 = pg_item_is_v4(it);
	pg_plan_opts o;
	char *perr = NULL;

	if (inject && agent_inject_has(&d->run, "RR-130")) {
		it->msgp = true;
		it->align = 4;
		it->thresh = 4096;
	}
	pg_nfs_build(&d->nfs, it, xid, rng, rp);
	if (inject && ((agent_inject_has(&d->run, "RR-141") && !v4) ||
		       (agent_inject_has(&d->run, "RR-143") && v4))) {
		it->call.chunked = true;
		if (inject_ineligible(it, rp)) {
			inj->rule = v4 ? "RR-143" : "RR-141";
			inj->also = "RR-140,RR-142,RR-024,RR-222,RR-023,RR-065,RR-173,RR-116";
			inj->note = "an argument that is not DDP-eligible travels in a read chunk";
		}
	}
	o = (pg_plan_opts){ xid, d->s->credits, d->s->credits, d->s->inline_max, false };
	if (!pg_plan_build(plan, it, rp, &o, &d->mem, &perr)) {
		fprintf(stderr, AGENT_NAME ": %s line %d: %s\n", d->scenario_path, it->line, perr);
		g_free(perr);
		pg_rpc_pair_clear(rp);
		pg_plan_clear(plan);
		d->failures++;
		return false;
	}
	if (plan->read_chunks->len > DRIVE_MAX_READ_CHUNKS) {
		fprintf(stderr, AGENT_NAME ": %s line %d: %u read chunks; the agent takes at most %zu\n",
			d->scenario_path, it->line, plan->read_chunks->len, (size_t)DRIVE_MAX_READ_CHUNKS);
		d->failures++;
		pg_plan_clear(plan);
		pg_rpc_pair_clear(rp);
		return false;
	}
	return true;
}

/* Registers every chunk of the plan (all are tried); false when one could not be. */
static bool map_call(struct drive *d, const pg_plan *plan, struct call_mem *cm)
{
	bool ok = true;

	memset(&cm->reply, 0, sizeof(cm->reply));
	cm->n_r = cm->n_w = 0;
	for (guint i = 0; i < plan->read_chunks->len; i++)
		ok &= map_chunk(d, &cm->r[cm->n_r++], plan->read_chunks->pdata[i], false);
	for (guint i = 0; i < plan->write_chunks->len && cm->n_w < PG_MAX_CHUNKS; i++)
		ok &= map_chunk(d, &cm->w[cm->n_w++], plan->write_chunks->pdata[i], true);
	if (plan->reply_chunk)
		ok &= map_chunk(d, &cm->reply, plan->reply_chunk, true);
	return ok;
}

static void unmap_call(struct call_mem *cm)
{
	for (unsigned i = 0; i < cm->n_r; i++)
		unmap_chunk(&cm->r[i]);
	for (unsigned i = 0; i < cm->n_w; i++)
		unmap_chunk(&cm->w[i]);
	unmap_chunk(&cm->reply);
}

/* The injections in the transport header, made on the plan before it is encoded. */
static void break_header(struct drive *d, bool inject, pg_plan *plan, bool *rebuilt,
			 struct injection *inj)
{
	if (inject && agent_inject_has(&d->run, "RR-130")) {
		inj->rule = "RR-130";
		inj->also = "RR-131,RR-173";
		inj->note = "the call is RDMA_MSGP";
	}
	if (inject && agent_inject_has(&d->run, "RR-001")) {
		/* a conforming engine reports the version (ENG-NOT-V1) and
		 * RR-001 only if the responder then answers anything but ERR_VERS */
		plan->call.vers = 2;
		*rebuilt = false;
		inj->rule = "RR-001";
		inj->also = "RR-110,RR-111,RR-003,RR-113,RR-001";
		inj->note = "the call's header says version 2";
	}
	if (inject && agent_inject_has(&d->run, "RR-002")) {
		plan->call.xid ^= 0x00010000u;
		inj->rule = "RR-002";
		inj->also = "RR-003,RR-004,RR-113,RR-110";
		inj->note = "the transport XID differs from the RPC XID";
	}
}

/*
 * Encodes, records and sends the call, then takes and judges its reply
 * (and, for RR-116, sends it again after an RDMA_ERROR).  false when the
 * connection is gone.
 */
static bool send_call(struct drive *d, const pg_item *it, pg_plan *plan, const pg_rpc_pair *rp,
		      struct call_mem *cm, bool rebuilt, bool inject, const struct injection *inj)
{
	struct rr_rpc_call call;
	struct rr_ulp_info callinfo;
	struct rr_hdr h;
	bool alive, err_reply = false;

	pg_plan_encode(plan);
	pl_describe_call(rp->call.msg->data, rp->call.msg->len, &call, &callinfo);
	record_call(d, plan, rp, rebuilt);
	rb_call(&d->rb, rp->call.msg->data, rp->call.msg->len);
	if (inj->rule)
		agent_mf_inject(&d->run, strcmp(inj->rule, "RR-001") ? inj->rule : "ENG-NOT-V1",
				plan->call.xid, false, inj->also, inj->note);
	d->exchanges++;
	if (!agent_send(&d->run, d->conn, plan->call.wire))
		return false;
	if (it->reply.none)
		return true;
	d->last = OUT_NONE;
	alive = take_reply(d, plan->call.xid, &callinfo, cm->w, cm->n_w, &cm->reply, &h, &err_reply);
	judge(d, inj->rule, plan->call.xid);
	if (alive && err_reply && inject && agent_inject_has(&d->run, "RR-116")) {
		/* the same XID again, after the responder said it cannot take it */
		record_call(d, plan, rp, rebuilt);
		agent_mf_inject(&d->run, "RR-116", plan->call.xid, false, "RR-004,RR-180,RR-181,RR-131,RR-130",
				"XID retried after RDMA_ERROR");
		if (!agent_send(&d->run, d->conn, plan->call.wire))
			alive = false;
		else
			alive = take_reply(d, plan->call.xid, &callinfo, cm->w, cm->n_w, &cm->reply, &h,
					   &err_reply);
		judge(d, "RR-116", plan->call.xid);
	}
	return alive;
}

/* One RPC of the scenario: false when the connection is gone. */
static bool exchange(struct drive *d, const pg_item *orig)
{
	pg_item it = *orig;
	pg_rpc_pair rp;
	pg_plan plan;
	pg_rng rng = pg_rng_derive(d->s->seed, 0x444154, d->msg_index++);
	struct call_mem cm;
	struct injection inj = { NULL, NULL, NULL };
	bool alive, rebuilt = true, inject;
	uint32_t xid = d->next_xid++;

	memset(&plan, 0, sizeof(plan));
	/*
	 * The first exchange stays clean: a capture has to show the connection
	 * carrying RPC-over-RDMA version 1 before a broken message can be told
	 * from traffic that is not RPC-over-RDMA at all.
	 */
	inject = d->exchanges > 0;
	if (!build_call(d, &it, inject, xid, &rng, &rp, &plan, &inj))
		return true;
	alive = map_call(d, &plan, &cm);
	if (!alive) {
		fprintf(stderr, AGENT_NAME ": cannot register chunk memory\n");
	} else {
		break_header(d, inject, &plan, &rebuilt, &inj);
		alive = send_call(d, &it, &plan, &rp, &cm, rebuilt, inject, &inj);
	}
	unmap_call(&cm);
	pg_plan_clear(&plan);
	pg_rpc_pair_clear(&rp);
	return alive;
}

/* The command line into d: -1 to go on, else the exit status (--help 0, usage 2). */
static int parse_args(struct drive *d, int argc, char **argv)
{
	char err[512] = "";
	int bad = 0, pos = 0;

	d->target = "agent";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (agent_common_opt(&d->run, argc, argv, &i, &bad)) {
			continue;
		} else if (!strcmp(a, "--target") && i + 1 < argc) {
			d->target = argv[++i];
			if (strcmp(d->target, "agent") && strcmp(d->target, "kernel"))
				bad = 1;
		} else if (!strcmp(a, "--export") && i + 1 < argc) {
			d->export_path = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, AGENT_NAME ": drive: unknown option %s\n", a);
			bad = 1;
		} else if (pos == 0) {
			d->server = a;
			pos++;
		} else if (pos == 1) {
			d->scenario_path = a;
			pos++;
		} else {
			bad = 1;
		}
	}
	if (bad || pos != 2) {
		usage(stderr);
		return 2;
	}
	if (*d->run.inject && !agent_inject_check(d->run.inject, "drive", err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return 2;
	}
	return -1;
}

static bool load_scenario(struct drive *d)
{
	char *perr = NULL;

	d->s = pg_scenario_load(d->scenario_path, &perr);
	if (!d->s || !pg_scenario_finish(d->s, &perr)) {
		fprintf(stderr, AGENT_NAME ": %s\n", perr ? perr : d->scenario_path);
		g_free(perr);
		return false;
	}
	return true;
}

/* The kernel target's file handles when asked for, then the RDMA-CM connection. */
static bool drive_connect(struct drive *d)
{
	char err[512] = "";
	uint8_t pd[8];
	struct vb_opts vo;

	if (!strcmp(d->target, "kernel") &&
	    !kt_handles(d->server, d->export_path ? d->export_path : "/srv/export", &d->kh, err,
			sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return false;
	}
	kt_apply(&d->kh, &d->nfs);
	agent_rfc8797(pd);
	memset(&vo, 0, sizeof(vo));
	vo.depth = 64;
	vo.recv_size = AGENT_INLINE;
	vo.timeout_ms = d->run.timeout_ms;
	vo.private_data = pd;
	vo.private_len = sizeof(pd);
	d->conn = vb_connect(d->server, d->run.port, &vo, err, sizeof(err));
	if (!d->conn) {
		fprintf(stderr, AGENT_NAME ": connect to %s port %u: %s\n", d->server, d->run.port, err);
		return false;
	}
	fprintf(stderr, AGENT_NAME ": connected to %s port %u on %s\n", d->server, d->run.port,
		vb_device_name(d->conn));
	return true;
}

/* Every rpc item of the scenario, its repeats included, until a signal, no credit or no connection. */
static void run_items(struct drive *d)
{
	gint64 t0 = g_get_monotonic_time();
	double secs;

	d->granted = 1;
	for (guint i = 0; i < d->s->items->len; i++) {
		const pg_item *it = d->s->items->pdata[i];
		uint32_t rep = it->repeat ? it->repeat : 1;
		if (it->kind != PG_ITEM_RPC) {
			fprintf(stderr, AGENT_NAME ": %s line %d: only rpc lines run live; skipped\n",
				d->scenario_path, it->line);
			continue;
		}
		for (uint32_t r = 0; r < rep; r++) {
			if (agent_stop_signal)
				goto done;
			if (d->exchanges && !d->granted) {
				/* RFC 8166 3.3.1: no credit, no call */
				agent_mf_event(&d->run, "no-credit", 0, "the server granted 0 credits; "
					       "no further call is sent");
				goto done;
			}
			if (!exchange(d, it))
				goto done;
		}
	}
done:
	secs = (double)(g_get_monotonic_time() - t0) / 1e6;
	fprintf(stderr, AGENT_NAME ": %u exchanges in %.3f s; %llu bytes by RDMA; "
		"DDP throughput: %.1f MB/s\n", d->exchanges, secs,
		(unsigned long long)d->ddp_bytes, secs > 0 ? (double)d->ddp_bytes / secs / 1e6 : 0.0);
}

int agent_cmd_drive(int argc, char **argv)
{
	struct drive d;
	bool ok = true;
	int rc;

	memset(&d, 0, sizeof(d));
	rc = parse_args(&d, argc, argv);
	if (rc >= 0)
		return rc;
	if (!load_scenario(&d))
		return 2;
	if (!agent_run_begin(&d.run, "drive")) {
		pg_scenario_free(d.s);
		return 1;
	}
	g_strlcpy(d.run.info.remote, d.server, sizeof(d.run.info.remote));
	g_strlcpy(d.run.info.target, d.target, sizeof(d.run.info.target));
	g_strlcpy(d.run.info.scenario, d.scenario_path, sizeof(d.run.info.scenario));
	if (d.run.mf)
		mf_write_run(d.run.mf, &d.run.info);
	pg_nfs_state_init(&d.nfs, d.s->seed);
	pg_mem_init(&d.mem, d.s->seed);
	rb_init(&d.rb);
	d.next_xid = (uint32_t)(g_get_real_time() / 1000) * 2654435761u;
	d.next_xid &= 0x7fffff00u;
	if (drive_connect(&d)) {
		if (!strcmp(d.target, "kernel"))
			v41_open(&d.v41, &d.run, d.conn, d.s, &d.nfs, &d.next_xid);
		run_items(&d);
		v41_close(&d.v41, &d.run, d.conn, &d.nfs, &d.next_xid);
		vb_disconnect(d.conn);
		vb_free(d.conn);
	} else {
		ok = false;
	}
	ok &= agent_run_end(&d.run);
	fprintf(stderr, AGENT_NAME ": drive: %u exchanges, %u scenario errors\n", d.exchanges,
		d.failures);
	pg_scenario_free(d.s);
	kt_free(&d.kh);
	rb_free(&d.rb);
	if (agent_stop_signal)
		return 128 + agent_stop_signal;
	return ok && !d.failures ? 0 : 1;
}
