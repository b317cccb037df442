/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decode_int.h - what the layers of the capture decoder share.
 *
 * One file per protocol layer, as tcpdump does it: link.c hands bytes to
 * ip.c or roce.c, ip.c to roce.c (UDP 4791) or tcp_stream.c, and so on.
 * Every layer reads packet bytes only through struct rr_cursor; a layer
 * gets a cursor that ends where its own bytes end (the captured part), and
 * the wire length of the same bytes when it needs to tell truncation from
 * a malformed length.
 */
#ifndef RR_DECODE_INT_H
#define RR_DECODE_INT_H

#include <glib.h>
#include <inttypes.h>

#include "capture.h"
#include "cursor.h"

/* What one rr_frame_decode() call knows about its frame. */
struct rr_frame_ctx {
	struct rr_frame_decoder *d;
	uint64_t frame;
	uint64_t ts;
	bool cut;             /* caplen < wirelen: the capture dropped the tail */
	bool trunc_reported;  /* CAP_TRUNC goes out at most once per frame */
	bool produced;        /* at least one event came out of this frame */
	bool iwarp_tcp;       /* its TCP payload went to a stream held as iWARP */
	/*
	 * The frame that carried the last byte of the event being emitted
	 * when that is not this frame (iWARP bytes held until MPA framing was
	 * found), and the other frames that carried its bytes.
	 */
	uint64_t ev_frame;
	const uint64_t *more_frames;
	uint32_t n_more_frames;
};

struct tcp_table;

struct rr_frame_decoder {
	int dlt;
	struct rr_decode_opts opts;
	rr_event_fn ev_fn;
	void *ev_ctx;
	struct rr_diag_sink diag;
	struct rr_decode_stats stats;
	struct tcp_table *tcp;
	GByteArray *scratch;        /* de-markered ULPDUs, valid during one emit */
	uint64_t last_frame, last_ts;
	struct rr_frame_report last;   /* what the latest rr_frame_decode() found */
};

/* crc.c: the fastest path the CPU allows (see rr_crc_impl()). */
uint32_t rr_crc32_update(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update(uint32_t reg, const uint8_t *p, size_t n);
/* The portable table paths, for the tests that check the fast ones. */
uint32_t rr_crc32_update_sw(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_sw(uint32_t reg, const uint8_t *p, size_t n);
/* By 128-bit folding only (the tables without PCLMULQDQ). */
uint32_t rr_crc32_update_128(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_128(uint32_t reg, const uint8_t *p, size_t n);
/* "vpclmulqdq", "pclmul", "sse4.2" (CRC-32C only) or "tables". */
const char *rr_crc_impl(void);
/* Feed the next n bytes of a cursor (consumed) into a CRC register. */
bool rr_crc32_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n);
bool rr_crc32c_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n);
uint32_t rr_crc32c(const uint8_t *p, size_t n);

/* link.c */
void link_ethernet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void link_sll(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void link_sll2(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void link_raw(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version);
/* After the link header: ethertype dispatch (IP, RoCEv1, VLAN tags). */
void link_ethertype(struct rr_frame_ctx *fx, uint16_t type, struct rr_cursor *cur,
		    uint32_t wire);

/* erf.c */
void erf_record(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);

/* ip.c */
struct ip_view {
	int version;                /* 4 or 6 */
	uint8_t src[16], dst[16];
	struct rr_cursor hdr;       /* the IP header bytes, for the RoCEv2 ICRC */
};
void ip_packet(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire, int version);
/* roce.c: IB packets however they arrived. */
void roce_v1(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void roce_v2(struct rr_frame_ctx *fx, const struct ip_view *ip, struct rr_cursor *udp_hdr,
	     struct rr_cursor *payload, uint32_t wire);
void ib_native(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);

/* ib.c: from the BTH on. */
struct ib_view {
	struct rr_flow_key flow;    /* transport, src, dst filled; dst_qp from BTH */
	const char *what;           /* "RoCEv2", "RoCEv1", "InfiniBand" for sentences */
	struct rr_cursor bth;       /* BTH .. ICRC start, captured part */
	uint32_t wire;              /* BTH .. ICRC start on the wire */
};
void ib_transport(struct rr_frame_ctx *fx, struct ib_view *ib);

/* tcp_stream.c */
struct tcp_view {
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;
};
#define TCPF_FIN 0x01
#define TCPF_SYN 0x02
#define TCPF_RST 0x04
#define TCPF_ACK 0x10
struct tcp_table *tcp_table_new(void);
void tcp_table_free(struct tcp_table *t);
void tcp_segment(struct rr_frame_ctx *fx, const struct ip_view *ip, const struct tcp_view *tcp,
		 struct rr_cursor *payload, uint32_t wire);
void tcp_finish(struct rr_frame_ctx *fx);
/* Forget every stream (after tcp_finish): a new capture part starts. */
void tcp_table_clear(struct tcp_table *t);

/* The exits every layer ends in. */
#include "emit.h"

#endif
