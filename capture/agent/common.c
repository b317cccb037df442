// SPDX-License-Identifier: GPL-2.0-or-later
/* Options, run set-up and tear-down, injections table (common.h). */
#include "common.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include <rpcrdma/rfc8797.h>
#include <rpcrdma/rules.h>

#include "agent.h"
#include "inject.h"
#include "netdev.h"
#include "runscope.h"
#include "verbs.h"

void agent_list_injections(void)
{
	inj_list_print(stdout);
}

bool agent_inject_parse(struct agent_run *r, int role, char *err, size_t errlen)
{
	return inj_parse(r->inject, role, &r->inj, err, errlen);
}

void agent_rfc8797(uint8_t out[8])
{
	uint32_t m = RR_RFC8797_MAGIC;
	out[0] = (uint8_t)(m >> 24);
	out[1] = (uint8_t)(m >> 16);
	out[2] = (uint8_t)(m >> 8);
	out[3] = (uint8_t)m;
	out[4] = 1;                             /* version */
	out[5] = 0;                             /* no Send With Invalidate */
	out[6] = (uint8_t)(AGENT_INLINE / 1024 - 1);
	out[7] = (uint8_t)(AGENT_INLINE / 1024 - 1);
}

uint32_t agent_peer_inline(const uint8_t *pd, uint8_t len)
{
	struct rr_rfc8797 m;
	return rr_rfc8797_find(pd, len, &m) ? m.recv_size : RR_DEFAULT_INLINE_THRESHOLD;
}

static bool need_value(int argc, char **argv, int i, int *bad)
{
	if (i + 1 < argc)
		return true;
	fprintf(stderr, AGENT_NAME ": %s needs a value\n", argv[i]);
	*bad = 1;
	return false;
}

bool agent_common_opt(struct agent_run *r, int argc, char **argv, int *i, int *bad)
{
	const char *a = argv[*i];
#define VAL() (need_value(argc, argv, *i, bad) ? argv[++*i] : NULL)
	if (!strcmp(a, "-d") || !strcmp(a, "--ib-dev")) {
		r->device = VAL();
	} else if (!strcmp(a, "-p") || !strcmp(a, "--port")) {
		const char *v = VAL();
		char *end;
		unsigned long p = v ? strtoul(v, &end, 10) : 0;
		if (!v || *end || !p || p > 65535) {
			fprintf(stderr, AGENT_NAME ": -p: a port number 1-65535\n");
			*bad = 1;
		}
		r->port = (uint16_t)p;
	} else if (!strcmp(a, "-w") || !strcmp(a, "--write")) {
		r->capture = VAL();
	} else if (!strcmp(a, "-m") || !strcmp(a, "--manifest")) {
		r->manifest = VAL();
	} else if (!strcmp(a, "-F") || !strcmp(a, "--format")) {
		const char *v = VAL();
		if (v && !strcmp(v, "pcapng"))
			r->pcapng = true;
		else if (v && strcmp(v, "pcap")) {
			fprintf(stderr, AGENT_NAME ": -F: pcap or pcapng\n");
			*bad = 1;
		}
	} else if (!strcmp(a, "-c") || !strcmp(a, "--credits")) {
		const char *v = VAL();
		char *end = NULL;
		unsigned long c = v ? strtoul(v, &end, 10) : 0;
		r->credits = v && !*end && c <= 1024 ? (uint32_t)c : 0;
		if (!r->credits) {
			fprintf(stderr, AGENT_NAME ": -c: 1-1024 credits\n");
			*bad = 1;
		}
	} else if (!strcmp(a, "--inject")) {
		const char *v = VAL();
		if (v) {
			if (*r->inject)
				g_strlcat(r->inject, ",", sizeof(r->inject));
			g_strlcat(r->inject, v, sizeof(r->inject));
		}
	} else if (!strcmp(a, "--netdev")) {
		r->netdev_opt = VAL();
	} else if (!strcmp(a, "--rxe") || !strcmp(a, "--siw")) {
		r->link_kind = a + 2;
		r->link_netdev = VAL();
	} else if (!strcmp(a, "--no-manifest")) {
		r->no_manifest = true;
	} else if (!strcmp(a, "--force")) {
		r->force = true;
	} else if (!strcmp(a, "--overwrite")) {
		r->overwrite = true;
	} else if (!strcmp(a, "--timeout")) {
		const char *v = VAL();
		char *end = NULL;
		unsigned long sec = v ? strtoul(v, &end, 10) : 0;
		r->timeout_ms = v && !*end && sec >= 1 && sec <= 86400 ? (int)sec * 1000 : 0;
		if (r->timeout_ms <= 0) {
			fprintf(stderr, AGENT_NAME ": --timeout: seconds, 1 to 86400\n");
			*bad = 1;
		}
	} else {
		return false;
	}
#undef VAL
	return true;
}

volatile sig_atomic_t agent_stop_signal;

/*
 * The first SIGINT/SIGTERM stops the run the orderly way: every wait
 * returns, the capture is drained and renamed, the manifest closed, and
 * the run's links removed at exit.  A second one takes runscope.c's path:
 * hand the links to a reaper and leave at once.
 */
static void on_stop(int sig)
{
	agent_stop_signal = sig;
	vb_interrupted = 1;
	agent_install_signal_cleanup();
}

/*
 * siw counts every registration against RLIMIT_MEMLOCK, root or not, and a
 * run keeps megabytes registered (the proxy registers each chunk on both
 * legs): without this, registrations fail under load, which would look
 * like the peer's fault.
 */
static void agent_lift_memlock(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

	if (setrlimit(RLIMIT_MEMLOCK, &rl) && !getrlimit(RLIMIT_MEMLOCK, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_MEMLOCK, &rl);
	}
}

bool agent_run_begin(struct agent_run *r, const char *role)
{
	char err[512] = "";

	if (!r->port)
		r->port = AGENT_PORT_DEFAULT;
	if (!r->timeout_ms)
		r->timeout_ms = 30000;
	if (!r->credits)
		r->credits = 32;
	agent_recover_stale();
	agent_install_signal_cleanup();
	agent_lift_memlock();
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	if (r->link_kind) {
		if (!agent_netdev_is_test(r->link_netdev, err, sizeof(err)) && !r->force) {
			fprintf(stderr, AGENT_NAME ": %s\n", err);
			return false;
		}
		if (!agent_link_create(r->link_kind, r->link_netdev, true, r->device_buf,
				       sizeof(r->device_buf), err, sizeof(err))) {
			fprintf(stderr, AGENT_NAME ": %s\n", err);
			return false;
		}
		r->device = r->device_buf;
	}
	if (r->netdev_opt)
		g_strlcpy(r->netdev, r->netdev_opt, sizeof(r->netdev));
	else if (r->device &&
		 !agent_netdev_for_device(r->device, r->netdev, sizeof(r->netdev), err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return false;
	}
	if (*r->netdev && !r->force && !agent_netdev_is_test(r->netdev, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME ": %s\n", err);
		return false;
	}
	if (r->capture) {
		if (!*r->netdev) {
			fprintf(stderr, AGENT_NAME ": -w needs the device (-d) or --netdev to capture on\n");
			return false;
		}
		r->cap = lc_start(r->netdev, r->capture, r->pcapng, r->overwrite, err, sizeof(err));
		if (!r->cap) {
			fprintf(stderr, AGENT_NAME ": %s\n", err);
			return false;
		}
	}
	if (!r->manifest && r->capture && !r->no_manifest)
		r->manifest = g_strconcat(r->capture, ".manifest", NULL);
	if (r->manifest) {
		r->mf = mf_open(r->manifest, r->overwrite, err, sizeof(err));
		if (!r->mf) {
			fprintf(stderr, AGENT_NAME ": %s\n", err);
			agent_run_abort(r);
			return false;
		}
	}
	g_strlcpy(r->info.role, role, sizeof(r->info.role));
	g_strlcpy(r->info.device, r->device ? r->device : "-", sizeof(r->info.device));
	g_strlcpy(r->info.netdev, *r->netdev ? r->netdev : "-", sizeof(r->info.netdev));
	g_strlcpy(r->info.inject, *r->inject ? r->inject : "-", sizeof(r->info.inject));
	if (r->device && !strncmp(r->device, "siw", 3))
		g_strlcpy(r->info.transport, "siw", sizeof(r->info.transport));
	else if (r->device && !strncmp(r->device, "rxe", 3))
		g_strlcpy(r->info.transport, "rxe", sizeof(r->info.transport));
	else
		g_strlcpy(r->info.transport, "-", sizeof(r->info.transport));
	r->info.port = r->port;
	return true;
}

bool agent_run_end(struct agent_run *r)
{
	char err[512] = "";
	bool ok = true;

	if (r->cap) {
		struct lc_stats st;
		struct mf_capture mc = { .present = true };
		ok = lc_stop(r->cap, &st, err, sizeof(err));
		r->cap = NULL;
		if (!ok)
			fprintf(stderr, AGENT_NAME ": %s\n", err);
		{
			const char *base = strrchr(r->capture, '/');
			g_strlcpy(mc.file, base ? base + 1 : r->capture, sizeof(mc.file));
		}
		mc.received = st.received;
		mc.dropped = st.dropped;
		mc.ifdropped = st.ifdropped;
		fprintf(stderr, AGENT_NAME ": capture %s: %llu frames written, pcap_stats: %llu received, "
			"%llu dropped, %llu dropped by the interface\n", r->capture,
			(unsigned long long)st.packets, (unsigned long long)st.received,
			(unsigned long long)st.dropped, (unsigned long long)st.ifdropped);
		if (r->mf)
			mf_write_capture(r->mf, &mc);
	}
	if (r->mf) {
		if (!mf_close(r->mf, err, sizeof(err))) {
			fprintf(stderr, AGENT_NAME ": %s\n", err);
			ok = false;
		}
		r->mf = NULL;
	}
	agent_cleanup_run();
	return ok;
}

void agent_run_abort(struct agent_run *r)
{
	if (r->cap)
		lc_abort(r->cap);
}

static void segs_from(struct mf_seg *out, uint32_t *n, const struct rr_segment *s, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt && *n < MF_MAX_SEGS; i++, (*n)++) {
		out[*n].handle = s[i].handle;
		out[*n].length = s[i].length;
		out[*n].offset = s[i].offset;
	}
}

void agent_mf_from_hdr(struct mf_rpc *m, const struct rr_hdr *h)
{
	m->n_reads = 0;
	for (uint32_t i = 0; i < h->n_reads && m->n_reads < MF_MAX_SEGS; i++) {
		m->reads[m->n_reads].position = h->reads[i].position;
		m->reads[m->n_reads].handle = h->reads[i].seg.handle;
		m->reads[m->n_reads].length = h->reads[i].seg.length;
		m->reads[m->n_reads].offset = h->reads[i].seg.offset;
		m->n_reads++;
	}
	m->n_wchunks = 0;
	m->n_wsegs = 0;
	for (uint32_t k = 0; k < h->n_write_chunks && k < MF_MAX_WCHUNKS; k++) {
		uint32_t before = m->n_wsegs;
		segs_from(m->wsegs, &m->n_wsegs, &h->wsegs[h->writes[k].first], h->writes[k].count);
		m->wchunk_nsegs[m->n_wchunks++] = m->n_wsegs - before;
	}
	m->has_reply = h->has_reply;
	m->n_rsegs = 0;
	if (h->has_reply)
		segs_from(m->rsegs, &m->n_rsegs, &h->wsegs[h->reply.first], h->reply.count);
	g_strlcpy(m->proc, rr_hdr_proc_name(h->proc), sizeof(m->proc));
	m->vers = h->vers;
	m->credit = h->credit;
}

void agent_mf_event(struct agent_run *r, const char *kind, uint32_t xid, const char *fmt, ...)
{
	struct mf_event e;
	va_list ap;

	memset(&e, 0, sizeof(e));
	g_strlcpy(e.kind, kind, sizeof(e.kind));
	e.xid = xid;
	va_start(ap, fmt);
	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	va_end(ap);
	fprintf(stderr, AGENT_NAME ": event %s xid 0x%08x: %s\n", kind, xid, e.text);
	if (r->mf)
		mf_write_event(r->mf, &e);
}

void agent_mf_inject(struct agent_run *r, const char *rule, uint32_t xid, bool reply,
		     const char *also, const char *note, bool send_failed)
{
	struct mf_inject mi;

	memset(&mi, 0, sizeof(mi));
	g_strlcpy(mi.rule, rule, sizeof(mi.rule));
	mi.xid = xid;
	mi.reply = reply;
	g_strlcpy(mi.also, also ? also : "", sizeof(mi.also));
	g_strlcpy(mi.note, note, sizeof(mi.note));
	mi.send_failed = send_failed;
	if (r->mf)
		mf_write_inject(r->mf, &mi);
}

bool agent_send(struct agent_run *r, struct vb_conn *conn, const GByteArray *wire)
{
	return agent_send_batch(r, conn, &wire, 1);
}

bool agent_send_batch(struct agent_run *r, struct vb_conn *conn, const GByteArray *const *wires, unsigned n)
{
	size_t lens[64], total = 0, off = 0;
	struct vb_mr m;
	char err[512];
	bool ok;

	if (!n || n > G_N_ELEMENTS(lens))
		return false;
	for (unsigned i = 0; i < n; i++)
		total += lens[i] = wires[i]->len;
	if (!vb_reg(conn, &m, total, false, false)) {
		agent_mf_event(r, "send-failed", 0, "cannot register a %zu-byte send buffer", total);
		return false;
	}
	for (unsigned i = 0; i < n; off += lens[i++])
		memcpy(m.buf + off, wires[i]->data, lens[i]);
	ok = vb_send(conn, &m, lens, n, err, sizeof(err));
	if (!ok)
		agent_mf_event(r, "send-failed", 0, "%s", err);
	vb_dereg(&m);
	return ok;
}
