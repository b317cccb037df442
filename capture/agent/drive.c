// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-agent drive: the requester.  Each exchange of a scenario is built
 * by the generator's encoders (pcapgen_core), its chunks are registered as
 * real memory regions whose R_Keys and addresses replace the generator's
 * placeholders, the call is sent, and the reply is put back together from
 * what really arrived: the Send and the bytes RDMA wrote into our regions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include <rpcrdma/engine.h>
#include <rpcrdma/rpc.h>

#include "agent.h"
#include "drive.h"
#include "payload.h"

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent drive [-d DEV] [-p PORT] [-w CAPTURE] [-m MANIFEST] [-F pcap|pcapng]\n"
	      "                           [--inject NAME[=ARG][:WHEN...][,...]] [--target agent|kernel]\n"
	      "                           [--export PATH] [--rxe NETDEV|--siw NETDEV] [--netdev IF]\n"
	      "                           [--timeout SEC] [--retries N] [--window N|credits]\n"
	      "                           [--force] [--overwrite]\n"
	      "                           SERVER SCENARIO\n"
	      "Runs SCENARIO (rpcrdma-pcapgen's format) against the RPC-over-RDMA server SERVER.\n", f);
}

/* A new connection to the server: RFC 8797 private data, our Receive size. */
static bool conn_open(struct drive *d)
{
	char err[512] = "";
	uint8_t pd[8];
	struct vb_opts vo;

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
	d->granted = 1;   /* RFC 8166 3.3.3: one credit until a reply grants more */
	d->pool = drive_pool_new(d->conn);
	fprintf(stderr, AGENT_NAME ": connected to %s port %u on %s\n", d->server, d->run.port,
		vb_device_name(d->conn));
	return true;
}

static void conn_close(struct drive *d)
{
	struct mr_pool_stats st;
	if (!d->conn)
		return;
	mr_pool_stats(d->pool, &st);
	d->pool_regs += st.registrations;
	d->pool_reuses += st.reuses;
	mr_pool_free(d->pool);   /* its regions belong to this connection's protection domain */
	d->pool = NULL;
	vb_disconnect(d->conn);
	vb_free(d->conn);
	d->conn = NULL;
}

/* A new connection, the call's memory registered on it again, the call re-encoded. */
static bool reconnect(struct drive *d, pg_exch *ex, struct call_mem *cm, struct drive_inj *di)
{
	drive_unmap_call(cm);
	conn_close(d);
	if (!conn_open(d) || !drive_map_call(d, &ex->plan, cm))
		return false;
	pg_plan_encode(&ex->plan);
	drive_inj_stage(d, di, ex, INJ_ST_WIRE, &ex->plan.call, NULL);
	return true;
}

/* Sends the encoded call and takes its answer (d->last); false when the connection is gone. */
static bool send_take(struct drive *d, const pg_item *it, pg_exch *ex, const struct call_mem *cm,
		      const struct rr_ulp_info *callinfo, bool rebuilt, bool *err_reply, bool twice)
{
	struct rr_hdr h;
	enum jd_answer first;
	bool alive;

	rb_call(&d->rb, ex->rp.call.msg->data, ex->rp.call.msg->len);
	{
		/* dup-xid: both in one burst, so that the first is still outstanding on the wire
		 * when the second goes (a responder quick to answer would otherwise see none) */
		const GByteArray *w[2] = { ex->plan.call.wire, ex->plan.call.wire };
		bool sent = agent_send_batch(&d->run, d->conn, w, twice ? 2 : 1);
		for (int n = twice ? 2 : 1; n > 0; n--) {
			/* a Send that failed may be in the capture in part or not at all: not compared */
			drive_record_call(d, &ex->plan, &ex->rp, rebuilt && sent);
			d->exchanges++;
		}
		d->last = JD_NONE;
		if (!sent) {
			d->last = JD_DISCONNECT;
			return false;
		}
	}
	if (it->reply.none)
		return true;
	/* dup-xid: both answers write into the same chunks, which of them a
	 * checker pairs with which reply is its own choice: neither is compared */
	d->reply_unrebuilt = twice;
	alive = drive_take_reply(d, ex->plan.call.xid, callinfo, cm, &h, err_reply);
	if (!twice || !alive) {
		d->reply_unrebuilt = false;
		return alive;
	}
	/* dup-xid: the second answer, if any, is the reaction (a responder may
	 * drop the duplicate of a call it is still working on) */
	first = d->last;
	alive = drive_take_reply(d, ex->plan.call.xid, callinfo, cm, &h, err_reply);
	d->reply_unrebuilt = false;
	if (d->last == JD_TIMEOUT)
		agent_mf_event(&d->run, "duplicate-dropped", ex->plan.call.xid,
			       "one answer to two calls of the same XID (the first: %s)", jd_answer_text(first));
	return alive || d->last == JD_TIMEOUT;
}

/*
 * Encodes, records and sends the call, takes its answer; after a
 * disconnect or a timeout connects again and sends the call again, as a
 * client does, at most --retries times; records the reaction to every
 * injection.  false when the connection is gone.
 */
static bool send_call(struct drive *d, const pg_item *it, pg_exch *ex, struct call_mem *cm,
		      struct drive_inj *di)
{
	struct rr_rpc_call call;
	struct rr_ulp_info callinfo;
	struct jd_reaction r;
	bool alive, err_reply = false, rebuilt;
	gint64 t0 = g_get_monotonic_time();
	uint32_t xid;

	drive_inj_stage(d, di, ex, INJ_ST_HEADER, &ex->plan.call, NULL);
	pg_plan_encode(&ex->plan);
	drive_inj_stage(d, di, ex, INJ_ST_WIRE, &ex->plan.call, NULL);
	xid = ex->plan.call.xid;
	rebuilt = drive_inj_rebuildable(d, di, ex);
	pl_describe_call(ex->rp.call.msg->data, ex->rp.call.msg->len, &call, &callinfo);
	drive_inj_record(d, di, xid);
	alive = send_take(d, it, ex, cm, &callinfo, rebuilt, &err_reply,
			  drive_inj_on(d, di, "dup-xid") != NULL);
	if (it->reply.none)
		return alive;
	memset(&r, 0, sizeof(r));
	r.answer = d->last;
	r.credit = d->last_credit;
	while ((d->last == JD_DISCONNECT || d->last == JD_TIMEOUT) && r.retransmits < d->retries &&
	       !agent_stop_signal) {
		if (!reconnect(d, ex, cm, di))
			break;
		r.reconnects++;
		r.retransmits++;
		agent_mf_event(&d->run, "retransmit", xid, "sent again on a new connection (%u of %u)",
			       r.retransmits, d->retries);
		alive = send_take(d, it, ex, cm, &callinfo, rebuilt, &err_reply, false);
	}
	if (alive && drive_inj_on(d, di, "reconnect-xid") && !reconnect(d, ex, cm, di)) {
		r.answer = JD_DISCONNECT;
		snprintf(r.app_error, sizeof(r.app_error), "could not connect again to retransmit");
		alive = false;
	} else if (alive && drive_inj_on(d, di, "reconnect-xid")) {
		/* the same call, the same XID, on a new connection: what is judged is its answer */
		r.reconnects++;
		r.retransmits++;
		agent_mf_event(&d->run, "retransmit", xid, "the same XID again after a reconnect");
		alive = send_take(d, it, ex, cm, &callinfo, rebuilt, &err_reply, false);
		r.answer = d->last;
		r.credit = d->last_credit;
	}
	r.elapsed_ms = (uint32_t)((g_get_monotonic_time() - t0) / 1000);
	if (d->last != JD_REPLY && !*r.app_error)
		snprintf(r.app_error, sizeof(r.app_error), "%s%s", jd_answer_text(d->last),
			 r.retransmits ? " after retransmitting" : "");
	if (di->r.any)
		drive_inj_react(d, di, xid, &r);
	d->prev_rdma_error = d->last == JD_ERR_CHUNK || d->last == JD_ERR_VERS;
	return alive && d->conn;
}

/* One RPC of the scenario: false when the connection is gone. */
static bool exchange(struct drive *d, const pg_item *orig)
{
	pg_rng rng = pg_rng_derive(d->s->seed, 0x444154, d->msg_index++);
	struct call_mem cm;
	struct drive_inj di;
	uint32_t xid = d->next_xid++;
	pg_exch *ex = inj_live_exch(&d->lv, orig);
	bool alive = true;

	/* by default the first call stays clean (inject.h) */
	drive_inj_select(d, &di, (uint64_t)d->exchanges + 1, xid, orig);
	if (d->prev_rdma_error)
		inj_live_prev_xid(&d->lv, d->lv.env.prev_xid);
	else
		d->lv.env.have_prev = false;
	drive_inj_stage(d, &di, ex, INJ_ST_PREP, NULL, &xid);
	memset(&cm, 0, sizeof(cm));
	if (drive_build_call(d, ex, xid, &rng, &di)) {
		alive = drive_map_call(d, &ex->plan, &cm);
		if (!alive)
			fprintf(stderr, AGENT_NAME ": cannot register chunk memory\n");
		else
			alive = send_call(d, orig, ex, &cm, &di);
	}
	drive_unmap_call(&cm);
	d->lv.env.prev_xid = xid;
	pg_exch_free(ex);
	return alive;
}

/* The command line into d: -1 to go on, else the exit status (--help 0, usage 2). */
static int parse_args(struct drive *d, int argc, char **argv)
{
	char err[512] = "";
	int bad = 0, pos = 0;

	d->target = "agent";
	d->window = 1;
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
		} else if (!strcmp(a, "--retries") && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);
			if (*end || n > 16) {
				fprintf(stderr, AGENT_NAME ": --retries: 0 to 16\n");
				bad = 1;
			}
			d->retries = (unsigned)n;
		} else if (!strcmp(a, "--window") && i + 1 < argc) {
			char *end;
			const char *v = argv[++i];
			unsigned long n = strcmp(v, "credits") ? strtoul(v, &end, 10) : 0;
			if (strcmp(v, "credits") && (*end || n < 1 || n > 60)) {
				fprintf(stderr, AGENT_NAME ": --window: 1 to 60, or credits\n");
				bad = 1;
			}
			d->window = (unsigned)n;
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
	if (!agent_inject_parse(&d->run, INJ_REQ, err, sizeof(err))) {
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

	if (!strcmp(d->target, "kernel") &&
	    !kt_handles(d->server, d->export_path ? d->export_path : "/srv/export", &d->kh, err,
			sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return false;
	}
	kt_apply(&d->kh, &d->nfs);
	return conn_open(d);
}

/* Every rpc item of the scenario, its repeats included, until a signal, no credit or no connection. */
static void run_items(struct drive *d)
{
	gint64 t0 = g_get_monotonic_time();
	double secs;

	d->peak_outstanding = 1;
	if (d->window != 1 && !d->run.inj.n) {
		drive_pipe_items(d);
		goto done;
	}
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
			if (d->exchanges && !d->granted && !inj_find(&d->run.inj, NULL, "credit-overrun")) {
				/* RFC 8166 3.3.1: no credit, no call */
				agent_mf_event(&d->run, "no-credit", 0, "the server granted 0 credits; "
					       "no further call is sent");
				goto done;
			}
			if (!exchange(d, it))
				goto done;
			/* resend-xid, retry-xid: the call RDMA_ERROR ended goes again with its XID
			 * (the table's prep hook reuses it), once */
			if (d->prev_rdma_error && (inj_find(&d->run.inj, NULL, "resend-xid") ||
						   inj_find(&d->run.inj, NULL, "retry-xid")) &&
			    !exchange(d, it))
				goto done;
			d->prev_rdma_error = false;
		}
	}
done:
	secs = (double)(g_get_monotonic_time() - t0) / 1e6;
	fprintf(stderr, AGENT_NAME ": %u exchanges in %.3f s; %llu bytes by RDMA; "
		"DDP throughput: %.1f MB/s; most calls outstanding: %u\n", d->exchanges, secs,
		(unsigned long long)d->ddp_bytes, secs > 0 ? (double)d->ddp_bytes / secs / 1e6 : 0.0,
		d->peak_outstanding);
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
	inj_live_init(&d.lv, d.s, d.s->seed);
	rb_init(&d.rb);
	d.next_xid = (uint32_t)(g_get_real_time() / 1000) * 2654435761u;
	d.next_xid &= 0x7fffff00u;
	if (drive_connect(&d)) {
		if (!strcmp(d.target, "kernel"))
			v41_open(&d.v41, &d.run, d.conn, d.s, &d.nfs, &d.next_xid);
		run_items(&d);
		v41_close(&d.v41, &d.run, d.conn, &d.nfs, &d.next_xid);
		conn_close(&d);
	} else {
		ok = false;
	}
	ok &= agent_run_end(&d.run);
	fprintf(stderr, AGENT_NAME ": drive: %u exchanges, %u scenario errors; chunk memory: %" PRIu64
		" regions registered, %" PRIu64 " reuses\n", d.exchanges, d.failures, d.pool_regs,
		d.pool_reuses);
	pg_scenario_free(d.s);
	kt_free(&d.kh);
	rb_free(&d.rb);
	if (agent_stop_signal)
		return 128 + agent_stop_signal;
	return ok && !d.failures ? 0 : 1;
}
