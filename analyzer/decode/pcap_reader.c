// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap_reader.c - pcap and pcapng files (or stdin) through libpcap.
 *
 * libpcap reads both formats with pcap_open_offline(); "-" means stdin,
 * opened with pcap_fopen_offline() so that a pipe works.  Frames are
 * numbered from 1 in file order, as Wireshark does.  A file that ends in
 * the middle of a record makes pcap_next_ex() fail: the events decoded up
 * to then have been delivered, and the error names the last good frame.
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "decode_int.h"

struct rr_capture {
	pcap_t *p;
	char *name;
};

struct rr_capture *rr_capture_open(const char *path, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct rr_capture *cap;
	pcap_t *p;

	if (!path) {
		snprintf(err, errlen, "no capture file given");
		return NULL;
	}
	if (strcmp(path, "-") == 0)
		p = pcap_fopen_offline(stdin, ebuf);
	else
		p = pcap_open_offline(path, ebuf);
	if (!p) {
		snprintf(err, errlen, "%s: cannot read capture: %s",
			 strcmp(path, "-") == 0 ? "standard input" : path, ebuf);
		return NULL;
	}
	cap = g_new0(struct rr_capture, 1);
	cap->p = p;
	cap->name = g_strdup(strcmp(path, "-") == 0 ? "standard input" : path);
	return cap;
}

int rr_capture_linktype(const struct rr_capture *cap)
{
	return cap ? pcap_datalink(cap->p) : -1;
}

int rr_capture_run(struct rr_capture *cap, const struct rr_decode_opts *opts,
		   rr_event_fn ev_fn, void *ev_ctx, const struct rr_diag_sink *diag,
		   struct rr_decode_stats *stats, char *err, size_t errlen)
{
	struct rr_frame_decoder *d;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t frame = 0;
	int dlt, rc, ret = 0;

	if (!cap)
		return -1;
	dlt = pcap_datalink(cap->p);
	d = rr_frame_decoder_new(dlt, opts, ev_fn, ev_ctx, diag);
	if (!d) {
		const char *name = pcap_datalink_val_to_name(dlt);
		const char *desc = pcap_datalink_val_to_description(dlt);

		rr_diag_report(diag, CAP_LINKTYPE, 0,
			       "%s: link type %d (%s%s%s) is not supported; supported are EN10MB, LINUX_SLL, LINUX_SLL2, INFINIBAND, ERF, RAW, IPV4, IPV6",
			       cap->name, dlt, name ? name : "unknown", desc ? ", " : "",
			       desc ? desc : "");
		snprintf(err, errlen, "%s: unsupported link type %d (%s)", cap->name, dlt,
			 name ? name : "unknown");
		return -1;
	}

	while ((rc = pcap_next_ex(cap->p, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;

		rr_frame_decode(d, ++frame, ts, data, h->caplen, h->len);
	}
	if (rc == PCAP_ERROR) {
		if (frame)
			snprintf(err, errlen,
				 "%s: read error after frame %" PRIu64 " (the last good frame): %s",
				 cap->name, frame, pcap_geterr(cap->p));
		else
			snprintf(err, errlen, "%s: read error before the first frame: %s",
				 cap->name, pcap_geterr(cap->p));
		ret = -1;
	}
	/* Flush TCP streams even after an error: what was read still counts. */
	rr_frame_decoder_finish(d);
	if (stats)
		*stats = *rr_frame_decoder_stats(d);
	rr_frame_decoder_free(d);
	return ret;
}

void rr_capture_close(struct rr_capture *cap)
{
	if (!cap)
		return;
	pcap_close(cap->p);
	g_free(cap->name);
	g_free(cap);
}
