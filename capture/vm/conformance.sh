#!/bin/bash
# conformance.sh OUTDIR : the kernel svcrdma conformance table (Markdown) from the
# verdict and event lines of the agent's manifests against the kernel server.
set -euo pipefail
out=$1
echo "| run | transport | injected | rule judged | what the server did | verdict |"
echo "|---|---|---|---|---|---|"
for m in "$out"/agent-kernel-*.pcap.manifest; do
    [ -e "$m" ] || continue
    base=$(basename "$m" .pcap.manifest); base=${base#agent-}
    t=${base##*-}; run=${base%-*}
    { grep -P '^verdict\t' "$m" || true; } | while IFS=$'\t' read -r _ rule xid result text; do
        rule=${rule#rule=}; result=${result#result=}; text=${text#text=}
        inj=$(sed -n 's/^injected \(RR-[0-9]*\);.*/\1/p' <<<"$text")
        did=$(sed -n 's/.*the server answered with //p' <<<"$text")
        echo "| $run | $t | $inj | $rule | $did | **$result** |"
    done
    # runs without injections: what came back that was not a normal reply
    if ! grep -qP '^verdict\t' "$m"; then
        ev=$({ grep -P '^event\t' "$m" || true; } | sed 's/.*kind=\([^\t]*\).*text=\(.*\)/\1 (\2)/' |
             sort | uniq -c | awk '{n=$1; $1=""; printf "%s%s x%s", sep, substr($0, 2), n; sep="; "}')
        echo "| $run | $t | - | - | ${ev:-normal replies only} | - |"
    fi
done
