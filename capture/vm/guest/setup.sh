#!/bin/bash
# setup.sh server|client|proxy [MAX_BLOCK_SIZE] : links, rxe on eth0, siw on eth1, and (server)
# the NFS export; MAX_BLOCK_SIZE is nfsd's largest READ/WRITE (written before nfsd starts).
# With the proxy guest (lab proxy, lib/proxy.sh) every guest has four links: eth2 (rxe1)
# and eth3 (siw1) are the client's and the server's links to the proxy; the proxy's eth0
# (rxe0) and eth1 (siw0) face the client, its eth2 (rxe1) and eth3 (siw1) the server.
#   subnet 10.0.N.0/24: 0 rxe client-server, 1 siw client-server, 2 rxe client-proxy,
#   3 siw client-proxy, 4 rxe proxy-server, 5 siw proxy-server; host .1 server, .2 client, .3 proxy
set -euxo pipefail
role=$1 maxblk=${2:-}
case $role in
server) me=1 nets="0 1 4 5" ;;
client) me=2 nets="0 1 2 3" ;;
proxy)  me=3 nets="2 3 4 5" ;;
*) exit 2 ;;
esac
hostname "lab-$role"
i=0
for n in $nets; do
    [ -e "/sys/class/net/eth$i" ] || break
    ip link set "eth$i" up
    # one wire frame per RDMA/MPA segment: no TSO/GSO/GRO coalescing in the capture
    ethtool -K "eth$i" tso off gso off gro off >/dev/null 2>&1 || true
    ip addr add "10.0.$n.$me/24" dev "eth$i"
    i=$((i + 1))
done
modprobe -a rdma_rxe siw rpcrdma
rdma link show | grep -q rxe0 || rdma link add rxe0 type rxe netdev eth0
rdma link show | grep -q siw0 || rdma link add siw0 type siw netdev eth1
if [ -e /sys/class/net/eth2 ]; then
    rdma link show | grep -q rxe1 || rdma link add rxe1 type rxe netdev eth2
    rdma link show | grep -q siw1 || rdma link add siw1 type siw netdev eth3
fi
rdma link show
if [ "$role" = proxy ]; then    # the proxy listens on 20049: no nfsd of its own
    systemctl stop nfs-server || true
    ping -c 1 -W 20 10.0.4.1 >/dev/null || ping -c 3 -W 20 10.0.4.1
    ping -c 1 -W 20 10.0.5.1 >/dev/null || ping -c 3 -W 20 10.0.5.1
    exit 0
fi
if [ "$role" = client ]; then   # the server is set up first
    ping -c 1 -W 20 10.0.0.1 >/dev/null || ping -c 3 -W 20 10.0.0.1
    ping -c 1 -W 20 10.0.1.1 >/dev/null || ping -c 3 -W 20 10.0.1.1
    exit 0
fi

sysctl -q fs.lease-break-time=5
bash /lab/guest/prepare-export.sh /srv/export
systemctl stop nfs-server
if [ -n "$maxblk" ]; then
    mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
    echo "$maxblk" >/proc/fs/nfsd/max_block_size
fi
systemctl start nfs-server
cat /proc/fs/nfsd/max_block_size
grep -q 'rdma 20049' /proc/fs/nfsd/portlist || echo 'rdma 20049' >/proc/fs/nfsd/portlist
cat /proc/fs/nfsd/portlist /proc/fs/nfsd/versions
exportfs -v
