#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a Wireshark program (tshark, wireshark, ...) with a freshly built
# rpcrdma plugin loaded, the way a user who installed it would.
#
#   tests/plugin/ws-user.sh PLUGIN.so [--home DIR] -- tshark -r x.pcap ...
#   tests/plugin/ws-user.sh none [--home DIR] -- tshark ...   (no plugin: the built-in dissector)
#
# Wireshark run as root ignores personal plugins (and WIRESHARK_PLUGIN_DIR),
# so as root the command runs as the unprivileged user nobody (65534) with a
# private HOME; otherwise as the caller with a private HOME.  The plugin is
# copied into that HOME's personal plugin folder, found with `tshark -G
# folders` so the Wireshark version is never guessed.  Files the command
# must read have to be readable by nobody; the HOME is removed at the end
# unless --home names one.  Calls that share a --home find the plugin
# already in place; prepare it with one call (`-- true`) before running
# several at once.
set -euo pipefail
plugin=${1:?usage: ws-user.sh PLUGIN.so|none [--home DIR] -- command ...}
shift
home=""
while [ $# -gt 0 ]; do
  case "$1" in
    --home) home=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "ws-user.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "ws-user.sh: no command" >&2; exit 2; }
if [ -z "$home" ]; then
  home=$(mktemp -d "${TMPDIR:-/tmp}/rr-ws-home.XXXXXX")
  trap 'rm -rf "$home"' EXIT
fi
mkdir -p "$home"
as_user=()
if [ "$(id -u)" = 0 ]; then
  chown 65534:65534 "$home"
  chmod 0755 "$home"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ "$plugin" != none ]; then
  [ -f "$plugin" ] || { echo "ws-user.sh: no plugin at $plugin (build it first)" >&2; exit 2; }
  # A --home an earlier call prepared remembers the folder: asking tshark
  # again would cost a second tshark start on every call.
  dir=$(cat "$home/.ws-user-plugin-folder" 2>/dev/null || true)
  if [ -z "$dir" ]; then
    dir=$(HOME=$home "${as_user[@]}" tshark -G folders 2>/dev/null | awk -F'\t' '/^Personal Plugins:/ {print $2}')
    [ -n "$dir" ] || { echo "ws-user.sh: tshark -G folders named no personal plugin folder" >&2; exit 2; }
    printf '%s\n' "$dir" >"$home/.ws-user-plugin-folder"
  fi
  if ! cmp -s "$plugin" "$dir/epan/$(basename "$plugin")"; then
    mkdir -p "$dir/epan"
    cp "$plugin" "$dir/epan/"
    [ "$(id -u)" = 0 ] && chown -R 65534:65534 "$home"
  fi
fi
HOME=$home XDG_CONFIG_HOME=$home/.config "${as_user[@]}" "$@"
