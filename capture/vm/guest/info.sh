#!/bin/bash
# info.sh : versions of what produced the captures
echo "kernel: $(uname -r) ($(uname -v))"
echo "uname-r: $(uname -r)"
dpkg-query -W -f '${Package}: ${Version}\n' rdma-core ibverbs-providers rdmacm-utils perftest \
    nfs-common nfs-kernel-server nfs4-acl-tools tcpdump linux-image-amd64 linux-headers-amd64 2>/dev/null
echo "siw.ko: $(modinfo -F filename siw 2>/dev/null)"
echo "siw source: $(cat /etc/lab-siw-source 2>/dev/null || echo 'linux-source-6.1 (same version as the kernel)')"
echo "debian: $(cat /etc/debian_version)"
rdma link show
# the project's own tools, if the host had build/bin (shared read-write at /lab/bin, on the agent's PATH)
if [ -d /lab/bin ]; then
    echo "project tools in /lab/bin: $(ls /lab/bin | tr '\n' ' ')"
    t=/lab/bin/ulb-lint
    if [ -x "$t" ]; then
        if "$t" --help >/dev/null 2>&1; then echo "$t runs"; else echo "$t does not run here (missing libraries?)"; fi
    fi
fi
exit 0
