#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin must leave a user's profile as Wireshark alone would.
#
#   tests/gui/profile_gui.sh PLUGIN.so OUTDIR
#
# What it does, twice under one private Xvfb: once with the plugin in the
# personal plugin folder of a fresh HOME (tests/plugin/ws-user.sh), once
# with no plugin (the reference: Wireshark's own behaviour).  Each time the
# Qt `wireshark` starts on that fresh profile, and the test works its
# Enabled Protocols dialog as a user does: Ctrl+Shift+E opens it (Analyze >
# Enabled Protocols), "ymsg" is typed into its search field, a click on the
# YMSG row's check box disables that protocol, and Return presses OK.  OK
# saves the profile's disabled_protos, enabled_protos and heuristic_protos
# (Wireshark's save_enabled_and_disabled_lists); Ctrl+Q quits.  tshark never
# saves them, so only the GUI can show this.
#
# Then compare_profiles.py checks the profile the plugin run left against
# the reference: every file the same (the window layout files recent and
# recent_common aside), except heuristic_protos, where Wireshark 4.0 writes
# the state of every heuristic dissector: the lines both runs have must be
# equal (so no rpcrdma_infiniband,0 or rpcrdma_iwarp,0: the user did not
# switch Wireshark's own heuristics off), and the lines only the plugin run
# has must be the plugin's own heuristics (docs/plugin.md lists them),
# enabled.  The
# user's change (ymsg in disabled_protos) must be there in both, or the
# dialog was not driven.  Screens of the dialog are saved in OUTDIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 2 ]; then sed -n '5p' "$0" | sed 's/^# //' >&2; exit 2; fi
plugin=$(realpath "$1")
outdir=$(realpath -m "$2")
[ -f "$plugin" ] || { echo "profile_gui: no plugin at $1 (build it first)" >&2; exit 2; }
# shellcheck source=tests/gui/xvfb.sh
. "$here/xvfb.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-profile-gui.XXXXXX")
chmod 0755 "$tmp"
gui_init "$tmp"
trap 'gui_cleanup; rm -rf "$tmp"' EXIT
mkdir -p "$outdir"
width=1600 height=1000
gui_xvfb "$width" "$height"

# One GUI session on a fresh profile: the dialog, OK, quit.  $1: the
# plugin or "none"; $2: a name for the run's files.
session() {
  local which=$1 name=$2 home=$tmp/home-$2 dlg _
  gui_profile "$home" "$width" "$height"
  gui_wireshark "$which" "$home" "$tmp/$name.log" -- wireshark -o gui.ask_unsaved:FALSE
  gui_window "^The Wireshark Network Analyzer" 60 >/dev/null ||
    { echo "profile_gui($name): no Wireshark window:" >&2; tail -20 "$tmp/$name.log" >&2; exit 1; }
  # No window manager gives the window the focus: a click in it does.
  # The first tries may come before Wireshark takes keys: try again.
  dlg=""
  for _ in 1 2 3 4 5; do
    sleep 1
    xdotool mousemove 800 500 click 1
    sleep 0.3
    xdotool key ctrl+shift+e
    dlg=$(gui_window "Enabled Protocols" 4) && break
  done
  [ -n "$dlg" ] || { echo "profile_gui($name): Ctrl+Shift+E opened no Enabled Protocols dialog" >&2; exit 1; }
  sleep 1
  xdotool type --delay 20 "ymsg"
  sleep 1
  # The search leaves YMSG the first row; its check box, from the dialog's
  # corner (the layout Qt gives this dialog at its default size).
  xdotool mousemove --window "$dlg" 42 71 click 1
  gui_snap "$outdir/profile-$name-dialog.png" || true
  xdotool key Return
  for _ in $(seq 40); do
    [ -f "$home/.config/wireshark/heuristic_protos" ] && break
    sleep 0.25
  done
  xdotool key ctrl+q
  for _ in $(seq 40); do gui_alive || break; sleep 0.25; done
  gui_cleanup_ws
  rm -rf "$tmp/profile-$name"
  cp -r "$home/.config/wireshark" "$tmp/profile-$name"
}

# Ends this session's Wireshark if Ctrl+Q did not, and keeps the X server.
gui_cleanup_ws() {
  if gui_alive; then kill -TERM -- "-$gui_ws_pid" 2>/dev/null || true; fi
  wait "$gui_ws_pid" 2>/dev/null || true
  gui_ws_pid=""
}

session none reference
session "$plugin" plugin
cp -r "$tmp/profile-reference" "$tmp/profile-plugin" "$outdir/"
python3 "$here/compare_profiles.py" --reference "$tmp/profile-reference" --plugin "$tmp/profile-plugin" \
  --doc "$here/../../docs/plugin.md" --user-disabled ymsg
