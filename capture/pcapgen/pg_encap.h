/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capture point: a switch port mirror (ERSPAN, GRE) or an overlay
 * (VXLAN) that wraps every Ethernet frame the scenario sends, as a
 * collector behind such a switch records it.  The wrapped frame itself is
 * left as it is, so the ground truth does not change.
 */
#ifndef PG_ENCAP_H
#define PG_ENCAP_H

#include "pg_common.h"

enum pg_encap_kind { PG_ENCAP_NONE, PG_ENCAP_ERSPAN2, PG_ENCAP_ERSPAN3, PG_ENCAP_GRE,
		     PG_ENCAP_VXLAN };

typedef struct {
	int kind;
	bool ipv6;                /* outer IPv6 instead of IPv4 */
	bool vlan;                /* an 802.1Q tag on the outer Ethernet header */
	bool csum, key, seq;      /* gre: the optional fields of RFC 2784 / RFC 2890 */
	bool subhdr;              /* erspan3: the platform specific subheader (O bit) */
} pg_encap;

/* "KIND[,OPTION...]": KIND erspan2|erspan3|gre|vxlan; options ipv6, vlan,
 * and csum, key, seq (gre) or subhdr (erspan3).  False with *err set. */
bool pg_encap_parse(const char *text, pg_encap *e, char **err);
/* Bytes the wrapping puts before every frame. */
size_t pg_encap_overhead(const pg_encap *e);
/*
 * Append the outer headers and then the frame (all len bytes, as on the
 * wire) to out.  n numbers the frame (GRE sequence number), usec is its
 * time (ERSPAN type III timestamp).
 */
void pg_encap_wrap(const pg_encap *e, uint32_t n, uint64_t usec, const uint8_t *frame,
		   size_t len, GByteArray *out);

#endif
