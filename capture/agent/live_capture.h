/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live_capture.h - libpcap on the netdev that carries an RDMA device's
 * traffic, in a thread of its own, from before the connection is made
 * until after it is torn down.  The file is written as NAME.partial and
 * renamed when the capture stops cleanly, so an interrupted run never
 * leaves a file that looks complete.
 */
#ifndef AGENT_LIVE_CAPTURE_H
#define AGENT_LIVE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lc_capture;

struct lc_stats {
	uint64_t packets;         /* written to the file */
	uint64_t received, dropped, ifdropped;   /* pcap_stats */
};

/* pcapng when ng; refuses to overwrite path unless overwrite. */
struct lc_capture *lc_start(const char *netdev, const char *path, bool ng, bool overwrite,
			    char *err, size_t errlen);
/* Drains, stops, renames into place; stats filled.  false (err) when the file could not be completed. */
bool lc_stop(struct lc_capture *c, struct lc_stats *st, char *err, size_t errlen);
/* For SIGINT/SIGTERM: remove the partial file. */
void lc_abort(struct lc_capture *c);

#endif
