/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h - frames to events, without Wireshark.
 *
 * Two layers:
 *  - struct rr_frame_decoder decodes single frames of a given link type
 *    (a DLT_* value) into events.  It keeps the per-stream state that the
 *    transports need across frames: TCP reassembly and MPA framing for
 *    iWARP, negotiated MPA markers/CRC, nothing else.  It is used by the
 *    pcap reader below, by fuzzers and by tests.
 *  - rr_capture_* read a pcap or pcapng file (or "-" for stdin) through
 *    libpcap and feed every frame to a frame decoder.
 *
 * Supported link types: DLT_EN10MB (RoCEv1 ethertype 0x8915, RoCEv2 UDP
 * 4791 over IPv4/IPv6, iWARP over TCP; 802.1Q/QinQ tags), DLT_LINUX_SLL,
 * DLT_LINUX_SLL2, DLT_INFINIBAND (LRH, optional GRH), DLT_ERF with
 * InfiniBand records (ibdump), DLT_RAW/IPV4/IPV6.
 *
 * Events go to ev_fn in frame order; an event's pointers are valid only
 * during the call.  Conditions (truncation, bad ICRC, MPA CRC, TCP gaps,
 * malformed headers) go to the diag sink with their frame number.
 */
#ifndef RPCRDMA_CAPTURE_H
#define RPCRDMA_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "event.h"

typedef void (*rr_event_fn)(void *ctx, const struct rr_event *ev);

enum rr_take { RR_TAKE_PASS, RR_TAKE_DECODE, RR_TAKE_STOP };

struct rr_decode_opts {
	uint16_t iwarp_port;      /* TCP port that marks iWARP without a handshake; 0 = any TCP carrying MPA */
	bool no_icrc_check;       /* skip RoCEv2 ICRC verification */
	/*
	 * One shard of a capture split over workers (ulb-lint --jobs): only
	 * the frames take() decodes are decoded.  The ones it passes are
	 * counted in .others and still mark where joined captures begin, so
	 * that every shard ends the same parts at the same frames; after a
	 * stop the capture is read no further.  NULL: all frames.
	 */
	enum rr_take (*take)(void *ctx, uint64_t frame_no, const uint8_t *pkt, uint32_t caplen);
	/* Told before the decoder flushes its streams (joined captures' next part, the end): what
	 * comes out then belongs after the frame last read, not to it. */
	void (*flushing)(void *ctx);
	void *take_ctx;
	bool joins_told_elsewhere;  /* a shard: another one says that the file holds joined captures */
	/*
	 * Read a regular file in the decoding thread, not ahead in a second
	 * one: for a shard whose siblings already keep every CPU busy, where
	 * a reading thread would only take turns with them.
	 */
	bool no_read_ahead;
};

struct rr_decode_stats {
	uint64_t frames;
	uint64_t rdma_frames;     /* frames that produced at least one event */
	uint64_t truncated;
	uint64_t icrc_bad;
	uint64_t mpa_crc_bad;
	uint64_t malformed;
	uint64_t tcp_gaps;
	uint64_t parts;           /* captures joined in the file (1 when time never went back) */
	uint64_t others;          /* frames left to other shards (rr_decode_opts.take); counted in .frames */
};

struct rr_frame_decoder;

struct rr_frame_decoder *rr_frame_decoder_new(int dlt, const struct rr_decode_opts *opts,
					      rr_event_fn ev_fn, void *ev_ctx,
					      const struct rr_diag_sink *diag);
/* false when the link type is not supported */
bool rr_frame_decoder_supports(int dlt);
/* rr_decode_opts.take stopped the reading: the caller feeds no more frames. */
bool rr_frame_decoder_halted(const struct rr_frame_decoder *d);
void rr_frame_decode(struct rr_frame_decoder *d, uint64_t frame_no, uint64_t ts_usec,
		     const uint8_t *pkt, uint32_t caplen, uint32_t wirelen);
/* Flush stream state (end of capture): pending TCP data is decoded if it can be. */
void rr_frame_decoder_finish(struct rr_frame_decoder *d);
/*
 * What the latest rr_frame_decode() found in its frame, for a reporter that
 * has to say, frame by frame, whether a frame is RDMA traffic (the plugin
 * claims a TCP payload only when the decoder holds its stream as iWARP).
 */
struct rr_frame_report {
	uint64_t frame;
	bool produced;            /* at least one event came out of it */
	bool iwarp_tcp;           /* its TCP payload belongs to a stream held as iWARP (MPA) */
};
const struct rr_frame_report *rr_frame_decoder_last(const struct rr_frame_decoder *d);
const struct rr_decode_stats *rr_frame_decoder_stats(const struct rr_frame_decoder *d);
/* Every count of from added to to's (several decoders of one file, or several shards of one). */
void rr_decode_stats_add(struct rr_decode_stats *to, const struct rr_decode_stats *from);
void rr_frame_decoder_free(struct rr_frame_decoder *d);

/*
 * The two hosts a frame travels between (hosts.c): its IPv4 or IPv6
 * addresses, or a RoCEv1 GRH's GIDs, each tagged with its family and the
 * pair in a fixed order, so both directions give the same pair.  The
 * engine keeps no state that spans two hosts who never exchanged a frame,
 * which is what lets a reader split a capture by them.
 */
#define RR_HOST_ADDR_LEN 17
struct rr_frame_hosts {
	uint8_t addr[2][RR_HOST_ADDR_LEN];
};
enum rr_hosts_kind {
	RR_HOSTS_NONE,            /* no network addresses (InfiniBand, ARP, a frame cut before them) */
	RR_HOSTS_FOUND,
	RR_HOSTS_TUNNEL,          /* addresses found, but the frame may carry another (GRE, VXLAN, ...) */
};
enum rr_hosts_kind rr_frame_hosts(int dlt, const uint8_t *pkt, uint32_t caplen, struct rr_frame_hosts *out);
/*
 * The same, for a reader that asks of every frame in turn: the answers for
 * the last frames are kept in memo (zeroed before the first), and a frame
 * whose bytes that decide it are those of one of them (a conversation's
 * frames come in runs, its two directions taking turns) gets it without a
 * parse.
 */
#define RR_HOSTS_MEMO 4
struct rr_hosts_memo {
	struct {
		uint8_t key[48];  /* the bytes that decided the answer (ethertype, protocol, addresses, port) */
		uint8_t key_len;  /* 0: no answer kept */
		enum rr_hosts_kind kind;
		struct rr_frame_hosts hosts;
	} e[RR_HOSTS_MEMO];
	unsigned next;            /* the entry a new answer goes to */
};
enum rr_hosts_kind rr_frame_hosts_memo(struct rr_hosts_memo *memo, int dlt, const uint8_t *pkt, uint32_t caplen,
				       struct rr_frame_hosts *out);

struct rr_capture;

/* path "-" reads stdin.  On failure returns NULL and writes a sentence naming the file into err. */
struct rr_capture *rr_capture_open(const char *path, char *err, size_t errlen);
/*
 * A classic pcap file whose len bytes the caller holds in memory (a
 * mapped file, read by the worker threads of ulb-lint --jobs): read in
 * place, never copied, never freed; bytes must outlive the capture.  NULL,
 * with a sentence naming name in err, for anything else (pcapng, a link
 * type only libpcap reads).
 */
struct rr_capture *rr_capture_open_memory(const char *name, const uint8_t *bytes, size_t len, char *err,
					  size_t errlen);
int rr_capture_linktype(const struct rr_capture *cap);
/*
 * Read every frame and decode it.  Returns 0 at the end of the capture,
 * or -1 on a read error (a truncated file), with a sentence in err; events
 * decoded before the error were delivered.
 */
int rr_capture_run(struct rr_capture *cap, const struct rr_decode_opts *opts,
		   rr_event_fn ev_fn, void *ev_ctx, const struct rr_diag_sink *diag,
		   struct rr_decode_stats *stats, char *err, size_t errlen);
/*
 * Read every frame and hand it to fn, undecoded (a reader's first pass),
 * until fn returns false: 0 at the end (or when fn stopped it), -1 on a
 * read error with a sentence in err.  Reads the capture once; open it
 * again to decode it.
 */
typedef bool (*rr_raw_frame_fn)(void *ctx, uint64_t frame_no, const uint8_t *pkt, uint32_t caplen);
int rr_capture_scan(struct rr_capture *cap, rr_raw_frame_fn fn, void *ctx, char *err, size_t errlen);
void rr_capture_close(struct rr_capture *cap);

#endif
