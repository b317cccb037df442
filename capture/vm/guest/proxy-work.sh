#!/bin/bash
# proxy-work.sh STEP ... : the lab proxy workload (lib/proxy.sh), one step a call.
#   prepare SIZE_MIB              (server) the files the client reads: /srv/export/px-src
#   mount VERS IP TAG [MOUNTADDR] (client) IP:/srv/export on /mnt/px
#   work TAG SIZE_MIB             (client) the timed workload, WORKLOAD_SECONDS at the end
#   deleg-open TAG | deleg-close TAG   (client) hold /srv/export/px-src/deleg-TAG.txt open for
#                                 reading (a read delegation the server recalls: the backchannel)
#   umount                        (client)
# The work: 3 writers of SIZE MiB at once (buffered, fsync), 20 small files, a 2000-entry
# READDIR, 1 MiB O_DIRECT WRITE and READ, then 3 readers at once of what was written and of
# the server's own files. /lab/out/TAG.sums: what the client wrote (the host compares it with
# the server's sha256sum); /lab/out/TAG.srcsums: the server's files as the client read them.
# MOUNTADDR (NFSv3 through the proxy): where MOUNT is asked, over TCP (the proxy relays
# RPC-over-RDMA only); without NLM (nolock), which would ask the proxy's address too.
set -euo pipefail
m=/mnt/px
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
step=$1; shift
case $step in
prepare)
    mkdir -p /srv/export/px-src /lab/out
    for i in 1 2; do head -c $(($1 * 1048576)) /dev/urandom >/srv/export/px-src/s$i; done
    # one delegation target per mount: nfsd briefly refuses a delegation it has just recalled
    for t in rxe siw; do for v in 3 4 40 41 42; do echo target >/srv/export/px-src/deleg-p$t$v.txt; done; done
    (cd /srv/export/px-src && sha256sum s* | sort -k2) | tee /lab/out/src.sums ;;
mount)
    v=$1 ip=$2 tag=$3 maddr=${4:-}
    opts="vers=$v,proto=rdma,port=20049"
    [ -z "$maddr" ] || opts="$opts,mountaddr=$maddr,mountproto=tcp,nolock"
    mkdir -p "$m"
    mount -t nfs -o "$opts" "$ip:/srv/export" "$m"
    grep " $m " /proc/mounts
    rm -rf "$m/p-$tag"; mkdir -p "$m/p-$tag" ;;
work)
    tag=$1 size=$2 w=$m/p-$1 src=/tmp/pw-$1
    mkdir -p "$src" /lab/out
    for i in 1 2 3; do head -c $((size * 1048576)) /dev/urandom >"$src/w$i"; done
    for i in $(seq 1 20); do echo "small file $i of $tag" >"$src/wsmall$i"; done
    head -c 1048576 /dev/urandom >"$src/wdirect"
    (cd "$src" && sha256sum w* | sort -k2) >"/lab/out/$tag.sums"
    set -x
    t0=$(date +%s.%N)
    pids=()
    for i in 1 2 3; do dd if="$src/w$i" of="$w/w$i" bs=1M conv=fsync 2>&1 & pids+=($!); done
    for i in $(seq 1 20); do cp "$src/wsmall$i" "$w/"; done
    n=$(ls -f "$m/bigdir" | wc -l); echo "readdir entries: $n"; [ "$n" -ge 2000 ]
    for p in "${pids[@]}"; do wait "$p"; done
    dd if="$src/wdirect" of="$w/wdirect" bs=1M oflag=direct
    dd if="$w/wdirect" of="$src/rdirect" bs=1M iflag=direct
    cmp "$src/wdirect" "$src/rdirect"
    drop
    pids=()
    for i in 1 2 3; do cmp "$src/w$i" "$w/w$i" & pids+=($!); done
    (cd "$m/px-src" && sha256sum s* | sort -k2) >"/lab/out/$tag.srcsums" & pids+=($!)
    for p in "${pids[@]}"; do wait "$p"; done
    cat "$w"/wsmall* | wc -l
    t1=$(date +%s.%N)
    set +x
    rm -rf "$src"
    echo "WORKLOAD_SECONDS $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" ;;
deleg-open)
    rm -f /tmp/pxdeleg.opened
    setsid bash -c "exec 3<'$m/px-src/deleg-$1.txt'; cat <&3 >/dev/null; touch /tmp/pxdeleg.opened; exec sleep 60" \
        </dev/null >/dev/null 2>&1 &
    echo $! >/tmp/pxdeleg.pid
    for _ in $(seq 1 100); do [ -e /tmp/pxdeleg.opened ] && exit 0; sleep 0.2; done
    exit 1 ;;
deleg-close)
    sleep 2; kill "$(cat /tmp/pxdeleg.pid)" 2>/dev/null || true
    rm -f /tmp/pxdeleg.opened /tmp/pxdeleg.pid
    cat "$m/px-src/deleg-$1.txt" ;;
umount)
    grep -A 40 "mounted on $m " /proc/self/mountstats | grep -E 'opts:|xprt:' || true
    timeout 90 umount "$m" ;;
*) echo "unknown step $step"; exit 2 ;;
esac
