/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * builder.h - hand-built frames for the decoder tests, and a collector
 * for what the decoder says.
 *
 * The CRCs here are bitwise reference implementations, independent of the
 * table-driven ones in analyzer/decode/crc.c; they are themselves checked
 * against published vectors (RFC 3720 B.4, the CRC-32 check value).
 */
#ifndef RR_TEST_BUILDER_H
#define RR_TEST_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/capture.h>

#define PK_MAX (1u << 17)

struct pk {
	uint8_t b[PK_MAX];
	size_t n;
};

void pk_u8(struct pk *p, uint8_t v);
void pk_be16(struct pk *p, uint16_t v);
void pk_be24(struct pk *p, uint32_t v);
void pk_be32(struct pk *p, uint32_t v);
void pk_be64(struct pk *p, uint64_t v);
void pk_le32(struct pk *p, uint32_t v);
void pk_bytes(struct pk *p, const void *d, size_t n);
void pk_fill(struct pk *p, uint8_t v, size_t n);
struct pk *pk_new(void);

uint32_t ref_crc32(const uint8_t *p, size_t n);
uint32_t ref_crc32c(const uint8_t *p, size_t n);

/* IB transport part: BTH, extension headers (raw bytes), payload, pad. */
void ib_bth(struct pk *p, uint8_t opcode, uint8_t pad, uint32_t qp, uint32_t psn);
void ib_payload(struct pk *p, const uint8_t *d, size_t n, uint8_t pad);

struct l2opt {
	int vlan_tags;          /* 0, 1 (802.1Q) or 2 (802.1ad + 802.1Q) */
	uint8_t ttl, tos;       /* IPv4 (0: 64 / 0) */
	uint16_t ipcsum, udpcsum;
	uint32_t flow;          /* IPv6 flow label */
	uint8_t hop;
	bool bad_icrc;
};

/* Ethernet [+ VLAN] + IPv4/IPv6 + UDP 4791 + ibt + ICRC.  Returns length. */
size_t wrap_rocev2(uint8_t *out, int ipver, const struct pk *ibt, const struct l2opt *o);
/* Ethernet 0x8915 + GRH + ibt + ICRC. */
size_t wrap_rocev1(uint8_t *out, const struct pk *ibt);
/* LRH [+ GRH] + ibt + ICRC + VCRC (DLT_INFINIBAND). */
size_t wrap_ib(uint8_t *out, const struct pk *ibt, bool grh, uint16_t slid, uint16_t dlid);

/* Ethernet + IPv4 + TCP with payload. */
size_t tcp_frame(uint8_t *out, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
		 uint32_t seq, uint32_t ack, uint8_t flags, const uint8_t *pl, size_t n);

/* DDP/RDMAP headers (RFC 5040/5041). */
void ddp_untagged(struct pk *p, uint8_t op, bool last, uint32_t inv, uint32_t qn, uint32_t msn,
		  uint32_t mo);
void ddp_tagged(struct pk *p, uint8_t op, bool last, uint32_t stag, uint64_t to);

/* An MPA stream direction being written: FPDUs with optional markers/CRC. */
struct mstream {
	struct pk out;          /* stream bytes */
	bool markers, crc;
	uint64_t base;          /* stream offset (in out) of the first marker */
	bool corrupt_next_crc;
};
void ms_fpdu(struct mstream *ms, const uint8_t *ulpdu, size_t n);

/* Collector. */
#define COL_MAX 512
struct col {
	int n;
	struct rr_event ev[COL_MAX];
	uint8_t *data[COL_MAX];
	uint8_t *pd[COL_MAX];
	int nd;
	int diag[COL_MAX];
	uint64_t dframe[COL_MAX];
	char text[COL_MAX][240];
};
struct tdec {
	struct rr_frame_decoder *d;
	struct col *c;
	uint64_t frame;
};
struct tdec *tdec_new(int dlt, const struct rr_decode_opts *opts);
void tdec_feed(struct tdec *t, const uint8_t *pkt, size_t caplen, size_t wirelen);
void tdec_free(struct tdec *t);
void col_ev(void *ctx, const struct rr_event *ev);
void col_diag(void *ctx, const struct rr_diag *d);
int col_count(const struct col *c, int id);
/* Free the copies and empty the collector. */
void col_reset(struct col *c);
void col_dump(const struct col *c);

#endif
