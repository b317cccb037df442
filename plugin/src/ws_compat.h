/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ws_compat.h - what differs between the Wireshark versions the plugin
 * builds against (4.0 on Debian 12, 4.4 on Debian 13).  Included first by
 * every plugin file, so the rest of the plugin is written once.
 */
#ifndef RRP_WS_COMPAT_H
#define RRP_WS_COMPAT_H

#include <ws_version.h>

#define RRP_WS_AT_LEAST(maj, min) \
	(WIRESHARK_VERSION_MAJOR > (maj) || \
	 (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))

/* Heuristic dissectors and boolean preferences: gboolean until 4.2, bool since. */
#if RRP_WS_AT_LEAST(4, 2)
#include <stdbool.h>
typedef bool rrp_bool;
#else
#include <glib.h>
typedef gboolean rrp_bool;
#endif

#endif
