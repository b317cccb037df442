#!/bin/bash
# Runs INSIDE the image chroot: build siw.ko out of tree from the kernel's own
# linux-source-* package for the installed Debian kernel (Debian does not enable
# CONFIG_RDMA_SIW). The source package and version are kept in /etc/lab-siw-source.
set -euo pipefail
kver=$(ls /lib/modules | sort -V | tail -1)
src=$(ls /usr/src/linux-source-*.tar.xz | sort -V | tail -1)
top=$(basename "$src" .tar.xz)
work=/tmp/siw-build
rm -rf "$work"; mkdir -p "$work"
tar -C "$work" -xJf "$src" "$top/drivers/infiniband/sw/siw"
cd "$work/$top/drivers/infiniband/sw/siw"
make -C "/usr/src/linux-headers-$kver" M="$PWD" CONFIG_RDMA_SIW=m modules
install -D -m 0644 siw.ko "/lib/modules/$kver/updates/siw.ko"
depmod "$kver"
rm -rf "$work"
pkg=$(dpkg-query -S "$src" | cut -d: -f1)
echo "$pkg $(dpkg-query -W -f '${Version}' "$pkg") ($(basename "$src")) for $kver" >/etc/lab-siw-source
echo "siw built for $kver"
