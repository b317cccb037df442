/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * l2.h - the layout of the link layers a capture may use, down to the
 * ethertype that names the network header: the one place that knows it,
 * for the decoder (link.c, tunnel.c) and for the first pass of a split
 * capture (hosts.c).
 *
 *   Ethernet (IEEE 802.3): destination, source, then the ethertype at 12;
 *   802.1Q / 802.1ad / pre-standard QinQ tags: a 2-byte TCI, then the next
 *   ethertype, each tag 4 bytes, at most L2_MAX_TAGS of them;
 *   Linux cooked v1 (LINKTYPE_LINUX_SLL): the protocol at 14, 16 bytes;
 *   Linux cooked v2 (LINKTYPE_LINUX_SLL2): the protocol first, 20 bytes.
 */
#ifndef RR_DECODE_L2_H
#define RR_DECODE_L2_H

#include <stdbool.h>
#include <stdint.h>

#include "cursor.h"

#define ETH_P_IP     0x0800
#define ETH_P_IPV6   0x86DD
#define ETH_P_ROCE   0x8915   /* RoCEv1: a GRH follows the Ethernet header */
#define ETH_P_8021Q  0x8100
#define ETH_P_8021AD 0x88A8
#define ETH_P_QINQ1  0x9100   /* pre-standard QinQ outer tag */
#define L2_MAX_TAGS  4        /* more than this is not a real network */

#define L2_ETH_LEN   14
#define L2_SLL_LEN   16
#define L2_SLL2_LEN  20

static inline bool l2_is_tag(uint16_t type)
{
	return type == ETH_P_8021Q || type == ETH_P_8021AD || type == ETH_P_QINQ1;
}

/* The ethertype of an Ethernet header at cur, which is left after it; false: cut short. */
static inline bool l2_ethernet(struct rr_cursor *cur, uint16_t *type)
{
	return rr_skip(cur, 12) && rr_get_be16(cur, type);
}

/* The same of a Linux cooked (SLL) header. */
static inline bool l2_sll(struct rr_cursor *cur, uint16_t *type)
{
	return rr_skip(cur, 14) && rr_get_be16(cur, type);
}

/* The same of a Linux cooked v2 (SLL2) header. */
static inline bool l2_sll2(struct rr_cursor *cur, uint16_t *type)
{
	return rr_get_be16(cur, type) && rr_skip(cur, 18);
}

enum l2_tags {
	L2_TAGS_OK,              /* *type names no tag: the network header is at cur */
	L2_TAGS_TOO_MANY,        /* more than L2_MAX_TAGS */
	L2_TAGS_CUT,             /* a tag cut short */
};

/*
 * Past the VLAN tags, if *type names one: *type becomes the ethertype after
 * them and *n how many there were (each 4 bytes of the frame).
 */
static inline enum l2_tags l2_skip_tags(struct rr_cursor *cur, uint16_t *type, unsigned *n)
{
	for (*n = 0; l2_is_tag(*type); (*n)++) {
		if (*n == L2_MAX_TAGS)
			return L2_TAGS_TOO_MANY;
		if (!rr_skip(cur, 2) || !rr_get_be16(cur, type))
			return L2_TAGS_CUT;
	}
	return L2_TAGS_OK;
}

#endif
