#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Pictures of the plugin in the Wireshark GUI, for docs/img/.
#
#   tests/gui/screenshots.sh OUTDIR [PLUGIN.so [RATE [CAPTURE]]]
#
# One Wireshark session under a private Xvfb (the plugin in a fresh
# profile, tests/plugin/ws-user.sh) captures CAPTURE (default
# sample-pcaps/real/nfs3-rxe.pcap) live from a FIFO that pcap_pace.py feeds
# at RATE frames/s (default 250), then opens the views a user opens, from
# the menus, with the keyboard (xdotool):
#   live-capture.png   the packet list while the capture runs
#   capture-ended.png  the capture ended, filtered on rpcrdma.rule
#   expert-info.png    Analyze > Expert Information, the plugin's groups open
#   flow-graph.png     Statistics > Flow Graph, flow type RPC-over-RDMA if offered
#   rpcrdma-stats.png  Statistics > RPC-over-RDMA (the plugin's stats tree)
# Each view is found by its window title; a view that does not open is
# told and skipped, and the others are still taken.  Exits 1 when any
# picture is missing, 2 on bad arguments.  PLUGIN defaults to the build
# tree's build/plugin/epan/rpcrdma.so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 4 ]; then sed -n '5p' "$0" | sed 's/^# //' >&2; exit 2; fi
outdir=$(realpath -m "$1")
plugin=$(realpath -m "${2:-$root/build/plugin/epan/rpcrdma.so}")
rate=${3:-250}
capture=$(realpath "${4:-$root/sample-pcaps/real/nfs3-rxe.pcap}")
[ -f "$plugin" ] || { echo "screenshots: no plugin at $plugin (build it first)" >&2; exit 2; }
# shellcheck source=tests/gui/xvfb.sh
. "$here/xvfb.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-shots.XXXXXX")
chmod 0755 "$tmp"
gui_init "$tmp"
trap 'gui_cleanup; rm -rf "$tmp"' EXIT
mkdir -p "$outdir"
width=1600 height=1000
cp "$capture" "$tmp/"
cap=$tmp/$(basename "$capture")
chmod 0644 "$cap"
mkfifo -m 0666 "$tmp/feed"
frames=$(capinfos -Mc "$cap" | awk '/Number of packets/ {print $NF}')
gui_xvfb "$width" "$height"
gui_profile "$tmp/home" "$width" "$height"
missing=()

# A point of the main window no dialog covers (dialogs open centred): the
# left end of the details pane.  A click there gives the window the keys.
focus_main() { xdotool mousemove 60 650 click 1; sleep 0.4; }

# shot NAME TITLE_REGEX KEYS...: the keys open a view whose window title
# matches; the screen is saved once it is still; then "after" (a function
# name, or "") may work the view before a second, final picture.
shot() {
  local name=$1 re=$2 win
  shift 2
  focus_main
  xdotool key "$@"
  if ! win=$(gui_window "$re" 15); then
    echo "screenshots: $name: no window titled /$re/ opened (keys $*)" >&2
    missing+=("$name")
    xdotool key Escape Escape
    return 0
  fi
  sleep 2
  "${name//-/_}_work" "$win" 2>/dev/null || true
  if gui_snap "$outdir/$name.png"; then
    echo "screenshots: $outdir/$name.png: $(xdotool getwindowname "$win" 2>/dev/null || echo '?')"
  else
    missing+=("$name")
  fi
  close_view "$win"
}

# A view closes on Escape once it has the keys: a click on its own frame.
close_view() {
  local win=$1 _ X Y WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$win" 2>/dev/null || echo X=0 Y=0)"
  xdotool mousemove $((X + 4)) $((Y + 4)) click 1 key Escape 2>/dev/null || true
  for _ in $(seq 10); do
    xdotool getwindowname "$win" >/dev/null 2>&1 || return 0
    xdotool search --onlyvisible --name . 2>/dev/null | grep -qx "$win" || return 0
    sleep 0.3
  done
  echo "screenshots: window $win did not close on Escape" >&2
}

# Expert Information: open the first two groups (warnings, then notes).
expert_info_work() {
  local X Y WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$1")"
  xdotool mousemove $((X + 120)) $((Y + 41)) click 1
  sleep 0.3
  xdotool key Right Down Down Down Right
  sleep 0.5
}
# Flow Graph: its "Flow type" box (bottom row, middle) opened, and "RPC"
# typed to pick the RPC-over-RDMA flows where Wireshark offers them; where
# it does not, the box keeps "All Flows".
flow_graph_work() {
  local X Y WIDTH HEIGHT
  eval "$(xdotool getwindowgeometry --shell "$1")"
  xdotool mousemove $((X + WIDTH * 52 / 100)) $((Y + HEIGHT - 50)) click 1
  sleep 0.5
  xdotool type --delay 30 "RPC"
  xdotool key Return
  sleep 2
}
rpcrdma_stats_work() { :; }

gui_wireshark "$plugin" "$tmp/home" "$tmp/wireshark.log" -- wireshark \
  -o gui.ask_unsaved:FALSE -o gui.update.enabled:FALSE -k -i "$tmp/feed"
"$here/pcap_pace.py" --rate "$rate" "$cap" "$tmp/feed" &
pace=$!
# The packet list mid-capture: a third of the frames in, once the
# capture runs (the main window's title names the FIFO).
gui_window "feed" 60 >/dev/null || { echo "screenshots: no capture window:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }
sleep "$(python3 -c "print(max(1.0, $frames / 3 / $rate))")"
if gui_snap "$outdir/live-capture.png" now; then echo "screenshots: $outdir/live-capture.png"; else missing+=(live-capture); fi
wait "$pace" || { echo "screenshots: the feed failed" >&2; exit 1; }
sleep 3
gui_alive || { echo "screenshots: wireshark exited:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }

# The frames with findings: the display filter rpcrdma.rule.
focus_main
xdotool key ctrl+slash
sleep 0.3
xdotool type --delay 20 "rpcrdma.rule"
xdotool key Return
sleep 3
if gui_snap "$outdir/capture-ended.png"; then echo "screenshots: $outdir/capture-ended.png"; else missing+=(capture-ended); fi
# The views work on every frame: clear the filter again.
focus_main
xdotool key ctrl+slash ctrl+a BackSpace Return
sleep 3

# Analyze's last item is Expert Information; Statistics' 17th is Flow
# Graph, its last the plugin's RPC-over-RDMA (the unsorted group).
shot expert-info "Expert Information" alt+a Up Return
down16=()
for _ in $(seq 16); do down16+=(Down); done
shot flow-graph "Flow" alt+s "${down16[@]}" Return
shot rpcrdma-stats "RPC-over-RDMA" alt+s Up Return

focus_main
xdotool key ctrl+q
if [ ${#missing[@]} -gt 0 ]; then
  echo "screenshots: not taken: ${missing[*]}" >&2
  exit 1
fi
echo "screenshots: all taken in $outdir"
