#!/bin/bash
# proxy-sigcheck.sh CDEV LISTEN SERVER SDEV : (proxy guest) SIGTERM while the proxy, both legs'
# captures running, waits for a client: it must exit 128+15 and leave no capture or manifest of
# either leg, partial or not.
set -u
d=/tmp/pxsig; rm -rf "$d"; mkdir -p "$d"
rpcrdma-agent proxy -d "$1" --listen "$2:20999" --server "$3" --server-dev "$4" --timeout 30 \
    -w "$d/c.pcap" --server-capture "$d/s.pcap" 2>"$d/log" &
pid=$!
for _ in $(seq 1 50); do grep -q 'serving on' "$d/log" && break; sleep 0.2; done
ls "$d"
kill -TERM "$pid"; wait "$pid"; rc=$?
cat "$d/log"; left=$(ls "$d" | grep -v '^log$' | xargs)
echo "exit $rc; files left: ${left:-none}"
[ "$rc" = 143 ] && [ -z "$left" ] && echo "RESULT sigterm: PASS" || { echo "RESULT sigterm: FAIL"; exit 1; }
