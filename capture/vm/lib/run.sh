# lab run: boot server + client, set up rxe/siw, capture NFS and verbs traffic.
# shellcheck shell=bash

SERVER_IP_rxe=10.0.0.1 CLIENT_IF_rxe=eth0 SERVER_IF_rxe=eth0 DEV_rxe=rxe0
SERVER_IP_siw=10.0.1.1 CLIENT_IF_siw=eth1 SERVER_IF_siw=eth1 DEV_siw=siw0

# nfs_phases VERS : the workload phases for one mount (PHASES, from --phases, replaces
# the middle). The full list ends with the phases that remount with other options and
# the fault phases.
nfs_phases() {
    local v=$1 p="rw readdir symlink"
    if [ -n "${PHASES:-}" ]; then echo "mount ${PHASES//,/ } umount"; return; fi
    if [ "$QUICK" = 1 ]; then echo "mount $p umount"; return; fi
    case $v in
    3)   p="$p acl3 smallfiles" ;;
    4.0) p="$p acl4 smallfiles deleg" ;;
    4.1) p="$p acl4 smallfiles deleg" ;;
    4.2) p="$p acl4 smallfiles xattr copy allocate seek deleg" ;;
    esac
    [ "$LAB_LONG" = 0 ] || p="$p $(user_phases "$v")"
    echo "mount $p umount"
}

# user_phases VERS : the workload like users' (the longer tier: any kernel but 6.1)
user_phases() {
    local p="manyfiles links locks bigio streams"
    case $1 in 4.1|4.2) p="$p delegw" ;; esac
    echo "$p nfsd-restart linkflap"
}

# phase_rec PHASE STATUS SECONDS : one line of phases.tsv
phase_rec() { printf '%s\t%s\t%s\t%s\n' "$CAP" "$1" "$2" "$3" >>"$OUT/phases.tsv"; }

# phase_deleg T V IP KIND : the client holds a file open (deleg: reading a server file;
# delegw: writing its own), the server opens it the conflicting way, the client closes
phase_deleg() {
    local t=$1 v=$2 ip=$3 k=$4 f brk rc=0
    if [ "$k" = deleg ]; then
        f=/srv/export/deleg-$t$v.txt brk="echo changed-on-server >>$f"
    else
        f=/srv/export/w-$t$v/delegw.txt brk="cat $f"
    fi
    gexec client "$k-open" 60 "bash /lab/guest/nfs-phase.sh $k-open $v $ip $t$v" || return $?
    gexec server "$k-break" 60 "sleep 2; timeout 45 sh -c '$brk'" || rc=$?
    gexec client "$k-close" 60 "bash /lab/guest/nfs-phase.sh $k-close $v $ip $t$v" || rc=$?
    return "$rc"
}

# phase_fault T V IP KIND : a fault on the server during the client's background I/O:
# nfsd-restart (the client reconnects and retransmits) or linkflap (the server's link of
# this transport down for 3 s, then up: the transport's own retransmissions bridge it; with
# 8 s down, rxe on 6.1 did not recover within 4 minutes)
phase_fault() {
    local t=$1 v=$2 ip=$3 k=$4 ifc cmd rc=0
    eval "ifc=\$SERVER_IF_$t"
    case $k in
    nfsd-restart) cmd="timeout 60 systemctl restart nfs-server; grep -q 'rdma 20049' /proc/fs/nfsd/portlist || echo 'rdma 20049' >/proc/fs/nfsd/portlist; cat /proc/fs/nfsd/portlist" ;;
    linkflap) cmd="ip link set $ifc down; sleep 3; ip link set $ifc up; ip -br addr show $ifc" ;;
    esac
    gexec client bgio-start 60 "bash /lab/guest/nfs-phase.sh bgio-start $v $ip $t$v" || return $?
    sleep 4
    gexec server "$k" 90 "$cmd" || rc=$?
    cat "$GCMD.log" >>"$OUT/logs/$CAP.workload.log"
    gexec client bgio-stop 240 "bash /lab/guest/nfs-phase.sh bgio-stop $v $ip $t$v" || rc=$?
    return "$rc"
}

# run_phase T V PHASE : mount/umount/rw/readdir failures stop the lab, others are recorded
run_phase() {
    local t=$1 v=$2 ph=$3 ip t0 rc=0
    eval "ip=\$SERVER_IP_$t"
    t0=$(date +%s)
    case $ph in
    deleg|delegw) phase_deleg "$t" "$v" "$ip" "$ph" || rc=$? ;;
    nfsd-restart|linkflap) phase_fault "$t" "$v" "$ip" "$ph" || rc=$? ;;
    locks) # NFSv4: no delegations meanwhile, or the client keeps its locks local and sends no LOCK
        gexec server leases-off 30 "sysctl -w fs.leases-enable=0" || true
        gexec client "$ph" 180 "bash /lab/guest/nfs-phase.sh $ph $v $ip $t$v" || rc=$?
        local l=$GCMD; gexec server leases-on 30 "sysctl -w fs.leases-enable=1" || true; GCMD=$l ;;
    *) gexec client "$ph" 180 "LAB_LONG=$LAB_LONG bash /lab/guest/nfs-phase.sh $ph $v $ip $t$v" || rc=$? ;;
    esac
    cat "$GCMD.log" >>"$OUT/logs/$CAP.workload.log"
    if [ "$rc" = 0 ]; then phase_rec "$ph" ok "$(elapsed "$t0")"; return 0; fi
    phase_rec "$ph" "FAIL($rc)" "$(elapsed "$t0")"
    case $ph in
    mount|umount|rw|readdir) tail -n 30 "$GCMD.log" >&2; die "$CAP: phase $ph exited $rc" ;;
    *) log "  phase $ph failed ($rc), recorded in phases.tsv; continuing" ;;
    esac
}

cap_start() { gmust client "cap-start-$1" 30 "bash /lab/guest/capture.sh start $1 $2"; CAP_OPEN=$1; }
cap_stop() {
    gmust client "cap-stop-$1" 60 "bash /lab/guest/capture.sh stop $1"; CAP_OPEN=
    mv "$RUN/client/out/$1.pcap" "$OUT/$1.pcap"
    log "  $1.pcap: $(stat -c %s "$OUT/$1.pcap") bytes"
}

nfs_capture() {
    local t=$1 v=$2 ph t0
    CAP=nfs${v//./}-$t
    step "nfs: NFSv$v over $t -> $CAP.pcap"
    t0=$(date +%s)
    eval "cap_start $CAP \$CLIENT_IF_$t"
    for ph in $(nfs_phases "$v"); do
        log "  phase $ph"
        run_phase "$t" "$v" "$ph"
    done
    cap_stop "$CAP"
    log "  NFSv$v over $t done in $(elapsed "$t0")"
}

verbs_capture() {
    local tool=$1 t=$2 ip dev srv rc=0
    eval "ip=\$SERVER_IP_$t dev=\$DEV_$t"
    CAP=$tool-$t
    step "verbs: $tool over $t -> $CAP.pcap"
    eval "cap_start $CAP \$CLIENT_IF_$t"
    gstart server "$CAP-srv" "bash /lab/guest/verbs.sh $tool server $dev $ip"; srv=$GCMD
    sleep 8     # the server must be listening before the client connects (TCG is slow)
    gexec client "$CAP-cli" 160 "bash /lab/guest/verbs.sh $tool client $dev $ip" || rc=$?
    cat "$GCMD.log" >"$OUT/logs/$CAP.client.log"
    local src=0; gwait "$srv" 60 || src=$?
    [ "$rc" != 0 ] || rc=$src
    cat "$srv.log" >"$OUT/logs/$CAP.server.log"
    cap_stop "$CAP"
    [ "$rc" = 0 ] || { tail -n 20 "$OUT/logs/$CAP".*.log >&2; die "$CAP exited $rc"; }
}

# the guests of this run: a third, proxy, between them when LAB_PROXY=1 (lib/proxy.sh)
lab_guests() { echo server client; [ "${LAB_PROXY:-0}" != 1 ] || echo proxy; }

prepare_shares() {
    local g
    for g in $(lab_guests); do
        mkdir -p "$RUN/$g/cmd" "$RUN/$g/out"
        cp -r "$LAB_DIR/guest" "$RUN/$g/guest"
        if compgen -G "$REPO_DIR/build/bin/*" >/dev/null; then
            cp -r "$REPO_DIR/build/bin" "$RUN/$g/bin"   # the project's own tools, on PATH in the guest
        fi
    done
}

# on failure: keep what the open capture has so far, as NAME.partial.pcap
salvage_capture() {
    [ -n "${CAP_OPEN:-}" ] && qemu_alive || return 0
    gstart client salvage "bash /lab/guest/capture.sh stop $CAP_OPEN"
    for _ in $(seq 1 20); do [ -e "$GCMD.rc" ] && break; sleep 1; done
    mv "$RUN/client/out/$CAP_OPEN.pcap" "$OUT/$CAP_OPEN.partial.pcap"
    log "kept the open capture as $OUT/$CAP_OPEN.partial.pcap"
}

collect_logs() {
    local g
    [ -n "${OUT:-}" ] && [ -d "$OUT/logs" ] || return 0
    for g in $(lab_guests); do
        cp "$RUN/$g.serial" "$OUT/logs/" 2>/dev/null || true
        for f in "$RUN/$g/cmd/"*.log; do
            [ -e "$f" ] && cp "$f" "$OUT/logs/$g-$(basename "$f")"
        done
    done
}

# lab_boot: the guests up, links and the NFS server set up (lab run, lab agent, lab proxy)
lab_boot() {
    need_cmds "$QEMU" qemu-img ss
    mkdir -p "$OUT/logs"; OUT=$(cd "$OUT" && pwd)
    log "output: $OUT"
    # LAB_IMAGE=DIR: boot an already built image folder instead of the cached one
    if [ -n "${LAB_IMAGE:-}" ]; then IMAGE_DIR=$LAB_IMAGE; else image_ensure; fi
    RUN=$(mktemp -d /tmp/rpcrdma-lab.XXXXXX)
    on_exit "rm -rf '$RUN'"
    on_exit "collect_logs"
    prepare_shares

    step "qemu: probe accelerator"
    qemu_accel
    if [ "${LAB_PROXY:-0}" = 1 ]; then proxy_boot; else
        step "boot: server and client guests"
        local p0 p1; p0=$(free_port); p1=$(free_port)
        qemu_boot server 1 "listen:$p0" "listen:$p1"
        wait_listen "$p0"; wait_listen "$p1"
        qemu_boot client 2 "connect:$p0" "connect:$p1"
        wait_ready server 600; wait_ready client 600
    fi
    on_exit salvage_capture
    log "guests up after $(elapsed "$T0") (kernel $(cat "$RUN/server/ready"))"

    step "setup: links, rxe0 on eth0, siw0 on eth1, NFS server"
    # the longer tier: nfsd accepts 1 MiB READ/WRITE (set before nfsd starts)
    local blk=""; [ "$LAB_KERNEL" = 6.1 ] || blk=1048576
    gmust server setup 300 "bash /lab/guest/setup.sh server $blk"
    local pxs=""   # the proxy guest is set up while the client is
    if [ "${LAB_PROXY:-0}" = 1 ]; then gstart proxy setup "bash /lab/guest/setup.sh proxy"; pxs=$GCMD; fi
    gmust client setup 300 "bash /lab/guest/setup.sh client"
    if [ -n "$pxs" ] && ! gwait "$pxs" 300; then tail -n 40 "$pxs.log" >&2; die "proxy: 'setup' failed"; fi
    gmust client info 60 "bash /lab/guest/info.sh"; gout >"$OUT/versions.txt"
}

lab_finish() {
    step "collect: dmesg and logs"
    gexec server dmesg 60 "dmesg" || true
    gexec client dmesg 60 "dmesg" || true
    echo "$LAB_CMDLINE: finished in $(elapsed "$T0")" >>"$OUT/logs/timing.txt"
    log "done in $(elapsed "$T0"): $OUT"
}

lab_run() {
    local t v tool
    T0=$(date +%s)
    LAB_LONG=0; [ "$LAB_KERNEL" = 6.1 ] || LAB_LONG=1
    lab_boot
    for t in ${TRANSPORTS//,/ }; do
        for v in ${NFS_VERS//,/ }; do nfs_capture "$t" "$v"; done
    done
    if [ "$QUICK" != 1 ] && [ "${NO_VERBS:-0}" != 1 ]; then
        for t in ${TRANSPORTS//,/ }; do
            for tool in rping ibwritebw; do verbs_capture "$tool" "$t"; done
        done
    fi
    lab_finish
    column -t -s $'\t' "$OUT/phases.tsv" >&2 || cat "$OUT/phases.tsv" >&2
}
