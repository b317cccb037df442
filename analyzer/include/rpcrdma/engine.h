/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - the RPC-over-RDMA engine: events in, rebuilt RPC messages and
 * findings out.
 *
 *   frames -> transport decoder -> rr_engine_feed(event)
 *          -> connection tracking (conn.c) -> transfer assembly (xfer.c)
 *          -> chunk segments (segstore.c) -> message rebuild (rebuild.c)
 *          -> the message record (record.c: what reporters read of it,
 *             struct rr_msg_view, described once)
 *          -> the check stage (check/: the rule table's checks)
 *          -> rr_message_fn and the diag sink (reporters: ulb-lint, the plugin)
 *
 * Two stages.  The rebuild decides only whether a Send is RPC-over-RDMA and
 * produces a self-contained record of each message (struct rr_message).
 * Every record, every Send in wire order and every RDMA Read or Write then
 * passes through one check stage, which runs the checks of the rule table
 * (rules.def).  Every finding goes to the diag sink.
 *
 * What a message's payload is: the bytes the same RPC message would carry
 * on TCP, without the record mark.  A complete XDR stream: chunk data put
 * back at its place, XDR pads restored as zeros.  Messages that carry no
 * RPC message (RDMA_DONE, RDMA_ERROR) are reported with an empty payload.
 *
 * Order of delivery: a call is delivered when its last byte has been seen
 * (the Send, plus every Read chunk byte); a reply when its Send has been
 * seen (RDMA Writes precede the Send on the wire).  A call whose read chunk
 * never completes is delivered, marked incomplete, when its reply arrives,
 * when its connection is torn down, or by rr_engine_finish().
 *
 * Memory: state is kept per outstanding call and per advertised segment,
 * capped by struct rr_engine_limits, and dropped when the reply has been
 * rebuilt or the connection torn down.  A limit hit is an ENG-LIMIT
 * diagnostic, never an allocation of a size taken from the wire.  The
 * record's retry flag remembers a fixed number of recent calls
 * (RR_RECENT_CALLS).
 */
#ifndef RPCRDMA_ENGINE_H
#define RPCRDMA_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "event.h"
#include "hdr.h"
#include "rpc.h"
#include "ulp.h"

struct rr_engine_limits {
	uint32_t max_calls_per_flow;     /* outstanding calls in one direction (default 4096) */
	uint32_t max_segment_bytes;      /* largest segment buffered (default 16 MiB) */
	uint64_t max_buffered_bytes;     /* all chunk, Send and call data held at once (default 16 MiB) */
	uint32_t max_send_bytes;         /* largest multi-packet Send (default 1 MiB) */
	uint64_t max_message_bytes;      /* largest rebuilt RPC message (default 16 MiB) */
	uint32_t max_flows;              /* one-way flows tracked at once (default 4096; past it
					  * the least recently active connections are forgotten) */
};

enum rr_msg_dir {
	RR_DIR_CALL = 0,
	RR_DIR_REPLY = 1,
};

/* One DDP-eligible item of a message, and where its bytes travelled. */
struct rr_ddp_place {
	uint32_t op;                  /* NFSv4 op, or NFSv2/3 procedure */
	uint32_t ordinal;             /* as struct rr_ddp_item */
	uint32_t length;              /* the item's length word */
	uint64_t data_pos;            /* offset of its data in payload */
	int32_t chunk;                /* calls: index into hdr->reads of the first segment of
				       * the read chunk carrying it; replies: write chunk index;
				       * -1: inline */
};

/* The frames that carried bytes of one chunk segment. */
struct rr_seg_frames {
	const uint64_t *frames;       /* ascending */
	size_t n_frames;
};

/* What the engine knows of a message's connection. */
enum rr_inline_source {
	RR_INLINE_DEFAULT = 0,        /* RR_DEFAULT_INLINE_THRESHOLD (hdr.h) */
	RR_INLINE_CONFIG,             /* --inline-threshold, the plugin preference */
	RR_INLINE_HANDSHAKE,          /* RFC 8797 private data in the capture */
	RR_INLINE_UNKNOWN,            /* the handshake was captured but its private data cut: no threshold is known */
};

struct rr_conn_info {
	bool handshake;               /* pairing and roles came from RDMA-CM or MPA */
	bool roles_known;             /* which side is the requester */
	enum rr_inline_source inline_source;
	uint32_t inline_requester;    /* what the requester can receive */
	uint32_t inline_responder;    /* what the responder can receive */
	uint16_t server_port;         /* iWARP TCP port or CM service port; 0 unknown */
	bool inv_flag_known;          /* the requester's RFC 8797 flags were captured */
	bool remote_invalidate_ok;    /* ... and allow Send With Invalidate */
	uint32_t requester_hash;      /* the requester host's number in this engine (retries across connections) */
	/*
	 * The capture cut bytes that checks on this connection rely on: a
	 * transport or RPC header of a Send, or the handshake's private data.
	 * Checks then skip (counted as "not captured") rather than guess.
	 */
	bool capture_cut;
	/*
	 * What the capture lost, so far, by direction: [0] sent by the
	 * requester, [1] by the responder (by the connection's two sides while
	 * the roles are unknown).  IB/RoCE: packets missing from the request
	 * streams' PSN sequences (IBTA 9.7; retransmissions are not loss).
	 * iWARP: bytes missing from the TCP streams.  Either sets capture_cut.
	 */
	uint64_t lost_packets[2];
	uint64_t lost_bytes[2];
};

/* The longest operation label rr_ulp_op_label() writes for a view, with its NUL. */
#define RR_OP_LABEL_LEN 48

/*
 * One chunk segment of a message, by the role its header's layout walk
 * (rr_hdr_layout) gives it (RFC 8166 3.5): calls, the segments of their own
 * read list; replies, those of their call's write chunks and reply chunk.
 */
struct rr_msg_seg {
	enum rr_chunk_role role;      /* calls: READ or PZRC; replies: WRITE or REPLY */
	uint32_t chunk;               /* RR_ROLE_WRITE: the write chunk's index in the call's header; else 0 */
	uint32_t index;               /* into seg_bytes and seg_frames: calls hdr->reads[],
				       * replies call_hdr->wsegs[] */
	uint32_t length;              /* the length its header advertised */
	uint64_t bytes;               /* seg_bytes[index]: bytes the capture saw land in it */
};

/*
 * What reporters (ulb-lint's dump and summary, the plugin's tree and
 * statistics) read of a message, described once by the engine
 * (record_view.c) before the check stage sees the message.  Flat: a
 * reporter keeps it by value after the callback.
 */
struct rr_msg_view {
	/* Copied from the record: the fields of the same name, rdma_proc from hdr, has_call from call_hdr. */
	uint32_t xid;                 /* the transport header's XID */
	enum rr_msg_dir dir;
	bool backchannel;
	bool complete;
	bool has_rpc;
	bool capture_loss;
	uint32_t conn_id;
	uint8_t transport;            /* enum rr_transport */
	uint32_t credit;
	uint64_t send_frame;
	uint64_t ts_usec;
	uint32_t rdma_proc;           /* the Send's procedure: RDMA_MSG, RDMA_NOMSG ... */
	/* Replies: the call they answer, when the engine saw it. */
	bool has_call;
	uint64_t call_send_frame;
	uint64_t call_ts_usec;        /* 0 when the call's time is unknown */

	/*
	 * The RPC program, version and procedure: a call's own header; a
	 * reply's taken from its call (a reply does not carry them).
	 */
	bool has_ids;
	uint32_t rpc_prog, rpc_vers, rpc_proc;
	bool compound;                /* an NFSv4 or callback COMPOUND whose ops the walk listed (ulp.ops) */
	char op[RR_OP_LABEL_LEN];     /* rr_ulp_op_label() of the call's ULP: "NFSv3 READ",
				       * "NFSv4.1 READ"; "?" when the program is unknown */

	/*
	 * Bytes by how they travelled (RFC 8166 3.5), each counted once:
	 * ddp_bytes + long_bytes is every chunk byte seen.
	 */
	uint64_t inline_bytes;        /* the Send after the transport header (RDMA_MSG, RDMA_MSGP);
				       * 0 for RDMA_NOMSG, RDMA_DONE and RDMA_ERROR */
	uint64_t ddp_bytes;           /* seen landing (not advertised) in read chunks at a non-zero
				       * Position (calls) and in write chunks (replies) */
	uint64_t long_bytes;          /* seen landing in Position-Zero read chunks (calls) and in
				       * the reply chunk (replies): the RPC message itself */

	/* The chunks the message's own header carries. */
	uint32_t n_read_segs;         /* read segments at a non-zero Position */
	uint32_t n_pzrc_segs;         /* read segments at Position zero */
	uint32_t n_write_chunks;
	bool reply_chunk;

	/*
	 * Calls in the forward direction: the requester's host sent this XID
	 * before, among its last RR_RECENT_CALLS distinct calls (on any
	 * connection: a retry after a reconnect counts on the new one).
	 */
	bool retry;
};

/* Distinct calls rr_msg_view.retry remembers, over all connections. */
#define RR_RECENT_CALLS 65536

struct rr_message {
	uint32_t xid;
	enum rr_msg_dir dir;
	bool backchannel;             /* sent in the backward direction (RFC 8166 7) */
	/*
	 * 1-based connection number.  Without the handshake, two flows first
	 * seen as separate connections may later be proved one (a reply
	 * matches a call); the older number is kept from then on, so messages
	 * delivered before that carry the other one.
	 */
	uint32_t conn_id;
	const char *conn_name;        /* "rocev2 10.0.0.1 qp 0x11 <-> 10.0.0.2 qp 0x12" */
	uint8_t transport;            /* enum rr_transport */

	const struct rr_hdr *hdr;     /* transport header of the Send */
	uint32_t credit;

	const uint64_t *frames;       /* every frame that carried bytes of it, ascending */
	size_t n_frames;

	const uint8_t *payload;       /* see above; valid during the callback */
	size_t payload_len;
	/*
	 * The first payload_whole bytes are all what the capture held
	 * (payload_len when it lost nothing of the message); from there on
	 * some are zeros standing for bytes it did not hold (a Send the
	 * snaplen cut, Write data lost), which a decoder must not take for
	 * what was sent.  Zeros for bytes the sender never sent (a result
	 * longer than its chunk) are a breach the checks tell, not a loss.
	 */
	size_t payload_whole;
	bool complete;                /* every byte of every chunk was seen */

	bool has_rpc;                 /* payload decoded as an RPC call or reply header */
	struct rr_rpc_call call;      /* dir == CALL */
	struct rr_rpc_reply reply;    /* dir == REPLY */
	bool has_ulp;                 /* ulp is valid (program known) */
	bool ulp_set;                 /* the engine's own: ulp was walked into or zeroed (never left unset) */
	struct rr_ulp_info ulp;       /* procedure, NFSv4 op list */
	const struct rr_ulp_info *call_ulp;  /* replies: what the matching call said, or NULL */

	/* What the check stage needs; all owned by the record. */
	uint64_t send_frame;          /* first frame of the Send: where findings point */
	uint64_t ts_usec;             /* capture time of the Send's first packet */
	uint64_t call_ts_usec;        /* replies: the call's, when its call was seen */
	size_t send_len;              /* bytes of the Send (header and inline part) */
	bool invalidate;              /* sent with Send With Invalidate */
	uint32_t inv_rkey;
	bool capture_loss;            /* bytes of it were not in the capture (snaplen, drops) */
	const struct rr_hdr *call_hdr;   /* replies: the matching call's header, or NULL */
	bool call_capture_loss;          /* replies: the call lost bytes (its ULP decode is partial) */
	uint64_t call_send_frame;
	enum rr_ulp_result ulp_result;   /* how far the walk of payload went */
	uint32_t ulp_stop_op;         /* RR_ULP_UNSUPPORTED: the op or procedure it stopped at */
	const struct rr_ddp_place *items;   /* DDP-eligible items, in payload order */
	size_t n_items;
	/*
	 * Bytes the capture saw land in each segment: calls, one per
	 * hdr->reads[]; replies, one per call_hdr->wsegs[] (write and reply
	 * chunks).  NULL when there is no such header.
	 */
	const uint64_t *seg_bytes;
	const struct rr_seg_frames *seg_frames;   /* parallel to seg_bytes: where those bytes travelled */
	const uint64_t *call_read_bytes;   /* replies: bytes pulled from each call_hdr->reads[] */
	bool has_bad_position;        /* calls: a read chunk Position the rebuild could not honour */
	uint32_t bad_position;
	bool bad_position_overlaps;   /* ... because it falls inside an earlier chunk */
	struct rr_conn_info conn;

	/* What reporters read: described once, filled before the check stage runs. */
	struct rr_msg_view view;
	const struct rr_msg_seg *segs;    /* its chunk segments, in header order; valid during the callback */
	size_t n_segs;

	/*
	 * Every byte was captured, yet the Payload rebuilt with its chunks in
	 * place does not decode, and a chunk is where it breaks (RFC 8166
	 * §3.4.5, §4.3.1.1): the check stage reports the chunk, not the capture.
	 */
	size_t decode_stop;           /* offset in payload where the RPC or ULP decode stopped */
	bool placement_broken;
	bool placement_in_rpc_header; /* calls: the chunk's Position lies inside the RPC call header */
	int placement_chunk;          /* calls: read list index of the chunk's first segment; replies: Write chunk, -1 the Reply chunk */
	uint32_t placement_pos;       /* calls: its Position; replies: where its data was put */
	bool placement_splits;        /* calls: the Position lies inside an argument that starts at placement_item */
	size_t placement_item;        /* where the RPC header ends, the split argument starts, or the decode stopped */
};

/* Lowercase hex SHA-256 and its NUL. */
#define RR_SHA256_HEX_LEN 65
void rr_sha256_hex(const void *data, size_t len, char out[RR_SHA256_HEX_LEN]);
/* The SHA-256 of the message's payload: what --dump prints and the agent's verify compares. */
void rr_message_sha256(const struct rr_message *m, char out[RR_SHA256_HEX_LEN]);

/* The check stage's settings. */
struct rr_check_opts {
	enum rr_profile profile;
	bool enabled[RR_RULE_COUNT];  /* rr_check_default_opts(): every rule */
	uint32_t inline_threshold;    /* 0: RR_DEFAULT_INLINE_THRESHOLD unless the handshake says */
	uint32_t credit_slack;        /* calls beyond the grant forgiven (merged captures; default 0) */
};

void rr_check_default_opts(struct rr_check_opts *o);

typedef void (*rr_message_fn)(void *ctx, const struct rr_message *msg);

struct rr_engine_stats {
	uint64_t events;
	uint64_t messages;
	uint64_t calls, replies;
	uint64_t incomplete;
	uint64_t rdma_unmatched;      /* Read/Write bytes that matched no advertised segment */
	uint64_t not_rpcrdma;         /* Sends that were not RPC-over-RDMA */
	uint64_t dup_packets;
	uint64_t connections;
	uint64_t conn_ids;            /* connection numbers handed out, in order (two flows that pair keep the older) */
};

struct rr_engine;

void rr_engine_default_limits(struct rr_engine_limits *lim);
/* limits may be NULL for the defaults. */
struct rr_engine *rr_engine_new(const struct rr_engine_limits *limits,
				rr_message_fn fn, void *ctx, const struct rr_diag_sink *diag);
void rr_engine_feed(struct rr_engine *eng, const struct rr_event *ev);
/*
 * No event came, yet the capture's clock reads ts_usec (a live input idle
 * for a while): findings held for a loss to show (RR-003, RR-102, ...) that
 * the time bound releases are told now, as the next event would tell them.
 */
void rr_engine_clock(struct rr_engine *eng, uint64_t ts_usec);
/* End of input: deliver what is still pending (marked incomplete). */
void rr_engine_finish(struct rr_engine *eng);
const struct rr_engine_stats *rr_engine_stats(const struct rr_engine *eng);
/* Before the first event; without it every rule runs with the defaults. */
void rr_engine_set_check_opts(struct rr_engine *eng, const struct rr_check_opts *o);
/* Why a check was skipped instead of run. */
enum rr_skip_reason {
	RR_SKIP_NOT_CAPTURED,         /* the bytes it needs were cut by the snaplen or lost */
	RR_SKIP_NO_THRESHOLD,         /* the inline threshold it compares with is unknown */
	RR_SKIP_STATE_LIMIT,          /* the state it needs was dropped at a memory bound */
	RR_SKIP_NOT_UNDERSTOOD,       /* the ULP walker stopped at something it does not know or decode */
	RR_SKIP_UNDECODED,            /* every byte was captured, but its chunks do not rebuild it or its RPC header does not decode */
	RR_SKIP__COUNT
};
const char *rr_skip_reason_text(enum rr_skip_reason why);
/* Checks the check stage skipped, in all and for one reason. */
uint64_t rr_engine_checks_skipped(const struct rr_engine *eng);
uint64_t rr_engine_checks_skipped_for(const struct rr_engine *eng, enum rr_skip_reason why);
void rr_engine_free(struct rr_engine *eng);

/*
 * Every Send the engine judged RPC-over-RDMA, reported when its last packet
 * is in and before any message is rebuilt from it: the transport header as
 * the engine decoded it, for a reporter that draws the header of each Send
 * (the plugin) without decoding anything itself.  A call's message record
 * follows later when it has read chunks; a rejected Send gets none.
 */
struct rr_send_report {
	uint64_t frame;               /* first frame of the Send */
	const uint64_t *frames;       /* every frame of it, ascending */
	size_t n_frames;
	uint32_t conn_id;
	const struct rr_hdr *hdr;     /* decoded as far as status allowed */
	enum rr_hdr_status status;
	bool is_call;                 /* the engine's classification */
	bool rejected;                /* not rebuilt (no message record follows) */
	const uint8_t *data;          /* the Send's bytes, valid during the call */
	size_t len;
	size_t captured;              /* of len; the snaplen cut the rest */
	uint32_t outstanding;         /* calls: outstanding in its direction with it (check stage) */
};
typedef void (*rr_send_fn)(void *ctx, const struct rr_send_report *s);
void rr_engine_set_send_fn(struct rr_engine *eng, rr_send_fn fn, void *ctx);

/*
 * Every RDMA operation's packet on a connection that carried RPC-over-RDMA,
 * reported as the engine takes it: what it carried (a Write or a Read
 * Response: bytes placed) or asked (a Read Request), and which chunk
 * segment of which call that was.  A packet whose range spans several
 * segments is reported once per segment.  For a reporter that labels each
 * frame (the plugin) without knowing the chunk rules itself.
 */
enum rr_rdma_carry {
	RR_CARRY_WRITE,               /* RDMA Write: bytes placed in the requester's memory */
	RR_CARRY_READ_REQ,            /* RDMA Read Request: bytes asked of the requester's memory */
	RR_CARRY_READ_RESP,           /* RDMA Read Response: bytes pulled from it */
};
struct rr_rdma_report {
	uint64_t frame;               /* the packet (an iWARP FPDU's last frame) */
	const uint64_t *more_frames;  /* other frames that carried it (an FPDU across TCP segments) */
	uint32_t n_more_frames;
	enum rr_rdma_carry op;
	uint32_t conn_id;
	uint32_t handle;              /* R_Key or STag the operation named */
	bool hit;                     /* the range lies in a segment a call in the capture advertised */
	/* When hit: */
	uint32_t xid;                 /* the call that advertised the segment */
	enum rr_chunk_role role;      /* RR_ROLE_READ, RR_ROLE_WRITE or RR_ROLE_REPLY */
	uint32_t chunk;               /* RR_ROLE_WRITE: write chunk index; RR_ROLE_READ: index in the read list */
	uint32_t seg;                 /* the segment's index in its chunk */
	uint32_t seg_length;          /* its advertised length */
	uint64_t seg_offset;          /* where this packet's bytes start in the segment */
	uint64_t len;                 /* bytes it carried (a Read Request: asked for) in that segment */
};
typedef void (*rr_rdma_fn)(void *ctx, const struct rr_rdma_report *r);
void rr_engine_set_rdma_fn(struct rr_engine *eng, rr_rdma_fn fn, void *ctx);

#endif
