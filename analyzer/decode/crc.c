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
 * complement at the end.  Tables are built once on first use.  The ICRC
 * covers every byte of every RoCE packet, so it runs eight bytes a step
 * (slicing-by-8: eight tables, one per byte position).
 */
#include <glib.h>

#include "decode_int.h"

static uint32_t tab32[8][256], tab32c[8][256];

static void build(uint32_t tab[8][256], uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t r = i;

		for (int k = 0; k < 8; k++)
			r = (r & 1) ? (r >> 1) ^ poly : r >> 1;
		tab[0][i] = r;
	}
	/* tab[k][i]: the register effect of byte i followed by k zero bytes. */
	for (int k = 1; k < 8; k++)
		for (uint32_t i = 0; i < 256; i++)
			tab[k][i] = (tab[k - 1][i] >> 8) ^ tab[0][tab[k - 1][i] & 0xFF];
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
static uint32_t update(const uint32_t tab[8][256], uint32_t reg, const uint8_t *p, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		reg ^= (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
		       (uint32_t)p[i + 3] << 24;
		reg = tab[7][reg & 0xFF] ^ tab[6][(reg >> 8) & 0xFF] ^ tab[5][(reg >> 16) & 0xFF] ^
		      tab[4][reg >> 24] ^ tab[3][p[i + 4]] ^ tab[2][p[i + 5]] ^ tab[1][p[i + 6]] ^
		      tab[0][p[i + 7]];
	}
	for (; i < n; i++)
		reg = tab[0][(reg ^ p[i]) & 0xFF] ^ (reg >> 8);
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
