/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decode_int.h - what every layer of the capture decoder shares: the
 * decoder object and the context of the frame being decoded.
 *
 * One file per protocol layer, as tcpdump does it, and data flows one way,
 * each file calling only files below it:
 *
 *   pcap_reader.c -> frame_decoder.c -> erf.c -> link.c -> ip.c -> tunnel.c
 *   ip.c -> roce.c -> ib.c                          (RoCE, InfiniBand)
 *   ip.c -> tcp_stream.c -> mpa.c -> mpa_detect.c -> fpdu.c -> ddp_rdmap.c
 *                                                                (iWARP)
 *   a tunnel (GRE, ERSPAN, VXLAN) leaves its inner frame in the frame
 *   context and link.c decodes it when ip.c has returned (tunnel.h);
 *   the iWARP layers read the reassembled bytes through stream.c and find
 *   directions in tcp_table.c; CRCs come from crc.c; every layer's events
 *   and diagnostics leave through emit.c, which calls none of them.
 *
 * Each file's header is its contract with the files above it.  Every
 * layer reads packet bytes only through struct rr_cursor; a layer gets a
 * cursor that ends where its own bytes end (the captured part), and the
 * wire length of the same bytes when it needs to tell truncation from a
 * malformed length.
 */
#ifndef RR_DECODE_INT_H
#define RR_DECODE_INT_H

#include <glib.h>
#include <inttypes.h>

#include "capture.h"
#include "cursor.h"

/* A frame carried inside the one being decoded (tunnel.h): tunnel.c
 * finds it, link.c decodes it once the outer layers have returned. */
struct tunnel_inner {
	bool found;
	bool ip;                    /* an IP packet, not an Ethernet frame */
	uint32_t wire;              /* its length on the wire */
	struct rr_cursor frame;
};

/* What one rr_frame_decode() call knows about its frame. */
struct rr_frame_ctx {
	struct rr_frame_decoder *d;
	uint64_t frame;
	uint64_t ts;
	bool cut;             /* caplen < wirelen: the capture dropped the tail */
	bool trunc_reported;  /* CAP_TRUNC goes out at most once per frame */
	bool rdma;            /* identified as RDMA transport: its conditions are told (emit.h) */
	bool produced;        /* at least one event came out of this frame */
	bool iwarp_tcp;       /* its TCP payload went to a stream held as iWARP */
	/*
	 * The frame that carried the last byte of the event being emitted
	 * when that is not this frame (iWARP bytes held until MPA framing was
	 * found), and the other frames that carried its bytes.
	 */
	uint64_t ev_frame;
	uint64_t ev_ts;       /* with ev_frame: that frame's time */
	const uint64_t *more_frames;
	uint32_t n_more_frames;
	struct tunnel_inner tunnel;
};

struct tcp_table;

/* A condition about the frame being decoded, held until the frame is known to be RDMA (emit.h). */
struct held_cond {
	enum rr_rule_id id;
	char *text;
};

struct rr_frame_decoder {
	int dlt;
	struct rr_decode_opts opts;
	rr_event_fn ev_fn;
	void *ev_ctx;
	struct rr_diag_sink diag;
	struct rr_decode_stats stats;
	struct tcp_table *tcp;
	GByteArray *scratch;        /* de-markered ULPDUs, valid during one emit */
	GArray *held;               /* conditions of the current frame, until it is known RDMA (emit.c) */
	uint64_t last_frame, last_ts;
	struct rr_frame_report last;   /* what the latest rr_frame_decode() found */
	bool halted;                   /* take() stopped the reading */
	/*
	 * IB/RoCE ICRCs that matched: once one has, the capture tool computes
	 * them, and a frame whose ICRC does not match was damaged (roce.c).
	 */
	uint64_t icrc_good;
};

#endif
