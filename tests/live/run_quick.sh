#!/usr/bin/env bash
# The live quick tier on one boot of three guests (CI's live stage):
# `capture/vm/lab agent --quick --proxy --with-nfs` makes lab run --quick's NFS capture
# (the reduced workload, NFSv4.1 over rxe), then runs the agent's quick runs (it verifies
# every capture itself) and the proxy's relay check; the NFS capture is then checked as
# run_live.sh checks the lab's (tests/integration/check_real.py).
#   run_quick.sh ULB_LINT
# Exit 77 (skipped) when not root or the lab's host tools are missing.
set -euo pipefail
lint=$1
. "$(dirname "$0")/lab_preamble.sh"
lab_preamble "live quick"
command -v tshark >/dev/null || { echo "live quick: SKIP: tshark not installed"; exit 77; }
rc=0
"$REPO/capture/vm/lab" agent --quick --proxy --with-nfs --out "$OUT/run" || rc=$?
shopt -s nullglob
caps=("$OUT"/run/nfs*.pcap)
[ ${#caps[@]} -gt 0 ] || { echo "live quick: the lab made no NFS capture"; exit 1; }
for cap in "${caps[@]}"; do
  case "$(basename "$cap")" in
    *.partial.pcap) echo "live quick: $cap is partial"; rc=1; continue ;;
  esac
  python3 "$REPO/tests/integration/check_real.py" --lint "$lint" "$cap" || rc=1
done
exit $rc
