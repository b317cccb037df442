/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfer_int.h - the transfer layer's own state, shared by its files only:
 * xfer.c (RDMA Writes, Read Requests and Responses, the dispatch),
 * xfer_send.c (Sends put together from their packets) and xfer_seq.c (IB
 * PSN duplicates and the gaps that show lost packets).
 */
#ifndef RPCRDMA_XFER_INT_H
#define RPCRDMA_XFER_INT_H

#include "budget.h"
#include "frames.h"
#include "segstore.h"
#include "xfer.h"

#define RR_PSN_MASK 0xFFFFFFu
#define RR_PSN_HALF 0x800000u   /* a distance this far or more runs backward */

/* 24-bit PSN arithmetic: distance from a to b going forward. */
static inline uint32_t rr_psn_dist(uint32_t from, uint32_t to)
{
	return (to - from) & RR_PSN_MASK;
}
/* b is after a (within half the PSN space). */
static inline bool rr_psn_after(uint32_t a, uint32_t b)
{
	uint32_t d = rr_psn_dist(a, b);

	return d != 0 && d < RR_PSN_HALF;
}

/* A Send being put together from FIRST/MIDDLE/LAST packets. */
struct rr_send_asm {
	bool active;
	uint32_t next_psn;        /* IB */
	uint32_t msn;             /* iWARP */
	bool saw_last;
	GByteArray *buf;
	GArray *frames;           /* uint64_t */
	GArray *cover;            /* iWARP: struct rr_range of bytes seen */
	bool truncated;
	uint64_t cut_at;          /* truncated: where the first cut starts */
	bool invalidate;
	uint32_t inv_rkey;
	uint64_t ts_usec;         /* capture time of its first packet */
};

/* An RDMA Write message being received (IB places MIDDLE/LAST by PSN). */
struct rr_write_asm {
	bool active;
	uint32_t first_psn;
	uint32_t rkey;
	uint64_t va;
	uint32_t dma_len;
	uint32_t pmtu;
};

/* An RDMA Read Request seen on the flow of the side that reads. */
struct rr_read_req {
	uint64_t frame;
	uint32_t psn;             /* IB */
	uint32_t rkey;            /* source R_Key / STag */
	uint64_t va;              /* source VA / TO */
	uint32_t len;
	uint32_t sink_stag;       /* iWARP */
	uint64_t sink_to;
	uint32_t pmtu;            /* IB: learnt from the first response */
	uint32_t resp_next;       /* IB: the response packet expected next (PSN distance from psn) */
};

#define RR_MAX_READ_REQS 1024

/*
 * An iWARP Read Response seen before its Read Request: when one direction's
 * MPA framing is found late, or the capture interleaved the directions out
 * of order.  Held (bounded) until the request shows up.
 */
struct rr_early_resp {
	struct rr_event ev;       /* data and more_frames point into the copies below */
	uint8_t *data;
	uint64_t *frames;
};

#define RR_MAX_EARLY_RESP 256

/* What the transfer layer keeps of one flow (reached from it by rr_flow.xfer). */
struct rr_xfer_flow {
	/*
	 * IB: the request stream's PSNs (xfer_seq.c).  Every PSN before
	 * req_next was seen or counted lost; a Read Request takes one PSN per
	 * response packet, and req_slack more may belong to it while the PMTU
	 * is unknown.  The latest hole counted lost is remembered so that a
	 * packet filling it late (a retransmission seen by the receiver, an ACK
	 * captured before its request) is taken, not judged a duplicate.
	 */
	bool req_psn_valid;
	uint32_t req_last_psn;    /* the newest request packet, for duplicates */
	uint32_t req_next;
	uint32_t req_slack;
	uint32_t hole_start, hole_len;
	uint64_t hole_frame;      /* where the latest hole showed; 0 once it was told (CAP-PSN-GAP) */
	uint32_t cm_psn[2];       /* the handshake's starting PSNs, until the first packet */
	unsigned n_cm_psn;
	uint32_t pmtu;            /* IB: learnt from full-size packets */

	struct rr_send_asm send;          /* IB */
	GHashTable *iw_sends;             /* iWARP: msn -> struct rr_send_asm* */
	struct rr_write_asm write;        /* IB */
	GQueue read_reqs;                 /* struct rr_read_req*, newest last */
	GQueue early_resps;               /* iWARP: struct rr_early_resp*, oldest first */
	GPtrArray *unmatched_keys;        /* rkeys already reported unmatched (bounded) */
};

/* An IB CM REQ's sender and its first PSN, until the REP. */
struct rr_cm_start {
	bool used;
	struct rr_addr addr;
	uint32_t qpn;
	uint32_t psn;
};

#define RR_CM_STARTS 16

/* What the transfer layer keeps of the engine (rr_engine.xfer). */
struct rr_xfer {
	struct rr_send_done done; /* the Send the current event completed */
	uint64_t psn_gaps;        /* IB/RoCE: PSN jumps seen (packets the capture lost) */
	struct rr_cm_start req_start[RR_CM_STARTS];   /* xfer_seq.c's, a ring */
	unsigned next_start;
};

/* The flow's transfer state, made on first use. */
static inline struct rr_xfer_flow *rr_xf(struct rr_flow *f)
{
	if (!f->xfer)
		f->xfer = g_new0(struct rr_xfer_flow, 1);
	return f->xfer;
}

/* xfer_seq.c: is this request-stream packet a duplicate (else: its PSN is taken, gaps counted)? */
bool rr_xfer_ib_duplicate(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev);

/* xfer_seq.c: a Read Response packet of r (on reader's flow) came on f: packets it skipped were lost. */
void rr_xfer_read_resp_seq(struct rr_engine *eng, struct rr_flow *f, struct rr_flow *reader, struct rr_read_req *r,
			   const struct rr_event *ev);
/* xfer_seq.c: the Read Request at psn on reader's stream took n PSNs (its response showed). */
void rr_xfer_read_took(struct rr_flow *reader, uint32_t psn, uint32_t n);
/* The flow's latest PSN hole, if no late packet filled it, told as lost (CAP-PSN-GAP): at its end. */
void rr_xfer_tell_hole(struct rr_engine *eng, struct rr_flow *f);

/* xfer_send.c: one Send packet (IB by PSN, iWARP by MSN and offset). */
void rr_xfer_ib_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev);
void rr_xfer_iw_send(struct rr_engine *eng, struct rr_flow *f, const struct rr_event *ev);
/* Forget the flow's partial Sends, giving their bytes back to the budget. */
void rr_xfer_sends_reset(struct rr_engine *eng, struct rr_xfer_flow *x);
/* The engine is going away: free them without giving budget back. */
void rr_xfer_sends_free(struct rr_xfer_flow *x);

#endif
