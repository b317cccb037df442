/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event.h - what a transport decoder tells the engine.
 *
 * A transport decoder (pcap link layers + IB/RoCE or iWARP, or the Wireshark
 * plugin) turns frames into a stream of struct rr_event, in capture order,
 * and hands each one to rr_engine_feed().  The engine knows nothing of link
 * layers; the decoders know nothing of RPC-over-RDMA.
 *
 * Lifetime: everything an event points at (data, private data) needs to live
 * only until rr_engine_feed() returns; the engine copies what it keeps.
 *
 * Addressing.  An event names the one-way flow it travelled on, never a
 * connection: pairing flows into connections is the engine's job (conn.c).
 *  - IB:      src/dst are LIDs (RR_ADDR_LID); dst_qp is the BTH DestQP.
 *  - RoCEv1:  src/dst are the GRH GIDs (RR_ADDR_IPV6); dst_qp from the BTH.
 *  - RoCEv2:  src/dst are the IP addresses (IPv4 or IPv6); dst_qp from BTH.
 *  - iWARP:   src/dst are IP addresses with TCP ports; dst_qp is 0.
 *
 * Sequence and placement.
 *  - IB/RoCE: psn is the 24-bit BTH PSN of the packet. Packets of a
 *    multi-packet message are FIRST/MIDDLE.../LAST with consecutive PSNs
 *    (modulo 2^24); has_offset is false and the engine places bytes from
 *    the PSN distance to the FIRST packet times its payload length.
 *  - iWARP: untagged messages (Send*, Read Request, Terminate) set msn (DDP
 *    MSN) and offset = DDP MO; tagged ones (Write, Read Response) set
 *    rkey = STag and offset = TO of this segment.  has_offset is true.
 *    iWARP has no per-packet FIRST flag: frag is RR_FRAG_LAST on the segment
 *    with the DDP Last bit and RR_FRAG_MIDDLE otherwise (offset 0 tells the
 *    start); ONLY when a message is one segment.
 *
 * Truncation: caplen < wirelen means the capture cut the payload (snaplen).
 * data holds caplen bytes.  It is not a protocol error.
 */
#ifndef RPCRDMA_EVENT_H
#define RPCRDMA_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rr_transport {
	RR_TRANSPORT_IB = 1,
	RR_TRANSPORT_ROCEV1,
	RR_TRANSPORT_ROCEV2,
	RR_TRANSPORT_IWARP,
};

enum rr_addr_family {
	RR_ADDR_NONE = 0,
	RR_ADDR_LID,      /* 16-bit IB LID in bytes[0..1] */
	RR_ADDR_IPV4,     /* bytes[0..3] */
	RR_ADDR_IPV6,     /* bytes[0..15]; also IB GIDs */
};

struct rr_addr {
	uint8_t family;   /* enum rr_addr_family */
	uint8_t bytes[16];
	uint16_t port;    /* TCP port for iWARP, else 0 */
};

struct rr_flow_key {
	uint8_t transport;  /* enum rr_transport */
	struct rr_addr src;
	struct rr_addr dst;
	uint32_t dst_qp;    /* IB/RoCE BTH DestQP; 0 for iWARP */
};

enum rr_event_kind {
	RR_EV_SEND = 1,       /* Send, Send-SE */
	RR_EV_SEND_INV,       /* Send with Invalidate (inv_rkey valid) */
	RR_EV_WRITE,          /* RDMA Write (RETH on FIRST/ONLY for IB) */
	RR_EV_READ_REQ,       /* RDMA Read Request */
	RR_EV_READ_RESP,      /* RDMA Read Response */
	RR_EV_ACK,            /* IB ACK/NAK (aeth valid); helps pairing only */
	RR_EV_CM,             /* connection setup / teardown (see cm_kind) */
	RR_EV_TERMINATE,      /* iWARP Terminate */
	/*
	 * A new capture starts here (time went backwards: files joined end to
	 * end).  Everything known about connections ends as at the end of a
	 * capture; only frame and ts are set.
	 */
	RR_EV_CAPTURE_PART,
};

enum rr_frag {
	RR_FRAG_ONLY = 0,
	RR_FRAG_FIRST,
	RR_FRAG_MIDDLE,
	RR_FRAG_LAST,
};

enum rr_cm_kind {
	RR_CM_REQ = 1,    /* IB CM REQ / iWARP MPA Request */
	RR_CM_REP,        /* IB CM REP / iWARP MPA Reply (accepted) */
	RR_CM_RTU,
	RR_CM_REJ,        /* IB CM REJ / MPA Reply with Reject bit */
	RR_CM_DREQ,       /* IB CM DREQ / TCP FIN */
	RR_CM_DREP,
	RR_CM_RESET,      /* TCP RST */
};

struct rr_cm_info {
	uint8_t kind;             /* enum rr_cm_kind */
	uint32_t local_comm_id;   /* IB CM */
	uint32_t remote_comm_id;  /* IB CM */
	uint32_t local_qpn;       /* IB CM REQ/REP: the sender's QPN */
	uint32_t start_psn;       /* IB CM REQ/REP */
	uint64_t service_id;      /* IB CM REQ */
	uint8_t responder_resources, initiator_depth;
	/* iWARP MPA */
	uint8_t mpa_rev;
	bool mpa_markers;         /* M bit of this side */
	bool mpa_crc;             /* C bit of this side */
	/*
	 * For IB CM the endpoints of the RDMA connection are not the flow
	 * of the MAD (which goes to QP1): src/dst of the event's flow are
	 * the two ports, and local_qpn names the sender's QP.
	 */
	const uint8_t *private_data;
	uint32_t private_len;     /* captured bytes of it */
	bool private_cut;         /* the snaplen cut the private data short */
};

struct rr_event {
	uint8_t kind;             /* enum rr_event_kind */
	uint8_t frag;             /* enum rr_frag */
	/*
	 * Bytes of this flow before this event were not captured (snaplen, a
	 * TCP gap): the messages they held are unknown, so checks that rest on
	 * the flow's history cannot be trusted (iWARP; IB/RoCE cut frames
	 * arrive as events with caplen < wirelen instead).
	 */
	bool after_loss;
	uint64_t lost_bytes;      /* iWARP: bytes of this flow lost since its last event (summary counts) */
	uint64_t frame;           /* 1-based frame number in the capture */
	uint64_t ts_usec;         /* capture timestamp, microseconds */
	struct rr_flow_key flow;

	uint32_t psn;             /* IB/RoCE BTH PSN */
	uint32_t msn;             /* iWARP untagged MSN */
	bool has_offset;          /* iWARP: offset is MO or TO */
	uint64_t offset;

	/* RETH (IB Write FIRST/ONLY, Read Request), iWARP tagged STag,
	 * iWARP Read Request source STag/TO/size. */
	bool has_reth;
	uint32_t rkey;
	uint64_t va;
	uint32_t dma_len;

	/* iWARP Read Request: where the responses will land. */
	uint32_t sink_stag;
	uint64_t sink_to;

	uint32_t inv_rkey;        /* RR_EV_SEND_INV */
	bool has_imm;
	uint32_t imm;

	uint32_t aeth;            /* RR_EV_ACK: syndrome<<24 | MSN */

	/*
	 * Other frames that carried bytes of this event's payload, besides
	 * frame: an iWARP FPDU split across TCP segments, or bytes held back
	 * until MPA framing was found.  NULL/0 for single-frame events.
	 */
	const uint64_t *more_frames;
	uint32_t n_more_frames;

	const uint8_t *data;      /* payload after all transport headers */
	uint32_t caplen;          /* bytes in data */
	uint32_t wirelen;         /* bytes the payload had on the wire */

	struct rr_cm_info cm;     /* RR_EV_CM */
};

#endif
