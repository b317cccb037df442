/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ws_compat.h - what differs between the Wireshark versions the plugin
 * builds against (4.0 on Debian 12, 4.4 on Debian 13, 4.6 on sid).
 * Included first by every plugin file, so the rest of the plugin is written
 * once, in the names of the newest version.  scripts/ws-check.sh builds and
 * tests the plugin against each.
 *
 * Two 4.6 changes need nothing here: wmem_packet_scope() is gone (use
 * pinfo->pool, there in every version), and the plugin includes no
 * epan/dissectors/ header (tests/structure/plugin_headers.py).
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

/*
 * plugin_describe(): since 4.2 Wireshark asks a plugin what kind it is and
 * shows the answer in the type column of `tshark -G plugins` and in
 * About > Plugins; without it 4.4 lists the plugin as "unknown".  4.0 does
 * not ask, and ships no <wsutil/plugins.h>.  plugin.c says, at file scope:
 *	RRP_PLUGIN_DESCRIBE();
 * The _Static_assert only takes that semicolon on both branches.
 */
#if RRP_WS_AT_LEAST(4, 2) && defined(__has_include)
#if __has_include(<wsutil/plugins.h>)
#include <stdint.h>
#include <wsutil/plugins.h>
#endif
#endif
#ifdef WS_PLUGIN_DESC_DISSECTOR
#define RRP_PLUGIN_DESCRIBE() \
	WS_DLL_PUBLIC uint32_t plugin_describe(void); \
	uint32_t plugin_describe(void) { return WS_PLUGIN_DESC_DISSECTOR; } \
	_Static_assert(1, "plugin_describe")
#else
#define RRP_PLUGIN_DESCRIBE() _Static_assert(1, "no plugin_describe before Wireshark 4.2")
#endif

/*
 * 4.4 renamed the tvb accessors named after glib types (tvb_get_guint8 ->
 * tvb_get_uint8, ...) and marks the old names deprecated, which -Werror
 * turns into errors.  Write the new names; on 4.0 they map to the old ones.
 * (Object-like macros: 4.0's headers never spell the new names, so nothing
 * of theirs is renamed by these.)
 */
#if !RRP_WS_AT_LEAST(4, 4)
#define tvb_get_uint8 tvb_get_guint8
#define tvb_get_int8 tvb_get_gint8
#define tvb_get_uint16 tvb_get_guint16
#define tvb_get_uint24 tvb_get_guint24
#define tvb_get_uint32 tvb_get_guint32
#define tvb_get_uint64 tvb_get_guint64
#define tvb_find_uint8 tvb_find_guint8
#define tvb_skip_uint8 tvb_skip_guint8
#endif

/*
 * 4.6 renamed the dissector_try_*_new calls *_with_data (the old names are
 * deprecated wrappers there); the arguments are the same.  Write the new
 * names.
 */
#if !RRP_WS_AT_LEAST(4, 6)
#define dissector_try_uint_with_data dissector_try_uint_new
#define dissector_try_string_with_data dissector_try_string_new
#define dissector_try_guid_with_data dissector_try_guid_new
#define dissector_try_payload_with_data dissector_try_payload_new
#endif

/*
 * val_to_str() takes the allocator first since 4.6; before, that was
 * val_to_str_wmem() and val_to_str() used the packet scope 4.6 removed.
 * The old headers spell val_to_str, so this is a name of our own:
 *	rrp_val_to_str(pinfo->pool, v, vals, "Unknown (%u)")
 */
#if RRP_WS_AT_LEAST(4, 6)
#define rrp_val_to_str(scope, val, vs, fmt) val_to_str((scope), (val), (vs), (fmt))
#else
#define rrp_val_to_str(scope, val, vs, fmt) val_to_str_wmem((scope), (val), (vs), (fmt))
#endif

/* value_string.h moved from epan/ to wsutil/ in 4.6:  #include RRP_VALUE_STRING_H */
#if RRP_WS_AT_LEAST(4, 6)
#define RRP_VALUE_STRING_H <wsutil/value_string.h>
#else
#define RRP_VALUE_STRING_H <epan/value_string.h>
#endif

/*
 * A stat_tap_ui's tap_init_cb returns whether it set up its tap since 4.6
 * (void before):
 *	static rrp_tap_init_ret report_init(const char *opt_arg, void *userdata)
 *	{ ... if (failed) RRP_TAP_INIT_RETURN(false); ... RRP_TAP_INIT_RETURN(true); }
 */
#if RRP_WS_AT_LEAST(4, 6)
#include <stdbool.h>
typedef bool rrp_tap_init_ret;
#define RRP_TAP_INIT_RETURN(ok) return (ok)
#else
typedef void rrp_tap_init_ret;
#define RRP_TAP_INIT_RETURN(ok) return
#endif

#endif
