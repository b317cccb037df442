#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds and tests the Wireshark plugin against one Wireshark version, the
# one a Debian release ships: 4.0 (Debian 12, this host), 4.4 (Debian 13,
# trixie) or 4.6 (sid).  A plugin is locked to one Wireshark minor version
# and the API changes between them, so a build against the host's 4.0 says
# nothing about the others: 4.4 and 4.6 build the current work tree inside a
# chroot of their release.
#
#   scripts/ws-check.sh VERSION                build with -Werror, run `ctest -L plugin`
#   scripts/ws-check.sh VERSION --deb          then make the plugin's .deb (scripts/make-deb.sh),
#                                              install it with dpkg -i in the chroot, check that
#                                              `tshark -G plugins` lists it from the global folder
#                                              (as root and as nobody), run lintian, purge it
#   scripts/ws-check.sh VERSION --engine-only  no plugin: engine + ulb-lint, `ctest -L unit`
#   scripts/ws-check.sh VERSION --label L      run `ctest -L L` instead (repeatable: -L L1 -L L2 ...)
#   scripts/ws-check.sh VERSION --no-werror    warnings do not fail the build (counted instead)
#   scripts/ws-check.sh VERSION --setup-only   only create (or refresh) the chroot
#   scripts/ws-check.sh VERSION --shell        a shell in the chroot, mounts set up, tree copied
#
# VERSION: 4.0 builds on the host in build-ws4.0/ (its --deb is installed in
# a Debian 12 chroot, never on the host; --shell is refused); 4.4 in a
# trixie chroot, 4.6 in a sid chroot.  The .debs are copied to build-debs/.
#
# Environment:
#   RR_CHROOT_DIR  the chroot (default /var/cache/rpcrdma-toolkit/<codename>;
#                  for 4.0, the install chroot .../bookworm-ws); made once and
#                  reused, since debootstrap + the Wireshark -dev packages take
#                  minutes.  An interrupted setup resumes after debootstrap.
#   RR_MIRROR      Debian mirror (default http://deb.debian.org/debian)
#   RR_JOBS        build and test jobs (default 1: the machines have 2 cores, shared)
#   RR_KEEP_BUILD  1 keeps the build directory of the last run (incremental;
#                  default 0: a fresh build, so every warning is seen and the
#                  timing is honest)
#
# 4.4 and 4.6, and --deb, need root (debootstrap, chroot, mounts).  The build
# log is left at <chroot>/src/build-wsVERSION/ws-build.log (4.0:
# build-ws4.0/ws-build.log).  Exit status: 0 when the build and the tests
# (and the package checks) passed, 1 when they did not, 2 for a usage or
# setup error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mirror=${RR_MIRROR:-http://deb.debian.org/debian}
jobs=${RR_JOBS:-1}
keep_build=${RR_KEEP_BUILD:-0}

die() { echo "ws-check: $*" >&2; exit 2; }
ver="" mode=plugin werror=ON setup_only=0 shell=0 deb=0
labels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine-only) mode=engine ;;
    --label|-L) labels+=("${2:?--label needs a value}"); shift ;;
    --no-werror) werror=OFF ;;
    --setup-only) setup_only=1 ;;
    --shell) shell=1 ;;
    --deb) deb=1 ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (try --help)" ;;
    *) [ -z "$ver" ] || die "one VERSION only (got $ver and $1)"; ver=$1 ;;
  esac
  shift
done
host=0
case "$ver" in
  4.0) codename=bookworm host=1 ;;
  4.4) codename=trixie ;;
  4.6) codename=sid ;;
  "") die "which Wireshark? scripts/ws-check.sh 4.0|4.4|4.6 [options] (try --help)" ;;
  *) die "unsupported Wireshark version $ver: 4.0 (host), 4.4 (trixie) or 4.6 (sid)" ;;
esac
if [ "${#labels[@]}" -eq 0 ]; then
  if [ "$mode" = plugin ]; then labels=(plugin); else labels=(unit); fi
fi
[ "$deb" = 1 ] && [ "$mode" = engine ] && die "--deb packages the plugin: not with --engine-only"
[ "$host" = 1 ] && [ "$shell" = 1 ] && die "4.0 builds on the host: there is no chroot to open a shell in"
[ "$host" = 1 ] && [ "$setup_only" = 1 ] && [ "$deb" = 0 ] &&
  die "4.0 builds on the host: --setup-only makes only the install chroot of --deb (add --deb)"
use_chroot=$((host == 0 || deb == 1))

# Everything the build, the tests and the package checks use inside a build
# chroot.  util-linux gives setpriv, which tests/plugin/ws-user.sh drops to
# the user nobody with (a Wireshark run as root ignores personal plugins);
# python3 runs the integration checks; tshark loads the plugin; dpkg-dev
# (build-essential) and lintian are for --deb.  The 4.0 install chroot only
# installs the package and runs it.
if [ "$host" = 1 ]; then
  pkgs=(tshark util-linux lintian)
  root=${RR_CHROOT_DIR:-/var/cache/rpcrdma-toolkit/bookworm-ws}
else
  pkgs=(build-essential cmake pkg-config libglib2.0-dev libpcap-dev libcmocka-dev
        libwireshark-dev wireshark-dev tshark python3 util-linux lintian)
  root=${RR_CHROOT_DIR:-/var/cache/rpcrdma-toolkit/$codename}
fi
root=${root%/}
if [ "$use_chroot" = 1 ]; then
  [ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and mounts)"
  case "$root" in /|"") die "RR_CHROOT_DIR must not be /" ;; esac
fi

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# --- mounts, always undone -------------------------------------------------
# The chroot needs /proc (cmake, ctest, tshark read it) and /dev (null,
# urandom, ptys for apt).  They are bind mounts of the host's, so they must
# never outlive this script: an `rm -rf` of a cache with /dev still bound in
# it would empty the host's /dev.  Every mount is recorded and undone, in
# reverse, on any exit; a package --deb installed is purged before that, so
# the cached chroot never keeps it.
mounted=()
installed_pkg=""
cleanup() {
  local i
  if [ -n "$installed_pkg" ]; then
    in_root "$root" dpkg --purge "$installed_pkg" >/dev/null 2>&1 ||
      echo "ws-check: could not purge $installed_pkg from $root" >&2
    installed_pkg=""
  fi
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null ||
      echo "ws-check: could not unmount ${mounted[i]}" >&2
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

t_setup=0 setup_note="not needed"
if [ "$use_chroot" = 1 ]; then
  # One run at a time per chroot: two would fight over /src and the mounts.
  mkdir -p "$(dirname "$root")"
  exec 9>"$root.lock"
  flock -n 9 || { echo "ws-check: waiting for another run on $root" >&2; flock 9; }
  # shellcheck source=scripts/ws-chroot.sh
  . "$here/ws-chroot.sh"
  t_setup0=$(now)
  ensure_chroot
  t_setup=$(secs "$t_setup0" "$(now)")
fi

# --- the Wireshark of the build -----------------------------------------------
if [ "$host" = 1 ]; then wsh=/usr/include/wireshark/ws_version.h; else wsh=$root/usr/include/wireshark/ws_version.h; fi
[ -f "$wsh" ] || die "no $wsh: is libwireshark-dev installed there?"
ws_ver=$(awk '/#define WIRESHARK_VERSION_(MAJOR|MINOR|MICRO)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' "$wsh")
case "$ws_ver" in
  "$ver".*) ;;
  *) die "$codename ships Wireshark $ws_ver, not $ver: update the VERSION to codename table in $0" ;;
esac
if [ "$host" = 1 ]; then
  ws_pkg=$(dpkg-query -W -f='${Version}' libwireshark-dev)
  echo "ws-check: host build, Wireshark $ws_ver (libwireshark-dev $ws_pkg)"
  [ "$deb" = 1 ] && echo "ws-check: install chroot $setup_note in ${t_setup}s: $root"
else
  ws_pkg=$(chroot "$root" dpkg-query -W -f='${Version}' libwireshark-dev)
  echo "ws-check: chroot $setup_note in ${t_setup}s: $root, Wireshark $ws_ver (libwireshark-dev $ws_pkg)"
fi
[ "$setup_only" = 1 ] && exit 0

# --- the work tree, as it is now -------------------------------------------
# The host builds the tree in place.  A chroot gets a copy of it, not just
# HEAD: tracked files as they are on disk plus untracked ones that
# .gitignore does not hide, so uncommitted work (a plugin being written) is
# what gets built.  Build directories are left out (gitignored, and skipped
# here again in case one is not).  /src is replaced whole except its build
# directories when RR_KEEP_BUILD=1.
bname=build-ws$ver
if [ "$host" = 1 ]; then
  S=$repo
  run() { "$@"; }
else
  S=/src
  run() { in_root "$root" "$@"; }
  src=$root/src
  no_mounts_under "$src" || die "something is mounted under $src"
  mkdir -p "$src"
  find "$src" -mindepth 1 -maxdepth 1 ! \( -name "build-*" -a -type d \) -exec rm -rf --one-file-system {} +
  (cd "$repo" && git ls-files -z -co --exclude-standard |
    while IFS= read -r -d '' f; do
      case "$f" in build/*|build-*/*) continue ;; esac
      [ -e "$f" ] || [ -L "$f" ] || continue   # tracked but deleted in the work tree
      printf '%s\0' "$f"
    done | tar --null --no-recursion -cf - -T -) | tar -xf - -C "$src" --no-same-owner
  nfiles=$(find "$src" -path "$src/build-*" -prune -o -type f -print | wc -l)
  echo "ws-check: copied $nfiles files of the work tree to $src"
  setup_mounts "$root"
  if [ "$shell" = 1 ]; then
    echo "ws-check: shell in the chroot (exit to unmount)" >&2
    in_root "$root" bash -c 'cd /src && exec bash -i' || true
    exit 0
  fi
fi
B=$S/$bname            # as the build sees it
HB=$repo/$bname        # as this script sees it
[ "$host" = 1 ] || HB=$root$B
[ "$keep_build" = 1 ] || rm -rf --one-file-system "$HB"

# --- build and test ----------------------------------------------------------
cmake_args=(-DRR_WERROR="$werror")
if [ "$mode" = engine ]; then
  # plugin/CMakeLists.txt skips the plugin when find_package(Wireshark) fails.
  cmake_args+=(-DCMAKE_DISABLE_FIND_PACKAGE_Wireshark=ON)
elif [ ! -f "$repo/plugin/src/packet-rpcrdma.c" ]; then
  die "no plugin/src/packet-rpcrdma.c in the work tree yet; use --engine-only"
fi
log=$HB/ws-build.log
mkdir -p "$HB"
t_build0=$(now)
status=0
{
  run cmake -S "$S" -B "$B" "${cmake_args[@]}" &&
  # -k: with -Werror, go on past a failing file so one run shows every error.
  run cmake --build "$B" -j"$jobs" -- -k
} >"$log" 2>&1 || status=$?
t_build=$(secs "$t_build0" "$(now)")
# Diagnostics from our sources only (Wireshark's headers are SYSTEM includes).
ours="^$S/[^:]+:[0-9]+:[0-9]+: "
nwarn=$(grep -cE "$ours(warning|error: .*\\[-W)" "$log" || true)
nerr=$(grep -cE "$ours(fatal )?error:" "$log" || true)
if [ "$status" != 0 ]; then
  grep -E "$ours(fatal )?(warning|error)" "$log" | sed 's/^/  /' >&2 || tail -40 "$log" >&2
  echo "ws-check: Wireshark $ws_ver: build FAILED ($nerr errors, $nwarn from warnings) in ${t_build}s; log: $log" >&2
  exit 1
fi
if [ "$mode" = plugin ] && [ ! -f "$HB/plugin/epan/rpcrdma.so" ]; then
  echo "ws-check: Wireshark $ws_ver: the build passed but made no plugin/epan/rpcrdma.so (was the plugin skipped? see $log)" >&2
  exit 1
fi
if [ "$werror" = ON ]; then built="built warning-free"
else built="built with $(grep -cE "${ours}warning" "$log" || true) warnings"; fi
what=$([ "$mode" = plugin ] && echo plugin || echo "engine + ulb-lint")

t_test0=$(now)
lsel=$(IFS='|'; echo "${labels[*]}")
lsel="^(${lsel})\$"
ntests=$(run sh -c "cd '$B' && ctest -N -L '$lsel'" | awk '/^Total Tests:/ { print $3 }')
tstatus=0
if [ "${ntests:-0}" -gt 0 ]; then
  tlog=$HB/ws-test.log
  run sh -c "cd '$B' && ctest -L '$lsel' -j$jobs --output-on-failure" 2>&1 | tee "$tlog" || tstatus=$?
  nfail=$(awk '/tests passed, [0-9]+ tests? failed out of/ { print $4 }' "$tlog")
  if [ "$tstatus" = 0 ]; then
    result="$ntests ${labels[*]} tests passed"
  else
    result="${nfail:-some} of $ntests ${labels[*]} tests FAILED (log: $tlog)"
  fi
else
  tstatus=1
  result="no test has label ${labels[*]}"
fi
t_test=$(secs "$t_test0" "$(now)")
echo "ws-check: timings: chroot ${t_setup}s ($setup_note), build ${t_build}s, tests ${t_test}s, build+test $((t_build + t_test))s"
echo "ws-check: Wireshark $ws_ver: $what $built, $result"
[ "$tstatus" = 0 ] || exit 1
[ "$deb" = 1 ] || exit 0

# --- the package ------------------------------------------------------------
t_deb0=$(now)
epoch=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)
# The chroot has no git: the Maintainer comes from the host's identity.
maint=${RR_DEB_MAINTAINER:-$(git -C "$repo" config user.name 2>/dev/null || true) <$(git -C "$repo" config user.email 2>/dev/null || true)>}
[ "$maint" != " <>" ] || die "set RR_DEB_MAINTAINER='Name <address>' for the package (no git identity here)"
dlog=$HB/make-deb.log
if [ "$host" = 1 ]; then
  SOURCE_DATE_EPOCH=$epoch RR_JOBS=$jobs RR_DEB_MAINTAINER=$maint "$repo/scripts/make-deb.sh" \
    --build "$repo/build-deb-ws$ver" --out "$repo/build-debs" >"$dlog" 2>&1 || dstatus=$?
else
  run env SOURCE_DATE_EPOCH="$epoch" RR_JOBS="$jobs" RR_DEB_MAINTAINER="$maint" /src/scripts/make-deb.sh \
    --build "/src/build-deb-ws$ver" --out /src/build-debs >"$dlog" 2>&1 || dstatus=$?
fi
if [ "${dstatus:-0}" != 0 ]; then
  sed 's/^/  /' "$dlog" >&2
  echo "ws-check: Wireshark $ws_ver: make-deb.sh FAILED (log: $dlog)" >&2
  exit 1
fi
sed -n '$!s/^/  /p' "$dlog"
made=$(tail -n 1 "$dlog")
hdeb=$made
[ "$host" = 1 ] || hdeb=$root$made
mkdir -p "$repo/build-debs"
[ "$host" = 1 ] || cp "$hdeb" "$repo/build-debs/"
debfile=$repo/build-debs/$(basename "$made")
check_deb "$debfile"   # from ws-chroot.sh: sets deb_result, exits 1 on a failure
echo "ws-check: timings: package and checks $(secs "$t_deb0" "$(now)")s"
echo "ws-check: Wireshark $ws_ver: $debfile: $deb_result"
