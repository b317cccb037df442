/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iwarp.h - what TCP reassembly, MPA framing and DDP/RDMAP share.
 *
 * Positions in a TCP byte stream are 64-bit "stream offsets": the first
 * byte we ever saw of a direction sits at STREAM_ORIGIN and sequence
 * numbers are unwrapped against the next expected one, so comparisons
 * never have to think about 2^32 wrap.
 */
#ifndef RR_IWARP_H
#define RR_IWARP_H

#include "decode_int.h"

#define STREAM_ORIGIN ((uint64_t)1 << 40)

enum mpa_mode {
	MPA_START,      /* nothing parsed yet: MPA Request/Reply or heuristics */
	MPA_WAIT_REP,   /* initiator sent its Request; FPDUs wait for the Reply */
	MPA_DETECT,     /* no handshake seen: looking for an FPDU chain */
	MPA_FPDU,       /* in step with the FPDU framing */
	MPA_RESYNC,     /* lost step (gap, truncation, garbage): looking again */
	MPA_IGNORE,     /* not iWARP: bytes are not kept */
};

struct mpa_cfg {
	bool markers;
	uint64_t marker_base;   /* stream offset of a marker (first FPDU, RFC 5044 4.3) */
	int crc;                /* -1 unknown, 0 off, 1 on */
};

struct mpa_dir {
	enum mpa_mode mode;
	struct mpa_cfg cfg;
	bool cfg_tentative;     /* markers guessed: may flip once on the first FPDU */
	bool iwarp;             /* known iWARP: FIN/RST become CM events */
	bool req_seen, req_m, req_c;  /* our MPA Request (initiator side) */
	bool tagged_open;       /* inside a tagged message without its Last segment */
	bool lost;              /* bytes after our MPA Request were lost */
	int align;              /* FPDU starts are = align (mod 4); -1 unknown */
	uint64_t pos;           /* where the next FPDU/MPA frame starts */
	uint64_t tried_end;     /* detection already ran over data up to here */
	uint64_t scan_to;       /* marker-less candidates below this were judged */
	uint64_t marker_tried;  /* stream end when the marker pass last ran */
	uint64_t undecided[16]; /* candidates that may still turn out right */
	int n_undecided;
};

struct stream_key {
	uint8_t version;
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
};

struct ooo_piece;

struct tcp_stream {
	struct stream_key key;
	struct tcp_stream *peer;    /* the other direction, once seen (cached by stream_peer) */
	bool have_base, closed, fin;
	uint32_t nxt_seq;       /* sequence number of the next in-order byte */
	uint64_t nxt_off;       /* its stream offset */
	uint64_t fin_off;
	GByteArray *buf;        /* bytes of [buf_off, nxt_off); holes zero-filled */
	uint64_t buf_off;
	/*
	 * Instead of buf (then empty), during the tcp_segment() call that
	 * brought them: the bytes of [buf_off, nxt_off) in the frame itself,
	 * when an in-order segment found nothing waiting.  Whatever the parser
	 * leaves of them is copied into buf before the call returns.
	 */
	const uint8_t *view;
	size_t view_len;
	GArray *holes;          /* struct stream_hole, sorted, not captured */
	GArray *segs;           /* uint64_t stream offsets where TCP segments began */
	GArray *seg_frames;     /* uint64_t frame number of each of segs */
	uint64_t cur_frame;     /* frame whose payload is being taken in */
	struct ooo_piece *ooo;  /* sorted, non-overlapping */
	size_t ooo_bytes;
	uint32_t ooo_pieces;
	/* Memory accounting (tcp_stream.c): high-water marks since the last
	 * shrink, what this direction was last counted for in the table's
	 * budget, and when it last carried a segment (for eviction). */
	guint buf_hi, segs_hi, holes_hi;
	size_t acct;
	uint64_t last_frame;
	bool unseen;            /* some bytes of this direction were not captured */
	bool told_loss;         /* ... and an event said so (rr_event.after_loss) */
	struct mpa_dir mpa;
};

struct stream_hole {
	uint64_t a, b;          /* [a, b) */
};

/* tcp_stream.c: reading the reassembled stream (always via a cursor). */
bool stream_cursor(const struct tcp_stream *s, uint64_t off, size_t n, struct rr_cursor *c);
/* Bytes from off (at most n) that were captured before the first hole. */
size_t stream_captured(const struct tcp_stream *s, uint64_t off, size_t n);
/* off, or the end of the hole off lies in. */
uint64_t stream_skip_hole(const struct tcp_stream *s, uint64_t off);
/*
 * Frame numbers of the TCP segments that carried bytes of [a, b), in
 * order, without repeats; at most max.  Returns how many.
 */
uint32_t stream_frames(const struct tcp_stream *s, uint64_t a, uint64_t b, uint64_t *out,
		       uint32_t max);
/* Next segment start >= from, if any. */
bool stream_next_seg(const struct tcp_stream *s, uint64_t from, uint64_t *out);
/* Forget every byte kept (the stream turned out not to be iWARP). */
void stream_drop(struct tcp_stream *s);
/* The parser is done with everything before off. */
void stream_consumed(struct tcp_stream *s, uint64_t off);
struct tcp_stream *stream_peer(struct rr_frame_ctx *fx, const struct tcp_stream *s);
void stream_flow(const struct tcp_stream *s, struct rr_flow_key *flow);
void stream_name(const struct tcp_stream *s, char *buf, size_t len);
/* Whether heuristics may look at this stream (rr_decode_opts.iwarp_port). */
bool stream_heuristic_ok(struct rr_frame_ctx *fx, const struct tcp_stream *s);

/* mpa.c */
void mpa_process(struct rr_frame_ctx *fx, struct tcp_stream *s, bool final);
/* A gap or a reset moved the stream past the parser. */
void mpa_lost(struct tcp_stream *s, uint64_t new_pos);

/* ddp_rdmap.c */
struct ddp_hdr {
	bool tagged, last;
	uint8_t opcode;         /* RDMAP opcode */
	uint32_t stag;          /* tagged */
	uint64_t to;
	uint32_t inv_stag, qn, msn, mo;    /* untagged */
	uint32_t sink_stag, rd_size, src_stag;   /* Read Request */
	uint64_t sink_to, src_to;
	size_t hdr_len;         /* DDP + RDMAP header bytes in the ULPDU */
};
enum ddp_result { DDP_OK = 0, DDP_BAD = -1, DDP_SHORT = -2 };
/*
 * Parse the DDP/RDMAP headers at the start of a ULPDU of ulpdu_len bytes,
 * of which cur holds the captured part.  strict also rejects reserved bits
 * (for heuristics).  On DDP_BAD, *why names the field.
 */
enum ddp_result ddp_parse(struct rr_cursor *cur, uint32_t ulpdu_len, bool strict,
			  struct ddp_hdr *h, const char **why);
/* Emit the event for one DDP segment; cur is positioned after the headers. */
void ddp_emit(struct rr_frame_ctx *fx, struct tcp_stream *s, const struct ddp_hdr *h,
	      struct rr_cursor *cur, uint32_t ulpdu_len);

#endif
