// SPDX-License-Identifier: GPL-2.0-or-later
/* libpcap capture in a thread (live_capture.h). */
#include "live_capture.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

struct lc_capture {
	pcap_t *p;
	pcap_dumper_t *d;
	char *path, *partial;
	pthread_t thr;
	atomic_bool stop;
	uint64_t packets;
	bool ng;
};

static void *loop(void *arg)
{
	struct lc_capture *c = arg;
	while (!atomic_load(&c->stop)) {
		int n = pcap_dispatch(c->p, -1, pcap_dump, (u_char *)c->d);
		if (n > 0)
			c->packets += (uint64_t)n;
		else if (n < 0 && n != PCAP_ERROR_BREAK)
			break;
	}
	return NULL;
}

struct lc_capture *lc_start(const char *netdev, const char *path, bool ng, bool overwrite,
			    char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct lc_capture *c;

	if (!overwrite && access(path, F_OK) == 0) {
		snprintf(err, errlen, "%s exists; not overwriting it (remove it first)", path);
		return NULL;
	}
	c = g_new0(struct lc_capture, 1);
	c->ng = ng;
	c->path = g_strdup(path);
	c->partial = g_strconcat(path, ".partial", NULL);
	c->p = pcap_create(netdev, ebuf);
	if (!c->p) {
		snprintf(err, errlen, "capture on %s: %s", netdev, ebuf);
		goto fail;
	}
	/* whole frames, immediate delivery, a buffer deep enough for 1 MiB bursts */
	pcap_set_snaplen(c->p, 262144);
	pcap_set_promisc(c->p, 0);
	pcap_set_immediate_mode(c->p, 1);
	pcap_set_buffer_size(c->p, 64 << 20);
	pcap_set_timeout(c->p, 100);
	if (pcap_activate(c->p) < 0) {
		snprintf(err, errlen, "capture on %s: %s", netdev, pcap_geterr(c->p));
		goto fail;
	}
	/* libpcap writes pcap only: pcapng is converted from it when the capture stops */
	c->d = pcap_dump_open(c->p, c->partial);
	if (!c->d) {
		snprintf(err, errlen, "%s: %s", c->partial, pcap_geterr(c->p));
		goto fail;
	}
	if (pthread_create(&c->thr, NULL, loop, c)) {
		snprintf(err, errlen, "capture thread: %s", strerror(errno));
		goto fail;
	}
	return c;
fail:
	if (c->d) {
		pcap_dump_close(c->d);
		unlink(c->partial);
	}
	if (c->p)
		pcap_close(c->p);
	g_free(c->path);
	g_free(c->partial);
	g_free(c);
	return NULL;
}

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

/* pcapng (host byte order): SHB, one IDB, an EPB per frame, nanosecond-free microseconds. */
static bool to_pcapng(const char *from, const char *to, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *in = pcap_open_offline(from, ebuf);
	FILE *f;
	int r;

	if (!in) {
		snprintf(err, errlen, "%s: %s", from, ebuf);
		return false;
	}
	f = fopen(to, "wb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
		pcap_close(in);
		return false;
	}
	put32(f, 0x0a0d0d0a); put32(f, 28); put32(f, 0x1a2b3c4d);
	put32(f, 0x00000001); put32(f, 0xffffffff); put32(f, 0xffffffff); put32(f, 28);
	put32(f, 1); put32(f, 20); put32(f, (uint32_t)pcap_datalink(in));
	put32(f, (uint32_t)pcap_snapshot(in)); put32(f, 20);
	while ((r = pcap_next_ex(in, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
		uint32_t pad = (4 - h->caplen % 4) % 4, len = 32 + h->caplen + pad;
		static const uint8_t z[4];
		put32(f, 6); put32(f, len); put32(f, 0);
		put32(f, (uint32_t)(ts >> 32)); put32(f, (uint32_t)ts);
		put32(f, h->caplen); put32(f, h->len);
		fwrite(data, 1, h->caplen, f);
		fwrite(z, 1, pad, f);
		put32(f, len);
	}
	pcap_close(in);
	if (fclose(f) != 0 || r == -1) {
		snprintf(err, errlen, "%s: pcapng conversion failed", to);
		return false;
	}
	return true;
}

bool lc_stop(struct lc_capture *c, struct lc_stats *st, char *err, size_t errlen)
{
	struct pcap_stat ps;
	bool ok = true;

	/* frames still in the socket buffer: let the loop take them first */
	usleep(300 * 1000);
	atomic_store(&c->stop, true);
	pcap_breakloop(c->p);
	pthread_join(c->thr, NULL);
	memset(st, 0, sizeof(*st));
	st->packets = c->packets;
	if (pcap_stats(c->p, &ps) == 0) {
		st->received = ps.ps_recv;
		st->dropped = ps.ps_drop;
		st->ifdropped = ps.ps_ifdrop;
	}
	if (pcap_dump_flush(c->d) != 0) {
		snprintf(err, errlen, "%s: write failed", c->partial);
		ok = false;
	}
	pcap_dump_close(c->d);
	pcap_close(c->p);
	if (ok && c->ng) {
		ok = to_pcapng(c->partial, c->path, err, errlen);
		unlink(c->partial);
	} else if (ok && rename(c->partial, c->path) != 0) {
		snprintf(err, errlen, "rename %s: %s", c->partial, strerror(errno));
		ok = false;
	}
	g_free(c->path);
	g_free(c->partial);
	g_free(c);
	return ok;
}

void lc_abort(struct lc_capture *c)
{
	if (c)
		unlink(c->partial);
}
