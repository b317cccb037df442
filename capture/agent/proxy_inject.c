// SPDX-License-Identifier: GPL-2.0-or-later
/* The proxy's injections on the replies it sends the client, and the client's reaction (proxy_inject.h). */
#include "proxy_inject.h"

#include <stdio.h>
#include <string.h>

#include "inject_legs.h"

#define NFS_PROGRAM 100003u

bool px_inj_plan_ok(const char *name, unsigned stages)
{
	return inj_leg_client_ok(name, stages);
}

bool px_inj_conveys(const struct px_inj *pi, const struct agent_run *cl, const pg_rdmamsg *m)
{
	if (m->vers != RR_RPCRDMA_VERSION || (m->proc != RDMA_MSG && m->proc != RDMA_NOMSG))
		return false;
	return !(pi->building && inj_find(&cl->inj, pi->si.applied, "orphan-reply"));
}

bool px_inj_failed_send(struct px_inj *pi)
{
	bool any = false;

	for (unsigned i = 0; pi->building && i < INJ_MAX_SPECS; i++)
		any |= pi->si.applied[i];
	pi->si.send_failed = any;
	return any;
}

bool px_inj_parse(struct agent_run *cl, char *err, size_t errlen)
{
	/* --inject is the client leg's, where the proxy answers; the server leg's calls
	 * take the requester's items (--inject-server, proxy_sinject.h) */
	if (!agent_inject_parse(cl, INJ_RESP, err, errlen)) {
		if (strstr(err, "the requester breaks it"))
			g_strlcat(err, "; through the proxy: --inject-server, on the calls to the server",
				  errlen);
		return false;
	}
	for (unsigned i = 0; i < cl->inj.n; i++) {
		const struct inj_def *d = cl->inj.v[i].def;
		if (!px_inj_plan_ok(d->name, inj_def_stages(d, INJ_RESP))) {
			snprintf(err, errlen, "--inject %s: not through the proxy: it plans the reply's "
				 "results or RDMA operations, which the server made", cl->inj.v[i].asked);
			return false;
		}
	}
	return true;
}

void px_inj_init(struct px_inj *pi)
{
	memset(pi, 0, sizeof(*pi));
	inj_live_init(&pi->lv, NULL, 0x9e0c);
}

enum jd_answer px_inj_answer(uint32_t pending_xid, uint32_t xid)
{
	return xid == pending_xid ? JD_RETRANSMIT : JD_NEXT_CALL;
}

bool px_inj_item(const struct rr_ulp_info *info, pg_item *out)
{
	static const int minor[] = { PG_V40, PG_V41, PG_V42 };

	memset(out, 0, sizeof(*out));
	if (!info || info->prog != NFS_PROGRAM || (info->vers != 3 && info->vers != 4) ||
	    (info->vers == 4 && info->minorversion > 2))
		return false;
	out->nfsver = info->vers == 3 ? PG_V3 : minor[info->minorversion];
	out->ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	if (info->vers == 3) {
		pg_nfsop op = { .op = info->proc };
		g_array_append_val(out->ops, op);
	}
	for (unsigned i = 0; info->vers == 4 && i < info->n_ops && i < RR_ULP_MAX_OPS; i++) {
		pg_nfsop op = { .op = info->ops[i] };
		g_array_append_val(out->ops, op);
	}
	return true;
}

void px_inj_item_clear(pg_item *it)
{
	if (it->ops)
		g_array_free(it->ops, TRUE);
	it->ops = NULL;
}

void px_inj_call(struct px_inj *pi, struct agent_run *cl, uint32_t xid)
{
	if (pi->pending.on)
		serve_inj_react(cl, &pi->pending, px_inj_answer(pi->pending.xid, xid));
}

void px_inj_begin(struct px_inj *pi, struct agent_run *cl, uint32_t xid, const struct rr_ulp_info *info)
{
	pg_item it;
	bool described = px_inj_item(info, &it);

	px_inj_end(pi);
	if (!cl->inj.n)
		return;
	serve_inj_begin(cl, &pi->lv, &pi->si, ++pi->replies, xid, described ? &it : NULL);
	pi->building = true;
	px_inj_item_clear(&it);
}

void px_inj_header(struct px_inj *pi, struct agent_run *cl, pg_rdmamsg *m)
{
	if (pi->building)
		serve_inj_stage(cl, &pi->lv, &pi->si, INJ_ST_HEADER, m);
}

void px_inj_wire(struct px_inj *pi, struct agent_run *cl, pg_rdmamsg *m)
{
	if (pi->building)
		serve_inj_stage(cl, &pi->lv, &pi->si, INJ_ST_WIRE, m);
}

GByteArray *px_inj_plan(struct px_inj *pi, struct agent_run *cl, const uint8_t *msg, size_t len)
{
	pg_rpc_pair *rp;
	bool before[INJ_MAX_SPECS];

	if (!pi->building || !pi->si.ex)
		return NULL;
	rp = &pi->si.ex->rp;
	if (rp->reply.msg)
		g_byte_array_free(rp->reply.msg, TRUE);
	rp->reply.msg = g_byte_array_new();
	g_byte_array_append(rp->reply.msg, msg, (guint)len);
	memcpy(before, pi->si.applied, sizeof(before));
	serve_inj_stage(cl, &pi->lv, &pi->si, INJ_ST_PLAN, NULL);
	if (!memcmp(before, pi->si.applied, sizeof(before)))
		return NULL;
	return g_byte_array_new_take(g_memdup2(rp->reply.msg->data, rp->reply.msg->len), rp->reply.msg->len);
}

bool px_inj_agent(struct px_inj *pi, struct agent_run *cl, const char *name)
{
	return pi->building && serve_inj_agent(cl, &pi->si, name);
}

void px_inj_sent(struct px_inj *pi, struct agent_run *cl, const pg_rdmamsg *m)
{
	if (pi->building)
		serve_inj_sent(cl, &pi->si, &pi->pending, m->xid, m->credit);
}

void px_inj_end(struct px_inj *pi)
{
	if (pi->building)
		serve_inj_end(&pi->si);
	pi->building = false;
}

bool px_inj_waiting(const struct px_inj *pi)
{
	return pi->pending.on;
}

void px_inj_silence(struct px_inj *pi, struct agent_run *cl)
{
	serve_inj_react(cl, &pi->pending, JD_TIMEOUT);
}

void px_inj_gone(struct px_inj *pi, struct agent_run *cl)
{
	serve_inj_react(cl, &pi->pending, JD_DISCONNECT);
}
