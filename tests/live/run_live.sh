#!/usr/bin/env bash
# The live tier: run the QEMU lab end to end, then check its fresh captures
# with the engine exactly as the bundled real captures are checked.
#   run_live.sh ULB_LINT [lab options...]     (default: --quick)
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
lint=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "live: SKIP: the lab needs root"; exit 77; }
for t in qemu-system-x86_64 debootstrap tshark; do
  command -v "$t" >/dev/null || { echo "live: SKIP: $t not installed (scripts/install-deps.sh --lab)"; exit 77; }
done
out=$(mktemp -d /tmp/rpcrdma-live.XXXXXX)
trap 'rm -rf "$out"' EXIT
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick)
"$repo/capture/vm/lab" run "${args[@]}" --out "$out/run"
shopt -s nullglob
caps=("$out"/run/*.pcap)
[ ${#caps[@]} -gt 0 ] || { echo "live: the lab produced no capture"; exit 1; }
rc=0
for cap in "${caps[@]}"; do
  case "$(basename "$cap")" in
    *.partial.pcap) echo "live: $cap is partial"; rc=1; continue ;;
    rping*|ibwritebw*) neg=(--negative) ;;
    *) neg=() ;;
  esac
  python3 "$repo/tests/integration/check_real.py" "${neg[@]}" --lint "$lint" "$cap" || rc=1
done
exit $rc
