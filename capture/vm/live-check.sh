#!/bin/bash
# live-check.sh OUTDIR : for each capture of a lab run (or sample-pcaps/real), check that
# `ulb-lint --dump --format json` rebuilds at least as many RPC calls and replies, per
# program and version, as tshark matches (`tshark -2`, as in `-z rpc,programs`).
# tshark's count is restricted to distinct replies carried over RDMA (InfiniBand/RoCE or iWARP DDP):
# -z rpc,programs also counts Portmap and MOUNT over TCP and NFSv4.0 callbacks over TCP,
# which an RPC-over-RDMA decoder never sees. Both numbers are printed.
# Exit 0 all good, 1 a shortfall, 77 skipped (no ulb-lint or no tshark).
set -euo pipefail
dir=${1:?usage: live-check.sh OUTDIR}
repo=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
lint=${ULB_LINT:-$repo/build/bin/ulb-lint}
[ -x "$lint" ] || { echo "live-check: SKIP: $lint not built"; exit 77; }
command -v tshark >/dev/null || { echo "live-check: SKIP: tshark not installed"; exit 77; }

fail=0 n=0
for pcap in "$dir"/*.pcap; do
    [ -e "$pcap" ] || continue
    n=$((n + 1))
    # -z rpc,programs: "NFS(100003)   4   84 ..." -> "100003 4 84"
    all=$(tshark -r "$pcap" -2 -q -z rpc,programs 2>/dev/null |
        sed -n 's/^[^ (]*(\([0-9]*\)) *\([0-9]*\) *\([0-9]*\) .*/\1 \2 \3/p')
    # replies matched to their call, over RDMA only (first RPC of each frame), one per XID:
    # rxe captures hold some frames twice (tshark: "RPC duplicate of #N"), which
    # -z rpc,programs counts twice
    rdma=$(tshark -r "$pcap" -2 -Y 'rpc.msgtyp == 1 && (infiniband || iwarp_ddp_rdmap)' \
        -T fields -e rpc.xid -e rpc.program -e rpc.programversion 2>/dev/null |
        awk '$2 != "" {split($1, x, ","); split($2, p, ","); split($3, v, ","); print x[1], p[1], v[1]}' |
        sort -u | awk '{print $2, $3}' | sort | uniq -c)
    have=$("$lint" --dump --format json --quiet "$pcap" 2>/dev/null |
        sed -n 's/.*"dir":"\([a-z]*\)".*"rpc_program":\([0-9]*\),"rpc_version":\([0-9]*\),.*/\2 \3 \1/p' |
        sort | uniq -c) || true
    while read -r want prog vers; do
        [ -n "${prog:-}" ] || continue
        z=$(awk -v p="$prog" -v v="$vers" '$1==p && $2==v {print $3}' <<<"$all")
        calls=$(awk -v p="$prog" -v v="$vers" '$2==p && $3==v && $4=="call" {print $1}' <<<"$have")
        replies=$(awk -v p="$prog" -v v="$vers" '$2==p && $3==v && $4=="reply" {print $1}' <<<"$have")
        if [ "${calls:-0}" -ge "$want" ] && [ "${replies:-0}" -ge "$want" ]; then s=ok; else s=SHORT; fail=1; fi
        printf '%-5s %-20s prog %-10s v%-2s tshark: rpc,programs %4s, over RDMA, unique %4s | ulb-lint: calls %4s, replies %4s\n' \
            "$s" "$(basename "$pcap")" "$prog" "$vers" "${z:--}" "$want" "${calls:-0}" "${replies:-0}"
    done <<<"$rdma"
done
[ "$n" -gt 0 ] || { echo "live-check: no .pcap in $dir"; exit 1; }
exit "$fail"
