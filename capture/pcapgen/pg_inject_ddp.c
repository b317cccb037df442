// SPDX-License-Identifier: GPL-2.0-or-later
/* Injectors of group I, DDP-eligibility (RFC 8267; RR-140..RR-150). */
#include "pg_inject_priv.h"

#include "pg_buf.h"

static void insert_ddp(GArray *ddp, pg_ddp d)
{
	guint i = 0;
	while (i < ddp->len && g_array_index(ddp, pg_ddp, i).off < d.off)
		i++;
	g_array_insert_val(ddp, i, d);
}

/* a non-eligible argument (file handle, bitmap, ACL entries) moved into a
 * read chunk at its Position */
bool pg_inj_ineligible_chunk_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->call, old = *sh;
	GArray *bulk = c->rp->call.bulk, *ddp = c->rp->call.ddp;
	uint32_t k = pg_inj_arg(c, 0);
	pg_ddp d;
	guint pos = 0;
	if (!c->is_call || k >= bulk->len)
		return false;
	d = g_array_index(bulk, pg_ddp, k);
	insert_ddp(ddp, d);
	for (guint i = 0; i < ddp->len; i++)
		if (g_array_index(ddp, pg_ddp, i).off == d.off)
			pos = i;
	/* same shape for the other items, one segment for this one */
	sh->chunked = true;
	sh->n = (uint8_t)MIN(ddp->len, PG_MAX_CHUNKS);
	for (guint i = 0, j = 0; i < sh->n; i++) {
		if (i == pos) {
			sh->nseg[i] = 1;
			continue;
		}
		sh->nseg[i] = (uint8_t)(old.chunked && old.n ? old.nseg[j < old.n ? j : old.n - 1u] : 0);
		j++;
	}
	return true;
}

bool pg_inj_ineligible_chunk(pg_inj_ctx *c)
{
	GHashTable *pos = g_hash_table_new(g_direct_hash, g_direct_equal);
	bool pz = false;
	guint npos;
	const char *rule;
	for (guint i = 0; i < c->msg->reads->len; i++) {
		const pg_chunk *ch = c->msg->reads->pdata[i];
		if (ch->position)
			g_hash_table_add(pos, GUINT_TO_POINTER(ch->position));
		else
			pz = true;
	}
	npos = g_hash_table_size(pos);
	g_hash_table_destroy(pos);
	if (!npos)
		return false;
	if (c->item->gss >= PG_GSS_INIT && c->item->gss <= PG_GSS_DESTROY) {
		/* RPCSEC_GSS context control: RR-151 by the sequence check */
		pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
		return true;
	}
	switch (pg_inj_binding(c)) {
	case PG_BIND_CB:
		/* NFS callbacks have no eligible item, and RFC 8167 wants all
		 * chunk lists of a backward message empty */
		rule = "RR-147";
		pg_inj_expect(c, "RR-191");
		break;
	case PG_BIND_ACL: rule = "RR-145"; break;
	case PG_BIND_NFS4: rule = pz ? "RR-148" : "RR-143"; break;
	case PG_BIND_NFS3:
		rule = pz ? "RR-148" : npos > 1 ? "RR-142" : "RR-141";
		/* several Positions: the one not at the data is also RR-141 */
		if (!pz && npos > 1)
			pg_inj_expect(c, "RR-141");
		break;
	default: rule = pz ? "RR-148" : "RR-140"; break;
	}
	pg_inj_expect(c, rule);
	pg_ex_flag(c->ex, PG_EXF_INELIGIBLE, true);
	return true;
}

/* a non-eligible result (a READDIR entry name, ACL entries) written into
 * a Write chunk the call offered for it */
bool pg_inj_ineligible_write_plan(pg_inj_ctx *c)
{
	pg_shape *sh = &c->item->reply;
	GArray *bulk = c->rp->reply.bulk;
	uint32_t k = pg_inj_arg(c, 0), nslots = c->rp->slots->len;
	pg_ddp d;
	if (c->is_call || k >= bulk->len || sh->long_segs || sh->error || nslots >= PG_MAX_CHUNKS)
		return false;
	for (guint i = 0; i < nslots; i++) {
		unsigned n = !sh->chunked || !sh->n ? 0 : sh->nseg[i < sh->n ? i : sh->n - 1u];
		if (!n)
			return false; /* an earlier result has no chunk: cannot pair */
		sh->nseg[i] = (uint8_t)n;
	}
	d = g_array_index(bulk, pg_ddp, k);
	d.slot = (int)nslots;
	insert_ddp(c->rp->reply.ddp, d);
	pg_slot_add(c->rp, pg_round4(d.len) + 64, PG_SLOT_DATA);
	sh->chunked = true;
	sh->nseg[nslots] = 1;
	sh->n = (uint8_t)(nslots + 1);
	return true;
}

bool pg_inj_ineligible_write(pg_inj_ctx *c)
{
	const char *rule;
	if (!c->msg->writes->len || !pg_inj_chunk_used(g_ptr_array_index(c->msg->writes,
								   c->msg->writes->len - 1)))
		return false;
	switch (pg_inj_binding(c)) {
	case PG_BIND_ACL: rule = "RR-145"; break;
	case PG_BIND_NFS4: rule = "RR-143"; break;
	case PG_BIND_NFS3: rule = "RR-141"; break;
	case PG_BIND_CB: rule = "RR-147"; break;
	default: return true;    /* a program without a binding: no rule says what is eligible */
	}
	pg_inj_expect(c, rule);
	/* the call now offers a Write chunk its reply has no eligible result for */
	if (pg_inj_binding(c) == PG_BIND_NFS4 && pg_inj_compound_without_read_class(c->item))
		pg_ex_expect(c->ex, "RR-168", PG_AT_CALL);
	return true;
}

/* COMPOUND minorversion the binding does not cover */
bool pg_inj_minorversion(pg_inj_ctx *c)
{
	uint32_t v = pg_inj_arg(c, 3);
	if (!c->is_call || !c->rp->minorversion_off || v <= 2)
		return false;
	pb_put_be32(c->rp->call.msg, c->rp->minorversion_off, v);
	pg_inj_expect(c, "RR-150");
	return true;
}
