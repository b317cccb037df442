# SPDX-License-Identifier: GPL-2.0-or-later
list(APPEND RR_ENGINE_SOURCES
  lib/hdr.c
  lib/engine.c
  lib/conn.c
  lib/xfer.c
  lib/segstore.c
  lib/rebuild.c
)
