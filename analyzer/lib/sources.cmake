# SPDX-License-Identifier: GPL-2.0-or-later
list(APPEND RR_ENGINE_SOURCES
  lib/hdr.c
  lib/hdr_layout.c
  lib/engine.c
  lib/conn.c
  lib/rfc8797.c
  lib/xfer.c
  lib/segstore.c
  lib/rebuild.c
  lib/rebuild_reply.c
  lib/mbuf.c
  lib/record.c
  check/checker.c
  check/report.c
  check/state.c
  check/util.c
  check/ck_framing.c
  check/ck_inline.c
  check/ck_chunks.c
  check/ck_credits.c
  check/ck_errors.c
  check/ck_ddp.c
  check/ck_compound.c
  check/ck_memory.c
  check/ck_backchannel.c
  check/ck_outcomes.c
)
