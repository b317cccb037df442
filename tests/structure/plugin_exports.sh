#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# plugin_exports.sh [NM] PLUGIN: the plugin exports Wireshark's entry points
# and nothing else (the static libraries inside it are built with hidden
# symbols, so no engine symbol can clash with Wireshark's or another
# plugin's).  No PLUGIN (the plugin is not built here): skipped, exit 77.
set -eu

NM=${1:-nm}
PLUGIN=${2:-}
if [ -z "$PLUGIN" ]; then
	echo "plugin_exports: no plugin in this build: skipped"
	exit 77
fi
# What Wireshark looks up in a plugin file (plugin_describe from 4.2 on).
ALLOWED="plugin_version plugin_want_major plugin_want_minor plugin_register plugin_describe"

syms=$("$NM" -D --defined-only "$PLUGIN" | awk 'NF >= 3 { print $3 }') || {
	echo "plugin_exports: $NM -D --defined-only $PLUGIN failed"
	exit 1
}
bad=0
for s in $syms; do
	case " $ALLOWED " in
	*" $s "*) echo "ok        $s" ;;
	*) echo "exported  $s  (not an entry point)"; bad=1 ;;
	esac
done
if [ "$bad" -ne 0 ]; then
	echo "plugin_exports: FAIL: $PLUGIN exports more than its entry points"
	exit 1
fi
echo "plugin_exports: OK"
