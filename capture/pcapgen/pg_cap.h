/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcap / pcapng writer with deterministic timestamps; records which truth
 * messages each frame carried, applies capture-stage truncation and the
 * capture point's encapsulation. */
#ifndef PG_CAP_H
#define PG_CAP_H

#include "pg_encap.h"
#include "pg_truth.h"

typedef struct pg_cap pg_cap;

/* Wrap every frame of the captures opened from now on (PG_ENCAP_NONE:
 * write them as they are); the frames, and so the truth, stay the same. */
void pg_cap_set_encap(const pg_encap *e);

pg_cap *pg_cap_open(const char *path, const pg_scenario *s, pg_truth *t, char **err);
/* Write one link-layer frame; owners are truth ids of the messages whose
 * bytes it carries. Returns the 1-based frame number. */
uint32_t pg_cap_frame(pg_cap *c, const uint8_t *data, size_t len, const int *owners,
		      size_t nowners);
/*
 * While on, frames are written but credited to no message: retransmitted
 * copies carry nothing a receiver uses (it keeps the first copy).
 */
void pg_cap_replay(pg_cap *c, bool on);
/* Idle time between exchanges. */
void pg_cap_gap(pg_cap *c, uint32_t usec);
uint32_t pg_cap_count(const pg_cap *c);
/* The capture time of frame n (1-based, written), in microseconds; 0 for none. */
uint64_t pg_cap_frame_usec(const pg_cap *c, uint32_t n);
bool pg_cap_close(pg_cap *c, char **err);

#endif
