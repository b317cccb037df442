#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds and tests the Wireshark plugin against Wireshark 4.4, the version
# Debian 13 (trixie) ships, from a Debian 12 host (Wireshark 4.0).  A plugin
# is locked to one Wireshark minor version and 4.4 moved its API from glib
# types to C99 types, so a build against the host's 4.0 says nothing about
# 4.4: this builds the current work tree inside a trixie chroot instead.
#
#   scripts/ws44-check.sh                 build with -Werror, run `ctest -L plugin`
#   scripts/ws44-check.sh --engine-only   no plugin: engine + ulb-lint, `ctest -L unit`
#   scripts/ws44-check.sh --label L       run `ctest -L L` instead (repeatable: -L L1 -L L2 ...)
#   scripts/ws44-check.sh --no-werror     warnings do not fail the build (counted instead), so the
#                                         tests run even while GCC 14 warns where GCC 12 did not
#   scripts/ws44-check.sh --setup-only    only create (or refresh) the chroot
#   scripts/ws44-check.sh --shell         a shell in the chroot, mounts set up, tree copied
#
# Environment:
#   RR_TRIXIE_DIR  the chroot (default /var/cache/rpcrdma-toolkit/trixie); made once
#                  and reused, since debootstrap + the Wireshark -dev packages take minutes
#   RR_MIRROR      Debian mirror (default http://deb.debian.org/debian)
#   RR_JOBS        build jobs (default 1: the machines have 2 cores, shared)
#   RR_KEEP_BUILD  1 keeps /src/build-44 from the last run (incremental; default 0:
#                  a fresh build, so every warning is seen and the timing is honest)
#
# Needs root (debootstrap, chroot, mounts).  The build log is left at
# $RR_TRIXIE_DIR/src/build-44/ws44-build.log.  Exit status: 0 when the build
# and the tests passed, 1 when they did not, 2 for a usage or setup error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
root=${RR_TRIXIE_DIR:-/var/cache/rpcrdma-toolkit/trixie}
mirror=${RR_MIRROR:-http://deb.debian.org/debian}
jobs=${RR_JOBS:-1}
keep_build=${RR_KEEP_BUILD:-0}

mode=plugin werror=ON setup_only=0 shell=0
labels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine-only) mode=engine ;;
    --label|-L) labels+=("${2:?--label needs a value}"); shift ;;
    --no-werror) werror=OFF ;;
    --setup-only) setup_only=1 ;;
    --shell) shell=1 ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "ws44-check: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "${#labels[@]}" -eq 0 ]; then
  if [ "$mode" = plugin ]; then labels=(plugin); else labels=(unit); fi
fi

# Everything the build and the tests use inside the chroot.  util-linux gives
# setpriv, which tests/plugin/ws-user.sh drops to the user nobody with (a
# Wireshark run as root ignores personal plugins); python3 runs the
# integration checks; tshark loads the plugin.
pkgs=(build-essential cmake pkg-config libglib2.0-dev libpcap-dev libcmocka-dev
      libwireshark-dev wireshark-dev tshark python3 util-linux)

die() { echo "ws44-check: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and mounts)"
case "$root" in /|"") die "RR_TRIXIE_DIR must not be /" ;; esac

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# --- mounts, always undone -------------------------------------------------
# The chroot needs /proc (cmake, ctest, tshark read it) and /dev (null,
# urandom, ptys for apt).  They are bind mounts of the host's, so they must
# never outlive this script: an `rm -rf` of a cache with /dev still bound in
# it would empty the host's /dev.  Every mount is recorded and undone, in
# reverse, on any exit.
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null ||
      echo "ws44-check: could not unmount ${mounted[i]}" >&2
  done
  mounted=()
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mount_in() {  # mount_in TARGET_DIR mount-args...
  local target=$1; shift
  mkdir -p "$target"
  mountpoint -q "$target" && return 0   # another run of ours holds it (we hold the lock, so a leftover)
  mount "$@" "$target"
  mounted+=("$target")
}
setup_mounts() {
  local r=$1
  mount_in "$r/proc" -t proc proc
  mount_in "$r/dev" --bind /dev
  mount_in "$r/dev/pts" --bind /dev/pts
}
in_root() {  # in_root ROOT command...: a clean environment, so no host variable leaks in
  local r=$1; shift
  chroot "$r" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LC_ALL=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive "$@"
}
no_mounts_under() {  # true when nothing is mounted at or below $1
  ! awk -v p="$1" '$2 == p || index($2, p "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts
}

# One run at a time per chroot: two would fight over /src and the mounts.
mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock -n 9 || { echo "ws44-check: waiting for another run on $root" >&2; flock 9; }

# --- the chroot, made once --------------------------------------------------
# Made in $root.new and renamed when complete, so an interrupted debootstrap
# never leaves a half chroot that a later run would take for a finished one.
# The stamp holds the package list: adding a package to $pkgs installs it
# into the existing chroot instead of starting over.
stamp=$root/.rr-ws44-ready
want_stamp="${pkgs[*]}"
t_setup0=$(now)
setup_note="cached"
install_pkgs() {
  local r=$1
  cp /etc/resolv.conf "$r/etc/resolv.conf"   # apt inside needs a resolver
  # No package may start a service in a chroot.
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
  chmod 0755 "$r/usr/sbin/policy-rc.d"
  setup_mounts "$r"
  # wireshark-common asks whether non-root users may capture; answer it
  # first, or the install stops at a question nobody sees.
  echo "wireshark-common wireshark-common/install-setuid boolean false" |
    in_root "$r" debconf-set-selections
  in_root "$r" apt-get update -qq
  in_root "$r" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >"$root.apt.log" 2>&1 ||
    { tail -30 "$root.apt.log" >&2; die "apt-get install in the chroot failed (log: $root.apt.log)"; }
  in_root "$r" apt-get clean
  cleanup
}
if [ ! -f "$stamp" ]; then
  setup_note="created"
  command -v debootstrap >/dev/null || {
    echo "ws44-check: installing debootstrap on the host" >&2
    apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  }
  new=$root.new
  [ -d "$root" ] && { no_mounts_under "$root" || die "something is mounted under $root; unmount it first"; }
  if [ -d "$new" ]; then
    no_mounts_under "$new" || die "something is mounted under $new; unmount it first"
    rm -rf --one-file-system "$new"
  fi
  echo "ws44-check: creating the trixie chroot in $root (debootstrap, a few minutes)" >&2
  debootstrap --variant=minbase trixie "$new" "$mirror" >"$root.debootstrap.log" 2>&1 ||
    { tail -30 "$root.debootstrap.log" >&2; die "debootstrap failed (log: $root.debootstrap.log)"; }
  install_pkgs "$new"
  echo "$want_stamp" >"$new/.rr-ws44-ready"
  if [ -d "$root" ]; then rm -rf --one-file-system "$root"; fi
  mv "$new" "$root"
elif [ "$(cat "$stamp")" != "$want_stamp" ]; then
  setup_note="updated"
  echo "ws44-check: the package list changed; installing into the existing chroot" >&2
  install_pkgs "$root"
  echo "$want_stamp" >"$stamp"
fi
t_setup=$(secs "$t_setup0" "$(now)")
wsh=$root/usr/include/wireshark/ws_version.h
[ -f "$wsh" ] || die "no $wsh in the chroot: is libwireshark-dev installed there?"
ws_ver=$(awk '/#define WIRESHARK_VERSION_(MAJOR|MINOR|MICRO)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' "$wsh")
ws_pkg=$(chroot "$root" dpkg-query -W -f='${Version}' libwireshark-dev)
echo "ws44-check: chroot $setup_note in ${t_setup}s: $root, Wireshark $ws_ver (libwireshark-dev $ws_pkg)"
[ "$setup_only" = 1 ] && exit 0

# --- the work tree, as it is now -------------------------------------------
# Not just HEAD: tracked files as they are on disk plus untracked ones that
# .gitignore does not hide, so uncommitted work (a plugin being written) is
# what gets built.  Build directories are left out (gitignored, and skipped
# here again in case one is not).  /src is replaced whole except its build
# directory when RR_KEEP_BUILD=1.
src=$root/src
no_mounts_under "$src" || die "something is mounted under $src"
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! \( -name build-44 -a -type d \) -exec rm -rf --one-file-system {} +
[ "$keep_build" = 1 ] || rm -rf --one-file-system "$src/build-44"
(cd "$repo" && git ls-files -z -co --exclude-standard |
  while IFS= read -r -d '' f; do
    case "$f" in build/*|build-*/*) continue ;; esac
    [ -e "$f" ] || [ -L "$f" ] || continue   # tracked but deleted in the work tree
    printf '%s\0' "$f"
  done | tar --null --no-recursion -cf - -T -) | tar -xf - -C "$src" --no-same-owner
nfiles=$(find "$src" -path "$src/build-44" -prune -o -type f -print | wc -l)
echo "ws44-check: copied $nfiles files of the work tree to $src"

setup_mounts "$root"
if [ "$shell" = 1 ]; then
  echo "ws44-check: shell in the chroot (exit to unmount)" >&2
  in_root "$root" bash -c 'cd /src && exec bash -i' || true
  exit 0
fi

# --- build and test ----------------------------------------------------------
cmake_args=(-DRR_WERROR="$werror")
if [ "$mode" = engine ]; then
  # plugin/CMakeLists.txt skips the plugin when find_package(Wireshark) fails.
  cmake_args+=(-DCMAKE_DISABLE_FIND_PACKAGE_Wireshark=ON)
elif [ ! -f "$repo/plugin/src/packet-rpcrdma.c" ]; then
  die "no plugin/src/packet-rpcrdma.c in the work tree yet; use --engine-only"
fi
log=$src/build-44/ws44-build.log
mkdir -p "$src/build-44"
t_build0=$(now)
status=0
{
  in_root "$root" cmake -S /src -B /src/build-44 "${cmake_args[@]}" &&
  # -k: with -Werror, go on past a failing file so one run shows every error.
  in_root "$root" cmake --build /src/build-44 -j"$jobs" -- -k
} >"$log" 2>&1 || status=$?
t_build=$(secs "$t_build0" "$(now)")
# Diagnostics from our sources only (Wireshark's headers are SYSTEM includes).
nwarn=$(grep -cE '^/src/[^:]+:[0-9]+:[0-9]+: (warning|error: .*\[-W)' "$log" || true)
nerr=$(grep -cE '^/src/[^:]+:[0-9]+:[0-9]+: (fatal )?error:' "$log" || true)
if [ "$status" != 0 ]; then
  grep -E '^/src/[^:]+:[0-9]+:[0-9]+: (fatal )?(warning|error)' "$log" | sed 's/^/  /' >&2 || tail -40 "$log" >&2
  echo "ws44-check: Wireshark $ws_ver: build FAILED ($nerr errors, $nwarn from warnings) in ${t_build}s; log: $log" >&2
  exit 1
fi
if [ "$mode" = plugin ] && [ ! -f "$src/build-44/plugin/epan/rpcrdma.so" ]; then
  echo "ws44-check: Wireshark $ws_ver: the build passed but made no plugin/epan/rpcrdma.so (was the plugin skipped? see $log)" >&2
  exit 1
fi
if [ "$werror" = ON ]; then built="built warning-free"
else built="built with $(grep -cE '^/src/[^:]+:[0-9]+:[0-9]+: warning' "$log" || true) warnings"; fi
what=$([ "$mode" = plugin ] && echo plugin || echo "engine + ulb-lint")

t_test0=$(now)
lsel=$(IFS='|'; echo "${labels[*]}")
lsel="^(${lsel})\$"
ntests=$(in_root "$root" sh -c "cd /src/build-44 && ctest -N -L '$lsel'" | awk '/^Total Tests:/ { print $3 }')
tstatus=0
if [ "${ntests:-0}" -gt 0 ]; then
  tlog=$src/build-44/ws44-test.log
  in_root "$root" sh -c "cd /src/build-44 && ctest -L '$lsel' -j$jobs --output-on-failure" 2>&1 |
    tee "$tlog" || tstatus=$?
  nfail=$(awk '/tests passed, [0-9]+ tests? failed out of/ { print $4 }' "$tlog")
  if [ "$tstatus" = 0 ]; then
    result="$ntests ${labels[*]} tests passed"
  else
    result="${nfail:-some} of $ntests ${labels[*]} tests FAILED (log: $tlog)"
  fi
elif [ "$mode" = plugin ]; then
  # No test is labelled plugin yet: at least Wireshark 4.4 must load it.
  echo "ws44-check: no test has label ${labels[*]}; checking that tshark -G plugins lists rpcrdma"
  out=$(in_root "$root" sh -c 'cd /src && tests/plugin/ws-user.sh build-44/plugin/epan/rpcrdma.so -- tshark -G plugins' 2>&1) || tstatus=$?
  if [ "$tstatus" = 0 ] && printf '%s\n' "$out" | grep -q '^rpcrdma\.so'; then
    printf '%s\n' "$out" | grep '^rpcrdma\.so' | sed 's/^/  /'
    result="no plugin tests yet; tshark -G plugins lists rpcrdma.so"
  else
    printf '%s\n' "$out" | sed 's/^/  /' >&2
    tstatus=1
    result="tshark -G plugins does NOT list rpcrdma.so"
  fi
else
  tstatus=1
  result="no test has label ${labels[*]}"
fi
t_test=$(secs "$t_test0" "$(now)")
echo "ws44-check: timings: chroot ${t_setup}s ($setup_note), build ${t_build}s, tests ${t_test}s, build+test $((t_build + t_test))s"
echo "ws44-check: Wireshark $ws_ver: $what $built, $result"
[ "$tstatus" = 0 ] || exit 1
