/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dump.h - one record per rebuilt RPC message, as text or JSON Lines. */
#ifndef ULB_LINT_DUMP_H
#define ULB_LINT_DUMP_H

#include <stdio.h>

#include "rpcrdma/engine.h"

enum dump_format {
	DUMP_TEXT,
	DUMP_JSON,
};

void dump_header(FILE *out, enum dump_format fmt);
void dump_message(FILE *out, enum dump_format fmt, const struct rr_message *m);

#endif
