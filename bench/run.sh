#!/usr/bin/env bash
# Speed and memory of ulb-lint against the anchor, Wireshark's tshark -2
# (built-in rpcordma), on the same generated capture, in one run.
# Prints wall time and peak RSS of each and the ratios.
#   bench/run.sh [--link rocev2|iwarp|...] [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
link=rocev2 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --link) link=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "usage: bench/run.sh [--link TYPE] [--runs N]" >&2; exit 2 ;;
  esac
done
[ -x build/bin/ulb-lint ] && [ -x build/bin/rpcrdma-pcapgen ] || {
  cmake -S . -B build >/dev/null && cmake --build build -j"$(nproc)" >/dev/null; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/bin/rpcrdma-pcapgen --link "$link" --handshake bench/bench.scn -o "$tmp/b.pcap" --truth "$tmp/b.json"
size=$(stat -c %s "$tmp/b.pcap")
frames=$(python3 -c "import json;print(sum(len(m['frames']) for m in json.load(open('$tmp/b.json'))['messages']))")

# best wall time (s) and peak RSS (KiB) over $runs runs
measure() {
  local best_t="" best_m=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    read -r t m < "$tmp/t"
    if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
    if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
  done
  echo "$best_t $best_m"
}
read -r lt lm < <(measure build/bin/ulb-lint --dump --format json --quiet "$tmp/b.pcap")
read -r wt wm < <(measure env WIRESHARK_CONFIG_DIR=/nonexistent tshark -2 -r "$tmp/b.pcap" -q -z rpc,programs)
printf 'capture: %s, %d bytes, %s RPC messages\n' "$link" "$size" \
  "$(python3 -c "import json;print(len(json.load(open('$tmp/b.json'))['messages']))")"
printf '%-34s %8s %10s\n' tool "wall s" "peak MiB"
printf '%-34s %8.2f %10.1f\n' "ulb-lint --dump --format json" "$lt" "$(awk -v m="$lm" 'BEGIN{print m/1024}')"
printf '%-34s %8.2f %10.1f\n' "tshark -2 -z rpc,programs" "$wt" "$(awk -v m="$wm" 'BEGIN{print m/1024}')"
awk -v a="$lt" -v b="$wt" -v c="$lm" -v d="$wm" 'BEGIN {
  printf "ratio (tshark / ulb-lint): time %.1fx, memory %.1fx\n", (a > 0 ? b / a : 0), (c > 0 ? d / c : 0) }'
