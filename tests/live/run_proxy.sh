#!/usr/bin/env bash
# The live proxy tier: `capture/vm/lab proxy` end to end: the Linux client mounts the
# Linux server through `rpcrdma-agent proxy` on a third guest; checksums on both ends,
# `rpcrdma-agent verify` on both legs' captures, the cost against a direct mount.
#   run_proxy.sh [lab proxy options...]     (default: --quick)
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
. "$(dirname "$0")/lab_preamble.sh"
lab_preamble "live proxy"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick)
"$REPO/capture/vm/lab" proxy "${args[@]}" --out "$OUT/run"
