#!/usr/bin/env bash
# Real-traffic benchmark: ulb-lint (every rule on, findings to /dev/null),
# in one thread and split over --jobs threads, against tshark -2 and
# against cat, in frames per second (per core, and by the wall clock), on the
# real-traffic mix and on bench/large.sh's large-DDP RoCEv2 capture.
#
#   bench/mix.sh [--passes N] [--runs N] [--jobs N] [--tshark-frames N]
#                [--no-tshark] [--lint PATH] [--cache DIR]
#
# The mix: every bundled real capture (sample-pcaps/real/*.pcap and the
# kernel folders sample-pcaps/real/*/*.pcap, Linux NFS over rxe and siw,
# mostly small Sends) joined end to end N times (default 3) with increasing
# timestamps by bench/mixjoin.py, each pass on IP addresses of its own so
# that connections do not collide (its header says what still repeats).
# Both captures are cached under DIR (default build/bench-cache); the large
# one is made by bench/large.sh when missing (a minute or two, once).
#
# ulb-lint and cat: best of N runs (default 3).  tshark (the fields command
# of bench/large.sh) is slow, so it runs once; it reads the whole capture
# unless --tshark-frames F makes it read only the first F frames (its rate
# is then that sample's, startup included, which flatters ulb-lint).
# --jobs N (default: the CPUs, at least 2) is the `ulb-lint -j N` row; its
# speed-up is wall time of one process over wall time of N.
# CPU time is user + system (least of the runs): on a shared machine it is
# the steadier number, so "frames/s per core" is frames / CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
passes=3 runs=3 tframes=0 do_tshark=1 jobs=$(nproc) lint=$root/build/bin/ulb-lint cache=build/bench-cache
[ "$jobs" -ge 2 ] || jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --passes) passes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --tshark-frames) tframes=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-tshark) do_tshark=0; shift ;;
    --lint) lint=$(realpath "$2"); shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) sed -n '7,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
for t in /usr/bin/time python3 capinfos editcap; do
  command -v "$t" >/dev/null || { echo "bench/mix.sh: needs $t (wireshark-common, time)" >&2; exit 2; }
done
if [ "$do_tshark" = 1 ] && ! command -v tshark >/dev/null; then
  echo "bench/mix.sh: tshark not found (apt-get install tshark); use --no-tshark" >&2; exit 2
fi
[ -x "$lint" ] || { echo "bench/mix.sh: no ulb-lint at $lint (build first)" >&2; exit 2; }
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

reals=(sample-pcaps/real/*.pcap sample-pcaps/real/*/*.pcap)
key=$( { printf '%s\n' "$passes" "${reals[@]}"; cat "${reals[@]}" bench/mixjoin.py; } | sha256sum | cut -c1-12)
mix=$cache/mix-$passes-$key.pcap
if [ ! -s "$mix" ]; then
  echo "making $mix (${#reals[@]} real captures x $passes) ..." >&2
  rm -f "$cache"/mix-"$passes"-*.pcap
  python3 bench/mixjoin.py -n "$passes" -o "$mix.part" "${reals[@]}"
  mv "$mix.part" "$mix"
fi
large=$(ls -t "$cache"/large-rocev2-*.pcap 2>/dev/null | head -1 || true)
if [ -z "$large" ]; then
  echo "making the large-DDP RoCEv2 capture with bench/large.sh ..." >&2
  bench/large.sh --cache "$cache" --links rocev2 --runs 1 --no-tshark --no-10x >/dev/null
  large=$(ls -t "$cache"/large-rocev2-*.pcap | head -1)
fi

frames_of() {  # cached frame count of a capture
  [ -s "$1.frames" ] && [ "$1.frames" -nt "$1" ] ||
    capinfos -c -M "$1" | awk '/Number of packets/{print $NF}' > "$1.frames"
  cat "$1.frames"
}

# Best wall time and least CPU time (user + system) over $1 runs; the
# command's stdout goes to /dev/null; ulb-lint's exit 1 (findings) is fine.
measure() {
  local n=$1 best="" cpu="" t0 t1 t c rc; shift
  for _ in $(seq "$n"); do
    t0=$(date +%s%N); rc=0
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || rc=$?
    t1=$(date +%s%N)
    if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && [ "${1##*/}" != ulb-lint ]; }; then
      echo "bench/mix.sh: '$*' failed (exit $rc):" >&2; tail -5 "$tmp/err" >&2; exit 1
    fi
    c=$(tail -1 "$tmp/t" | awk '{printf "%.2f", $1 + $2}')
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) / 1e9}')
    if [ -z "$best" ] || awk -v x="$t" -v y="$best" 'BEGIN{exit !(x < y)}'; then best=$t; fi
    if [ -z "$cpu" ] || awk -v x="$c" -v y="$cpu" 'BEGIN{exit !(x < y)}'; then cpu=$c; fi
  done
  echo "$best $cpu"
}
rate() { awk -v f="$1" -v t="$2" 'BEGIN{ if (t > 0) printf "%.0f", f / t; else printf "inf" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0 && a != "inf") printf "%.1f", a / b; else printf "n/a" }'; }
row() {  # name frames bytes wall cpu
  printf '%-40s %9s %8.3f %7.2f %12s %14s %8.0f\n' "$1" "$2" "$4" "$5" "$(rate "$2" "$4")" \
    "$(rate "$2" "$5")" "$(awk -v s="$3" -v t="$4" 'BEGIN{print (t > 0 ? s / t / 1e6 : 0)}')"
}

cpuname=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "ulb-lint real-traffic benchmark: commit $rev, $cpuname, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg); $lint"
# How it was built: the README's figures are a profile-guided build's (scripts/test.sh, scripts/pgo-train.sh).
built=$("$lint" --version 2>/dev/null || echo "ulb-lint (older than --version: build type unknown)")
echo "$built"
case "$built" in
  *profile-guided*) ;;
  *) echo "note: not a profile-guided build: about 10 % slower than the README's figures (README, \"Speed\")" ;;
esac
echo "ulb-lint and cat: best wall / least CPU of $runs runs; tshark: one run on $([ "$tframes" = 0 ] && echo "the whole capture" || echo "the first $tframes frames")"
readme=()
for f in "$mix" "$large"; do
  name=mix; [ "$f" = "$large" ] && name=large-DDP
  n=$(frames_of "$f") size=$(stat -c %s "$f")
  cat "$f" >/dev/null
  read -r ct cc < <(measure "$runs" cat "$f")
  read -r lt lc < <(measure "$runs" "$lint" "$f")
  read -r jt jc < <(measure "$runs" "$lint" -j "$jobs" "$f")
  echo
  echo "== $name: $f, $n frames, $size bytes"
  printf '%-40s %9s %8s %7s %12s %14s %8s\n' command frames "wall s" "cpu s" "frames/s" "frames/s/core" "MB/s"
  row "ulb-lint FILE >/dev/null" "$n" "$size" "$lt" "$lc"
  row "ulb-lint -j $jobs FILE >/dev/null" "$n" "$size" "$jt" "$jc"
  tr=n/a tw=n/a
  if [ "$do_tshark" = 1 ]; then
    tf=$f label="tshark -2 -T fields"
    if [ "$tframes" != 0 ]; then
      editcap -r "$f" "$tmp/head.pcap" "1-$tframes"
      tf=$tmp/head.pcap label="tshark -2 -T fields (first $tframes)"
    fi
    tn=$(capinfos -c -M "$tf" | awk '/Number of packets/{print $NF}')
    read -r wt wc < <(measure 1 env WIRESHARK_CONFIG_DIR=/nonexistent \
      tshark -2 -r "$tf" -T fields -e rpcordma.xid -e rpc.xid -e nfs.data)
    row "$label" "$tn" "$(stat -c %s "$tf")" "$wt" "$wc"
    tr=$(ratio "$(rate "$n" "$lc")" "$(rate "$tn" "$wc")")
    tw=$(ratio "$(rate "$n" "$jt")" "$(rate "$tn" "$wt")")
    rm -f "$tmp/head.pcap"
  fi
  row "cat FILE >/dev/null" "$n" "$size" "$ct" "$cc"
  # What -j's speed was measured on: its findings against one process's (ulb-lint(1), JOBS).
  "$lint" --format json "$f" >"$tmp/one.json" 2>/dev/null || true
  "$lint" -j "$jobs" --format json "$f" >"$tmp/split.json" 2>/dev/null || true
  nl=$(wc -l <"$tmp/one.json")
  if cmp -s "$tmp/one.json" "$tmp/split.json"; then
    same="identical to one process's ($nl lines)"
  else
    nd=$( { diff "$tmp/one.json" "$tmp/split.json" || true; } | grep -c '^[<>]' || true)
    ns=$( { diff <(sort "$tmp/one.json") <(sort "$tmp/split.json") || true; } | grep -c '^[<>]' || true)
    if [ "$ns" = 0 ]; then
      same="the same as one process's; $nd of $nl lines in another order (the end's findings, worker by worker)"
    else
      same="NOT one process's: $nd of $nl lines differ, $ns once sorted (the cases ulb-lint(1) JOBS names)"
    fi
  fi
  echo "ulb-lint -j $jobs findings: $same"
  echo "ulb-lint / tshark frames/s per core: ${tr}x; ulb-lint -j $jobs / tshark by the wall clock: ${tw}x;" \
       "-j $jobs speed-up (wall): $(ratio "$lt" "$jt")x; ulb-lint / cat CPU time: $(ratio "$lc" "$cc")x"
  readme+=("| $name | $n frames, $(awk -v s="$size" 'BEGIN{printf "%.0f", s / 1e6}') MB | $(rate "$n" "$lc") | ${tr}x | $(rate "$n" "$jt") | $(ratio "$lt" "$jt")x | ${tw}x | $(ratio "$lc" "$cc")x |")
done
echo
echo "For the README ($cpuname, commit $rev, ${built#ulb-lint }; frames/s per core = frames / least CPU time of $runs runs):"
echo
echo "| capture | size | ulb-lint frames/s per core | vs tshark -2 (per core) | ulb-lint -j $jobs frames/s (wall) | -j $jobs speed-up | -j $jobs vs tshark -2 (wall) | ulb-lint / cat CPU time |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${readme[@]}"
