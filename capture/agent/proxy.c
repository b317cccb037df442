// SPDX-License-Identifier: GPL-2.0-or-later
/* rpcrdma-agent proxy: the command, the two connections, the event loop (proxy.h). */
#include "proxy.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "agent.h"
#include "inject_legs.h"

#define PX_IDLE_MS 3600000   /* no call outstanding: an idle mount is no hang */

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent proxy --list-injections\n"
	      "       rpcrdma-agent proxy --server ADDR[:PORT] [--listen ADDR[:PORT]] [-d DEV]\n"
	      "                           [--server-dev DEV] [-w CAPTURE] [--server-capture CAPTURE]\n"
	      "                           [-m MANIFEST] [--server-manifest MANIFEST] [-c CREDITS]\n"
	      "                           [-F pcap|pcapng] [--netdev IF] [--server-netdev IF]\n"
	      "                           [--rxe|--siw NETDEV] [--server-rxe|--server-siw NETDEV]\n"
	      "                           [--once] [--timeout SEC] [--force] [--overwrite] [--no-manifest]\n"
	      "                           [--inject NAME[=ARG][:WHEN...][,...]]\n"
	      "                           [--inject-server NAME[=ARG][:WHEN...][,...]]\n"
	      "Relays RPC-over-RDMA between the clients that connect to --listen (default port 20049)\n"
	      "and the server at --server, chunk by chunk: the proxy pulls the client's read chunks and\n"
	      "offers its own to the server, offers its own write and reply chunks, and pushes the\n"
	      "results into the client's.  One client connection at a time, one server connection for\n"
	      "each.  The client leg (-d, -w, -m) and the server leg (--server-*) are captured and\n"
	      "recorded each on its own; `rpcrdma-agent verify LEG.pcap LEG.pcap.manifest` checks each.\n"
	      "  -c N           credits granted to the client, and asked of the server (default 32)\n"
	      "  --list-injections  each injector with the leg it breaks through the proxy\n"
	      "  --once         exit after the first client connection ends\n"
	      "  --timeout SEC  wait at most SEC for each completion and for the server's replies (30)\n"
	      "  --inject ITEMS the responder's injectors (list-injections) on the replies sent the\n"
	      "                 client; the client's next move (the same XID again, another call, a\n"
	      "                 disconnect, nothing for --timeout) is judged in the client leg's manifest\n"
	      "  --inject-server ITEMS the requester's injectors the relay carries (--list-injections,\n"
	      "                 leg server) on the calls sent the server, each alone; the server's\n"
	      "                 answer is judged in the server leg's manifest.  The client is not\n"
	      "                 broken: a normal reply is relayed, else the call goes again unbroken\n",
	      f);
}

/* The first rule an entry names ("-": none). */
static void first_rule(const struct inj_def *d, char *out, size_t len)
{
	const char *r = inj_def_rules(d);
	size_t n = strcspn(r, " ");

	g_strlcpy(out, n ? r : "-", MIN(len, n ? n + 1 : 2));
}

/* `proxy --list-injections`: each entry of the table (list-injections) with the leg it
 * breaks through the proxy and the option that asks for it, or why it does not. */
static void list_legs(FILE *f)
{
	fprintf(f, "# rule\tinjector\tleg\toption\twhat it breaks there, or why not through the proxy\n");
	for (size_t i = 0; inj_def_at(i); i++) {
		const struct inj_def *d = inj_def_at(i);
		const char *why;
		unsigned legs = inj_def_legs(d, &why);
		char rule[16];

		first_rule(d, rule, sizeof(rule));
		if (legs & INJ_LEG_CLIENT)
			fprintf(f, "%s\t%s\tclient\t--inject\t%s\n", rule, d->name,
				inj_def_stages(d, INJ_RESP) & INJ_ST_BACK ? "backward calls of the proxy's own "
				"to the client, once it bound the back channel" : "the replies relayed to the client");
		if (legs & INJ_LEG_SERVER)
			fprintf(f, "%s\t%s\tserver\t--inject-server\tthe calls relayed to the server\n", rule,
				d->name);
		if (!legs)
			fprintf(f, "%s\t%s\t-\t-\tnot through the proxy: %s\n", rule, d->name, why);
	}
}

/* "ADDR", "ADDR:PORT", "[V6]" or "[V6]:PORT" into addr and *port (kept when absent). */
static bool split_addr(const char *s, char *addr, size_t n, uint16_t *port)
{
	const char *colon;
	size_t len;

	if (s[0] == '[') {
		const char *end = strchr(s, ']');
		if (!end)
			return false;
		len = (size_t)(end - s - 1);
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] && !colon)
			return false;
		s++;
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL;   /* a bare IPv6 address */
		len = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (!len || len >= n)
		return false;
	memcpy(addr, s, len);
	addr[len] = 0;
	if (colon) {
		char *end;
		unsigned long p = strtoul(colon + 1, &end, 10);
		if (*end || !p || p > 65535)
			return false;
		*port = (uint16_t)p;
	}
	return true;
}

struct px_args {
	char listen[64], server[64];
	const char *sv_dev, *sv_capture, *sv_manifest, *sv_netdev, *sv_link_kind, *sv_link_netdev;
};

/* The command line into p and a: -1 to go on, else the exit status. */
static int parse_args(struct proxy *p, struct px_args *a, int argc, char **argv)
{
	int bad = 0;
	bool have_server = false;

	p->server_port = AGENT_PORT_DEFAULT;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(o, "--list-injections")) {
			list_legs(stdout);
			return 0;
		} else if (agent_common_opt(&p->cl.run, argc, argv, &i, &bad)) {
			continue;
		} else if (!strcmp(o, "--once")) {
			p->cl.run.once = true;
		} else if (!v) {
			fprintf(stderr, AGENT_NAME ": proxy: unknown argument %s (or it needs a value)\n", o);
			bad = 1;
		} else if (!strcmp(o, "--listen")) {
			uint16_t port = p->cl.run.port ? p->cl.run.port : AGENT_PORT_DEFAULT;
			if (!split_addr(v, a->listen, sizeof(a->listen), &port)) {
				fprintf(stderr, AGENT_NAME ": proxy: --listen %s: ADDR, ADDR:PORT or [IPV6]:PORT\n", v);
				bad = 1;
			}
			p->cl.run.port = port;
			i++;
		} else if (!strcmp(o, "--server")) {
			if (!split_addr(v, a->server, sizeof(a->server), &p->server_port)) {
				fprintf(stderr, AGENT_NAME ": proxy: --server %s: ADDR, ADDR:PORT or [IPV6]:PORT\n", v);
				bad = 1;
			}
			have_server = true;
			i++;
		} else if (!strcmp(o, "--inject-server")) {
			if (*p->sv.run.inject)
				g_strlcat(p->sv.run.inject, ",", sizeof(p->sv.run.inject));
			g_strlcat(p->sv.run.inject, argv[++i], sizeof(p->sv.run.inject));
		} else if (!strcmp(o, "--server-dev")) {
			a->sv_dev = argv[++i];
		} else if (!strcmp(o, "--server-capture")) {
			a->sv_capture = argv[++i];
		} else if (!strcmp(o, "--server-manifest")) {
			a->sv_manifest = argv[++i];
		} else if (!strcmp(o, "--server-netdev")) {
			a->sv_netdev = argv[++i];
		} else if (!strcmp(o, "--server-rxe") || !strcmp(o, "--server-siw")) {
			a->sv_link_kind = o + 9;
			a->sv_link_netdev = argv[++i];
		} else {
			fprintf(stderr, AGENT_NAME ": proxy: unknown argument %s\n", o);
			bad = 1;
		}
	}
	if (!bad && *p->cl.run.inject) {
		char err[256];
		if (!px_inj_parse(&p->cl.run, err, sizeof(err))) {
			fprintf(stderr, AGENT_NAME ": proxy: %s\n", err);
			bad = 1;
		}
	}
	if (!bad && *p->sv.run.inject) {
		char err[512];
		if (!px_sinj_parse(&p->sv.run, err, sizeof(err))) {
			fprintf(stderr, AGENT_NAME ": proxy: %s\n", err);
			bad = 1;
		}
	}
	if (bad || !have_server) {
		if (!have_server && !bad)
			fprintf(stderr, AGENT_NAME ": proxy: --server ADDR is required\n");
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The server leg's run: its own device, capture and manifest, the client leg's other settings. */
static void server_run(struct proxy *p, const struct px_args *a)
{
	struct agent_run *s = &p->sv.run, *c = &p->cl.run;

	s->device = a->sv_dev;
	s->netdev_opt = a->sv_netdev;
	s->capture = a->sv_capture;
	s->manifest = a->sv_manifest;
	s->link_kind = a->sv_link_kind;
	s->link_netdev = a->sv_link_netdev;
	s->pcapng = c->pcapng;
	s->force = c->force;
	s->overwrite = c->overwrite;
	s->no_manifest = c->no_manifest;
	s->timeout_ms = c->timeout_ms;
	s->credits = c->credits;
	s->port = p->server_port;
}

static struct vb_opts leg_opts(const struct proxy *p, const uint8_t *pd)
{
	struct vb_opts vo;

	memset(&vo, 0, sizeof(vo));
	/* the credits granted (or asked for), and room for backward-direction calls and replies */
	vo.depth = p->cl.run.credits + 8;
	vo.recv_size = AGENT_INLINE;
	vo.timeout_ms = p->cl.run.timeout_ms;
	vo.private_data = pd;
	vo.private_len = 8;
	return vo;
}

/* The connection's device must be the one whose netdev the leg captures. */
static bool leg_device_ok(struct px_leg *leg, const char *what)
{
	const char *dev = vb_device_name(leg->conn);

	if (!leg->run.device || !strcmp(leg->run.device, dev))
		return true;
	fprintf(stderr, AGENT_NAME ": proxy: the %s connection runs on %s, not on %s (whose netdev "
		"is captured): check the addresses\n", what, dev, leg->run.device);
	return false;
}

/* The server leg for one client connection. */
static bool connect_server(struct proxy *p)
{
	uint8_t pd[8], len;
	const uint8_t *peer;
	char err[512] = "";
	struct vb_opts vo;

	agent_rfc8797(pd);
	vo = leg_opts(p, pd);
	p->sv.conn = vb_connect(p->server, p->server_port, &vo, err, sizeof(err));
	if (!p->sv.conn) {
		fprintf(stderr, AGENT_NAME ": proxy: connect to %s port %u: %s\n", p->server,
			p->server_port, err);
		return false;
	}
	peer = vb_peer_private(p->sv.conn, &len);
	p->sv.peer_inline = agent_peer_inline(peer, len);
	p->server_grant = 1;   /* until the server's first reply says more (RFC 8166 3.3.1) */
	fprintf(stderr, AGENT_NAME ": proxy: connected to %s port %u on %s; the server receives %u "
		"bytes inline\n", p->server, p->server_port, vb_device_name(p->sv.conn), p->sv.peer_inline);
	return leg_device_ok(&p->sv, "server");
}

/* Either leg injects: a connection broken by it is a reaction, and an idle run ends. */
static bool injecting(const struct proxy *p)
{
	return p->cl.run.inj.n || p->sv.run.inj.n;
}

/* The proxy's backward calls wait --timeout for the client's answers, whatever else comes. */
static bool back_overdue(struct proxy *p)
{
	if (!px_back_waiting(&p->back) || px_back_left_ms(&p->back, p->cl.run.timeout_ms) > 0)
		return false;
	px_back_silence(&p->back, &p->cl.run);
	return true;
}

/* Messages from both legs until one of them ends, fails or a call goes unanswered. */
static void relay(struct proxy *p)
{
	struct vb_conn *conns[2] = { p->cl.conn, p->sv.conn };
	char err[512];

	while (!p->broken && !agent_stop_signal) {
		struct vb_msg msg;
		bool ok, disc;
		/* a broken call at the server: its silence for --timeout is its answer */
		bool pend = p->pending != NULL;
		bool busy = g_hash_table_size(p->calls) > 0 || pend;
		/* after a broken reply, the client's silence for --timeout is its answer; under
		 * --inject an idle client is let go after 4 x --timeout, so that the run ends */
		bool react = px_inj_waiting(&p->inj);
		bool back = px_back_waiting(&p->back);
		bool idle_end = !busy && !react && !back && injecting(p);
		int wait = busy || react ? (int)p->cl.run.timeout_ms :
			   idle_end ? (int)p->cl.run.timeout_ms * 4 : PX_IDLE_MS;
		bool back_first = back && px_back_left_ms(&p->back, p->cl.run.timeout_ms) < wait;
		int i;

		if (back_overdue(p))
			continue;
		if (back_first)
			wait = px_back_left_ms(&p->back, p->cl.run.timeout_ms);
		i = vb_recv_any(conns, 2, &msg, wait, &ok, &disc, err, sizeof(err));
		if (i < 0) {
			if (agent_stop_signal)
				break;
			if (back_first)
				continue;   /* the backward calls' time is up: back_overdue says so */
			if (react)
				px_inj_silence(&p->inj, &p->cl.run);
			if (pend) {
				px_pending_silence(p);
				continue;
			}
			if (idle_end) {
				fprintf(stderr, AGENT_NAME ": proxy: the client was idle for %u s; its connection "
					"is closed\n", p->cl.run.timeout_ms * 4 / 1000);
				break;
			}
			if (!busy)
				continue;
			agent_mf_event(&p->sv.run, "timeout", 0, "%u calls unanswered by the server: %s",
				       g_hash_table_size(p->calls), err);
			break;
		}
		if (!ok) {
			struct px_leg *leg = i ? &p->sv : &p->cl;
			if (disc)
				agent_mf_event(&leg->run, "disconnect", 0, "the %s disconnected",
					       i ? "server" : "client");
			else
				agent_mf_event(&leg->run, "failed", 0, "%s", err);
			if (i)
				px_pending_gone(p);
			p->client_left = i == 0;
			break;
		}
		if (i == 0)
			px_from_client(p, &msg);
		else
			px_from_server(p, &msg);
	}
}

/* One client connection: its server connection, the relay, both torn down. */
static bool serve_client(struct proxy *p)
{
	bool ok = connect_server(p);

	px_back_connection(&p->back);
	p->client_left = false;
	if (ok) {
		p->calls = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, px_call_free);
		p->waiting = g_queue_new();
		p->broken = false;
		relay(p);
		px_inj_gone(&p->inj, &p->cl.run);
		/* before the disconnect: the backward calls' memory is the client connection's */
		px_back_gone(&p->back, &p->cl.run, p->client_left);
		if (p->pending) {
			/* the client left (or a signal came) before the server answered */
			agent_mf_event(&p->sv.run, "no-reaction", p->pending->broken->xid, "the relay "
				       "ended before the server answered the broken call");
			px_call_free(p->pending);
			p->pending = NULL;
		}
		/* the server leg first: nothing more to answer the client with */
		vb_disconnect(p->sv.conn);
		vb_disconnect(p->cl.conn);
		if (g_hash_table_size(p->calls) || !g_queue_is_empty(p->waiting))
			fprintf(stderr, AGENT_NAME ": proxy: %u calls unanswered at the end\n",
				g_hash_table_size(p->calls) + g_queue_get_length(p->waiting));
		g_hash_table_destroy(p->calls);
		g_queue_free_full(p->waiting, px_call_free);
		ok = !p->broken;
	}
	vb_free(p->sv.conn);
	p->sv.conn = NULL;
	return ok;
}

static bool accept_loop(struct proxy *p, const char *listen_addr)
{
	struct vb_listener *l;
	uint8_t pd[8], peer[64], peer_len = 0;
	char err[512] = "";
	struct vb_opts vo;
	bool ok = true;
	unsigned n_conns = 0;

	l = vb_listen(listen_addr, p->cl.run.port, err, sizeof(err));
	if (!l) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return false;
	}
	fprintf(stderr, AGENT_NAME ": proxy: serving on %s RDMA-CM port %u for %s port %u\n",
		*listen_addr ? listen_addr : "every address", p->cl.run.port, p->server, p->server_port);
	agent_rfc8797(pd);
	vo = leg_opts(p, pd);
	while (!agent_stop_signal) {
		/* with --inject the client's reconnect after a broken reply is awaited, for as long */
		bool bounded = p->cl.run.once || injecting(p);
		p->cl.conn = vb_accept(l, &vo, peer, &peer_len, bounded ? p->cl.run.timeout_ms * 4 : PX_IDLE_MS,
				       err, sizeof(err));
		if (!p->cl.conn) {
			if (injecting(p) && n_conns && !agent_stop_signal) {
				fprintf(stderr, AGENT_NAME ": proxy: no client came back within %u s; done\n",
					p->cl.run.timeout_ms * 4 / 1000);
			} else if (!agent_stop_signal) {
				fprintf(stderr, AGENT_NAME ": proxy: accept: %s\n", err);
				ok = false;
			}
			break;
		}
		n_conns++;
		p->cl.peer_inline = agent_peer_inline(peer, peer_len);
		fprintf(stderr, AGENT_NAME ": proxy: a client on %s; it receives %u bytes inline\n",
			vb_device_name(p->cl.conn), p->cl.peer_inline);
		/* under --inject, a connection the injection broke is the client's reaction */
		if (leg_device_ok(&p->cl, "client"))
			ok &= serve_client(p) || injecting(p);
		else
			ok = false;
		vb_free(p->cl.conn);
		p->cl.conn = NULL;
		if (p->cl.run.once || !ok)
			break;
	}
	vb_listener_free(l);
	return ok;
}

/* The memory of the proxy's backward calls' chunks: on the client's connection, which
 * reads (a Long Call) or writes (a Reply chunk) it. */
static bool back_reg(void *ctx, struct vb_mr *m, size_t len, bool remote_write)
{
	struct proxy *p = ctx;
	return vb_reg(p->cl.conn, m, len, remote_write, !remote_write);
}

static void back_dereg(void *ctx, struct vb_mr *m)
{
	(void)ctx;
	vb_dereg(m);
}

/* SIGTERM: no leg leaves a capture or manifest that looks complete. */
static void abort_legs(struct proxy *p)
{
	struct agent_run *runs[2] = { &p->sv.run, &p->cl.run };

	for (int i = 0; i < 2; i++) {
		char err[256];
		agent_run_abort(runs[i]);
		runs[i]->cap = NULL;
		if (runs[i]->mf) {
			mf_close(runs[i]->mf, err, sizeof(err));
			runs[i]->mf = NULL;
			remove(runs[i]->manifest);
		}
	}
}

int agent_cmd_proxy(int argc, char **argv)
{
	struct proxy p;
	struct px_args a;
	bool ok;
	int rc;

	memset(&p, 0, sizeof(p));
	memset(&a, 0, sizeof(a));
	rc = parse_args(&p, &a, argc, argv);
	if (rc >= 0)
		return rc;
	p.server = a.server;
	px_inj_init(&p.inj);
	px_sinj_init(&p.sinj);
	px_back_init(&p.back, &(struct px_back_mem){ back_reg, back_dereg, &p });
	/* role=proxy: the client leg's manifest judges the kernel's client (docs/conformance) */
	if (!agent_run_begin(&p.cl.run, "proxy"))
		return 1;
	server_run(&p, &a);
	if (!agent_run_begin(&p.sv.run, "drive")) {
		abort_legs(&p);
		agent_run_end(&p.cl.run);
		return 1;
	}
	g_strlcpy(p.cl.run.info.local, *a.listen ? a.listen : "-", sizeof(p.cl.run.info.local));
	g_strlcpy(p.sv.run.info.remote, a.server, sizeof(p.sv.run.info.remote));
	g_strlcpy(p.sv.run.info.target, "proxy", sizeof(p.sv.run.info.target));
	p.sv.run.info.port = p.server_port;
	if (p.cl.run.mf)
		mf_write_run(p.cl.run.mf, &p.cl.run.info);
	if (p.sv.run.mf)
		mf_write_run(p.sv.run.mf, &p.sv.run.info);
	ok = accept_loop(&p, a.listen);
	fprintf(stderr, AGENT_NAME ": proxy: %u calls, %u replies, %u RDMA_ERROR, %u backward messages\n",
		p.n_calls, p.n_replies, p.n_errors, p.n_back);
	/* SIGINT (Ctrl-C) is the proxy's orderly end, as for a capture tool: both legs keep
	 * what they captured and their manifests. SIGTERM, a supervisor's stop, keeps nothing. */
	if (agent_stop_signal == SIGINT) {
		fprintf(stderr, AGENT_NAME ": proxy: interrupted: both legs' captures and manifests are kept\n");
		/* a broken reply the client had not answered by then: its reaction is the silence */
		if (px_inj_waiting(&p.inj))
			px_inj_silence(&p.inj, &p.cl.run);
	} else if (agent_stop_signal) {
		abort_legs(&p);
		agent_run_end(&p.sv.run);
		agent_run_end(&p.cl.run);
		return 128 + agent_stop_signal;
	}
	ok &= agent_run_end(&p.sv.run);
	ok &= agent_run_end(&p.cl.run);
	return ok ? 0 : 1;
}
