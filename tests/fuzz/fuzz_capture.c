// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness: frames -> capture decoder -> engine -> messages.
 * Input: one byte choosing the link type, then frames, each preceded by a
 * 2-byte big-endian length.  The decoder and the engine must survive any
 * sequence without crashing, leaking or reading out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma/capture.h"
#include "rpcrdma/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int linktypes[] = { 1 /* EN10MB */, 113 /* LINUX_SLL */, 276 /* LINUX_SLL2 */,
				 247 /* INFINIBAND */, 197 /* ERF */, 101 /* RAW */ };

/* Where the harness folds every delivered byte, so none goes unread. */
static volatile uint8_t sink;

static void on_message(void *ctx, const struct rr_message *m)
{
	size_t i;

	/* Touch every byte the engine hands out. */
	for (i = 0; i < m->payload_len; i++)
		sink ^= m->payload[i];
	for (i = 0; i < m->n_frames; i++)
		sink ^= (uint8_t)m->frames[i];
	(void)ctx;
}

static void on_event(void *ctx, const struct rr_event *ev)
{
	rr_engine_feed(ctx, ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rr_engine_limits lim;
	struct rr_frame_decoder *d;
	struct rr_engine *eng;
	struct rr_decode_opts opts = { 0 };
	size_t pos = 1;
	uint64_t frame = 0;

	if (size < 1)
		return 0;
	rr_engine_default_limits(&lim);     /* what ulb-lint runs with */
	eng = rr_engine_new(&lim, on_message, NULL, NULL);
	d = rr_frame_decoder_new(linktypes[data[0] % (sizeof(linktypes) / sizeof(linktypes[0]))],
				 &opts, on_event, eng, NULL);
	if (!d) {
		rr_engine_free(eng);
		return 0;
	}
	while (pos + 2 <= size) {
		size_t n = (size_t)data[pos] << 8 | data[pos + 1];
		uint8_t *copy;

		pos += 2;
		if (n > size - pos)
			n = size - pos;
		/* A private copy, so a read past the frame is caught. */
		copy = malloc(n ? n : 1);
		memcpy(copy, data + pos, n);
		frame++;
		rr_frame_decode(d, frame, frame * 1000, copy, (uint32_t)n, (uint32_t)n);
		free(copy);
		pos += n;
	}
	rr_frame_decoder_finish(d);
	rr_engine_finish(eng);
	rr_frame_decoder_free(d);
	rr_engine_free(eng);
	return 0;
}
