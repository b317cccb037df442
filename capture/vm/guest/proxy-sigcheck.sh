#!/bin/bash
# proxy-sigcheck.sh CDEV LISTEN SERVER SDEV : (proxy guest) the proxy's two ends by signal, while
# it waits for a client with both legs' captures running:
#   SIGTERM: it must exit 128+15 and leave no capture or manifest of either leg, partial or not;
#   SIGINT (its orderly end, as a capture tool's): exit 0 with both legs' captures and manifests,
#   each manifest closed with its capture line.
set -u
fail=0
# run SIG : one proxy stopped by SIG; prints its log and what it left; sets rc and left
run() {
    d=/tmp/pxsig; rm -rf "$d"; mkdir -p "$d"
    rpcrdma-agent proxy -d "$CDEV" --listen "$LISTEN:20999" --server "$SERVER" --server-dev "$SDEV" \
        --timeout 30 -w "$d/c.pcap" --server-capture "$d/s.pcap" 2>"$d/log" &
    pid=$!
    for _ in $(seq 1 50); do grep -q 'serving on' "$d/log" && break; sleep 0.2; done
    kill "-$1" "$pid"; wait "$pid"; rc=$?
    cat "$d/log"; left=$(ls "$d" | grep -v '^log$' | xargs)
    echo "$1: exit $rc; files left: ${left:-none}"
}
CDEV=$1 LISTEN=$2 SERVER=$3 SDEV=$4
run TERM
[ "$rc" = 143 ] && [ -z "$left" ] && echo "RESULT sigterm: PASS" || { echo "RESULT sigterm: FAIL"; fail=1; }
run INT
if [ "$rc" = 0 ] && [ "$left" = "c.pcap c.pcap.manifest s.pcap s.pcap.manifest" ] &&
   grep -q '^capture' "$d/c.pcap.manifest" && grep -q '^capture' "$d/s.pcap.manifest"; then
    echo "RESULT sigint: PASS"
else
    echo "RESULT sigint: FAIL"; fail=1
fi
echo "exit $([ $fail = 0 ] && echo 0 || echo 1)"
exit $fail
