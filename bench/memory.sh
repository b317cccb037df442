#!/usr/bin/env bash
# Memory benchmark: ulb-lint's peak RSS on 1x, 10x and 50x a
# real capture, clean and mutated, beside tshark -2's on the same files.
# Memory must stay flat as the capture grows, whatever its damage.
#
#   bench/memory.sh [--lint PATH] [--no-tshark] [--captures "a.pcap b.pcap"]
#
# The copies are joined by bench/pcapcat with increasing timestamps (one
# long capture, not several joined ones: XIDs and sequence numbers repeat
# as a long run of the same workload would).  Mutated: editcap -E 0.02
# --seed 7 of the joined file (every copy damaged differently), read with
# --icrc ignore: damage the default would set aside (a failed RoCE ICRC)
# then reaches the engine and fills its budgets, the worst case for memory.
# Peak RSS is GNU time's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/.."
lint=build/bin/ulb-lint tshark=1
captures="sample-pcaps/real/nfs42-rxe.pcap sample-pcaps/real/nfs42-siw.pcap"
while [ $# -gt 0 ]; do
  case "$1" in
    --lint) lint=$2; shift 2 ;;
    --no-tshark) tshark=0; shift ;;
    --captures) captures=$2; shift 2 ;;
    *) sed -n '5,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -x "$lint" ] || { echo "memory.sh: no ulb-lint at $lint (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "memory.sh: GNU time is needed (scripts/install-deps.sh installs it)" >&2; exit 2; }
command -v editcap >/dev/null || { echo "memory.sh: editcap is needed (wireshark-common)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall -o "$work/pcapcat" bench/pcapcat.c

peak() {   # peak RSS in MiB of a command (its output discarded)
  /usr/bin/time -o "$work/t" -f %M "$@" >/dev/null 2>&1 || true
  tail -1 "$work/t" | awk '{ printf "%.1f", $1 / 1024 }'
}

printf '%-26s %8s %10s %12s %14s\n' capture size "ulb-lint" "tshark -2" "tshark/ulb-lint"
for cap in $captures; do
  for n in 1 10 50; do
    "$work/pcapcat" -n "$n" -o "$work/clean.pcap" "$cap"
    editcap -E 0.02 --seed 7 "$work/clean.pcap" "$work/mut.pcap"
    for kind in clean mut; do
      f=$work/$kind.pcap
      size=$(( $(stat -c %s "$f") / 1048576 ))
      l=$(peak "$lint" --summary $([ "$kind" = mut ] && echo --icrc ignore) "$f")
      t=- r=-
      if [ "$tshark" = 1 ]; then
        t=$(WIRESHARK_CONFIG_DIR=/nonexistent peak tshark -2 -r "$f")
        r=$(awk -v a="$t" -v b="$l" 'BEGIN { printf "%.1fx", a / b }')
      fi
      printf '%-26s %6s MB %7s MiB %8s MiB %14s\n' "$(basename "$cap" .pcap) ${n}x $kind" "$size" "$l" "$t" "$r"
    done
  done
done
