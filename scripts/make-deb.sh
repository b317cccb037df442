#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Makes the Wireshark plugin's Debian package for the Wireshark this system
# builds against: rpcrdma-wireshark-plugin_<version>+ws<major>.<minor>_<arch>.deb.
# A plugin loads only into the Wireshark minor version it was built for, so
# there is one package per version, each made on a system (or a chroot of
# scripts/ws-check.sh) that has that version's libwireshark-dev.
#
#   scripts/make-deb.sh [--build DIR] [--out DIR]
#
#   --build DIR  the build directory (default build-deb-plugin in the tree);
#                configured here for packaging (Release, -DRR_WERROR=ON, the
#                plugin in Wireshark's global folder) and only the plugin built
#   --out DIR    where the .deb goes (default build-debs in the tree)
#
# The package holds the plugin in the global plugin folder that Wireshark's
# CMake config names (<libdir>/wireshark/plugins/<major>.<minor>/epan/), its
# man page, the copyright (GPL-2.0-or-later) and a changelog.  It depends on
# the libwireshark package of the soname the plugin links, within that minor
# version, plus what dpkg-shlibdeps finds for the other libraries.
#
# Environment: RR_JOBS (build jobs, default 2), RR_DEB_MAINTAINER (the
# Maintainer, "Name <address>"; default the tree's git user.name and
# user.email, whoever makes the package), SOURCE_DATE_EPOCH (the changelog
# date and copyright year; default the last commit's, else now).
# Needs cmake, a C compiler, libwireshark-dev, dpkg-dev (dpkg-shlibdeps) and
# binutils.  Prints the .deb's path on the last line.  Exit status: 0 made,
# 1 the build or the packaging failed, 2 usage or a missing tool.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/build-deb-plugin
out=$repo/build-debs
jobs=${RR_JOBS:-2}
pkg=rpcrdma-wireshark-plugin

die() { echo "make-deb: $1" >&2; exit "${2:-1}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a directory}; shift ;;
    --out) out=${2:?--out needs a directory}; shift ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (try --help)" 2 ;;
  esac
  shift
done
maintainer=${RR_DEB_MAINTAINER:-}
if [ -z "$maintainer" ]; then
  gname=$(git -C "$repo" config user.name 2>/dev/null || true)
  gmail=$(git -C "$repo" config user.email 2>/dev/null || true)
  [ -n "$gname" ] && [ -n "$gmail" ] ||
    die "who is the Maintainer? set RR_DEB_MAINTAINER='Name <address>' (no git user.name/user.email here)" 2
  maintainer="$gname <$gmail>"
fi
for tool in cmake dpkg-deb dpkg-shlibdeps dpkg-architecture readelf strip gzip; do
  command -v "$tool" >/dev/null || die "$tool not found (cmake, dpkg-dev and binutils are needed)" 2
done

# --- the plugin, built for packaging ----------------------------------------
mkdir -p "$build"
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DRR_WERROR=ON \
  -DRR_PLUGIN_INSTALL=global -DCMAKE_INSTALL_PREFIX=/usr >"$build/make-deb.configure.log" 2>&1 ||
  { tail -20 "$build/make-deb.configure.log" >&2; die "cmake configure failed (log: $build/make-deb.configure.log)"; }
if ! cmake --build "$build" --target rpcrdma_plugin -j"$jobs" >"$build/make-deb.build.log" 2>&1; then
  grep -q "No rule to make target 'rpcrdma_plugin'" "$build/make-deb.build.log" &&
    die "the build has no plugin (is libwireshark-dev installed? log: $build/make-deb.configure.log)"
  tail -30 "$build/make-deb.build.log" >&2
  die "building the plugin failed (log: $build/make-deb.build.log)"
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/rr-make-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
DESTDIR=$root cmake --install "$build" --component plugin >/dev/null
mapfile -t sos < <(cd "$root" && find . -name rpcrdma.so -printf '%P\n')
[ "${#sos[@]}" = 1 ] || die "expected one rpcrdma.so in the install, found ${#sos[@]}"
so=${sos[0]}
# The folder came from Wireshark's CMake config (Wireshark_PLUGIN_LIBDIR).
[[ "$so" =~ ^usr/lib/.*/wireshark/plugins/([0-9]+)\.([0-9]+)/epan/rpcrdma\.so$ ]] ||
  die "the plugin installed to /$so, not into a global Wireshark plugin folder (plugins/<major>.<minor>/epan)"
ws_mm=${BASH_REMATCH[1]}.${BASH_REMATCH[2]}
ws_next="${BASH_REMATCH[1]}.$((BASH_REMATCH[2] + 1))"
chmod 0644 "$root/$so"   # Debian ships Wireshark plugins 0644: a module is not run
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/$so"

# --- what it depends on -------------------------------------------------------
# The libwireshark package is the one holding the soname the plugin links.
soname=$(readelf -d "$root/$so" | sed -n 's/.*(NEEDED).*\[\(libwireshark\.so\.[0-9]*\)\].*/\1/p')
[ -n "$soname" ] || die "the plugin does not link libwireshark (readelf -d shows no libwireshark.so.N)"
libdir=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ws_lib=$(dpkg-query -S "/usr/lib/$libdir/$soname" 2>/dev/null | sed -n '1s/:.*//p')
[ -n "$ws_lib" ] || die "no installed package holds /usr/lib/$libdir/$soname"
ws_full=$(dpkg-query -W -f='${Version}' "$ws_lib")
# dpkg-shlibdeps reads the symbols files of every library the plugin links.
mkdir -p "$stage/shlibs/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$pkg" "$pkg" >"$stage/shlibs/debian/control"
shlibs=$(cd "$stage/shlibs" && dpkg-shlibdeps -O -e"$root/$so" 2>"$stage/shlibdeps.err") ||
  { cat "$stage/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
# The range within the minor version replaces the symbols file's lower bound.
others=$(printf '%s\n' "${shlibs#shlibs:Depends=}" | tr ',' '\n' | sed 's/^ *//' | grep -v "^$ws_lib " | paste -sd, - | sed 's/,/, /g')
depends="${others:+$others, }$ws_lib (>= $ws_mm), $ws_lib (<< $ws_next~)"

# --- the package -------------------------------------------------------------
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
debver=$version+ws$ws_mm
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)
fi
doc=$root/usr/share/doc/$pkg
mkdir -p "$doc" "$root/usr/share/man/man7"
gzip -9nc "$repo/docs/rpcrdma-plugin.7" >"$root/usr/share/man/man7/rpcrdma-plugin.7.gz"
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rpcrdma-toolkit

Files: *
Copyright: $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y) the rpcrdma-toolkit authors
License: GPL-2.0-or-later
 This program is free software; you can redistribute it and/or modify it
 under the terms of the GNU General Public License as published by the Free
 Software Foundation; either version 2 of the License, or (at your option)
 any later version.
 .
 On Debian systems, the full text of the GNU General Public License
 version 2 can be found in /usr/share/common-licenses/GPL-2.
EOF
{
  printf '%s (%s) unstable; urgency=medium\n\n' "$pkg" "$debver"
  printf '  * Built against Wireshark %s (%s %s).\n\n' "$ws_mm" "$ws_lib" "$ws_full"
  printf ' -- %s  %s\n' "$maintainer" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr/share" -type f -exec chmod 0644 {} +
mkdir -p "$root/DEBIAN"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: $pkg
Version: $debver
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: tshark | wireshark
Section: net
Priority: optional
Description: RPC-over-RDMA plugin for Wireshark $ws_mm
 A Wireshark dissector plugin for NFS over RPC-over-RDMA version 1 (RFC 8166,
 RFC 8267) on InfiniBand, RoCE and iWARP. It rebuilds every RPC message from
 its Sends and chunks, hands it to Wireshark's RPC and NFS dissectors, and
 reports protocol violations as expert infos.
 .
 Built for Wireshark $ws_mm only: Wireshark loads a plugin into the minor
 version it was built for.
EOF
# Reproducible: no file newer than the changelog entry (dpkg-deb reads it too).
export SOURCE_DATE_EPOCH
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$out"
deb=$out/${pkg}_${debver}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "make-deb: $pkg $debver: /$so, Depends: $depends"
echo "$deb"
