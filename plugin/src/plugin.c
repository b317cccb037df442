// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What Wireshark looks for in a plugin file: its version, the Wireshark
 * version it was built for, and the register function.
 */
#include "ws_compat.h"

#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/tap.h>
#include <ws_version.h>

#include "rpcrdma_plugin.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = RR_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

RRP_PLUGIN_DESCRIBE();
WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
	static proto_plugin plug;
	static tap_plugin tap;

	plug.register_protoinfo = rrp_register;
	plug.register_handoff = rrp_handoff;
	proto_register_plugin(&plug);
	/* Statistics trees register with the taps, after every protocol. */
	tap.register_tap_listener = rrp_stats_register;
	tap_register_plugin(&tap);
}
