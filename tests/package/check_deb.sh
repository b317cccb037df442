#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package, end to end:
#   1. configures a fresh build of SRC_DIR the way the package must be made
#      (-DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr, Release),
#      builds what the package holds (target deb-payload) and runs
#      `cpack -G DEB`;
#   2. checks the .deb's contents (dpkg-deb -c) and control fields;
#   3. installs it with `apt-get install ./rpcrdma-toolkit_*.deb` into a
#      clean Debian 12 (bookworm) minbase chroot, so its dependencies come
#      from the archive, and there runs `tshark -G plugins` as nobody
#      (rpcrdma.so must be listed, with our version, from the global plugin
#      folder), `ulb-lint --help`, and looks for the man pages; then purges
#      the package and checks nothing of it is left.
#
#   tests/package/check_deb.sh [SRC_DIR]          (default: this tree)
#   tests/package/check_deb.sh --cached-only ...  (exit 77 if the chroot cache is missing)
#
# The pristine chroot is made once with debootstrap and kept in
# $RR_BOOKWORM_DIR (default /var/cache/rpcrdma-toolkit/bookworm); each run
# installs into a throw-away overlay of it (or a `cp -a` copy where overlayfs
# cannot be mounted), so the cache itself never holds anything of ours.
# Downloaded .debs of the archive are kept in $RR_BOOKWORM_DIR-apt-archives.
#
# Environment: RR_BOOKWORM_DIR, RR_DEB_MIRROR (default
# http://deb.debian.org/debian), RR_DEB_SECURITY_MIRROR (default
# http://deb.debian.org/debian-security), RR_PKG_BUILD_DIR (build directory;
# default a temporary one, removed at the end), RR_PKG_JOBS (default 2),
# RR_PKG_REQUIRE_PLUGIN=1 (fail instead of skipping the plugin checks when
# the build has no rpcrdma_plugin target).
#
# Needs root (debootstrap, chroot, mount), cmake, cpack, dpkg-deb and
# debootstrap; exits 77 (skipped) without them.  Exit 0: PASS, 1: FAIL.
set -euo pipefail

cached_only=0
if [ "${1:-}" = "--cached-only" ]; then cached_only=1; shift; fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
cache=${RR_BOOKWORM_DIR:-/var/cache/rpcrdma-toolkit/bookworm}
cache=${cache%/}
archives="$cache-apt-archives"
mirror=${RR_DEB_MIRROR:-http://deb.debian.org/debian}
secmirror=${RR_DEB_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
jobs=${RR_PKG_JOBS:-2}
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

t0=$(date +%s)
stage_t=$t0
timings=()
lap() { # lap NAME: record the time since the previous lap
  local now; now=$(date +%s)
  timings+=("$1 $((now - stage_t))s")
  stage_t=$now
}
say() { printf 'check_deb: %s\n' "$*"; }
result_printed=0
fail() {
  say "FAIL: $*"
  result_printed=1
  exit 1
}
skip() {
  say "SKIP: $*"
  result_printed=1
  exit 77
}

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, chroot, mount)"
for tool in cmake cpack dpkg-deb debootstrap chroot mount; do
  command -v "$tool" >/dev/null || skip "$tool not found (scripts/install-deps.sh installs what is needed)"
done
if [ "$cached_only" = 1 ] && [ ! -x "$cache/usr/bin/apt-get" ]; then
  skip "no chroot cache at $cache (--cached-only); run without it once to make it"
fi

# --- cleanup -------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rr-check-deb.XXXXXX")
root="$work/root"
mounts=()   # unmounted in reverse order
cleanup() {
  local rc=$? i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
  # Never follow into a root that is still mounted on.
  if ! grep -q " $work/" /proc/mounts; then
    rm -rf "$work"
  else
    echo "check_deb: left $work behind: something is still mounted under it" >&2
  fi
  if [ "$rc" -ne 0 ] && [ "$result_printed" = 0 ]; then
    say "FAIL: stopped by an error (exit $rc) after $(( $(date +%s) - t0 ))s; see above"
  fi
}
trap cleanup EXIT
trap 'echo "check_deb: error at line $LINENO: $BASH_COMMAND" >&2' ERR

# --- 1. build and package ----------------------------------------------------------
build=${RR_PKG_BUILD_DIR:-$work/build}
say "source $src, build $build"
rm -rf "$build/_CPack_Packages" "$build"/*.deb 2>/dev/null || true
cmake -S "$src" -B "$build" -DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON > "$work/configure.log" 2>&1 \
  || { tail -40 "$work/configure.log"; fail "cmake configure failed"; }
grep -E 'rpcrdma:' "$work/configure.log" | sed 's/^/  /' || true
# Only what the package holds (cmake/Packaging.cmake's deb-payload), not the tests.
cmake --build "$build" -j"$jobs" --target deb-payload > "$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; fail "build failed"; }
lap build
(cd "$build" && cpack -G DEB) > "$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
lap cpack
[ -f "$build/deb/package.env" ] || fail "$build/deb/package.env missing: is cmake/Packaging.cmake included?"
RR_PKG_PLUGIN=0 RR_PKG_PLUGIN_DIR="" RR_PKG_PLUGIN_DEPENDS="" RR_PKG_AGENT=0
# shellcheck disable=SC1091
. "$build/deb/package.env"
debs=("$build"/rpcrdma-toolkit_*.deb)
[ -f "${debs[0]}" ] || fail "cpack made no rpcrdma-toolkit_*.deb in $build"
[ "${#debs[@]}" = 1 ] || fail "more than one .deb in $build: ${debs[*]}"
deb=${debs[0]}
say "package $(basename "$deb") ($(stat -c %s "$deb") bytes)"

if [ "$RR_PKG_PLUGIN" = 1 ]; then
  plugin=1
else
  plugin=0
  [ "${RR_PKG_REQUIRE_PLUGIN:-0}" = 1 ] && fail "the build has no rpcrdma_plugin target (RR_PKG_REQUIRE_PLUGIN=1)"
  say "NOTE: plugin checks skipped: this build has no rpcrdma_plugin target (plugin sources not complete, or libwireshark-dev missing); the .deb holds ulb-lint only"
fi

# --- 2. contents and control -------------------------------------------------------
dpkg-deb -c "$deb" > "$work/contents"
dpkg-deb -f "$deb" > "$work/control"
sed 's/^/  /' "$work/contents"
grep -E '^(Package|Version|Depends|Recommends|Suggests|Section):' "$work/control" | sed 's/^/  /'
has() { awk '{print $NF}' "$work/contents" | grep -qxF "$1"; }
want=(./usr/bin/ulb-lint ./usr/share/man/man1/ulb-lint.1.gz ./usr/share/doc/rpcrdma-toolkit/copyright)
if [ "$plugin" = 1 ]; then
  [ -n "$RR_PKG_PLUGIN_DIR" ] || fail "the plugin is built but Packaging.cmake could not name its folder"
  want+=(".$RR_PKG_PLUGIN_DIR/rpcrdma.so" ./usr/share/man/man7/rpcrdma-plugin.7.gz)
fi
if [ "${RR_PKG_AGENT:-0}" = 1 ]; then
  want+=(./usr/bin/rpcrdma-agent ./usr/share/man/man8/rpcrdma-agent.8.gz)
fi
for f in "${want[@]}"; do
  has "$f" || fail "the .deb lacks $f"
done
if awk '{print $NF}' "$work/contents" | grep -v '^\./usr/' | grep -v '^\./$'; then
  fail "the .deb holds files outside /usr (above)"
fi
if awk '{print $NF}' "$work/contents" | grep -E 'rpcrdma\.so$' | grep -vxF ".$RR_PKG_PLUGIN_DIR/rpcrdma.so"; then
  fail "rpcrdma.so is in the .deb outside the global plugin folder (above)"
fi
[ "$(dpkg-deb -f "$deb" Version)" = "$RR_PKG_VERSION" ] || fail "the .deb's Version is not $RR_PKG_VERSION"
[ "$(dpkg-deb -f "$deb" Section)" = net ] || fail "the .deb's Section is not net"
depends=$(dpkg-deb -f "$deb" Depends)
if [ "$plugin" = 1 ]; then
  # Every clause of the computed range must be in Depends.
  IFS=',' read -ra clauses <<< "$RR_PKG_PLUGIN_DEPENDS"
  [ "${#clauses[@]}" -ge 2 ] || fail "no libwireshark version range was computed (RR_PKG_PLUGIN_DEPENDS='$RR_PKG_PLUGIN_DEPENDS')"
  for c in "${clauses[@]}"; do
    c=$(echo "$c" | sed 's/^ *//; s/ *$//')
    case ", $depends," in *", $c,"*) ;; *) fail "Depends lacks '$c': $depends" ;; esac
  done
  case "$(dpkg-deb -f "$deb" Recommends)" in *tshark*) ;; *) fail "tshark is not recommended" ;; esac
fi
lap contents

# --- 3. a clean Debian 12 chroot -----------------------------------------------------
if [ ! -x "$cache/usr/bin/apt-get" ]; then
  say "making the pristine chroot $cache (debootstrap minbase bookworm from $mirror; once)"
  mkdir -p "$(dirname "$cache")"
  exec 9> "$cache.lock"
  flock 9
  if [ ! -x "$cache/usr/bin/apt-get" ]; then
    new="$cache.new"
    rm -rf "$new"
    debootstrap --variant=minbase bookworm "$new" "$mirror" > "$work/debootstrap.log" 2>&1 \
      || { tail -30 "$work/debootstrap.log"; fail "debootstrap failed (log above)"; }
    cat > "$new/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $secmirror bookworm-security main
EOF
    printf '#!/bin/sh\nexit 101\n' > "$new/usr/sbin/policy-rc.d"
    chmod 0755 "$new/usr/sbin/policy-rc.d"
    # Package lists as of now: each run only fetches what changed since.
    cat /etc/resolv.conf > "$new/etc/resolv.conf"
    mount -t proc proc "$new/proc"
    mounts+=("$new/proc")
    chroot "$new" apt-get update -qq > "$work/update.log" 2>&1 || { cat "$work/update.log"; fail "apt-get update in the new chroot failed"; }
    umount "$new/proc"
    unset 'mounts[-1]'
    chroot "$new" apt-get clean
    mv "$new" "$cache"
  fi
  flock -u 9
  exec 9>&-
  lap debootstrap
fi
# Nothing of ours may be in the pristine chroot.
if [ -e "$cache/usr/bin/ulb-lint" ] || grep -q '^Package: rpcrdma-toolkit$' "$cache/var/lib/dpkg/status"; then
  fail "the chroot cache $cache holds rpcrdma-toolkit: remove it, it is not pristine"
fi

mkdir -p "$root" "$work/upper" "$work/ovl"
how=overlay
if mount -t overlay overlay -o "lowerdir=$cache,upperdir=$work/upper,workdir=$work/ovl" "$root" 2>/dev/null; then
  mounts+=("$root")
else
  how="cp -a"
  rmdir "$root"
  cp -a "$cache" "$root"
fi
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mkdir -p "$archives/partial"
mount --bind "$archives" "$root/var/cache/apt/archives"
mounts+=("$root/var/cache/apt/archives")
# apt downloads as its own user _apt.
apt_uid=$(chroot "$root" id -u _apt 2>/dev/null || echo 0)
chown "$apt_uid:0" "$archives/partial"
cat /etc/resolv.conf > "$root/etc/resolv.conf"
lap "chroot ($how)"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
                                         DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
as_nobody() { chroot --userspec=65534:65534 "$root" /usr/bin/env -i PATH=/usr/bin:/bin \
                                            HOME=/tmp/rr-nobody LC_ALL=C.UTF-8 "$@"; }
# Non-root capture is not what we test: answer wireshark-common's question.
echo "wireshark-common wireshark-common/install-setuid boolean false" | in_root debconf-set-selections
cp "$deb" "$root/tmp/"
chmod 0644 "$root/tmp/$(basename "$deb")"
# Only one run at a time uses the shared download cache.
exec 8> "$archives.lock"
flock 8
in_root apt-get update -qq > "$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get update in the chroot failed"; }
lap "apt-get update"
in_root sh -c 'cd /tmp && apt-get install -y -q -o Dpkg::Options::=--force-unsafe-io ./rpcrdma-toolkit_*.deb' >> "$work/apt.log" 2>&1 \
  || { tail -40 "$work/apt.log"; fail "apt-get install ./$(basename "$deb") failed in the clean chroot"; }
rm -f "$archives"/rpcrdma-toolkit_*.deb
flock -u 8
exec 8>&-
grep -E '^(Setting up|Need to get|[0-9]+ upgraded)' "$work/apt.log" | grep -E 'rpcrdma|tshark|libwireshark|Need to get|upgraded' | sed 's/^/  /' || true
# shellcheck disable=SC2016
in_root dpkg-query -W -f='${Status} ${Version}\n' rpcrdma-toolkit | grep -qx "install ok installed $RR_PKG_VERSION" \
  || fail "rpcrdma-toolkit $RR_PKG_VERSION is not installed in the chroot"
lap "apt-get install"

# ulb-lint
in_root ulb-lint --help > "$work/help.out" 2>&1 || { cat "$work/help.out"; fail "ulb-lint --help exited non-zero in the chroot"; }
[ -s "$work/help.out" ] || fail "ulb-lint --help printed nothing"
say "ulb-lint --help: exit 0, $(wc -l < "$work/help.out") lines"
if [ "${RR_PKG_AGENT:-0}" = 1 ]; then
  # its libraries (libibverbs1, librdmacm1) came in as the package's Depends
  in_root rpcrdma-agent --help > "$work/agent-help.out" 2>&1 ||
    { cat "$work/agent-help.out"; fail "rpcrdma-agent --help exited non-zero in the chroot"; }
  say "rpcrdma-agent --help: exit 0"
fi
# man pages
mans=(/usr/share/man/man1/ulb-lint.1.gz)
[ "$plugin" = 1 ] && mans+=(/usr/share/man/man7/rpcrdma-plugin.7.gz)
[ "${RR_PKG_AGENT:-0}" = 1 ] && mans+=(/usr/share/man/man8/rpcrdma-agent.8.gz)
for m in "${mans[@]}"; do
  [ -f "$root$m" ] || fail "$m is not installed"
  gzip -dc "$root$m" | grep -q '^\.TH ' || fail "$m is not a gzip'd man page"
done
if [ -x "$root/usr/bin/man" ]; then
  in_root man -w ulb-lint > /dev/null || fail "man -w ulb-lint found nothing"
fi
say "man pages: ${mans[*]}"

# the plugin
if [ "$plugin" = 1 ]; then
  [ -x "$root/usr/bin/tshark" ] || fail "tshark (Recommends) was not installed with the package"
  mkdir -p "$root/tmp/rr-nobody"
  chown 65534:65534 "$root/tmp/rr-nobody"
  as_nobody tshark -G folders > "$work/folders" 2>&1 || { cat "$work/folders"; fail "tshark -G folders failed"; }
  global=$(sed -n 's/^Global Plugins:[[:space:]]*//p' "$work/folders")
  [ -n "$global" ] || { cat "$work/folders"; fail "tshark -G folders names no global plugin folder"; }
  as_nobody tshark -G plugins > "$work/plugins" 2> "$work/plugins.err" \
    || { cat "$work/plugins" "$work/plugins.err"; fail "tshark -G plugins failed"; }
  line=$(awk -F'\t' '$1 ~ /^rpcrdma\.so *$/' "$work/plugins")
  [ -n "$line" ] || { cat "$work/plugins.err"; fail "tshark -G plugins (as nobody) does not list rpcrdma.so"; }
  say "tshark -G plugins: $(echo "$line" | tr '\t' ' ' | tr -s ' ')"
  IFS=$'\t' read -r _ pver ptype ppath <<< "$line"
  [ "$pver" = "$RR_PKG_VERSION" ] || fail "rpcrdma.so reports version '$pver', not $RR_PKG_VERSION"
  [ "$ptype" = dissector ] || fail "rpcrdma.so is a '$ptype' plugin, not a dissector"
  [ "$ppath" = "$global/epan/rpcrdma.so" ] || fail "rpcrdma.so was loaded from $ppath, not from the global folder $global/epan"
  if grep -i rpcrdma "$work/plugins.err"; then
    fail "tshark complained about the plugin (above)"
  fi
  if as_nobody tshark -G protocols 2>/dev/null | awk -F'\t' '$3 == "rpcrdma" { found = 1 } END { exit !found }'; then
    say "tshark -G protocols: the rpcrdma protocol is registered"
  else
    say "NOTE: tshark -G protocols lists no protocol with the filter name rpcrdma"
  fi
fi
lap "checks in the chroot"

# Removal leaves nothing of ours behind.
in_root apt-get purge -y -q rpcrdma-toolkit > "$work/purge.log" 2>&1 || { tail -20 "$work/purge.log"; fail "apt-get purge rpcrdma-toolkit failed"; }
for f in "${want[@]}"; do
  [ ! -e "$root${f#.}" ] || fail "${f#.} is left after apt-get purge"
done
lap purge

total=$(( $(date +%s) - t0 ))
say "timings: ${timings[*]}; total ${total}s"
if [ "$plugin" = 1 ]; then
  say "PASS: $(basename "$deb") installs in a clean Debian 12 chroot; ulb-lint, the plugin (tshark -G plugins as nobody) and the man pages work (${total}s)"
else
  say "PASS (ulb-lint only; plugin checks SKIPPED, no rpcrdma_plugin target): $(basename "$deb") installs in a clean Debian 12 chroot; ulb-lint and its man page work (${total}s)"
fi
result_printed=1
