#!/bin/bash
# capture.sh start NAME IFACE | stop NAME : tcpdump -s 0 on the client, result in /lab/out/NAME.pcap
set -euo pipefail
op=$1 name=$2 t=/tmp/cap-$2
case $op in
start)
    setsid tcpdump -i "$3" -s 0 -U -n -w "$t.pcap" >"$t.log" 2>&1 </dev/null &
    echo $! >"$t.pid"
    for _ in $(seq 1 100); do grep -q 'listening on' "$t.log" && exit 0; sleep 0.2; done
    cat "$t.log"; exit 1 ;;
stop)
    sleep 1                        # let the last frames land
    kill -INT "$(cat "$t.pid")"
    for _ in $(seq 1 50); do kill -0 "$(cat "$t.pid")" 2>/dev/null || break; sleep 0.2; done
    mkdir -p /lab/out
    cp "$t.pcap" "/lab/out/$name.pcap"
    cat "$t.log"; rm -f "$t".* ;;
esac
