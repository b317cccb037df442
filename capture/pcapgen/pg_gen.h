/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Drive a scenario through the encoders and a framer into a capture and
 * its truth file. */
#ifndef PG_GEN_H
#define PG_GEN_H

#include "pg_scenario.h"

/* Returns 0 on success, 2 for scenario errors (err is "file:line: ..."),
 * 1 for I/O errors. */
int pg_generate(const pg_scenario *s, const char *pcap_path, const char *truth_path, char **err);

#endif
