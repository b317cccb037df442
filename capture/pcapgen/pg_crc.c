// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_crc.h"

#include <stdbool.h>

static uint32_t tab32[256], tab32c[256];
static uint16_t tab16[256];
static bool ready;

static void init_tables(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t a = n, c = n;
		uint16_t v = (uint16_t)n;
		for (int k = 0; k < 8; k++) {
			a = (a & 1) ? 0xedb88320u ^ (a >> 1) : a >> 1;
			c = (c & 1) ? 0x82f63b78u ^ (c >> 1) : c >> 1;
			v = (v & 1) ? (uint16_t)(0xd008u ^ (v >> 1)) : (uint16_t)(v >> 1);
		}
		tab32[n] = a;
		tab32c[n] = c;
		tab16[n] = v;
	}
	ready = true;
}

static uint32_t run32(const uint32_t *t, uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = ~crc;
	while (len--)
		c = t[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

uint32_t pg_crc32(uint32_t crc, const void *buf, size_t len)
{
	if (!ready)
		init_tables();
	return run32(tab32, crc, buf, len);
}

uint32_t pg_crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (!ready)
		init_tables();
	return run32(tab32c, crc, buf, len);
}

uint16_t pg_ib_vcrc(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t c = 0xffff;
	if (!ready)
		init_tables();
	while (len--)
		c = (uint16_t)(tab16[(c ^ *p++) & 0xff] ^ (c >> 8));
	return (uint16_t)(c ^ 0xffff);
}

uint32_t pg_csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len > 1) {
		sum += (uint32_t)(p[0] << 8 | p[1]);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

uint16_t pg_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}
