#!/bin/bash
# proxy-work.sh prepare SIZE_MIB                      (server) the files the client reads
# proxy-work.sh VERS IP TAG SIZE_MIB [MOUNTADDR]     (client) the timed workload on IP:/srv/export
# The workload: 3 writers of SIZE MiB at once (buffered, fsync), 20 small files, a 2000-entry
# READDIR, 1 MiB O_DIRECT WRITE and READ, then 3 readers at once of what was written and of
# the server's own files. /lab/out/TAG.sums: what the client wrote (the host compares it with
# the server's sha256sum); /lab/out/TAG.srcsums: the server's files as read by the client.
# MOUNTADDR (NFSv3 through the proxy): where MOUNT is asked, over TCP (the proxy relays
# RPC-over-RDMA only); without NLM (nolock), which would ask the proxy's address too.
set -euo pipefail
if [ "$1" = prepare ]; then
    mkdir -p /srv/export/px-src /lab/out
    for i in 1 2; do head -c $(($2 * 1048576)) /dev/urandom >/srv/export/px-src/s$i; done
    (cd /srv/export/px-src && sha256sum s* | sort -k2) | tee /lab/out/src.sums
    exit 0
fi
v=$1 ip=$2 tag=$3 size=$4 maddr=${5:-}
m=/mnt/px src=/tmp/pw-$tag
opts="vers=$v,proto=rdma,port=20049"
[ -z "$maddr" ] || opts="$opts,mountaddr=$maddr,mountproto=tcp,nolock"
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
mkdir -p "$m" "$src" /lab/out
for i in 1 2 3; do head -c $((size * 1048576)) /dev/urandom >"$src/w$i"; done
for i in $(seq 1 20); do echo "small file $i of $tag" >"$src/wsmall$i"; done
head -c 1048576 /dev/urandom >"$src/wdirect"
(cd "$src" && sha256sum w* | sort -k2) >"/lab/out/$tag.sums"
set -x
mount -t nfs -o "$opts" "$ip:/srv/export" "$m"
grep " $m " /proc/mounts
w=$m/p-$tag; rm -rf "$w"; mkdir -p "$w"
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
echo "WORKLOAD_SECONDS $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
grep -A 40 "mounted on $m " /proc/self/mountstats | grep -E 'opts:|xprt:' || true
umount "$m"
rm -rf "$src"
