// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-agent drive --window: the scenario's calls kept outstanding up
 * to a window, as a client keeps as many calls in flight as the server's
 * credits allow (RFC 8166 3.3.1), each reply taken as it arrives and
 * matched to its call by XID.  Chunk memory comes from the connection's
 * pool (drive_call.c), so a steady run registers one set of regions per
 * outstanding call and then only reuses them.
 *
 * Only runs without injections come here: a reaction belongs to one call,
 * which a window of calls would blur.  Calls that need an earlier call's
 * answer (a READ after the WRITE it reads back) need --window 1, the
 * default.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "agent.h"
#include "drive.h"
#include "payload.h"

#define PIPE_MAX 60u   /* below the 64 receives conn_open posts: room for stray messages */

struct inflight {
	bool used;
	uint32_t xid;
	pg_exch *ex;
	struct call_mem cm;
	struct rr_ulp_info callinfo;
};

/* The next rpc item of the scenario (repeats counted in *rep), or NULL at its end. */
static const pg_item *next_item(struct drive *d, guint *i, uint32_t *rep)
{
	while (*i < d->s->items->len) {
		const pg_item *it = d->s->items->pdata[*i];
		uint32_t n = it->repeat ? it->repeat : 1;
		if (it->kind != PG_ITEM_RPC) {
			fprintf(stderr, AGENT_NAME ": %s line %d: only rpc lines run live; skipped\n",
				d->scenario_path, it->line);
			(*i)++;
			continue;
		}
		if (*rep < n) {
			(*rep)++;
			return it;
		}
		(*i)++;
		*rep = 0;
	}
	return NULL;
}

static void release(struct inflight *f)
{
	drive_unmap_call(&f->cm);
	pg_exch_free(f->ex);
	memset(f, 0, sizeof(*f));
}

enum issued { ISSUED, ISSUED_NO_REPLY, SKIPPED, CONN_GONE };

/* Builds, registers, records and sends one call into f. */
static enum issued issue(struct drive *d, const pg_item *it, struct inflight *f)
{
	pg_rng rng = pg_rng_derive(d->s->seed, 0x444154, d->msg_index++);
	struct drive_inj di;
	struct rr_rpc_call call;
	bool sent;

	memset(f, 0, sizeof(*f));
	f->xid = d->next_xid++;
	f->ex = inj_live_exch(&d->lv, it);
	drive_inj_select(d, &di, (uint64_t)d->exchanges + 1, f->xid, it);
	if (!drive_build_call(d, f->ex, f->xid, &rng, &di)) {
		release(f);
		return SKIPPED;
	}
	if (!drive_map_call(d, &f->ex->plan, &f->cm)) {
		fprintf(stderr, AGENT_NAME ": cannot register chunk memory\n");
		release(f);
		return CONN_GONE;
	}
	pg_plan_encode(&f->ex->plan);
	pl_describe_call(f->ex->rp.call.msg->data, f->ex->rp.call.msg->len, &call, &f->callinfo);
	rb_call(&d->rb, f->ex->rp.call.msg->data, f->ex->rp.call.msg->len);
	sent = agent_send(&d->run, d->conn, f->ex->plan.call.wire);
	drive_record_call(d, &f->ex->plan, &f->ex->rp, sent);
	d->exchanges++;
	d->lv.env.prev_xid = f->xid;
	if (!sent) {
		d->last = JD_DISCONNECT;
		release(f);
		return CONN_GONE;
	}
	f->used = true;
	if (it->reply.none) {
		release(f);
		return ISSUED_NO_REPLY;
	}
	return ISSUED;
}

static unsigned window_now(const struct drive *d)
{
	unsigned w = d->window ? d->window : d->granted;
	return MIN(MAX(w, 1u), PIPE_MAX);
}

/* Takes one reply and hands it to its call; false when the connection is gone. */
static bool take_one(struct drive *d, struct inflight *fl, unsigned *out)
{
	struct vb_msg msg;
	struct rr_hdr h;
	bool disc, err_reply;
	char err[512];
	uint32_t xid;
	unsigned k;

	if (!vb_recv(d->conn, &msg, d->run.timeout_ms, &disc, err, sizeof(err))) {
		for (k = 0; k < PIPE_MAX; k++)
			if (fl[k].used)
				agent_mf_event(&d->run, disc ? "disconnect" : "timeout", fl[k].xid, "%s", err);
		d->last = disc ? JD_DISCONNECT : JD_TIMEOUT;
		return false;
	}
	xid = msg.len >= 4 ? (uint32_t)msg.data[0] << 24 | (uint32_t)msg.data[1] << 16 |
			     (uint32_t)msg.data[2] << 8 | msg.data[3] : 0;
	for (k = 0; k < PIPE_MAX && !(fl[k].used && fl[k].xid == xid); k++)
		;
	if (k == PIPE_MAX) {
		agent_mf_event(&d->run, "reply", xid, "a message with XID 0x%08x, which no outstanding "
			       "call has (%u outstanding)", xid, *out);
		return true;
	}
	drive_use_reply(d, &msg, xid, &fl[k].callinfo, &fl[k].cm, &h, &err_reply);
	release(&fl[k]);
	(*out)--;
	return true;
}

bool drive_pipe_items(struct drive *d)
{
	struct inflight *fl = g_new0(struct inflight, PIPE_MAX);
	unsigned out = 0;
	guint i = 0;
	uint32_t rep = 0;
	bool alive = true, more = true;

	while (alive && !agent_stop_signal) {
		while (more && out < window_now(d) && !agent_stop_signal) {
			const pg_item *it;
			unsigned k;
			if (d->exchanges && !d->granted) {
				/* RFC 8166 3.3.1: no credit, no call */
				agent_mf_event(&d->run, "no-credit", 0, "the server granted 0 credits; "
					       "no further call is sent");
				more = false;
				break;
			}
			if (!(it = next_item(d, &i, &rep))) {
				more = false;
				break;
			}
			for (k = 0; fl[k].used; k++)
				;
			switch (issue(d, it, &fl[k])) {
			case ISSUED:
				out++;
				d->peak_outstanding = MAX(d->peak_outstanding, out);
				break;
			case CONN_GONE:
				alive = more = false;
				break;
			default:
				break;
			}
		}
		if (!out || !alive)
			break;
		alive = take_one(d, fl, &out);
	}
	for (unsigned k = 0; k < PIPE_MAX; k++)
		if (fl[k].used)
			release(&fl[k]);
	g_free(fl);
	return alive;
}
