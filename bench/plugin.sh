#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Wireshark plugin against the built-in dissector, in one run on one
# large capture: `tshark -r` with the plugin (one pass) beside `tshark -2 -r`
# without it (Wireshark's rpcordma, which needs the second pass to put RDMA
# Write data back into NFS replies).  Target: the plugin no worse than 1.1x
# the built-in dissector's wall time and peak RSS.  The plugin with -2 is
# measured too, for information.
#
#   bench/plugin.sh [--plugin PATH] [--runs N] [--copies N] [--captures "a.pcap b.pcap"]
#
# The capture: the real captures (default nfs42-rxe and nfs42-siw, NFSv4.2
# over RoCEv2 and over iWARP) one after the other, the lot repeated N times
# (default 10), joined by bench/pcapcat with increasing timestamps.  Unlike
# bench/memory.sh, each copy gets its own TCP client ports: a verbatim copy
# of a TCP connection repeats its SYN and sequence numbers, Wireshark's TCP
# takes the whole copy for retransmissions and hands nothing to iWARP, so
# the built-in dissector would skip every iWARP copy after the first while
# the plugin (which reads the bytes itself) decodes them all - the two
# would not do the same work.  With the ports moved (and the TCP checksum
# mended) every copy is a new connection to both.  RoCE copies need no
# change: both dissectors decode every copy as it is.
# Every command runs through tests/plugin/ws-user.sh, so all run as the same
# user with a fresh private HOME (no preferences); GNU time runs inside it,
# around tshark alone, so the plugin copy ws-user.sh makes is not counted.
# Wall time, CPU time (user + system) and peak RSS are the best (least) of
# N runs (default 3); the commands take turns within a round so that a busy
# neighbour on a shared machine slows all of them alike.
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=build/plugin/epan/rpcrdma.so runs=3 copies=10
captures="sample-pcaps/real/nfs42-rxe.pcap sample-pcaps/real/nfs42-siw.pcap"
usage() { sed -n '10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --plugin) plugin=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --captures) captures=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "bench/plugin.sh: unknown option $1" >&2; usage ;;
  esac
done
for t in /usr/bin/time tshark cc; do
  command -v "$t" >/dev/null || { echo "bench/plugin.sh: needs $t (scripts/install-deps.sh)" >&2; exit 2; }
done
if [ ! -f "$plugin" ] && [ "$plugin" = build/plugin/epan/rpcrdma.so ]; then
  cmake -S . -B build >/dev/null && cmake --build build -j"$(nproc)" --target rpcrdma_plugin >/dev/null
fi
[ -f "$plugin" ] || { echo "bench/plugin.sh: no plugin at $plugin" >&2; exit 2; }

# Everything tshark reads or writes lives here, readable by nobody (as
# root, ws-user.sh runs tshark as nobody).  The plugin is copied first: a
# rebuild during the run must not change what is measured.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rr-bench-plugin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
cp "$plugin" "$tmp/rpcrdma.so"
so=$tmp/rpcrdma.so
cc -O2 -Wall -Wextra -o "$tmp/pcapcat" bench/pcapcat.c

# Copy $1 of capture $2 with TCP ports >= 32768 (Linux's ephemeral range:
# the clients' side; servers such as 20049 stay) moved by 7 * copy, the
# checksum updated as RFC 1624 says.  Classic pcap, Ethernet, IPv4 only;
# anything else is written unchanged.
shift_ports() {  # copy in out
  python3 - "$@" <<'EOF'
import struct, sys
k, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = bytearray(open(src, "rb").read())
e = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
     b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}.get(bytes(d[:4]))
if e is None or struct.unpack_from(e + "I", d, 20)[0] != 1:
    sys.exit(f"bench/plugin.sh: {src}: not a classic pcap of Ethernet frames")
def moved(p):
    return 32768 + (p - 32768 + 7 * k) % 32768 if p >= 32768 else p
off = 24
while off + 16 <= len(d):
    p = off + 16
    end = p + struct.unpack_from(e + "I", d, off + 8)[0]
    ip = p + 14
    if end - p >= 54 and d[p + 12:p + 14] == b"\x08\x00" and d[ip] >> 4 == 4 and d[ip + 9] == 6 \
            and struct.unpack_from(">H", d, ip + 6)[0] & 0x1fff == 0:
        t = ip + (d[ip] & 15) * 4
        if t + 18 <= end:
            sp, dp = struct.unpack_from(">HH", d, t)
            nsp, ndp = moved(sp), moved(dp)
            if (nsp, ndp) != (sp, dp):
                struct.pack_into(">HH", d, t, nsp, ndp)
                s = (~struct.unpack_from(">H", d, t + 16)[0] & 0xffff) + (~sp & 0xffff) + nsp \
                    + (~dp & 0xffff) + ndp
                while s >> 16:
                    s = (s & 0xffff) + (s >> 16)
                struct.pack_into(">H", d, t + 16, ~s & 0xffff)
    off = end
open(dst, "wb").write(d)
EOF
}
pieces=()
for k in $(seq 0 $((copies - 1))); do
  n=0
  for c in $captures; do
    n=$((n + 1))
    shift_ports "$k" "$c" "$tmp/piece-$k-$n.pcap"
    pieces+=("$tmp/piece-$k-$n.pcap")
  done
done
"$tmp/pcapcat" -o "$tmp/big.pcap" "${pieces[@]}"
rm -f "${pieces[@]}"
chmod 0644 "$tmp/big.pcap"
mkdir "$tmp/out"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$tmp/out"
size=$(stat -c %s "$tmp/big.pcap")
frames=$(capinfos -M -c "$tmp/big.pcap" 2>/dev/null | awk '/^Number of packets/ {print $NF}' || true)
cat "$tmp/big.pcap" > /dev/null   # warm the page cache

# What each command asks for, the same for all: `-Y rpc`, one summary line
# per RPC message, which is what users run to read NFS traffic.  A display
# filter makes tshark build a protocol tree for every frame, the RPC and
# NFS dissectors run on every rebuilt message (with the data the RDMA
# Writes moved), and the summary columns are filled; the lines go to wc,
# and their count shows that both dissectors found the same RPC traffic
# (it is not part of the timing).  -T fields or -V would time mostly
# tshark's printing instead.
args=(-r "$tmp/big.pcap" -Y rpc)
names=("tshark -r -Y rpc, plugin" "tshark -2 -r -Y rpc, built-in" "tshark -2 -r -Y rpc, plugin")
cmds=("$so|" "none|-2" "$so|-2")

# One run of command $1: appends "wall cpu peak_kib lines" to $tmp/r$1.
run() {
  local i=$1 p a home rc=0 lines
  p=${cmds[$i]%%|*} a=${cmds[$i]#*|}
  home=$tmp/home$i
  rm -rf "$home"
  # shellcheck disable=SC2086  # $a is empty or -2
  lines=$(tests/plugin/ws-user.sh "$p" --home "$home" -- \
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/out/t" tshark $a "${args[@]}" 2>"$tmp/err" | wc -l) || rc=$?
  if [ "$rc" != 0 ] || [ ! -s "$tmp/out/t" ] || grep -q 'exited with non-zero' "$tmp/out/t"; then
    echo "bench/plugin.sh: '${names[$i]}' failed:" >&2; tail -5 "$tmp/err" "$tmp/out/t" >&2; exit 1
  fi
  tail -1 "$tmp/out/t" | awk -v l="$lines" '{ printf "%s %.2f %s %s\n", $1, $2 + $3, $4, l }' >> "$tmp/r$i"
  rm -f "$tmp/out/t"
}
for _ in $(seq "$runs"); do
  for i in 0 1 2; do run "$i"; done
done
# best (least) of each column over the runs; lines: the last run's
best() { sort -n -k"$2" "$tmp/r$1" | head -1 | awk -v c="$2" '{print $c}'; }
lines() { tail -1 "$tmp/r$1" | awk '{print $4}'; }

mib() { awk -v k="$1" 'BEGIN{printf "%.1f", k / 1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
echo "rpcrdma plugin vs built-in rpcordma: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)," \
  "$(tshark --version 2>/dev/null | head -1 | sed 's/ (Git.*//')"
echo "CPU: $(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo), $(nproc) CPUs;" \
  "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "capture: $captures, joined ${copies}x: $size bytes, $frames frames"
echo "best of $runs runs; plugin: $plugin"
printf '%-32s %8s %8s %10s %11s\n' command "wall s" "cpu s" "peak MiB" "RPC lines"
for i in 0 1 2; do
  printf '%-32s %8.2f %8.2f %10s %11s\n' "${names[$i]}" "$(best "$i" 1)" "$(best "$i" 2)" \
    "$(mib "$(best "$i" 3)")" "$(lines "$i")"
done
tw=$(ratio "$(best 0 1)" "$(best 1 1)") tc=$(ratio "$(best 0 2)" "$(best 1 2)")
tm=$(ratio "$(best 0 3)" "$(best 1 3)")
verdict=$(awk -v w="$tw" -v m="$tm" 'BEGIN{ print (w <= 1.1 && m <= 1.1) ? "within" : "over" }')
echo "plugin (one pass) / built-in (-2): wall time ${tw}x, CPU time ${tc}x, peak RSS ${tm}x" \
  "($verdict the 1.1x target)"
echo "plugin -2 / built-in -2: wall time $(ratio "$(best 2 1)" "$(best 1 1)")x," \
  "CPU time $(ratio "$(best 2 2)" "$(best 1 2)")x, peak RSS $(ratio "$(best 2 3)" "$(best 1 3)")x"
