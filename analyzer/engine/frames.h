/* SPDX-License-Identifier: GPL-2.0-or-later */
/* frames.h - frame lists (frames.c): sorted, each frame once, as a record lists them. */
#ifndef RPCRDMA_FRAMES_H
#define RPCRDMA_FRAMES_H

#include <glib.h>

#include "engine.h"

void rr_frames_add(GArray *frames, uint64_t frame);
/* ev->frame and ev->more_frames */
void rr_frames_add_event(GArray *frames, const struct rr_event *ev);

#endif
