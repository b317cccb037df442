#!/bin/bash
# setup.sh server|client [MAX_BLOCK_SIZE] : links, rxe on eth0, siw on eth1, and (server)
# the NFS export; MAX_BLOCK_SIZE is nfsd's largest READ/WRITE (written before nfsd starts).
set -euxo pipefail
role=$1 maxblk=${2:-}
case $role in server) me=1 ;; client) me=2 ;; *) exit 2 ;; esac
hostname "lab-$role"
for i in 0 1; do
    ip link set "eth$i" up
    # one wire frame per RDMA/MPA segment: no TSO/GSO/GRO coalescing in the capture
    ethtool -K "eth$i" tso off gso off gro off >/dev/null 2>&1 || true
    ip addr add "10.0.$i.$me/24" dev "eth$i"
done
modprobe -a rdma_rxe siw rpcrdma
rdma link show | grep -q rxe0 || rdma link add rxe0 type rxe netdev eth0
rdma link show | grep -q siw0 || rdma link add siw0 type siw netdev eth1
rdma link show
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
