// SPDX-License-Identifier: GPL-2.0-or-later
/* Frame lists: sorted, each frame once, as a record lists them. */
#include "frames.h"

void rr_frames_add(GArray *frames, uint64_t frame)
{
	guint i;

	/* Frames arrive nearly in order: search from the end. */
	for (i = frames->len; i > 0; i--) {
		uint64_t f = g_array_index(frames, uint64_t, i - 1);

		if (f == frame)
			return;
		if (f < frame)
			break;
	}
	/* Mostly the newest: appended without glib's insert, which appends through one more call. */
	if (i == frames->len)
		g_array_append_val(frames, frame);
	else
		g_array_insert_val(frames, i, frame);
}

void rr_frames_add_event(GArray *frames, const struct rr_event *ev)
{
	uint32_t i;

	rr_frames_add(frames, ev->frame);
	for (i = 0; i < ev->n_more_frames; i++)
		rr_frames_add(frames, ev->more_frames[i]);
}
