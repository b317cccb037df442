#!/usr/bin/env bash
# The live proxy tier: `capture/vm/lab proxy` end to end: the Linux client mounts the
# Linux server through `rpcrdma-agent proxy` on a third guest; checksums on both ends,
# `rpcrdma-agent verify` on both legs' captures, the cost against a direct mount.
#   run_proxy.sh [lab proxy options...]     (default: --quick)
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "live proxy: SKIP: the lab needs root"; exit 77; }
for t in qemu-system-x86_64 debootstrap; do
  command -v "$t" >/dev/null || { echo "live proxy: SKIP: $t not installed (scripts/install-deps.sh --lab)"; exit 77; }
done
[ -x "$repo/build/bin/rpcrdma-agent" ] || { echo "live proxy: SKIP: build/bin/rpcrdma-agent not built (rdma-core missing?)"; exit 77; }
out=$(mktemp -d /tmp/rpcrdma-live-proxy.XXXXXX)
trap 'rm -rf "$out"' EXIT
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick)
"$repo/capture/vm/lab" proxy "${args[@]}" --out "$out/run"
