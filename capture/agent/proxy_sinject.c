// SPDX-License-Identifier: GPL-2.0-or-later
/* The proxy's injections on the calls it relays to the server, and the server's reaction (proxy_sinject.h). */
#include "proxy_sinject.h"

#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/hdr.h>
#include <rpcrdma/rpc.h>

#include "inject_legs.h"
#include "pg_exch.h"
#include "proxy_inject.h"

bool px_sinj_carried(const char *name, unsigned stages)
{
	return inj_leg_server_ok(name, stages);
}

bool px_sinj_parse(struct agent_run *sv, char *err, size_t errlen)
{
	if (!inj_parse(sv->inject, INJ_REQ, &sv->inj, err, errlen)) {
		/* inject.c says --inject; the option here is the server leg's */
		char tmp[512];
		g_strlcpy(tmp, err, sizeof(tmp));
		snprintf(err, errlen, "%s%s", g_str_has_prefix(tmp, "--inject") ? "--inject-server" : "",
			 g_str_has_prefix(tmp, "--inject") ? tmp + strlen("--inject") : tmp);
		return false;
	}
	for (unsigned i = 0; i < sv->inj.n; i++) {
		const struct inj_def *d = sv->inj.v[i].def;
		if (!px_sinj_carried(d->name, inj_def_stages(d, INJ_REQ))) {
			snprintf(err, errlen, "--inject-server %s: not through the proxy: it plans the "
				 "call from a scenario line (its chunks, its shape or its XID), which a "
				 "relayed call has not", sv->inj.v[i].asked);
			return false;
		}
	}
	return true;
}

void px_sinj_init(struct px_sinj *si)
{
	memset(si, 0, sizeof(*si));
	inj_live_init(&si->lv, NULL, 0x5e1e);
	si->fresh = 0x5e1e0000u;
}

void px_broken_free(struct px_broken *b)
{
	if (!b)
		return;
	if (b->wire)
		g_byte_array_free(b->wire, TRUE);
	g_free(b);
}

struct px_broken *px_sinj_break(struct px_sinj *si, const struct inj_list *l, uint32_t xid,
				const GByteArray *payload, const struct rr_ulp_info *info, pg_rdmamsg *m)
{
	struct px_broken *b = g_new0(struct px_broken, 1);
	pg_item it;
	pg_exch *ex;
	bool any_sel = false;

	si->calls++;
	if (!px_inj_item(info, &it)) {
		memset(&it, 0, sizeof(it));
		it.proc = UINT32_MAX;   /* no procedure, no operations: op= selects nothing */
	} else {
		it.proc = info->proc;   /* NFSv3's procedure, NFSv4's COMPOUND (not NULL) */
	}
	req_inj_select(l, &b->ri, si->calls, xid, &it);
	for (unsigned i = 0; i < l->n; i++)
		any_sel |= b->ri.sel[i];
	if (!any_sel) {
		px_inj_item_clear(&it);
		g_free(b);
		return NULL;
	}
	ex = inj_live_exch(&si->lv, &it);
	if (payload)
		ex->rp.call.msg = g_byte_array_new_take(g_memdup2(payload->data, payload->len), payload->len);
	req_inj_stage(&si->lv, l, &b->ri, ex, INJ_ST_HEADER, m, NULL);
	pg_rdmamsg_encode(m);
	req_inj_stage(&si->lv, l, &b->ri, ex, INJ_ST_WIRE, m, NULL);
	b->rebuilt = req_inj_rebuildable(l, &b->ri, m, ex->cmi->flags);
	b->xid = m->xid;
	b->wire = g_byte_array_new_take(g_memdup2(m->wire->data, m->wire->len), m->wire->len);
	pg_exch_free(ex);
	px_inj_item_clear(&it);
	if (!b->ri.any) {
		px_broken_free(b);
		return NULL;
	}
	return b;
}

/* What the RPC reply says: GARBAGE_ARGS, another RPC error, an NFS error, or a normal reply. */
static enum jd_answer rpc_answer(const uint8_t *rpc, size_t len)
{
	struct rr_rpc_outcome o;

	rr_rpc_outcome(rpc, len, &o);
	switch (o.kind) {
	case RR_OUTCOME_NOT_REPLY:
		return JD_BAD_REPLY;
	case RR_OUTCOME_GARBAGE_ARGS:
		return JD_GARBAGE;
	case RR_OUTCOME_DENIED:
	case RR_OUTCOME_ACCEPT_ERROR:
		return JD_RPC_ERROR;
	case RR_OUTCOME_SUCCESS:
		break;
	}
	return o.has_status && o.status ? JD_NFS_ERROR : JD_REPLY;
}

enum jd_answer px_sinj_classify(const uint8_t *msg, size_t len, const uint8_t *rpc, size_t rpc_len,
				uint32_t *credit)
{
	struct rr_hdr h;
	enum rr_hdr_status st = rr_hdr_decode(msg, len, &h);

	*credit = h.credit;
	/* ERR_VERS keeps the failing message's version (RFC 8166 §4.5) */
	if (st == RR_HDR_E_NOT_V1 && h.proc == RR_RDMA_ERROR && h.err == RR_ERR_VERS)
		return JD_ERR_VERS;
	if (st != RR_HDR_OK)
		return JD_BAD_REPLY;
	if (h.proc == RR_RDMA_ERROR)
		return h.err == RR_ERR_VERS ? JD_ERR_VERS : JD_ERR_CHUNK;
	if (h.proc != RR_RDMA_MSG && h.proc != RR_RDMA_NOMSG)
		return JD_BAD_REPLY;
	return rpc ? rpc_answer(rpc, rpc_len) : JD_BAD_REPLY;
}

bool px_sinj_relays(enum jd_answer a)
{
	/* the server executed the call: its answer is the client's */
	return a == JD_REPLY || a == JD_NFS_ERROR;
}

void px_sinj_react(struct agent_run *sv, const struct px_broken *b, enum jd_answer a, uint32_t credit)
{
	struct jd_reaction r;

	memset(&r, 0, sizeof(r));
	r.answer = a;
	r.credit = credit;
	r.elapsed_ms = (uint32_t)((g_get_monotonic_time() - b->t0) / 1000);
	if (a != JD_REPLY)
		snprintf(r.app_error, sizeof(r.app_error), "%s%s", jd_answer_text(a),
			 px_sinj_relays(a) ? "" : "; the call went again unbroken");
	req_inj_react(sv, &b->ri, b->xid, &r);
}

uint32_t px_sinj_fresh_xid(struct px_sinj *si, GHashTable *calls, uint32_t avoid)
{
	do
		si->fresh++;
	while (si->fresh == avoid || !si->fresh ||
	       (calls && g_hash_table_contains(calls, GUINT_TO_POINTER(si->fresh))));
	return si->fresh;
}

void px_put_xid(uint8_t *p, uint32_t xid)
{
	p[0] = (uint8_t)(xid >> 24);
	p[1] = (uint8_t)(xid >> 16);
	p[2] = (uint8_t)(xid >> 8);
	p[3] = (uint8_t)xid;
}

void px_sinj_rexid(GByteArray *wire, uint8_t *pzrc, size_t pzrc_len, GByteArray *payload, uint32_t xid)
{
	struct rr_hdr h;
	enum rr_hdr_status st = rr_hdr_decode(wire->data, wire->len, &h);

	if (wire->len >= 4)
		px_put_xid(wire->data, xid);
	if (st == RR_HDR_OK && h.proc == RR_RDMA_MSG && wire->len >= h.hdr_len + 4)
		px_put_xid(wire->data + h.hdr_len, xid);
	else if (pzrc && pzrc_len >= 4)
		px_put_xid(pzrc, xid);
	if (payload && payload->len >= 4)
		px_put_xid(payload->data, xid);
}
