# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the GUI tests (sourced, not run): a private X server, Wireshark
# started in it as the plugin's user, windows found and screens saved.
#
#   . tests/gui/xvfb.sh
#   gui_init TMP                 # TMP: a folder the test owns (mode 0755)
#   gui_xvfb WIDTH HEIGHT        # sets DISPLAY, XAUTHORITY
#   gui_profile HOME W H         # recent files: window geometry, no start-up questions
#   gui_wireshark PLUGIN HOME LOG -- wireshark ARGS...   # sets gui_ws_pid
#   gui_window REGEX SECONDS     # prints the id of the first visible window named so
#   gui_snap OUT.png [now]       # the screen, once it stops changing (now: at once)
#   gui_cleanup                  # ends Wireshark and the X server (the EXIT trap calls it)
#
# Wireshark runs through tests/plugin/ws-user.sh (as nobody when we are
# root, with a private HOME and the plugin in its personal folder) in its
# own session, so that ending its process group ends ws-user.sh and it.
gui_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gui_ws_user=$gui_here/../plugin/ws-user.sh
gui_tmp="" gui_xvfb_pid="" gui_ws_pid=""

gui_init() {
  gui_tmp=$1
  local t
  for t in Xvfb xauth xdotool import convert identify tshark wireshark; do
    command -v "$t" >/dev/null || { echo "gui: needs $t (scripts/install-deps.sh)" >&2; exit 2; }
  done
  trap gui_cleanup EXIT
}

gui_cleanup() {
  if [ -n "$gui_ws_pid" ]; then kill -TERM -- "-$gui_ws_pid" 2>/dev/null || true; fi
  if [ -n "$gui_xvfb_pid" ]; then kill -TERM "$gui_xvfb_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  gui_ws_pid="" gui_xvfb_pid=""
}

# A free display with a cookie, so that no other local user's client can
# connect; a display another server takes meanwhile is skipped.
gui_xvfb() {
  local w=$1 h=$2 d cookie
  cookie=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  export XAUTHORITY=$gui_tmp/Xauthority
  for d in $(seq 91 160); do
    if [ -e "/tmp/.X$d-lock" ] || [ -e "/tmp/.X11-unix/X$d" ]; then continue; fi
    : > "$XAUTHORITY"
    xauth -q -f "$XAUTHORITY" add ":$d" . "$cookie"
    Xvfb ":$d" -auth "$XAUTHORITY" -screen 0 "${w}x${h}x24" -nolisten tcp -noreset \
      > "$gui_tmp/xvfb.log" 2>&1 &
    gui_xvfb_pid=$!
    export DISPLAY=:$d
    local _
    for _ in $(seq 50); do
      xdotool getdisplaygeometry >/dev/null 2>&1 && break
      kill -0 "$gui_xvfb_pid" 2>/dev/null || break
      sleep 0.2
    done
    if xdotool getdisplaygeometry >/dev/null 2>&1; then
      [ "$(id -u)" = 0 ] && chown 65534:65534 "$XAUTHORITY"
      return 0
    fi
    kill "$gui_xvfb_pid" 2>/dev/null || true; wait "$gui_xvfb_pid" 2>/dev/null || true; gui_xvfb_pid=""
  done
  echo "gui: could not start Xvfb on any display :91-:160" >&2
  exit 1
}

# Wireshark's saved window layout and the answers to its start-up
# questions, in the private HOME before it starts (no command-line option
# sets them).
gui_profile() {
  local home=$1 w=$2 h=$3 conf=$1/.config/wireshark
  mkdir -p "$conf"
  cat > "$conf/recent_common" <<EOF
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: $w
gui.geometry_main_height: $h
gui.geometry_main_maximized: FALSE
privs.warn_if_elevated: FALSE
sys.warn_if_no_capture: FALSE
EOF
  [ "$(id -u)" = 0 ] && chown -R 65534:65534 "$home"
  return 0
}

gui_wireshark() {
  local plugin=$1 home=$2 log=$3
  shift 3
  [ "$1" = "--" ] && shift
  setsid "$gui_ws_user" "$plugin" --home "$home" -- "$@" > "$log" 2>&1 &
  gui_ws_pid=$!
}

gui_alive() { [ -n "$gui_ws_pid" ] && kill -0 "$gui_ws_pid" 2>/dev/null; }

gui_window() {
  local re=$1 secs=$2 win="" _
  for _ in $(seq $((secs * 2))); do
    win=$(xdotool search --onlyvisible --name "$re" 2>/dev/null | head -1 || true)
    [ -n "$win" ] && { echo "$win"; return 0; }
    sleep 0.5
  done
  return 1
}

# Waits until two screens in a row are equal, then keeps the last one as
# a 256-colour PNG (sharp text, small file).  Fails on a blank screen: a
# drawn Wireshark window has thousands of colours.
gui_snap() {
  local out=$1 prev="" sum colours _ tries=30
  [ "${2:-}" = now ] && tries=1
  for _ in $(seq $tries); do
    sleep 0.5
    import -window root "$gui_tmp/snap.png"
    sum=$(convert "$gui_tmp/snap.png" rgb:- | md5sum)
    [ "$sum" = "$prev" ] && break
    prev=$sum
  done
  colours=$(identify -format '%k' "$gui_tmp/snap.png")
  if [ "$colours" -lt 500 ]; then
    echo "gui: the screen has only $colours colours: nothing was drawn ($out not written)" >&2
    return 1
  fi
  mkdir -p "$(dirname "$out")"
  convert "$gui_tmp/snap.png" -strip -dither None -colors 256 "PNG8:$out"
}
