// SPDX-License-Identifier: GPL-2.0-or-later
/* The RFC 8797 CM private message (rfc8797.h). */
#include "rpcrdma/cursor.h"
#include "rpcrdma/rfc8797.h"

bool rr_rfc8797_find(const uint8_t *pd, uint32_t len, struct rr_rfc8797 *out)
{
	struct rr_cursor cur;
	uint32_t off;

	for (off = 0; off + 8 <= len && off <= 64; off += 4) {
		uint32_t magic;

		rr_cursor_init(&cur, pd, len);
		if (!rr_seek(&cur, off) || !rr_get_be32(&cur, &magic) || magic != RR_RFC8797_MAGIC)
			continue;
		out->offset = off;
		if (!rr_get_u8(&cur, &out->version) || !rr_get_u8(&cur, &out->flags) ||
		    !rr_get_u8(&cur, &out->send_raw) || !rr_get_u8(&cur, &out->recv_raw) || out->version != 1)
			return false;
		out->send_size = ((uint32_t)out->send_raw + 1) * 1024;
		out->recv_size = ((uint32_t)out->recv_raw + 1) * 1024;
		return true;
	}
	return false;
}
