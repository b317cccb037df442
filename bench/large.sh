#!/usr/bin/env bash
# Large-capture benchmark: ulb-lint (default lint mode, all rules) against
# Wireshark's tshark -2 and against cat, on >= 1 GiB of generated NFS over
# RPC-over-RDMA traffic, RoCEv2 and iWARP, plus ulb-lint's peak RSS when
# the same capture is streamed 10 times through stdin, and the capture
# decoder alone (bench/decode_only: analyzer/decode without the engine).
#
#   bench/large.sh [--cache DIR] [--runs N] [--tshark-runs N] [--size-mib N]
#                  [--links "rocev2 iwarp"] [--roce-mtu N] [--iwarp-mtu N]
#                  [--no-tshark] [--no-10x] [--regen] [--lint PATH] [--libs DIR]
#                  [--build DIR]
#
# --build DIR: the build directory whose ulb-lint, rpcrdma-pcapgen and
# libraries are measured (default build, made when missing).
# Captures are generated once (several rpcrdma-pcapgen pieces with
# different seeds, joined by bench/pcapcat with increasing timestamps) and
# cached under DIR (default build/bench-cache); reruns reuse them.
# Times are wall-clock, best of N runs (tshark: one run unless asked),
# with the least CPU time (user + system) beside them: on a shared machine
# wall time of short runs swings (cat of the same cached file took 0.09 s
# to 0.8 s here); peak RSS is the largest seen over the runs.  Inputs are read from the
# page cache (a warm-up cat precedes the timings).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

cache=build/bench-cache runs=3 truns=1 size_mib=1100 links="rocev2 iwarp"
roce_mtu=4096 iwarp_mtu=9000 do_tshark=1 do_10x=1 regen=0 lint= libdir= build=build
usage() { sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --cache) cache=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --tshark-runs) truns=$2; shift 2 ;;
    --size-mib) size_mib=$2; shift 2 ;;
    --links) links=$2; shift 2 ;;
    --roce-mtu) roce_mtu=$2; shift 2 ;;
    --iwarp-mtu) iwarp_mtu=$2; shift 2 ;;
    --no-tshark) do_tshark=0; shift ;;
    --no-10x) do_10x=0; shift ;;
    --regen) regen=1; shift ;;
    --lint) lint=$(realpath "$2"); shift 2 ;;
    --libs) libdir=$(realpath "$2"); shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "bench/large.sh: unknown option $1" >&2; usage ;;
  esac
done
for t in /usr/bin/time python3 cc; do
  command -v "$t" >/dev/null || { echo "bench/large.sh: needs $t" >&2; exit 2; }
done
if [ "$do_tshark" = 1 ] && ! command -v tshark >/dev/null; then
  echo "bench/large.sh: tshark not found (apt-get install tshark); use --no-tshark" >&2; exit 2
fi
[ -x "$build/bin/ulb-lint" ] && [ -x "$build/bin/rpcrdma-pcapgen" ] || {
  cmake -S . -B "$build" >/dev/null && cmake --build "$build" -j"$(nproc)" >/dev/null; }
build=$(cd "$build" && pwd)
[ -n "$lint" ] || lint=$build/bin/ulb-lint
gen=$build/bin/rpcrdma-pcapgen
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The helper that joins pieces and streams a capture N times.
pcapcat=$cache/pcapcat
if [ ! -x "$pcapcat" ] || [ bench/pcapcat.c -nt "$pcapcat" ]; then
  cc -O2 -Wall -Wextra -o "$pcapcat" bench/pcapcat.c
fi
# The decoder without the engine, linked against the libraries of the
# build: analyzer/decode's (frame decoders, pcap reader) and analyzer/lib's
# under it, each in its own folder.  (--libs: the analyzer/ folder of
# another build, e.g. the one --lint comes from.)  A row that cannot be
# measured stops the run: a table without it would read as complete.
deconly=$tmp/decode_only
[ -n "$libdir" ] || libdir=$build/analyzer
if ! cc -O2 -Wall -Wextra -I analyzer/include -I analyzer/include/rpcrdma -o "$deconly" \
     bench/decode_only.c "$libdir/decode/librpcrdma_capture.a" "$libdir/lib/librpcrdma_lib.a" \
     $(pkg-config --cflags --libs glib-2.0 libpcap) -lpthread 2>"$tmp/cc.err"; then
  echo "bench/large.sh: bench/decode_only.c does not build against $libdir:" >&2; head -5 "$tmp/cc.err" >&2
  exit 1
fi

# One piece: a busy NFS mount, mostly READ and WRITE moved by DDP (Write
# chunks and Read chunks), ~240 MiB of data, ~10600 RPC-over-RDMA messages
# (the generator allows 256 MiB and 20000 messages per scenario).
piece_scn() {  # seed mtu
  cat <<EOF
seed $1
mtu $2
rpc 3 READ len=131072 reply=write:1 repeat=600
rpc 3 WRITE len=131072 call=read:1 repeat=600
rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,READ(len=65536),GETATTR reply=write:1 repeat=600
rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,WRITE(len=65536),GETATTR call=read:1 repeat=600
rpc 4.2 COMPOUND ops=SEQUENCE,PUTFH,READ(len=32768),READ(len=4000,offset=32768),GETATTR reply=write:1,1 repeat=200
rpc 3 READ len=2048 repeat=500
rpc 3 WRITE len=2048 repeat=500
rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,GETATTR repeat=1000
rpc 3 GETATTR repeat=500
rpc 3 READDIR len=1024 reply=reply:1 repeat=200
rpc 4.1 COMPOUND ops=SEQUENCE,PUTFH,WRITE(len=8192),GETATTR call=pzrc:2 repeat=200
EOF
}

# Make (or reuse) the capture of one link type; prints its path.
capture_for() {  # link mtu
  local link=$1 mtu=$2 key file pieces=() total=0 seed=1000 want
  want=$((size_mib * 1024 * 1024))
  key=$( { piece_scn X "$mtu"; echo "$link $size_mib"; cat bench/pcapcat.c; } | sha256sum | cut -c1-12)
  file=$cache/large-$link-$key.pcap
  if [ "$regen" = 1 ] || [ ! -s "$file" ]; then
    echo "generating $file (>= $size_mib MiB, $link) ..." >&2
    rm -f "$cache"/large-"$link"-*.pcap
    while [ "$total" -lt "$want" ]; do
      seed=$((seed + 1))
      piece_scn "$seed" "$mtu" > "$tmp/p$seed.scn"
      "$gen" --link "$link" --handshake "$tmp/p$seed.scn" -o "$tmp/p$seed.pcap" --truth "$tmp/p$seed.json" >&2
      rm -f "$tmp/p$seed.json"
      pieces+=("$tmp/p$seed.pcap")
      total=$((total + $(stat -c %s "$tmp/p$seed.pcap")))
    done
    "$pcapcat" -o "$file.part" "${pieces[@]}"
    rm -f "${pieces[@]}"
    mv "$file.part" "$file"
  fi
  echo "$file"
}

# Wall time (s, best of $1 runs), peak RSS (KiB, largest) and CPU time
# (user + system s, least); the command's stdout goes to /dev/null.
# ulb-lint exit 0 or 1 is success, anything else fails.
measure() {
  local n=$1 best="" peak=0 cpu="" t0 t1 t m c rc; shift
  for _ in $(seq "$n"); do
    t0=$(date +%s%N)
    rc=0
    /usr/bin/time -f "%M %U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || rc=$?
    t1=$(date +%s%N)
    if [ "$rc" -gt 1 ] || { [ "$rc" = 1 ] && [ "${1##*/}" != ulb-lint ]; }; then
      echo "bench/large.sh: '$*' failed (exit $rc):" >&2; tail -5 "$tmp/err" >&2; exit 1
    fi
    read -r m c < <(tail -1 "$tmp/t" | awk '{print $1, $2 + $3}')
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) / 1e9}')
    if [ -z "$best" ] || awk -v x="$t" -v y="$best" 'BEGIN{exit !(x < y)}'; then best=$t; fi
    if [ -z "$cpu" ] || awk -v x="$c" -v y="$cpu" 'BEGIN{exit !(x < y)}'; then cpu=$c; fi
    [ "$m" -gt "$peak" ] && peak=$m
  done
  echo "$best $peak $cpu"
}

# ulb-lint reading the capture streamed $2 times through stdin.
measure_stream() {  # file passes
  local t0 t1 m st
  t0=$(date +%s%N)
  set +e +o pipefail
  "$pcapcat" -n "$2" "$1" | /usr/bin/time -f "%M" -o "$tmp/t" "$lint" - >/dev/null 2>"$tmp/err"
  st=("${PIPESTATUS[@]}")
  set -e -o pipefail
  t1=$(date +%s%N)
  if [ "${st[0]}" != 0 ] || [ "${st[1]}" -gt 1 ]; then
    echo "bench/large.sh: streaming run failed (pcapcat ${st[0]}, ulb-lint ${st[1]}):" >&2
    tail -5 "$tmp/err" >&2; exit 1
  fi
  m=$(tail -1 "$tmp/t")
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) / 1e9}') $m"
}

mib() { awk -v k="$1" 'BEGIN{printf "%.1f", k / 1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.1f", a / b; else printf "n/a" }'; }

cpu=$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
readme=()
echo "ulb-lint large-capture benchmark: commit $rev, $cpu, $(nproc) CPUs; $lint"
echo "runs: best of $runs (tshark: $truns); captures in $cache"
for link in $links; do
  case $link in
    rocev2*|rocev1|ib*|erf-ib) mtu=$roce_mtu ;;
    *) mtu=$iwarp_mtu ;;
  esac
  f=$(capture_for "$link" "$mtu")
  size=$(stat -c %s "$f")
  cat "$f" > /dev/null   # warm the page cache
  read -r ct cm cc < <(measure "$runs" cat "$f")
  read -r lt lm lc < <(measure "$runs" "$lint" "$f")
  read -r dt dm dc < <(measure "$runs" "$deconly" "$f")
  if [ "$do_tshark" = 1 ]; then
    read -r wt wm wc < <(measure "$truns" env WIRESHARK_CONFIG_DIR=/nonexistent \
      tshark -2 -r "$f" -T fields -e rpcordma.xid -e rpc.xid -e nfs.data)
  else
    wt=0 wm=0 wc=0
  fi
  if [ "$do_10x" = 1 ]; then
    read -r xt xm < <(measure_stream "$f" 10)
  else
    xt=0 xm=0
  fi
  lines=$(awk -v s="$size" 'BEGIN{printf "%.2f", s / 1073741824}')
  echo
  echo "== $link (MTU $mtu): $f, $size bytes ($lines GiB)"
  printf '%-46s %9s %8s %10s %9s\n' command "wall s" "cpu s" "peak MiB" "MB/s"
  row() { printf '%-46s %9.3f %8s %10s %9.0f\n' "$1" "$2" "$5" "$(mib "$3")" \
            "$(awk -v s="$4" -v t="$2" 'BEGIN{print (t > 0 ? s / t / 1e6 : 0)}')"; }
  row "ulb-lint FILE" "$lt" "$lm" "$size" "$lc"
  [ "$do_tshark" = 1 ] && row "tshark -2 -T fields rpcordma.xid rpc.xid nfs.data" "$wt" "$wm" "$size" "$wc"
  row "decoder only (bench/decode_only FILE)" "$dt" "$dm" "$size" "$dc"
  row "cat FILE > /dev/null" "$ct" "$cm" "$size" "$cc"
  [ "$do_10x" = 1 ] && row "pcapcat -n 10 FILE | ulb-lint - (10x)" "$xt" "$xm" "$((size * 10))" "-"
  [ "$do_tshark" = 1 ] && tr="$(ratio "$wt" "$lt")x" || tr="n/a (--no-tshark)"
  [ "$do_10x" = 1 ] && x10="$(mib "$xm") MiB" || x10="n/a (--no-10x)"
  echo "tshark / ulb-lint time: $tr;  ulb-lint / cat time: $(ratio "$lt" "$ct")x" \
       "(CPU time: $(ratio "$lc" "$cc")x); ulb-lint peak RSS: $(mib "$lm") MiB at 1x, $x10 at 10x (stdin)"
  echo "decoder only / cat time: $(ratio "$dt" "$ct")x; the engine and checks take" \
       "$(awk -v a="$lt" -v b="$dt" 'BEGIN{printf "%.0f", (a > 0 ? 100 * (a - b) / a : 0)}')% of ulb-lint's time"
  [ "$do_tshark" = 1 ] && tcell="$wt s, $(mib "$wm") MiB" || tcell="n/a"
  readme+=("| $link | $lines GiB | $lt s, $(mib "$lm") MiB | $x10 | $tcell | $ct s | ${tr%% *} | $(ratio "$lt" "$ct")x |")
done
echo
echo "10x: the same capture streamed 10 times through stdin with timestamps shifted"
echo "forward each pass; XIDs, PSNs and TCP sequence numbers repeat (fine for RSS)."
echo
echo "For the README ($cpu, commit $rev; wall time best of $runs, tshark $truns run(s)):"
echo
echo "| link | capture | ulb-lint | ulb-lint RSS 10x (stdin) | tshark -2 | cat | tshark / ulb-lint | ulb-lint / cat |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${readme[@]}"
