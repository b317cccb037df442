// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: the transport header decoder.  Whatever decodes must
 * encode back to the very bytes it came from (the codec is a bijection on
 * valid headers), and decoding must never read outside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma/hdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rr_hdr h;
	struct rr_wbuf w;

	if (rr_hdr_decode(data, size, &h) != RR_HDR_OK)
		return 0;
	if (h.hdr_len > size)
		abort();
	rr_wbuf_init(&w, 0);
	if (!rr_hdr_encode(&h, &w) || w.len != h.hdr_len || memcmp(w.data, data, w.len) != 0)
		abort();
	rr_wbuf_free(&w);
	return 0;
}
