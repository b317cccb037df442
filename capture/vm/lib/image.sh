# Guest image: build once, cache by a hash of the recipe.
# shellcheck shell=bash

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-/var/cache}/rpcrdma-lab}
LAB_MIRROR=${LAB_MIRROR:-http://deb.debian.org/debian}
LAB_SECURITY=${LAB_SECURITY:-http://deb.debian.org/debian-security}
IMAGE_SIZE=${IMAGE_SIZE:-4G}
LAB_KERNEL=${LAB_KERNEL:-6.1}

# kernel_suite: the Debian release whose kernel is LAB_KERNEL, and the packages
# that differ between releases (the kernel's own source for siw; the t64 library
# names of trixie and later for the project tools in /lab/bin).
kernel_suite() {
    case $LAB_KERNEL in
    6.1)  SUITE=bookworm KSRC=linux-source-6.1 SUITE_PKGS="libglib2.0-0 libpcap0.8" ;;
    6.12) SUITE=trixie KSRC=linux-source-6.12 SUITE_PKGS="libglib2.0-0t64 libpcap0.8t64" ;;
    7)    SUITE=sid KSRC=linux-source-7.2 SUITE_PKGS="libglib2.0-0t64 libpcap0.8t64" ;;
    *)    die "unknown kernel '$LAB_KERNEL' (6.1, 6.12 or 7)" ;;
    esac
}

image_key() {
    { cat "$LAB_DIR/lib/image.sh" "$LAB_DIR/image/"*; echo "kernel $LAB_KERNEL"; } | sha256sum | cut -c1-16
}

image_dir() { echo "$LAB_CACHE/k$LAB_KERNEL-$(image_key)"; }

# suite_sources: apt sources of the guest (sid has no -updates or -security suite)
suite_sources() {
    echo "deb $LAB_MIRROR $SUITE main"
    [ "$SUITE" = sid ] && return 0
    echo "deb $LAB_MIRROR $SUITE-updates main"
    echo "deb $LAB_SECURITY $SUITE-security main"
}

# image_ensure: prints the cache dir holding rootfs.img, vmlinuz, initrd.img
image_ensure() {
    local dir; dir=$(image_dir)
    if [ -f "$dir/done" ]; then
        log "image: cached in $dir"
    else
        image_build "$dir"
    fi
    IMAGE_DIR=$dir
}

_chroot_umount() {
    local r=$1 m
    for m in dev/pts dev sys proc; do umount -l "$r/$m" 2>/dev/null || true; done
}

image_build() {
    local dir=$1 t0 root pkgs
    t0=$(date +%s)
    need_cmds debootstrap mkfs.ext4 qemu-img
    mkdir -p "$LAB_CACHE"
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
    on_exit "_chroot_umount '$dir.tmp/root'; rm -rf '$dir.tmp'"
    root=$dir.tmp/root

    kernel_suite
    step "image: debootstrap $SUITE for Linux $LAB_KERNEL (a few minutes)"
    debootstrap --variant=minbase "$SUITE" "$root" "$LAB_MIRROR" \
        >"$dir.tmp/debootstrap.log" 2>&1 || { tail -20 "$dir.tmp/debootstrap.log"; die "debootstrap"; }

    step "image: install packages (kernel, rdma-core, nfs, tools)"
    suite_sources >"$root/etc/apt/sources.list"
    # the archive's sid Release file can be past its Valid-Until date (signatures are still checked)
    [ "$SUITE" != sid ] || echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99lab"
    # dracut (sid) builds a host-only initramfs in a chroot, without ext4 or virtio: make it generic
    mkdir -p "$root/etc/dracut.conf.d"; echo 'hostonly="no"' >"$root/etc/dracut.conf.d/90-lab.conf"
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"; chmod +x "$root/usr/sbin/policy-rc.d"
    mount -t proc proc "$root/proc"; mount -t sysfs sys "$root/sys"
    mount --bind /dev "$root/dev"; mount --bind /dev/pts "$root/dev/pts"
    pkgs="$(sed 's/#.*//' "$LAB_DIR/image/packages.txt" | xargs) $KSRC $SUITE_PKGS"
    chroot "$root" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update && \
        apt-get install -y --no-install-recommends $pkgs" >"$dir.tmp/apt.log" 2>&1 \
        || { tail -30 "$dir.tmp/apt.log"; die "apt-get install in chroot"; }

    step "image: build siw out of tree"
    install -m 0755 "$LAB_DIR/image/build-siw.sh" "$root/tmp/build-siw.sh"
    chroot "$root" /tmp/build-siw.sh >"$dir.tmp/siw.log" 2>&1 || { tail -30 "$dir.tmp/siw.log"; die "siw build"; }

    step "image: configure guest"
    image_configure "$root"
    chroot "$root" /bin/sh -c "apt-get purge -y $KSRC >/dev/null; apt-get clean" >>"$dir.tmp/apt.log" 2>&1 || true
    rm -f "$root/usr/sbin/policy-rc.d" "$root/tmp/build-siw.sh"
    _chroot_umount "$root"

    step "image: make ext4 disk image"
    local kver; kver=$(ls "$root/lib/modules" | sort -V | tail -1)
    echo "$kver" >"$dir.tmp/kernel.version"
    cp "$root/boot/vmlinuz-$kver" "$dir.tmp/vmlinuz"; cp "$root/boot/initrd.img-$kver" "$dir.tmp/initrd.img"
    chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$dir.tmp/packages.lst"
    mkfs.ext4 -q -L labroot -d "$root" "$dir.tmp/rootfs.img" "$IMAGE_SIZE" || die "mkfs.ext4 -d"
    rm -rf "$root"
    mv "$dir.tmp" "$dir"
    echo "built $(date -u +%FT%TZ) in $(elapsed "$t0")" >"$dir/done"
    log "image: built in $(elapsed "$t0") -> $dir"
}

image_configure() {
    local root=$1
    echo lab >"$root/etc/hostname"
    echo "LABEL=labroot / ext4 defaults,acl,user_xattr 0 1" >"$root/etc/fstab"
    # nfsd: RDMA listener on 20049, short grace/lease so the first v4 OPEN does not wait 90 s.
    cat >>"$root/etc/nfs.conf" <<'CONF'

[nfsd]
rdma=y
rdma-port=20049
grace-time=10
lease-time=10
vers3=y
vers4.0=y
vers4.1=y
vers4.2=y
CONF
    echo "/srv/export *(rw,no_root_squash,insecure,no_subtree_check,fsid=1)" >"$root/etc/exports"
    mkdir -p "$root/srv/export" "$root/lab"
    printf 'virtio_net\nrdma_rxe\nrpcrdma\nsiw\n' >"$root/etc/modules-load.d/lab.conf"
    install -m 0644 "$LAB_DIR/image/lab-agent.service" "$root/etc/systemd/system/lab-agent.service"
    chroot "$root" systemctl enable lab-agent.service >/dev/null 2>&1
    chroot "$root" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
        fstrim.timer systemd-timesyncd.service getty@tty1.service >/dev/null 2>&1 || true
    # root can log in on the serial console without a password (debugging only).
    chroot "$root" passwd -d root >/dev/null 2>&1 || true
}
