#!/bin/bash
# refresh-agent-samples.sh OUTDIR [DEST] : copy the small agent captures of a
# `lab agent` run (captures, manifests, the responder's manifests) into
# sample-pcaps/agent (or DEST), write PROVENANCE.md and the conformance table.
# The normal test suite verifies every pair offline (ctest -L agent).
set -euo pipefail
out=${1:?usage: refresh-agent-samples.sh OUTDIR [DEST]}
repo=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
dest=${2:-$repo/sample-pcaps/agent}
max=${MAX_SAMPLE_BYTES:-400000}
mkdir -p "$dest"
cmdline=$(sed -n 's/: finished.*//p' "$out/logs/timing.txt" | tail -1)
when=$(date -u -r "$out/versions.txt" +%FT%TZ)
ver() { sed -n "s/^$1: //p" "$out/versions.txt"; }
{
    echo "# Provenance of the agent captures"
    echo
    echo "Recorded by \`$cmdline\` on $when: \`rpcrdma-agent drive\` in the client guest,"
    echo "against \`rpcrdma-agent serve\` (port 20050) or the Linux NFS server (port 20049) in the"
    echo "server guest, captured by the agent itself with libpcap on the device's netdev."
    echo "Each NAME.pcap has NAME.pcap.manifest (what the requester sent and received) and,"
    echo "against the agent responder, NAME.serve.manifest. \`ctest -L agent\` runs"
    echo "\`rpcrdma-agent verify\` on every pair."
    echo
    echo "- kernel: $(ver kernel)"
    echo "- rdma-core: $(ver rdma-core)"
    echo
    echo "| capture | bytes | scenario | injected | verify |"
    echo "|---|---|---|---|---|"
} >"$dest/PROVENANCE.md.tmp"
for p in "$out"/agent-*.pcap "$out"/agent-*.pcapng; do
    [ -e "$p" ] || continue
    n=$(basename "$p"); n=${n%.pcapng}; n=${n%.pcap}
    case $n in agent-bench*) continue ;; esac
    size=$(stat -c %s "$p")
    [ "$size" -le "$max" ] || continue
    cp "$p" "$p.manifest" "$dest/"
    if [ -e "$out/$n.serve.manifest" ]; then cp "$out/$n.serve.manifest" "$dest/"; fi
    scn=$(sed -n 's/.*\tscenario=\([^\t]*\).*/\1/p' "$p.manifest" | head -1)
    inj=$(sed -n 's/^run\t.*\tinject=\([^\t]*\).*/\1/p' "$p.manifest" "$out/$n.serve.manifest" 2>/dev/null |
          grep -v '^-$' | paste -sd, - || true)
    v=$(tail -n 1 "$out/logs/$n.verify.txt" 2>/dev/null || echo "?")
    echo "| $(basename "$p") | $size | $(basename "${scn:-?}") | ${inj:--} | $v |" >>"$dest/PROVENANCE.md.tmp"
done
{
    echo
    echo "## Conformance of the kernel's svcrdma (from this run)"
    echo
    cat "$out/conformance.md"
} >>"$dest/PROVENANCE.md.tmp"
mv "$dest/PROVENANCE.md.tmp" "$dest/PROVENANCE.md"
echo "refreshed $dest"
