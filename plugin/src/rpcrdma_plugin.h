/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rpcrdma_plugin.h - the plugin's modules and what they share.
 *
 *   packet-rpcrdma.c  registration: fields, expert infos, preferences, the
 *                     heuristics that claim frames, the postdissector
 *   feed.c            the one path into the engine (first pass only) and
 *                     what is kept per frame in file scope for later visits
 *   draw.c            the tree of one frame, from what feed.c kept, with
 *     draw_hdr.c        a Send's transport header
 *     draw_msg.c        a rebuilt message, handed to Wireshark's RPC dissector
 *     draw_finding.c    a finding: tree items and an expert info
 *   stats.c           the `rpcrdma,stat` report and the statistics tree
 *   srt.c             the Service Response Time table
 *   conv.c            the conversation table and conversation filter
 *   flow.c            the Flow Graph (sequence analysis)
 *
 * Nothing here decodes RPC-over-RDMA: the engine does (analyzer/), and
 * the plugin draws what the engine reported.
 */
#ifndef RRP_PLUGIN_H
#define RRP_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include <epan/packet.h>

#include "ws_compat.h"

#include "rpcrdma/diag.h"
#include "rpcrdma/engine.h"

void rrp_register(void);
void rrp_handoff(void);

/* ---- feed.c ---- */

struct rrp_finding {
	enum rr_rule_id id;
	enum rr_severity severity;
	uint32_t frame;               /* 0: the capture as a whole (shown at the frame it was raised) */
	char *text;
	uint32_t *evidence;
	unsigned n_evidence;
	bool has_xid;
	uint32_t xid;
	uint32_t conn_id;
};

struct rrp_send {
	uint32_t first, last;         /* its first and last packet */
	uint32_t *frames;
	unsigned n_frames;
	uint32_t conn_id;
	uint8_t *hdr_bytes;           /* the bytes the header decode needs, or the Send's first 512 */
	unsigned n_hdr_bytes;
	uint32_t len, captured;       /* of the whole Send */
	enum rr_hdr_status status;
	bool is_call, rejected;
	uint32_t xid, credit, proc, hdr_len;
	uint32_t outstanding;
};

/* One chunk segment of a message (the engine's description), and the frames that carried its bytes. */
struct rrp_seg {
	struct rr_msg_seg s;
	uint32_t *frames;
	unsigned n_frames;
};

/*
 * A message the engine rebuilt: its view (struct rr_msg_view, kept by
 * value), copies of what the record only lent (name, payload, frames,
 * segments) and what the plugin adds (where it was rebuilt, its peer).
 */
struct rrp_msg {
	struct rr_msg_view v;
	uint32_t rebuilt_in;          /* the frame whose dissection delivered it */
	uint32_t conv_id;             /* what RPC's call/reply matching is keyed on */
	char *conn_name;
	uint8_t *payload;
	uint32_t payload_len;
	uint32_t payload_whole;       /* bytes from the start the capture held (the rest were made up) */
	uint32_t *frames;
	unsigned n_frames;
	uint32_t *seg_lens;           /* the lengths of the chunk segments its own header advertised */
	unsigned n_seg_lens;
	struct rrp_seg *segs;         /* calls: its read segments; replies: the call's write/reply segments */
	unsigned n_segs;
	uint32_t outstanding;         /* calls: outstanding in its direction with it */
	struct rrp_msg *peer;         /* the reply of a call, the call of a reply */
};

/*
 * What one frame carried of an RDMA operation (the engine's
 * rr_rdma_report): a Write or Read Response placing bytes in a chunk
 * segment, or a Read Request asking for them.
 */
struct rrp_carry {
	enum rr_rdma_carry op;
	uint32_t conn_id;
	uint32_t handle;
	bool hit;                     /* it fell in a segment a call in the capture advertised */
	uint32_t xid;                 /* hit: that call's XID */
	enum rr_chunk_role role;      /* hit: RR_ROLE_READ, RR_ROLE_WRITE or RR_ROLE_REPLY */
	uint32_t chunk, seg, seg_length;
	uint64_t seg_offset, len;
	const struct rrp_msg *call;   /* hit: the call's message once rebuilt, else NULL */
	uint32_t last_frame;          /* the frame that completed it (an FPDU across TCP segments) */
};

struct rrp_frame {
	uint32_t num;
	bool iwarp_tcp;               /* its TCP payload is iWARP the decoder found without Wireshark */
	wmem_array_t *sends_done;     /* struct rrp_send*: Sends whose last packet it is */
	wmem_array_t *part_sends;     /* Sends it is an earlier packet of */
	wmem_array_t *msgs;           /* struct rrp_msg*: messages rebuilt in it */
	wmem_array_t *part_msgs;      /* messages it carried bytes of */
	wmem_array_t *findings;       /* struct rrp_finding* naming it */
	wmem_array_t *carries;        /* struct rrp_carry*: RDMA operations it carried */
};

/* Preferences feed.c applies when a file is opened. */
struct rrp_prefs {
	rrp_bool builtin;             /* give RPC-over-RDMA back to the built-in dissector */
	rrp_bool checks;
	unsigned profile;             /* enum rr_profile */
	unsigned inline_threshold;
	unsigned iwarp_port;
};
extern struct rrp_prefs rrp_prefs;

/* A file opens; decode_as_port: the TCP port Decode As marked iWARP (0: none). */
void rrp_feed_init(unsigned decode_as_port);
void rrp_feed_cleanup(void);
/* Feed this frame to the engine if this is its first pass; idempotent per frame. */
void rrp_feed(packet_info *pinfo);
/* What the engine said about a frame; NULL when nothing. */
const struct rrp_frame *rrp_frame_get(uint32_t num);
/* The frame is RPC-over-RDMA traffic (a claim for the heuristics). */
bool rrp_frame_claimed(const struct rrp_frame *fr);
uint64_t rrp_checks_skipped(void);
/* The engine named the message's RPC operation (rr_msg_view.op is "?" when it could not). */
static inline bool rrp_op_known(const struct rrp_msg *m)
{
	return m && m->v.op[0] && !(m->v.op[0] == '?' && !m->v.op[1]);
}
/* The latest call rebuilt with this XID; NULL when none was. */
const struct rrp_msg *rrp_call_of_xid(uint32_t xid);
/* The message whose Send starts at send_frame, once rebuilt; NULL before. */
const struct rrp_msg *rrp_msg_of_send(uint32_t send_frame);

/* Each element v (of type T) of a wmem_array_t of pointers; the array may be NULL. */
#define FOR_EACH(arr, T, v) \
	for (unsigned i_##v = 0; (arr) && i_##v < wmem_array_get_count(arr); i_##v++) \
		for (T v = *(T *)wmem_array_index((arr), i_##v); v; v = NULL)

/* ---- draw.c, draw_hdr.c, draw_msg.c, draw_finding.c ---- */

extern int proto_rpcrdma;
extern int rrp_tap;          /* "rpcrdma": one struct rrp_tap_info per message drawn */
extern int rrp_frame_tap;    /* "rpcrdma.frame": one struct rrp_frame_tap per frame drawn */
/* payload_offset: where the heuristic saw this frame's RDMA payload start (-1: not seen). */
void rrp_draw(tvbuff_t *frame_tvb, packet_info *pinfo, proto_tree *tree, const struct rrp_frame *fr,
	      int payload_offset, int payload_len);
/* "read[i]", "pzrc[i]" (i: the read list index), "write[i]" (the write list index), or "reply" */
void rrp_role_text(char *buf, size_t n, enum rr_chunk_role role, uint32_t chunk);
void rrp_draw_send(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *tree, const struct rrp_send *s, int poff,
		   int plen);
/* nth: the message's place among those the frame hands to RPC (their Info texts are joined). */
void rrp_draw_message(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *rt, proto_tree *tree,
		      const struct rrp_frame *fr, const struct rrp_msg *m, int poff, int plen, unsigned nth);
/* draw_carry.c: the RDMA operations a frame carried (fields rpcrdma.rdma.*). */
void rrp_register_carry_fields(int proto);
/* "RDMA Write", "RDMA Read Request", "RDMA Read Response" */
const char *rrp_carry_op_name(enum rr_rdma_carry op);
void rrp_draw_carry(tvbuff_t *ftvb, packet_info *pinfo, proto_tree *rt, const struct rrp_carry *c, bool set_info);
void rrp_draw_finding(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const struct rrp_finding *f);

/* ---- stats.c ---- */

/* What the "rpcrdma" tap delivers: one per message drawn in a frame. */
struct rrp_tap_info {
	const struct rrp_msg *msg;
};
/* What the "rpcrdma.frame" tap delivers: one per frame drawn (Sends, RDMA operations, messages, findings). */
struct rrp_frame_tap {
	const struct rrp_frame *fr;
};
void rrp_stats_register(void);

/* ---- srt.c, conv.c, flow.c (registered by rrp_stats_register) ---- */

/*
 * A reply's response time, from its call's Send to its own, as ulb-lint
 * --summary counts it: the engine saw the call and its time.  false for
 * calls and for replies whose call is unknown.
 */
static inline bool rrp_reply_time(const struct rrp_msg *m, uint64_t *us)
{
	const struct rr_msg_view *v = &m->v;

	if (v->dir != RR_DIR_REPLY || !v->has_call || !v->call_ts_usec || v->ts_usec < v->call_ts_usec)
		return false;
	*us = v->ts_usec - v->call_ts_usec;
	return true;
}
void rrp_srt_register(void);
void rrp_conv_register(void);
void rrp_flow_register(void);

/* ---- expert.c, draw_frag.c ---- */

#include <epan/expert.h>

#include "rpcrdma/rules.h"

/* One expert info per rule of the catalogue and severity it can take: `rpcrdma.rule.rr_029`. */
void rrp_expert_register(int proto);
/* The expert info of a finding of this rule at this severity; NULL for a severity the rule never takes. */
expert_field *rrp_expert_for(enum rr_rule_id id, enum rr_severity sev);
/* The frames that carried a message, in Wireshark's reassembly idiom: one child per frame, with its bytes. */
void rrp_draw_fragments(tvbuff_t *at, proto_tree *mtree, const struct rrp_msg *m);

#endif
