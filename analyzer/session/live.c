// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A live interface as the session's frame source (live.h).  libpcap runs
 * non-blocking: the loop waits in poll(2) for at most the tick, so a stop
 * request, a --duration or a periodic summary is seen within a tick even
 * when no frame arrives.  Immediate mode hands each frame over as it comes
 * instead of when the kernel's block fills, so findings are not late by
 * the block's fill time on a quiet link.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "live.h"

#define LIVE_SNAPLEN 262144      /* every byte: the checks read whole messages */

struct rr_live {
	pcap_t *p;
	char *iface;
	char *warning;
	int dlt;
	struct rr_live_stats st;
	uint32_t last_recv, last_drop, last_ifdrop;   /* libpcap's 32-bit counters as last read */
};

static struct rr_live *live_fail(struct rr_live *lv, char *err, size_t errlen, const char *what, const char *why)
{
	g_snprintf(err, errlen, "%s: %s: %s", lv->iface, what, why);
	rr_live_close(lv);
	return NULL;
}

static bool set_filter(struct rr_live *lv, const char *expr, char *err, size_t errlen)
{
	struct bpf_program prog;

	if (!expr || !*expr)
		return true;
	if (pcap_compile(lv->p, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		g_snprintf(err, errlen, "%s: the filter '%s' does not compile: %s", lv->iface, expr,
			   pcap_geterr(lv->p));
		return false;
	}
	if (pcap_setfilter(lv->p, &prog) != 0) {
		g_snprintf(err, errlen, "%s: the filter '%s' cannot be set: %s", lv->iface, expr, pcap_geterr(lv->p));
		pcap_freecode(&prog);
		return false;
	}
	pcap_freecode(&prog);
	return true;
}

struct rr_live *rr_live_open(const struct rr_live_opts *o, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct rr_live *lv = g_new0(struct rr_live, 1);
	int rc;

	lv->iface = g_strdup(o->iface ? o->iface : "");
	lv->p = pcap_create(lv->iface, ebuf);
	if (!lv->p)
		return live_fail(lv, err, errlen, "cannot capture", ebuf);
	pcap_set_snaplen(lv->p, LIVE_SNAPLEN);
	pcap_set_promisc(lv->p, !o->no_promisc);
	pcap_set_immediate_mode(lv->p, 1);
	if (o->buffer_mib)
		pcap_set_buffer_size(lv->p, (int)MIN(o->buffer_mib, 2047u) << 20);
	rc = pcap_activate(lv->p);
	if (rc < 0) {
		const char *why = rc == PCAP_ERROR ? pcap_geterr(lv->p) : pcap_statustostr(rc);

		g_snprintf(ebuf, sizeof(ebuf), "%s", why);
		if (rc == PCAP_ERROR_PERM_DENIED)
			g_strlcat(ebuf, " (capturing needs root or CAP_NET_RAW)", sizeof(ebuf));
		return live_fail(lv, err, errlen, "cannot capture", ebuf);
	}
	if (rc > 0)
		lv->warning = g_strdup_printf("%s: %s", lv->iface,
					      rc == PCAP_WARNING ? pcap_geterr(lv->p) : pcap_statustostr(rc));
	lv->dlt = pcap_datalink(lv->p);
	if (!rr_frame_decoder_supports(lv->dlt)) {
		const char *name = pcap_datalink_val_to_name(lv->dlt);

		g_snprintf(ebuf, sizeof(ebuf), "link type %d (%s) is not supported; supported are EN10MB, "
			   "LINUX_SLL, LINUX_SLL2, INFINIBAND, ERF, RAW, IPV4, IPV6", lv->dlt, name ? name : "unknown");
		return live_fail(lv, err, errlen, "cannot analyse", ebuf);
	}
	if (!set_filter(lv, o->filter, err, errlen)) {
		rr_live_close(lv);
		return NULL;
	}
	if (pcap_setnonblock(lv->p, 1, ebuf) != 0)
		return live_fail(lv, err, errlen, "cannot read without blocking", ebuf);
	return lv;
}

const char *rr_live_warning(const struct rr_live *lv)
{
	return lv->warning;
}

int rr_live_linktype(const struct rr_live *lv)
{
	return lv->dlt;
}

const char *rr_live_linktype_name(const struct rr_live *lv)
{
	const char *name = pcap_datalink_val_to_name(lv->dlt);

	return name ? name : "unknown";
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

struct feed {
	struct rr_live *lv;
	struct rr_session *s;
	uint64_t last_ts;             /* the latest frame's capture time (usec) ... */
	uint64_t last_ms;             /* ... and when it came, on the monotonic clock */
};

static void on_packet(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
	struct feed *f = (struct feed *)user;
	uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;

	f->lv->st.frames++;
	f->last_ts = ts;
	f->last_ms = now_ms();
	rr_session_feed_frame(f->s, f->lv->dlt, f->lv->st.frames, ts, bytes, h->caplen, h->len);
}

/*
 * No frame for a tick or more: the capture's clock goes on from the latest
 * frame's time by the time waited since, as the next frame's timestamp
 * would, so findings held for a bounded time are told while the input is
 * idle (rr_session_clock), not when traffic resumes.
 */
static void idle_clock(struct feed *f, uint64_t t, unsigned tick)
{
	if (f->lv->st.frames && t - f->last_ms >= tick)
		rr_session_clock(f->s, f->last_ts + (t - f->last_ms) * 1000u);
}

/* libpcap's counters are 32 bits and wrap on a busy link within days: add what moved since the last read. */
static void update_stats(struct rr_live *lv)
{
	struct pcap_stat ps;

	if (pcap_stats(lv->p, &ps) != 0)
		return;
	lv->st.received += (uint32_t)(ps.ps_recv - lv->last_recv);
	lv->st.dropped += (uint32_t)(ps.ps_drop - lv->last_drop);
	lv->st.ifdropped += (uint32_t)(ps.ps_ifdrop - lv->last_ifdrop);
	lv->last_recv = ps.ps_recv;
	lv->last_drop = ps.ps_drop;
	lv->last_ifdrop = ps.ps_ifdrop;
}

/* Wait for frames, at most until the next tick; a signal cuts the wait short. */
static void wait_frames(struct rr_live *lv, unsigned ms)
{
	struct pollfd pfd = { .fd = pcap_get_selectable_fd(lv->p), .events = POLLIN };

	if (pfd.fd < 0) {
		struct timespec t = { 0, 10 * 1000000L };

		nanosleep(&t, NULL);
		return;
	}
	(void)poll(&pfd, 1, (int)ms);
}

int rr_session_run_live(struct rr_session *s, struct rr_live *lv, const struct rr_live_ctl *ctl, char *err,
			size_t errlen)
{
	struct feed f = { lv, s, 0, 0 };
	unsigned tick = ctl->tick_ms ? ctl->tick_ms : 100;
	uint64_t next = now_ms() + tick;
	int rc = 0;

	while (!(ctl->stop && *ctl->stop) && !(ctl->max_frames && lv->st.frames >= ctl->max_frames)) {
		int left = ctl->max_frames ? (int)MIN(ctl->max_frames - lv->st.frames, 4096u) : 4096;
		int n = pcap_dispatch(lv->p, left, on_packet, (u_char *)&f);
		uint64_t t;

		if (n == PCAP_ERROR) {
			g_snprintf(err, errlen, "%s: capturing failed after frame %" G_GUINT64_FORMAT ": %s", lv->iface,
				   lv->st.frames, pcap_geterr(lv->p));
			rc = 1;
			break;
		}
		t = now_ms();
		if (t >= next) {
			update_stats(lv);
			idle_clock(&f, t, tick);
			next = t + tick;
			if (ctl->tick && !ctl->tick(ctl->ctx))
				break;
		}
		if (n == 0)
			wait_frames(lv, (unsigned)(next - t < tick ? next - t : tick));
	}
	update_stats(lv);
	rr_session_finish(s);
	return rc;
}

void rr_live_stats(struct rr_live *lv, struct rr_live_stats *st)
{
	*st = lv->st;
}

void rr_live_close(struct rr_live *lv)
{
	if (!lv)
		return;
	if (lv->p)
		pcap_close(lv->p);
	g_free(lv->iface);
	g_free(lv->warning);
	g_free(lv);
}
