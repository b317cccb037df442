/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checksums used on the wire. Own implementations (bitwise tables built at
 * first use) so that the oracle shares nothing with the decoder. */
#ifndef PG_CRC_H
#define PG_CRC_H

#include <stddef.h>
#include <stdint.h>

/* IEEE 802.3 CRC-32 (reflected, poly 0x04C11DB7, init/xorout 0xFFFFFFFF):
 * what zlib's crc32() returns. Pass 0 as crc to start; chainable. */
uint32_t pg_crc32(uint32_t crc, const void *buf, size_t len);

/* CRC-32C (Castagnoli, reflected, init/xorout 0xFFFFFFFF), as MPA uses;
 * chainable the same way. */
uint32_t pg_crc32c(uint32_t crc, const void *buf, size_t len);

/* InfiniBand VCRC: CRC-16, poly 0x100B reflected (0xD008), init and
 * xorout 0xFFFF. */
uint16_t pg_ib_vcrc(const void *buf, size_t len);

/* RFC 1071 one's-complement sum, not yet complemented; chainable. */
uint32_t pg_csum_add(uint32_t sum, const void *buf, size_t len);
uint16_t pg_csum_fold(uint32_t sum);

#endif
