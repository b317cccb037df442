#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GUI smoke test of the rpcrdma plugin: the Qt `wireshark` under Xvfb opens a
# real capture with a display filter that keeps NFS READ replies whose data
# came by RDMA Write, shows the first one with its details tree opened at the
# RPC-over-RDMA item, the NFS READ reply and its Data, and the screen is
# saved as a PNG for a person to look at.
#
#   tests/plugin/gui_smoke.sh PLUGIN.so OUT.png [CAPTURE]
#
# CAPTURE defaults to sample-pcaps/real/nfs3-rxe.pcap (NFSv3 over RoCEv2:
# the tree navigation below is laid out for an NFSv3 READ reply, whose Data
# is the last item of the NFS tree).  Exits non-zero when the plugin does
# not load, when tshark with it finds no packet for the filter, when
# Wireshark dies or never draws its window, or when the screenshot is
# blank.  Needs Xvfb, xauth, xdotool and ImageMagick (scripts/install-deps.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage() { sed -n '9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
plugin=$(realpath "$1")
out=$(realpath -m "$2")
capture=$(realpath "${3:-$root/sample-pcaps/real/nfs3-rxe.pcap}")
[ -f "$plugin" ] || { echo "gui_smoke: no plugin at $1 (build it first)" >&2; exit 2; }
[ -f "$capture" ] || { echo "gui_smoke: no capture at $capture" >&2; exit 2; }
for t in Xvfb xauth xdotool import convert identify tshark wireshark; do
  command -v "$t" >/dev/null || { echo "gui_smoke: needs $t (scripts/install-deps.sh)" >&2; exit 2; }
done

# READ replies (rpc.msgtyp 1) that carry NFS data which the plugin put back
# from RDMA Writes (DDP bytes): the data never was in a SEND, so only a
# dissector that rebuilds the RPC message can show it.
filter='nfs.data && rpcrdma.message.ddp_bytes > 0 && rpc.msgtyp == 1'
# The screen, and Wireshark's window filling it: tall enough for the opened
# RPC-over-RDMA tree, the NFS tree and the lower layers' lines together.
width=1600 height=1450
list_height=170           # packet list pane, in pixels (a few rows suffice)
details_width=880         # details pane; the bytes pane gets the rest

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-gui.XXXXXX")
xvfb_pid="" ws_pid=""
cleanup() {
  # wireshark runs as another user under ws-user.sh in its own session:
  # end that process group, then the X server; both were started here.
  if [ -n "$ws_pid" ]; then kill -TERM -- "-$ws_pid" 2>/dev/null || true; fi
  if [ -n "$xvfb_pid" ]; then kill -TERM "$xvfb_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# Wireshark runs as nobody when we are root (ws-user.sh): everything it
# reads (the capture, the X cookie, its HOME) lives in a folder it can read.
chmod 0755 "$tmp"
cp "$capture" "$tmp/"
cap=$tmp/$(basename "$capture")
chmod 0644 "$cap"
home=$tmp/home
ws() { "$here/ws-user.sh" "$plugin" --home "$home" -- "$@"; }

# 1. The plugin must load: without it Wireshark's built-in rpcordma would
#    draw a window too, and the screenshot would prove nothing.
#    Wireshark lists a plugin under its file name.
so_name=$(basename "$plugin")
if ! ws tshark -G plugins 2>/dev/null | awk -F'\t' -v n="$so_name" '{sub(/ +$/, "", $1)} $1 == n {f = 1} END {exit !f}'; then
  echo "gui_smoke: tshark -G plugins does not list $so_name: the plugin did not load" >&2
  exit 1
fi
# 2. The filter must keep packets, and the first one is the one shown.
ws tshark -r "$cap" -Y "$filter" -T fields -e frame.number > "$tmp/frames" 2>"$tmp/tshark.err" || {
  echo "gui_smoke: tshark with the plugin failed on $capture:" >&2; tail -5 "$tmp/tshark.err" >&2; exit 1; }
count=$(grep -c . "$tmp/frames" || true)
[ "$count" -gt 0 ] || { echo "gui_smoke: no packet of $capture matches '$filter' with the plugin" >&2; exit 1; }
frame=$(head -1 "$tmp/frames")
echo "gui_smoke: $count packets match '$filter'; showing frame $frame"

# 3. Wireshark's saved window layout, put in its private HOME before it
#    starts (there is no command-line option for geometry or pane sizes).
conf=$home/.config/wireshark
mkdir -p "$conf"
cat > "$conf/recent_common" <<EOF
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: $width
gui.geometry_main_height: $height
gui.geometry_main_maximized: FALSE
privs.warn_if_elevated: FALSE
sys.warn_if_no_capture: FALSE
EOF
# Hover selection off: the pointer, left over the tree after the click
# below, would otherwise highlight a row of its own.
cat > "$conf/recent" <<EOF
gui.packet_list_show: TRUE
gui.tree_view_show: TRUE
gui.byte_view_show: TRUE
gui.allow_hover_selection: FALSE
gui.geometry_main_upper_pane: $list_height
gui.geometry_main_lower_pane: $details_width
EOF

# 4. A private X server on a free display, with a cookie so that no other
#    local user's client can connect to it.
cookie=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export XAUTHORITY=$tmp/Xauthority
for d in $(seq 91 160); do
  if [ -e "/tmp/.X$d-lock" ] || [ -e "/tmp/.X11-unix/X$d" ]; then continue; fi
  : > "$XAUTHORITY"
  xauth -q -f "$XAUTHORITY" add ":$d" . "$cookie"
  Xvfb ":$d" -auth "$XAUTHORITY" -screen 0 "${width}x${height}x24" -nolisten tcp -noreset \
    > "$tmp/xvfb.log" 2>&1 &
  xvfb_pid=$!
  export DISPLAY=:$d
  for _ in $(seq 50); do
    xdotool getdisplaygeometry >/dev/null 2>&1 && break
    kill -0 "$xvfb_pid" 2>/dev/null || break
    sleep 0.2
  done
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  # another server took this display meanwhile: try the next one
  kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; xvfb_pid=""
done
[ -n "$xvfb_pid" ] || { echo "gui_smoke: could not start Xvfb on any display :91-:160" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$home"
  chown -R 65534:65534 "$home" "$XAUTHORITY"
fi

# 5. Wireshark with the plugin, the filter and the packet to go to (-g).
#    setsid: its own process group, so cleanup ends ws-user.sh and the
#    wireshark it started (as nobody) together.
setsid "$here/ws-user.sh" "$plugin" --home "$home" -- \
  wireshark -o gui.layout_type:2 -r "$cap" -Y "$filter" -g "$frame" > "$tmp/wireshark.log" 2>&1 &
ws_pid=$!
alive() { kill -0 "$ws_pid" 2>/dev/null; }
# The main window's title becomes the capture's file name once it is read.
win=""
for _ in $(seq 120); do
  alive || { echo "gui_smoke: wireshark exited early:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }
  win=$(xdotool search --onlyvisible --name "^$(basename "$cap")" 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  sleep 0.5
done
[ -n "$win" ] || { echo "gui_smoke: no Wireshark window showing $(basename "$cap") after 60 s" >&2; exit 1; }
sleep 3   # the display filter and the jump to the frame follow the read

# 6. Open the details tree.  Typed letters go to the display filter bar in
#    Wireshark, so the tree is driven with the pointer and arrow keys only:
#    a click on one of the first rows of the details pane (just below the
#    packet list) gives it the focus.  The top-level items end with
#    RPC-over-RDMA, Remote Procedure Call, Network File System whatever the
#    link (RoCE shows UDP and InfiniBand above them, iWARP only TCP), so
#    End selects NFS and Up, Up RPC-over-RDMA; Shift+Right expands all its
#    subtrees.  End again selects NFS, Right opens it; End once more
#    selects its last item, Data, and Right opens it.  Data stays selected,
#    so the bytes pane switches to the "Rebuilt RPC message" tab and marks
#    the data.
xdotool windowfocus --sync "$win" 2>/dev/null || true
xdotool mousemove 300 $((list_height + 160)) click 1
sleep 0.5
xdotool key End Up Up
sleep 0.3
xdotool key shift+Right
sleep 0.5
xdotool key End Right
sleep 0.5
xdotool key End Right
xdotool mousemove "$((width - 1))" "$((height - 1))"   # out of the panes

# 7. Wait until the screen stops changing, then keep it.
prev=""
for _ in $(seq 30); do
  sleep 0.5
  import -window root "$tmp/shot.png"
  sum=$(convert "$tmp/shot.png" rgb:- | md5sum)
  [ "$sum" = "$prev" ] && break
  prev=$sum
done
alive || { echo "gui_smoke: wireshark died while drawing:" >&2; tail -20 "$tmp/wireshark.log" >&2; exit 1; }

# 8. Not blank: a drawn Wireshark window has thousands of colours (text is
#    antialiased); a black or half-drawn screen has a handful.
colours=$(identify -format '%k' "$tmp/shot.png")
if [ "$colours" -lt 500 ]; then
  echo "gui_smoke: the screenshot has only $colours colours: nothing was drawn" >&2
  cp "$tmp/shot.png" "$out.blank.png"
  exit 1
fi
# 256 colours without dithering keep the text sharp and the file small.
mkdir -p "$(dirname "$out")"
convert "$tmp/shot.png" -strip -dither None -colors 256 "PNG8:$out"
echo "gui_smoke: saved $out ($(stat -c %s "$out") bytes, $colours colours before reduction)"
