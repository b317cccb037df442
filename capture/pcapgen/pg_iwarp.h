/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iWARP framer internals shared by pg_iwarp.c (data transfer) and
 * pg_iwarp_conn.c (TCP and MPA connection setup). */
#ifndef PG_IWARP_H
#define PG_IWARP_H

#include "pg_xport.h"

enum { RDMAP_WRITE = 0, RDMAP_READ_REQ = 1, RDMAP_READ_RESP = 2, RDMAP_SEND = 3,
       RDMAP_SEND_INV = 4, RDMAP_SEND_SE = 5, RDMAP_SEND_SE_INV = 6, RDMAP_TERMINATE = 7 };
enum { QN_SEND = 0, QN_READ = 1, QN_TERM = 2 };

#define MARKER_INTERVAL 512
#define WSCALE 7

typedef struct {
	uint32_t isn, nxt;   /* TCP sequence numbers */
	uint32_t fpdu0;      /* sequence number of the first FPDU: marker origin */
	bool started;
	uint32_t msn[3];     /* next DDP MSN per untagged queue */
	uint16_t port;
} side_t;

typedef struct {
	uint32_t start, end;
	int owner;
	uint32_t *frame_out; /* the op's pg_op.frame_out */
} span_t;

typedef struct {
	pg_xport base;
	side_t side[2];
	uint32_t mss, ulpdu_max;
	bool crc, markers, aligned;
	GByteArray *stream;   /* bytes of the burst being built */
	GArray *spans;        /* span_t: FPDU extents with their owners */
	GArray *dup_at;       /* uint32_t stream offsets whose segment is retransmitted */
	GArray *reorder_at;   /* uint32_t stream offsets whose segment is swapped */
	GByteArray *frame, *ulpdu;
	uint32_t *cur_frame_out; /* frame_out of the op whose FPDUs are being added */
	char name[160], client[64], server[64];
} pg_iw;

uint32_t pg_iw_tcp_emit(pg_iw *w, int from, uint32_t seq, uint8_t flags, const uint8_t *data,
			size_t len, const uint8_t *opts, size_t optlen, const int *owners,
			size_t nown);
void pg_iw_pure_ack(pg_iw *w, int from);
void pg_iw_burst(pg_xport *x, int from, const pg_op *ops, size_t n);
void pg_iw_terminate(pg_xport *x, int from);

#endif
