// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One call of rpcrdma-agent drive before it is sent: built by the
 * generator's encoders with the injections' plan and ops hooks, its
 * chunks backed by registered memory from the connection's pool, whose
 * R_Keys and addresses replace the generator's placeholders.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "agent.h"
#include "drive.h"

/* The pool registers a region once per connection (mrpool.h); the access is the chunk's. */
static bool pool_reg(void *ctx, struct vb_mr *m, size_t len, bool remote_write)
{
	return vb_reg(ctx, m, len, remote_write, !remote_write);
}

static void pool_dereg(void *ctx, struct vb_mr *m)
{
	(void)ctx;
	vb_dereg(m);
}

static bool map_chunk(struct drive *d, struct chunk_mem *cm, pg_chunk *c, bool remote_write)
{
	uint32_t off = 0;
	cm->c = c;
	cm->n_mr = 0;
	cm->pool = d->pool;
	if (c->one_mr) {
		uint64_t total = 0;
		for (guint k = 0; k < c->segs->len; k++)
			total += g_array_index(c->segs, pg_seg, k).length;
		if (!(cm->mr[0] = mr_pool_take(d->pool, total, remote_write)))
			return false;
		cm->n_mr = 1;
	}
	for (guint k = 0; k < c->segs->len && k < PG_MAX_SEGS; k++) {
		pg_seg *s = &g_array_index(c->segs, pg_seg, k);
		struct vb_mr *m;
		if (c->one_mr) {
			m = cm->mr[0];
			s->handle = m->mr->rkey;
			s->offset = (uint64_t)(uintptr_t)(m->buf + off);
		} else {
			m = cm->mr[cm->n_mr] = mr_pool_take(d->pool, s->length, remote_write);
			if (!m)
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
		mr_pool_give(cm->pool, cm->mr[i]);
	cm->n_mr = 0;
}

/*
 * The call for one scenario item, encoded by the generator and reduced
 * into chunks, with the injections that change what it carries (prep has
 * run).  false: a scenario error (said and counted).
 */
bool drive_build_call(struct drive *d, pg_exch *ex, uint32_t xid, pg_rng *rng, struct drive_inj *di)
{
	pg_item *it = &ex->itc;
	pg_plan_opts o;
	char *perr = NULL;

	pg_nfs_build(&d->nfs, it, xid, rng, &ex->rp);
	drive_inj_stage(d, di, ex, INJ_ST_PLAN, NULL, NULL);
	o = (pg_plan_opts){ xid, d->s->credits, d->s->credits, d->s->inline_max, false };
	if (!pg_plan_build(&ex->plan, it, &ex->rp, &o, &d->lv.env.mem, &perr)) {
		fprintf(stderr, AGENT_NAME ": %s line %d: %s\n", d->scenario_path, it->line, perr);
		g_free(perr);
		d->failures++;
		return false;
	}
	if (ex->plan.read_chunks->len > DRIVE_MAX_READ_CHUNKS) {
		fprintf(stderr, AGENT_NAME ": %s line %d: %u read chunks; the agent takes at most %zu\n",
			d->scenario_path, it->line, ex->plan.read_chunks->len, (size_t)DRIVE_MAX_READ_CHUNKS);
		d->failures++;
		return false;
	}
	/* before the chunks are registered: these hooks reshape what is offered */
	drive_inj_stage(d, di, ex, INJ_ST_OPS, NULL, NULL);
	return true;
}

/* Registers every chunk of the plan (all are tried); false when one could not be. */
bool drive_map_call(struct drive *d, const pg_plan *plan, struct call_mem *cm)
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

void drive_unmap_call(struct call_mem *cm)
{
	for (unsigned i = 0; i < cm->n_r; i++)
		unmap_chunk(&cm->r[i]);
	for (unsigned i = 0; i < cm->n_w; i++)
		unmap_chunk(&cm->w[i]);
	unmap_chunk(&cm->reply);
	cm->n_r = cm->n_w = 0;
}

struct mr_pool *drive_pool_new(struct vb_conn *conn)
{
	struct mr_pool_ops po = { pool_reg, pool_dereg, conn };
	return mr_pool_new(&po, DRIVE_POOL_KEEP);
}
