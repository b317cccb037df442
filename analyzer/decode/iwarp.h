/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iwarp.h - the state of one TCP direction under iWARP, as TCP reassembly
 * (tcp_stream.c), the stream it builds (stream.c, tcp_table.c), MPA framing
 * (mpa.c, mpa_detect.c, fpdu.c) and DDP/RDMAP (ddp_rdmap.c) share it.
 * Types only: each of those files has its own header for its functions.
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

/* Bytes that came ahead of a hole, waiting for it to fill. */
struct ooo_piece {
	struct ooo_piece *next;
	uint64_t off;
	uint32_t wire;          /* bytes of sequence space */
	uint32_t cap;           /* captured prefix held in data */
	uint8_t *data;
	uint64_t frame;         /* the frame that carried it */
	uint64_t ts;            /* and that frame's time (usec) */
};

/* Where a TCP segment's bytes came from: its frame and that frame's time. */
struct seg_origin {
	uint64_t frame;
	uint64_t ts;
};

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
	GArray *seg_frames;     /* struct seg_origin of each of segs */
	uint64_t cur_frame;     /* frame whose payload is being taken in */
	uint64_t cur_ts;        /* its time (usec) */
	struct ooo_piece *ooo;  /* sorted, non-overlapping */
	size_t ooo_bytes;
	uint32_t ooo_pieces;
	/* Memory accounting (tcp_table.c): high-water marks since the last
	 * shrink, what this direction was last counted for in the table's
	 * budget, and when it last carried a segment (for eviction). */
	guint buf_hi, segs_hi, holes_hi;
	size_t acct;
	uint64_t last_frame;
	bool unseen;            /* some bytes of this direction were not captured */
	bool told_loss;         /* ... and an event said so (rr_event.after_loss) */
	uint64_t lost_untold;   /* bytes lost (TCP gaps, given up) no event has counted yet */
	struct mpa_dir mpa;
};

struct stream_hole {
	uint64_t a, b;          /* [a, b) */
};

#endif
