# QEMU: accelerator probe, guest boot, liveness, serial logs.
# shellcheck shell=bash

QEMU=${QEMU:-qemu-system-x86_64}
GUEST_MEM=${GUEST_MEM:-1536}
GUEST_CPUS=${GUEST_CPUS:-1}
declare -A QEMU_PID=()
# mitigations=off: the guests run only the lab's own workloads, and under TCG the Spectre
# mitigations (retpolines, speculation barriers) are emulated instructions on every indirect call
GUEST_CMDLINE=${GUEST_CMDLINE-mitigations=off}
# a guest's memory in MiB when not GUEST_MEM (the proxy guest needs less)
declare -A GUEST_MEM_OF=()

# qemu_accel: sets ACCEL. KVM only if a kernel really boots under it: the guest
# kernel without a root device panics within seconds (with -no-reboot QEMU then exits).
qemu_accel() {
    ACCEL=(-accel tcg,thread=multi -cpu max)
    if [ -w /dev/kvm ] && [ "${LAB_NO_KVM:-0}" != 1 ]; then
        local t=$RUN/kvm-probe.log
        timeout 15 "$QEMU" -accel kvm -cpu host -m 256 -display none -monitor none -no-reboot \
            -serial "file:$t" -kernel "$IMAGE_DIR/vmlinuz" \
            -append "console=ttyS0 panic=-1 root=/dev/nonexistent rootwait=0" >/dev/null 2>&1 || true
        if grep -q 'Kernel panic' "$t" 2>/dev/null; then
            ACCEL=(-accel kvm -cpu host)
        fi
    fi
    log "accelerator: ${ACCEL[*]}"
}

free_port() {
    local p
    while :; do
        p=$((20000 + RANDOM % 30000))
        ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return; }
    done
}

# qemu_boot NAME MAC_SUFFIX LINK... : each LINK is MODE:PORT, MODE listen or connect
#   (the listening end boots first); the Nth LINK is ethN-1 in the guest.
qemu_boot() {
    local name=$1 id=$2 disk=$RUN/$1.qcow2 i=0 spec nets=()
    shift 2
    for spec in "$@"; do
        nets+=(-netdev "socket,id=l$i,${spec%%:*}=127.0.0.1:${spec#*:}"
               -device "virtio-net-pci,netdev=l$i,mac=52:54:00:00:0$id:1$i,addr=0x1$i")
        i=$((i + 1))
    done
    qemu-img create -q -f qcow2 -F raw -b "$IMAGE_DIR/rootfs.img" "$disk"
    "$QEMU" "${ACCEL[@]}" -smp "$GUEST_CPUS" -m "${GUEST_MEM_OF[$name]:-$GUEST_MEM}" -name "lab-$name" \
        -display none -monitor none -no-reboot -nodefaults \
        -serial "file:$RUN/$name.serial" \
        -kernel "$IMAGE_DIR/vmlinuz" -initrd "$IMAGE_DIR/initrd.img" \
        -append "root=/dev/vda rw console=ttyS0 net.ifnames=0 panic=-1 systemd.show_status=1 $GUEST_CMDLINE" \
        -drive "file=$disk,if=virtio,format=qcow2,cache=unsafe" \
        -virtfs "local,path=$RUN/$name,mount_tag=lab,security_model=none,id=lab" \
        "${nets[@]}" >"$RUN/$name.qemu.log" 2>&1 8>&- &
    # (8>&-: a guest outliving a killed run must not hold the lab's lock, lab_lock)
    QEMU_PID[$name]=$!
    on_exit "kill ${QEMU_PID[$name]}; sleep 0.5; kill -9 ${QEMU_PID[$name]}"
}

# wait_listen PORT: the listening QEMU must be up before the other connects
wait_listen() {
    local i
    for i in $(seq 1 50); do
        ss -Hltn "sport = :$1" | grep -q . && return 0
        sleep 0.2
    done
    die "QEMU did not listen on port $1: $(cat "$RUN"/*.qemu.log)"
}

qemu_alive() {
    local n
    for n in "${!QEMU_PID[@]}"; do kill -0 "${QEMU_PID[$n]}" 2>/dev/null || return 1; done
}

# wait_ready NAME TIMEOUT: the guest agent writes ready into its share
wait_ready() {
    local i=0
    while [ ! -e "$RUN/$1/ready" ]; do
        sleep 2; i=$((i + 2))
        qemu_alive || die "guest $1 exited during boot"
        [ "$i" -lt "$2" ] || die "guest $1 not ready after $2 s"
    done
}

serial_tails() {
    local f
    for f in "${RUN:-/nonexistent}"/*.serial; do
        [ -e "$f" ] || continue
        printf '[lab] ---- last lines of %s ----\n' "$(basename "$f")" >&2
        tail -n 25 "$f" | tr -d '\r' >&2
    done
}
