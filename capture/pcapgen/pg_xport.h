/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Transport-independent description of the RDMA work one exchange does,
 * and the interface the IB/RoCE and iWARP framers implement. */
#ifndef PG_XPORT_H
#define PG_XPORT_H

#include "pg_cap.h"
#include "pg_net.h"

enum pg_opkind { PG_OP_SEND, PG_OP_WRITE, PG_OP_READ };
enum { PG_REFUSE_NONE, PG_REFUSE_NO_RECEIVE, PG_REFUSE_TOO_LONG };

typedef struct {
	int kind;
	const uint8_t *data;  /* Send/Write payload; Read: the bytes the read returns */
	uint32_t len;
	uint32_t rkey;        /* Write: target; Read: remote source */
	uint64_t va;
	uint32_t sink_stag;   /* Read: the requester's local sink (iWARP names it) */
	uint64_t sink_to;
	bool invalidate;      /* Send with Invalidate of inv_rkey */
	uint32_t inv_rkey;
	bool solicited;
	int owner;            /* truth message id, or -1 */
	bool dup;             /* the network delivers it twice (retransmission) */
	bool reorder;         /* iWARP: swap two of its TCP segments */
	uint32_t bad_crc;     /* XOR into the ICRC / MPA CRC of its first packet */
	/* if set and still 0: the framer stores the number of the first frame
	 * that carried the operation (IB: its FIRST/ONLY packet or the Read
	 * Request; iWARP: the first TCP segment holding a byte of its FPDUs) */
	uint32_t *frame_out;
	/* Send: the receiver refuses it (PG_REFUSE_*), and the frame of the
	 * refusal goes to refused_frame_out. No Receive posted: IB/RoCE answer
	 * its first packet with an RNR NAK of timer code rnr_timer and the
	 * sender sends it again; iWARP sends a Terminate "no buffer available".
	 * Longer than the Receive posted: IB/RoCE answer with a NAK "remote
	 * invalid request", iWARP with a Terminate "DDP message too long for
	 * available buffer"; the Send is not sent again */
	uint32_t *refused_frame_out;
	uint8_t refuse;
	uint8_t rnr_timer;
} pg_op;

/* Connection-level parameters both framers need. */
typedef struct {
	const pg_scenario *s;
	pg_cap *cap;
	pg_net net;
	uint64_t seed;
	/* RFC 8797 private message */
	uint32_t inline_max;
	bool remote_inv;
} pg_xctx;

typedef struct pg_xport pg_xport;
struct pg_xport {
	/* connection setup (CM or TCP+MPA), if the scenario wants it */
	void (*connect)(pg_xport *x);
	/* ops posted back to back by one side; the framer adds the peer's
	 * acknowledgements, read responses and TCP ACKs */
	void (*burst)(pg_xport *x, int from, const pg_op *ops, size_t n);
	void (*terminate)(pg_xport *x, int from);
	void (*disconnect)(pg_xport *x);
	void (*conninfo)(pg_xport *x, pg_conninfo *ci);
	void (*destroy)(pg_xport *x);
	pg_xctx *ctx;
};

pg_xport *pg_ib_new(pg_xctx *ctx);
pg_xport *pg_iwarp_new(pg_xctx *ctx);

/* RFC 8797 RPC-over-RDMA CM private message (8 bytes). */
void pg_cm_private(GByteArray *b, const pg_xctx *ctx);

#endif
