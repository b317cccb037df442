/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc.h - the CRC-32 (IB/RoCE ICRC) and CRC-32C (MPA) of crc.c.
 *
 * A CRC is kept as a raw register: start from 0xFFFFFFFF, feed bytes,
 * complement at the end.
 */
#ifndef RR_DECODE_CRC_H
#define RR_DECODE_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

/* The fastest path the CPU allows (see rr_crc_impl()). */
uint32_t rr_crc32_update(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update(uint32_t reg, const uint8_t *p, size_t n);
/* The portable table paths, for the tests that check the fast ones. */
uint32_t rr_crc32_update_sw(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_sw(uint32_t reg, const uint8_t *p, size_t n);
/* By 128-bit folding only (the tables without PCLMULQDQ). */
uint32_t rr_crc32_update_128(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_128(uint32_t reg, const uint8_t *p, size_t n);
/* "vpclmulqdq", "pclmul", "sse4.2" (CRC-32C only) or "tables". */
const char *rr_crc_impl(void);
/* Feed the next n bytes of a cursor (consumed) into a CRC register. */
bool rr_crc32_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n);
bool rr_crc32c_cursor(uint32_t *reg, struct rr_cursor *cur, size_t n);
/* The whole CRC-32C of p[0..n). */
uint32_t rr_crc32c(const uint8_t *p, size_t n);

#endif
