#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The plugin in the Wireshark GUI during a live capture, as a user meets it.
#
#   tests/gui/live_gui.sh PLUGIN.so ULB_LINT OUTDIR [RATE [CAPTURE]]
#
# Under a private Xvfb, `wireshark -k -i FIFO` runs with the plugin (as an
# unprivileged user with a fresh profile, tests/plugin/ws-user.sh) and
# collect.lua; pcap_pace.py feeds CAPTURE (default
# sample-pcaps/real/nfs3-rxe.pcap) into the FIFO at RATE frames/s (default
# 2000; 250 is a slow link; `file`: no capture, the file is opened, the
# control that shows this harness sees every finding the plugin draws).  While the capture runs, the packet list
# repaints and re-dissects rows as a user would see it do.  When the feed
# has ended and Wireshark has taken every frame, the test applies the
# display filter `rpcrdma.rule` (typed into the filter bar): Wireshark
# re-dissects every frame, and collect.lua keeps the findings that pass
# shows.  They must equal ulb-lint's findings of CAPTURE (frame, rule,
# severity; compare_findings.py), and nothing the live pass showed may be
# outside them.  The screen at the end (the list of frames with findings)
# is saved as OUTDIR/live-gui.png; collect.lua's files and Wireshark's log
# are kept in OUTDIR too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 3 ] || [ $# -gt 5 ]; then sed -n '5p' "$0" | sed 's/^# //' >&2; exit 2; fi
plugin=$(realpath "$1")
lint=$(realpath "$2")
outdir=$(realpath -m "$3")
rate=${4:-2000}
capture=$(realpath "${5:-$root/sample-pcaps/real/nfs3-rxe.pcap}")
[ -f "$plugin" ] || { echo "live_gui: no plugin at $1 (build it first)" >&2; exit 2; }
# shellcheck source=tests/gui/xvfb.sh
. "$here/xvfb.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-live-gui.XXXXXX")
chmod 0755 "$tmp"
gui_init "$tmp"
trap 'gui_cleanup; rm -rf "$tmp"' EXIT
mkdir -p "$outdir"
width=1600 height=1000

# Everything Wireshark (nobody, when we are root) reads or writes.
cp "$capture" "$here/collect.lua" "$tmp/"
cap=$tmp/$(basename "$capture")
chmod 0644 "$cap" "$tmp/collect.lua"
mkfifo -m 0666 "$tmp/feed"
mkdir -m 0777 "$tmp/out"
frames=$(capinfos -Mc "$cap" | awk '/Number of packets/ {print $NF}')
home=$tmp/home
gui_xvfb "$width" "$height"
gui_profile "$home" "$width" "$height"

# No question may stop the run: unsaved packets are dropped at the end,
# no update check; the tap timer every half second.
export RR_GUI_OUT=$tmp/out RR_GUI_FRAMES=$frames
ws_args=(-o gui.ask_unsaved:FALSE -o gui.update.enabled:FALSE -o taps.update_interval:500
         -X "lua_script:$tmp/collect.lua")
if [ "$rate" = file ]; then
  gui_wireshark "$plugin" "$home" "$tmp/wireshark.log" -- wireshark "${ws_args[@]}" -r "$cap"
  echo "live_gui: reading $(basename "$cap") ($frames frames) from the file"
else
  gui_wireshark "$plugin" "$home" "$tmp/wireshark.log" -- wireshark "${ws_args[@]}" -k -i "$tmp/feed"
  echo "live_gui: feeding $frames frames of $(basename "$cap") at $rate/s"
  "$here/pcap_pace.py" --rate "$rate" "$cap" "$tmp/feed"
fi

# The capture ends when the feed does.  Wait until Wireshark has taken
# every frame (collect.lua counts them at each tap update), then until the
# screen is still.
win=$(gui_window "." 60) || { echo "live_gui: no Wireshark window:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }
for _ in $(seq 120); do
  [ "$(cat "$tmp/out/seen" 2>/dev/null || echo 0)" -ge "$frames" ] && break
  gui_alive || { echo "live_gui: wireshark exited:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }
  sleep 0.5
done
[ "$(cat "$tmp/out/seen" 2>/dev/null || echo 0)" -ge "$frames" ] ||
  { echo "live_gui: Wireshark took $(cat "$tmp/out/seen" 2>/dev/null || echo 0) of $frames frames in 60 s" >&2; exit 1; }
gui_snap "$tmp/during.png" || true

# The re-dissection a user causes: a display filter.  Ctrl+/ puts the
# focus in the filter bar.
: > "$tmp/out/ended"
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" 2>/dev/null || true
xdotool key ctrl+slash
sleep 0.3
xdotool type --delay 20 "rpcrdma.rule"
xdotool key Return
for _ in $(seq 120); do
  [ -f "$tmp/out/done" ] && break
  gui_alive || { echo "live_gui: wireshark exited:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }
  sleep 0.5
done
[ -f "$tmp/out/done" ] || { echo "live_gui: collect.lua wrote nothing within 60 s of the filter" >&2; exit 1; }
gui_snap "$outdir/live-gui.png" || true
cp "$tmp/out/live.txt" "$tmp/out/final.txt" "$tmp/wireshark.log" "$outdir/"
# Quit as a user does (no question: gui.ask_unsaved is off).
xdotool key ctrl+q
for _ in $(seq 20); do gui_alive || break; sleep 0.5; done

echo "live_gui: findings after the capture:"; sort -n "$outdir/final.txt" | sed 's/^/  /'
python3 "$here/compare_findings.py" --lint "$lint" --capture "$cap" \
  --final "$outdir/final.txt" --live "$outdir/live.txt"
