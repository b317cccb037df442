// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * crc.c - the two CRCs RDMA transports carry.
 *
 *  - CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320): the IB/RoCE
 *    invariant CRC (ICRC).
 *  - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the MPA CRC of
 *    iWARP (RFC 5044 4.4, computed as iSCSI does, RFC 3720 B.4).
 *
 * Both are kept as a raw register: start from 0xFFFFFFFF, feed bytes,
 * complement at the end.  Tables are built once on first use; a byte-wise
 * table is plenty for captures.
 */
#include <glib.h>

#include "decode_int.h"

static uint32_t tab32[256], tab32c[256];

static void build(uint32_t *tab, uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t r = i;

		for (int k = 0; k < 8; k++)
			r = (r & 1) ? (r >> 1) ^ poly : r >> 1;
		tab[i] = r;
	}
}

static void init_tables(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		build(tab32, 0xEDB88320u);
		build(tab32c, 0x82F63B78u);
		g_once_init_leave(&done, 1);
	}
}

/*
 * p and n always come from rr_get_bytes() (or from a local copy of
 * header bytes), so the loop stays inside the span the bounded reader
 * handed out.
 */
static uint32_t update(const uint32_t *tab, uint32_t reg, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		reg = tab[(reg ^ p[i]) & 0xFF] ^ (reg >> 8);
	return reg;
}

uint32_t rr_crc32_update(uint32_t reg, const uint8_t *p, size_t n)
{
	init_tables();
	return update(tab32, reg, p, n);
}

uint32_t rr_crc32c_update(uint32_t reg, const uint8_t *p, size_t n)
{
	init_tables();
	return update(tab32c, reg, p, n);
}

bool rr_crc32_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n)
{
	const uint8_t *p;

	if (!rr_get_bytes(cur, n, &p))
		return false;
	*reg = rr_crc32_update(*reg, p, n);
	return true;
}

bool rr_crc32c_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n)
{
	const uint8_t *p;

	if (!rr_get_bytes(cur, n, &p))
		return false;
	*reg = rr_crc32c_update(*reg, p, n);
	return true;
}

uint32_t rr_crc32c(const uint8_t *p, size_t n)
{
	return ~rr_crc32c_update(0xFFFFFFFFu, p, n);
}
