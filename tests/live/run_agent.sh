#!/usr/bin/env bash
# The live agent tier: `capture/vm/lab agent` end to end (agent requester against
# the agent responder and the kernel NFS server, every injection, setup/cleanup),
# which runs `rpcrdma-agent verify` on every capture it makes.
#   run_agent.sh [lab agent options...]     (default: --quick)
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "live agent: SKIP: the lab needs root"; exit 77; }
for t in qemu-system-x86_64 debootstrap; do
  command -v "$t" >/dev/null || { echo "live agent: SKIP: $t not installed (scripts/install-deps.sh --lab)"; exit 77; }
done
[ -x "$repo/build/bin/rpcrdma-agent" ] || { echo "live agent: SKIP: build/bin/rpcrdma-agent not built (rdma-core missing?)"; exit 77; }
out=$(mktemp -d /tmp/rpcrdma-live-agent.XXXXXX)
trap 'rm -rf "$out"' EXIT
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick)
"$repo/capture/vm/lab" agent "${args[@]}" --out "$out/run"
