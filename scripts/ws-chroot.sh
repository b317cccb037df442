# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034,SC2154  # sourced: the variables are ws-check.sh's
# Sourced by scripts/ws-check.sh (not run on its own): the Debian chroot a
# check builds or installs in, and the checks of an installed plugin
# package.  Uses ws-check.sh's root, codename, mirror, pkgs, die, in_root,
# setup_mounts, cleanup, no_mounts_under and installed_pkg.

# --- the chroot, made once --------------------------------------------------
# Made in $root.new and renamed when complete, so an interrupted setup never
# leaves a half chroot that a later run would take for a finished one; a
# finished debootstrap in $root.new is marked, and the next run goes on from
# there.  The stamp holds the package list: adding a package to $pkgs
# installs it into the existing chroot instead of starting over.
install_pkgs() {
  local r=$1
  cp /etc/resolv.conf "$r/etc/resolv.conf"   # apt inside needs a resolver
  # No package may start a service in a chroot.
  printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
  chmod 0755 "$r/usr/sbin/policy-rc.d"
  if [ "$codename" = sid ]; then
    # sid's Release file on the archive can be past its Valid-Until date;
    # the signatures are still checked.
    echo 'Acquire::Check-Valid-Until "false";' >"$r/etc/apt/apt.conf.d/99rr-valid-until"
  fi
  setup_mounts "$r"
  # wireshark-common asks whether non-root users may capture; answer it
  # first, or the install stops at a question nobody sees.
  echo "wireshark-common wireshark-common/install-setuid boolean false" |
    in_root "$r" debconf-set-selections
  in_root "$r" apt-get update -qq >"$root.apt.log" 2>&1 ||
    { tail -30 "$root.apt.log" >&2; die "apt-get update in the chroot failed (log: $root.apt.log)"; }
  in_root "$r" apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >>"$root.apt.log" 2>&1 ||
    { tail -30 "$root.apt.log" >&2; die "apt-get install in the chroot failed (log: $root.apt.log)"; }
  in_root "$r" apt-get clean
  cleanup
}

ensure_chroot() {  # sets setup_note
  local stamp=$root/.rr-ws-check-ready want="${pkgs[*]}" new=$root.new
  setup_note="cached"
  if [ ! -f "$stamp" ]; then
    setup_note="created"
    command -v debootstrap >/dev/null || {
      echo "ws-check: installing debootstrap on the host" >&2
      apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    }
    [ -d "$root" ] && { no_mounts_under "$root" || die "something is mounted under $root; unmount it first"; }
    if [ -d "$new" ]; then
      no_mounts_under "$new" || die "something is mounted under $new; unmount it first"
    fi
    if [ -f "$new/.rr-debootstrap-done" ]; then
      echo "ws-check: going on with the $codename chroot debootstrap made in $new" >&2
    else
      [ -d "$new" ] && rm -rf --one-file-system "$new"
      echo "ws-check: creating the $codename chroot in $root (debootstrap, a few minutes)" >&2
      debootstrap --variant=minbase "$codename" "$new" "$mirror" >"$root.debootstrap.log" 2>&1 ||
        { tail -30 "$root.debootstrap.log" >&2; die "debootstrap failed (log: $root.debootstrap.log)"; }
      touch "$new/.rr-debootstrap-done"
    fi
    install_pkgs "$new"
    echo "$want" >"$new/.rr-ws-check-ready"
    if [ -d "$root" ]; then rm -rf --one-file-system "$root"; fi
    mv "$new" "$root"
  elif [ "$(cat "$stamp")" != "$want" ]; then
    setup_note="updated"
    echo "ws-check: the package list changed; installing into the existing chroot" >&2
    install_pkgs "$root"
    echo "$want" >"$stamp"
  fi
}

# --- the package, installed -------------------------------------------------
# check_deb DEB: installs DEB with dpkg -i into the chroot (its dependencies
# are there: libwireshark comes with tshark), then checks that tshark lists
# the plugin from Wireshark's global plugin folder, with the package's
# version, when run as root (which loads global plugins, not personal ones)
# and as nobody; runs lintian; purges the package and checks nothing of it
# is left.  Sets deb_result; exits 1 on a failure.
check_deb() {
  local debf=$1 name version upstream folder listed who out ltags nerr nwarn lint
  name=$(dpkg-deb -f "$debf" Package)
  version=$(dpkg-deb -f "$debf" Version)
  upstream=${version%%+ws*}
  deb_fail() { echo "ws-check: package check FAILED: $*" >&2; exit 1; }
  setup_mounts "$root"
  # A run killed before its purge leaves the package behind.
  in_root "$root" dpkg --purge "$name" >/dev/null 2>&1 || true
  cp "$debf" "$root/tmp/"
  installed_pkg=$name
  in_root "$root" dpkg -i "/tmp/$(basename "$debf")" >"$root/tmp/rr-dpkg.log" 2>&1 ||
    { cat "$root/tmp/rr-dpkg.log" >&2; deb_fail "dpkg -i $(basename "$debf")"; }
  folder=$(in_root "$root" tshark -G folders 2>/dev/null | awk -F'\t' '/^Global Plugins:/ { print $2 }')
  [ -n "$folder" ] || deb_fail "tshark -G folders names no global plugin folder"
  for who in root nobody; do
    if [ "$who" = root ]; then
      out=$(in_root "$root" tshark -G plugins 2>&1) || deb_fail "tshark -G plugins as root: $out"
    else
      out=$(in_root "$root" sh -c 'h=$(mktemp -d); chown 65534:65534 "$h";
        HOME=$h setpriv --reuid=65534 --regid=65534 --clear-groups tshark -G plugins; rc=$?; rm -rf "$h"; exit $rc' 2>&1) ||
        deb_fail "tshark -G plugins as nobody: $out"
    fi
    # name, version, type, path (tab-separated; 4.0 pads the name with spaces)
    listed=$(printf '%s\n' "$out" | awk -F'\t' '{ sub(/ +$/, "", $1) } $1 == "rpcrdma.so" { print $2 "\t" $NF }')
    [ "$listed" = "$upstream	$folder/epan/rpcrdma.so" ] ||
      deb_fail "as $who, tshark -G plugins lists rpcrdma.so as '${listed:-nothing}', not version $upstream in $folder/epan"
  done
  if in_root "$root" sh -c 'command -v lintian' >/dev/null; then
    # As nobody: lintian warns against running as root.
    chmod 0644 "$root/tmp/$(basename "$debf")"
    ltags=$(in_root "$root" setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp \
      lintian --tag-display-limit 0 "/tmp/$(basename "$debf")" 2>&1 || true)
    nerr=$(printf '%s\n' "$ltags" | grep -c '^E: ' || true)
    nwarn=$(printf '%s\n' "$ltags" | grep -c '^W: ' || true)
    [ -z "$ltags" ] || printf '%s\n' "$ltags" | sed 's/^/  lintian: /'
    [ "$nerr" = 0 ] || deb_fail "lintian reports $nerr errors"
    lint="lintian: 0 errors, $nwarn warnings"
  else
    lint="lintian not in the chroot"
  fi
  in_root "$root" dpkg --purge "$name" >/dev/null || deb_fail "dpkg --purge $name"
  installed_pkg=""
  [ ! -e "$root$folder/epan/rpcrdma.so" ] || deb_fail "$folder/epan/rpcrdma.so is left after the purge"
  rm -f "$root/tmp/$(basename "$debf")" "$root/tmp/rr-dpkg.log"
  deb_result="installs (dpkg -i), tshark -G plugins lists rpcrdma.so $upstream from $folder/epan as root and as nobody, $lint, purges clean"
}
