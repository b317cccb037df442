#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `cmake --install` puts the plugin in the personal plugin folder of the user
# who runs it (the default, RR_PLUGIN_INSTALL=personal), and Wireshark then
# loads it from there for that user.  (The global folder is what the .deb
# installs: tests/package/check_deb.sh.)
#   check_install.sh BUILD_DIR WS_USER
set -euo pipefail
build=${1:?usage: check_install.sh BUILD_DIR WS_USER}
ws_user=${2:?}
home=$(mktemp -d "${TMPDIR:-/tmp}/rr-install.XXXXXX")
trap 'rm -rf "$home"' EXIT
chmod 0755 "$home"
HOME=$home USER=tester cmake --install "$build" --component plugin >"$home/install.log"
so=$(find "$home/.local/lib/wireshark/plugins" -name rpcrdma.so -path '*/epan/*' | head -1)
if [ -z "$so" ]; then
  echo "FAIL check_install: cmake --install put no rpcrdma.so under $home/.local/lib/wireshark/plugins"
  cat "$home/install.log"
  exit 1
fi
# The folder must be the one this Wireshark reads: ask it.
chown -R 65534:65534 "$home" 2>/dev/null || true
want=$("$ws_user" none --home "$home" -- tshark -G folders | awk -F'\t' '/^Personal Plugins:/ {print $2}')
case "$so" in
  "$want"/epan/rpcrdma.so) ;;
  *) echo "FAIL check_install: installed at $so, but Wireshark reads personal plugins from $want/epan"; exit 1 ;;
esac
if ! "$ws_user" none --home "$home" -- tshark -G plugins | grep -q '^rpcrdma.so'; then
  echo "FAIL check_install: tshark does not load the installed plugin"
  exit 1
fi
echo "check_install: cmake --install put the plugin at $so; tshark loads it"
