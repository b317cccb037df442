#!/usr/bin/env bash
# Installs every build and test dependency of rpcrdma-toolkit from Debian's archive.
# Usage: scripts/install-deps.sh [--lab]   (--lab adds what capture/vm/lab needs)
set -euo pipefail
lab=0
[ "${1:-}" = "--lab" ] && lab=1
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
pkgs=(build-essential cmake pkg-config libglib2.0-dev libpcap-dev libcmocka-dev
      clang llvm libclang-rt-dev python3
      tshark libwireshark-dev wireshark-dev
      rdma-core libibverbs-dev librdmacm-dev ibverbs-providers util-linux time
      wireshark xvfb xauth imagemagick xdotool debootstrap chromium
      tcpreplay)
if [ "$lab" = 1 ]; then
  pkgs+=(qemu-system-x86 qemu-utils debootstrap e2fsprogs iproute2 cpio zstd)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
# tshark asks whether non-root users may capture; answer it before it asks.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
