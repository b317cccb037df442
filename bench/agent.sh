#!/bin/bash
# bench/agent.sh [--transports rxe,siw] : the live agent's DDP throughput against
# perftest on the same link, in the QEMU lab (root; scripts/install-deps.sh --lab).
# 200 transfers of 1 MiB each way: the agent's NFS READ (RDMA Write) against
# ib_write_bw and NFS WRITE (RDMA Read) against ib_read_bw, the agent capturing
# the whole time; prints the ratios and the capture drops in one table.
set -euo pipefail
repo=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
out=$(mktemp -d /tmp/rpcrdma-bench-agent.XXXXXX)
trap 'rm -rf "$out"' EXIT
"$repo/capture/vm/lab" agent --bench-only "$@" --out "$out/run" >"$out/lab.log" 2>&1 ||
    { tail -n 30 "$out/lab.log"; exit 1; }
column -t -s $'\t' "$out/run/bench.tsv"
