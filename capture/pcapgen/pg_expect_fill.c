// SPDX-License-Identifier: GPL-2.0-or-later
/* What the audit records of a message once it is final: its header's chunk
 * shapes (pg_expect.h, pg_audit_fill). */
#include "pg_expect.h"

void pg_audit_fill(pg_msginfo *mi, const pg_rdmamsg *m, const pg_rpc_pair *rp, bool call,
		   bool backchannel, uint32_t wire_len)
{
	GHashTable *pos = g_hash_table_new(g_direct_hash, g_direct_equal);
	bool pz_ended = false;
	mi->call = call;
	mi->backchannel = backchannel;
	mi->rdma_xid = m->xid;
	mi->vers = m->vers;
	mi->credit = m->credit;
	mi->proc = m->proc;
	mi->err = m->err;
	mi->low = m->low;
	mi->high = m->high;
	mi->wire_len = wire_len;
	mi->hdr_undecodable = m->reply_disc > 1 || m->proc > RDMA_ERROR;
	mi->has_rpc = rp && m->proc != RDMA_ERROR && m->proc != RDMA_DONE;
	if (mi->has_rpc) {
		mi->program = rp->program;
		mi->version = rp->version;
	}
	if (m->proc == RDMA_ERROR || m->proc == RDMA_DONE) {
		g_hash_table_destroy(pos);
		return;
	}
	for (guint i = 0; i < m->reads->len; i++) {
		const pg_chunk *c = m->reads->pdata[i];
		uint32_t n = c->segs->len;
		if (!c->position) {
			mi->pz_split |= pz_ended && n;
			mi->pz_segs += n;
		} else if (mi->pz_segs) {
			pz_ended = true;
		}
		n += GPOINTER_TO_UINT(g_hash_table_lookup(pos, GUINT_TO_POINTER(c->position + 1)));
		g_hash_table_insert(pos, GUINT_TO_POINTER(c->position + 1), GUINT_TO_POINTER(n));
		mi->max_at_pos = MAX(mi->max_at_pos, n);
		if (c->position)
			mi->max_at_nzpos = MAX(mi->max_at_nzpos, n);
		if (c->position && n == (uint32_t)c->segs->len)
			mi->npos++;
	}
	g_hash_table_destroy(pos);
	mi->nwrites = m->writes->len;
	for (guint i = 0; i < m->writes->len; i++) {
		const pg_chunk *c = m->writes->pdata[i];
		mi->max_wsegs = MAX(mi->max_wsegs, (m->returned ? c->ret : c->segs)->len);
		for (guint k = 0; m->returned && k < c->ret->len; k++)
			mi->writes_used |= g_array_index(c->ret, pg_seg, k).length != 0;
	}
	if (m->reply) {
		const GArray *s = m->returned ? m->reply->ret : m->reply->segs;
		mi->reply_segs = s->len;
		for (guint i = 0; i < s->len; i++)
			mi->reply_total += g_array_index(s, pg_seg, i).length;
	}
}
