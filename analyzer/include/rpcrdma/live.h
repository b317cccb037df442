/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.h - a session fed from a network interface as it captures.
 *
 * The frame source of `ulb-lint -i IFACE`: libpcap opens the interface
 * (pcap_create, pcap_activate: any device libpcap opens, its RDMA sniffer
 * devices included where libpcap was built with them), applies a BPF filter,
 * and each frame goes to rr_session_feed_frame(), the path the Wireshark
 * plugin uses too: the same frame decoders, engine and check stage as a
 * capture file.  Frames are numbered from 1 in the order libpcap hands them
 * out, as a file written by the same capture would number them.
 *
 * The engine knows nothing of this: only this source and the file reader
 * (capture.h) link libpcap.
 */
#ifndef RPCRDMA_LIVE_H
#define RPCRDMA_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct rr_live_opts {
	const char *iface;
	const char *filter;          /* a BPF expression as tcpdump takes it; NULL or "" for every frame */
	unsigned buffer_mib;         /* the kernel's capture buffer; 0 for libpcap's default */
	bool no_promisc;
};

struct rr_live;

/*
 * Open and activate the interface and set the filter.  NULL, with a
 * sentence naming the interface and what failed in err, when it cannot be
 * captured on, or when its link type is not one the decoders read.
 */
struct rr_live *rr_live_open(const struct rr_live_opts *o, char *err, size_t errlen);
/* A warning pcap_activate() gave (promiscuous mode not granted, ...), or NULL. */
const char *rr_live_warning(const struct rr_live *lv);
int rr_live_linktype(const struct rr_live *lv);
/* Its libpcap name (EN10MB, LINUX_SLL2, ...). */
const char *rr_live_linktype_name(const struct rr_live *lv);

/* How a live run ends, besides an error. */
struct rr_live_ctl {
	volatile sig_atomic_t *stop;    /* set (by a signal handler) to end the run */
	uint64_t max_frames;            /* 0: no limit */
	unsigned tick_ms;               /* tick is called at least this often (and when idle) */
	bool (*tick)(void *ctx);        /* false ends the run (a --duration reached) */
	void *ctx;
};

/*
 * Feed the session every frame captured until the control ends the run,
 * then finish the session (the end's findings are told).  0 at such an
 * end, 1 when capturing failed part way (the interface went away: err says
 * so; what came before it was analysed and the session is finished).
 */
int rr_session_run_live(struct rr_session *s, struct rr_live *lv, const struct rr_live_ctl *ctl, char *err,
			size_t errlen);

/* What libpcap counted (pcap_stats), widened past its 32-bit counters. */
struct rr_live_stats {
	uint64_t frames;             /* handed to the session */
	uint64_t received;           /* ps_recv */
	uint64_t dropped;            /* ps_drop: no room in the capture buffer */
	uint64_t ifdropped;          /* ps_ifdrop: dropped by the interface or its driver */
};
void rr_live_stats(struct rr_live *lv, struct rr_live_stats *st);
void rr_live_close(struct rr_live *lv);

#endif
