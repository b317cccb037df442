#!/usr/bin/env bash
# The live agent tier: `capture/vm/lab agent` end to end (agent requester against
# the agent responder and the kernel NFS server, every injection, setup/cleanup),
# which runs `rpcrdma-agent verify` on every capture it makes.
#   run_agent.sh [lab agent options...]     (default: --quick)
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
. "$(dirname "$0")/lab_preamble.sh"
lab_preamble "live agent"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick)
"$REPO/capture/vm/lab" agent "${args[@]}" --out "$OUT/run"
