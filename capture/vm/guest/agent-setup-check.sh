#!/bin/bash
# agent-setup-check.sh rxe|siw : rpcrdma-agent setup/cleanup on a real kernel (lab agent).
# A dummy netdev with a test address gets a link from `setup`, which `cleanup`
# removes; a netdev with a public address is refused; a run's own link goes away
# after SIGTERM, and after SIGKILL at the next start.
set -euo pipefail
kind=$1
t0=agt${kind}0 t1=agt${kind}1
gone() {  # gone DEV : wait (the kernel deletes a soft device only after its last close)
    for _ in $(seq 1 60); do rdma link show | grep -q "link $1/" || return 0; sleep 1; done
    echo "FAIL: $1 still exists"; rdma link show; return 1
}
ip link add "$t0" type dummy; ip link set "$t0" up; ip addr add 10.99.0.1/24 dev "$t0"
ip link add "$t1" type dummy; ip link set "$t1" up; ip addr add 192.0.2.7/24 dev "$t1"
ip addr add 8.8.4.4/32 dev "$t1"
trap 'ip link del "$t0" 2>/dev/null; ip link del "$t1" 2>/dev/null' EXIT

echo "== setup --$kind $t0, then cleanup"
dev=$(rpcrdma-agent setup "--$kind" "$t0")
rdma link show | grep "link $dev/" || { echo "FAIL: $dev not created"; exit 1; }
rpcrdma-agent cleanup
gone "$dev"

echo "== a netdev with a public address is refused (and accepted with --force)"
if rpcrdma-agent setup "--$kind" "$t1"; then echo "FAIL: setup on $t1 (8.8.4.4) was not refused"; exit 1; fi
rdma link show | grep -q "netdev $t1" && { echo "FAIL: a link was created on $t1"; exit 1; }
dev=$(rpcrdma-agent setup "--$kind" "$t1" --force)
rpcrdma-agent cleanup
gone "$dev"

echo "== links of other tools are never touched"
rdma link show | grep -q "link ${kind}0/" || { echo "FAIL: the lab's ${kind}0 is missing"; exit 1; }

echo "== a run's own link: removed after SIGTERM"
rpcrdma-agent serve "--$kind" "$t0" -p 20061 --once --timeout 600 & pid=$!
for _ in $(seq 1 30); do rdma link show | grep -q "netdev $t0" && break; sleep 1; done
dev=$(rdma link show | sed -n "s/^link \([^/]*\)\/.*netdev $t0.*/\1/p")
[ -n "$dev" ] || { echo "FAIL: serve --$kind made no link"; exit 1; }
kill -TERM "$pid"; rc=0; wait "$pid" || rc=$?
[ "$rc" = 143 ] || { echo "FAIL: serve exited $rc on SIGTERM, not 143"; exit 1; }
gone "$dev"

echo "== ... and after SIGKILL, by the next start"
rpcrdma-agent serve "--$kind" "$t0" -p 20062 --once --timeout 600 & pid=$!
for _ in $(seq 1 30); do rdma link show | grep -q "netdev $t0" && break; sleep 1; done
dev=$(rdma link show | sed -n "s/^link \([^/]*\)\/.*netdev $t0.*/\1/p")
kill -KILL "$pid"; wait "$pid" || true
sleep 1
rdma link show | grep -q "link $dev/" || { echo "FAIL: $dev vanished without a start"; exit 1; }
rpcrdma-agent list-injections >/dev/null   # not a start that touches RDMA
rpcrdma-agent cleanup --recover
gone "$dev"
echo "PASS: setup/cleanup over $kind"
