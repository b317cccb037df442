# shellcheck shell=bash
# What every live lab test checks before it boots guests: root, the lab's host tools and the
# agent binary; sourced with NAME (the tier's name in messages). Exit 77 (skipped) otherwise.
# It also gives REPO and a fresh OUT directory, removed at exit.
lab_preamble() {
  local name=$1 t
  REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  [ "$(id -u)" -eq 0 ] || { echo "$name: SKIP: the lab needs root"; exit 77; }
  for t in qemu-system-x86_64 debootstrap; do
    command -v "$t" >/dev/null || { echo "$name: SKIP: $t not installed (scripts/install-deps.sh --lab)"; exit 77; }
  done
  [ -x "$REPO/build/bin/rpcrdma-agent" ] ||
    { echo "$name: SKIP: build/bin/rpcrdma-agent not built (rdma-core missing?)"; exit 77; }
  OUT=$(mktemp -d "/tmp/rpcrdma-${name// /-}.XXXXXX")
  trap 'rm -rf "$OUT"' EXIT
}
