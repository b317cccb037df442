// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decode_only - the capture decoder alone (analyzer/decode): read a
 * capture and decode every frame into events, but feed them to no engine.
 * Separates the decoder's cost from the engine's in bench/large.sh.
 *
 *   decode_only FILE|-
 *
 * Prints the decoder's counters; exit 0, or 2 when the capture cannot be
 * read.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rpcrdma/capture.h"

static uint64_t events, bytes;

static void on_event(void *ctx, const struct rr_event *ev)
{
	(void)ctx;
	events++;
	bytes += ev->caplen;
}

int main(int argc, char **argv)
{
	struct rr_decode_stats st = { 0 };
	struct rr_capture *cap;
	char err[512];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: decode_only FILE|-\n");
		return 2;
	}
	cap = rr_capture_open(argv[1], err, sizeof(err));
	if (!cap) {
		fprintf(stderr, "decode_only: %s\n", err);
		return 2;
	}
	rc = rr_capture_run(cap, NULL, on_event, NULL, NULL, &st, err, sizeof(err));
	rr_capture_close(cap);
	printf("decode_only: %" PRIu64 " frames, %" PRIu64 " with events, %" PRIu64 " events, %" PRIu64
	       " payload bytes; %" PRIu64 " bad ICRC, %" PRIu64 " bad MPA CRC, %" PRIu64 " malformed\n",
	       st.frames, st.rdma_frames, events, bytes, st.icrc_bad, st.mpa_crc_bad, st.malformed);
	if (rc) {
		fprintf(stderr, "decode_only: %s\n", err);
		return 2;
	}
	return 0;
}
