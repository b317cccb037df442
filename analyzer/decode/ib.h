/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ib.h - InfiniBand transport packets: the three ways they arrive and the
 * ICRC (roce.c), then the BTH on (ib.c).
 */
#ifndef RR_DECODE_IB_H
#define RR_DECODE_IB_H

#include "decode_int.h"
#include "ip.h"

/* roce.c */
void roce_v1(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);
void roce_v2(struct rr_frame_ctx *fx, const struct ip_view *ip, struct rr_cursor *udp_hdr,
	     struct rr_cursor *payload, uint32_t wire);
/* From the LRH on (DLT_INFINIBAND, ERF InfiniBand records). */
void ib_native(struct rr_frame_ctx *fx, struct rr_cursor *cur, uint32_t wire);

/* ib.c: what roce.c found in front of the BTH. */
struct ib_view {
	struct rr_flow_key flow;    /* transport, src, dst filled; dst_qp from BTH */
	const char *what;           /* "RoCEv2", "RoCEv1", "InfiniBand" for sentences */
	struct rr_cursor bth;       /* BTH .. ICRC start, captured part */
	uint32_t wire;              /* BTH .. ICRC start on the wire */
	/*
	 * Its ICRC did not match where others did: a receiver drops such a
	 * packet, and the bytes it shows are not what was sent.  It counts as
	 * an RDMA frame (its CAP-ICRC is told) but makes no event; what it
	 * carried is missing, as if the capture had lost it (a PSN gap).
	 */
	bool damaged;
};
void ib_transport(struct rr_frame_ctx *fx, struct ib_view *ib);

#endif
