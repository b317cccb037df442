#!/bin/bash
# refresh-samples.sh OUTDIR [DEST] : copy the captures of a full lab run into
# sample-pcaps/real (or DEST) and write PROVENANCE.md, one section per capture,
# with versions, the lab command, the workload phases and tshark's rpc,programs counts.
set -euo pipefail
out=${1:?usage: refresh-samples.sh OUTDIR [DEST]}
repo=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
dest=${2:-$repo/sample-pcaps/real}
mkdir -p "$dest"
prov=$dest/PROVENANCE.md
cmdline=$(sed -n 's/: finished.*//p' "$out/logs/timing.txt" | tail -1)
when=$(date -u -r "$out/versions.txt" +%FT%TZ)
ver() { sed -n "s/^$1: //p" "$out/versions.txt"; }

describe() {  # what a capture holds
    case $1 in
    rping-*)     echo "rping -C 10 -S 64 (RDMA-CM connect, 10 ping-pong iterations of RDMA Send/Read/Write, disconnect); not RPC traffic" ;;
    ibwritebw-*) echo "ib_write_bw -R -s 4096 -n 20 (perftest over RDMA-CM: 20 RDMA Writes of 4 KiB); not RPC traffic" ;;
    nfs*)        awk -F'\t' -v c="${1%.pcap}" '$1==c {printf "%s%s (%s, %s)", sep, $2, $3, $4; sep=", "}' "$out/phases.tsv"
                 # sub-step results some phases report (acl3)
                 sed -n 's/^RESULT \(.*\)/; \1/p' "$out/logs/${1%.pcap}.workload.log" 2>/dev/null |
                     sed "s|/mnt/lab/w-[^/]*/||; s|/mnt/lab/||" | tr -d '\n' ;;
    esac
}

count() { tshark -r "$1" -2 -Y "$2" 2>/dev/null | wc -l; }
facts() {  # a few independent counts from tshark
    local types
    types=$(tshark -r "$1" -2 -Y rpcordma -T fields -e rpcordma.msg_type 2>/dev/null |
        sed 's/,.*//; s/^0$/RDMA_MSG/; s/^1$/RDMA_NOMSG/; s/^2$/RDMA_MSGP/; s/^3$/RDMA_DONE/; s/^4$/RDMA_ERROR/' |
        sort | uniq -c | awk '{printf "%s%s %s", sep, $2, $1; sep=", "}')
    printf '%s connection request(s) (RDMA-CM REQ or MPA request); RPC-over-RDMA frames: %s; ' \
        "$(count "$1" 'infiniband.mad.attributeid == 0x0010 || iwarp_mpa.key.req')" "${types:-none}"
    printf 'CB_RECALL frames: %s; frames marked malformed: %s' \
        "$(count "$1" 'nfs.cb.operation == 4')" "$(count "$1" '_ws.malformed')"
}

{
    echo "# Provenance of the real captures"
    echo
    echo "Made by the two-guest QEMU lab (capture/vm/lab, see docs/lab.md): the real Linux NFS client and"
    echo "server over rxe (RoCEv2, client eth0 10.0.0.2 <-> server 10.0.0.1) and siw (iWARP, client eth1"
    echo "10.0.1.2 <-> server 10.0.1.1). Each file is \`tcpdump -i ethX -s 0\` on the client, started before"
    echo "the mount (or the verbs tool), so the RDMA-CM / MPA handshake is included. Offloads (TSO/GSO/GRO)"
    echo "are off on both guests, so each RDMA/MPA segment is one frame."
    echo
    echo "Refresh: \`capture/vm/lab run --out DIR && capture/vm/refresh-samples.sh DIR\`."
    echo
    echo "What to expect in them (NFSv3 SETACL of 400 entries answered GARBAGE_ARGS, then 3 reconnects and"
    echo "retransmissions; NFSv3 GETACL of 400 entries failing on the client; NFSv4.0 callbacks over TCP;"
    echo "duplicate rxe Sends with the same PSN): see \"Known behaviour\" in docs/lab.md."
    echo
    echo "Workload phases are listed as name (status, duration); the phases are defined in"
    echo "capture/vm/guest/nfs-phase.sh. The counts are from \`tshark -r FILE -2 -q -z rpc,programs\`"
    echo "(tshark $(tshark --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')): matched call/reply pairs per RPC program and version."
    for f in "$out"/*.pcap; do
        b=$(basename "$f")
        cp "$f" "$dest/$b"
        echo
        echo "## $b"
        echo
        echo "- date: $when"
        echo "- command: \`$cmdline\`"
        echo "- kernel (both guests): $(ver kernel)"
        echo "- rdma-core: $(ver rdma-core), ibverbs-providers $(ver ibverbs-providers), perftest $(ver perftest)"
        echo "- nfs-utils: nfs-common $(ver nfs-common), nfs-kernel-server $(ver nfs-kernel-server), nfs4-acl-tools $(ver nfs4-acl-tools)"
        echo "- siw: out-of-tree build of drivers/infiniband/sw/siw from linux-source-6.1 (same version as the kernel)"
        echo "- size: $(stat -c %s "$f") bytes, $(tshark -r "$f" 2>/dev/null | wc -l) frames"
        echo "- workload: $(describe "$b")"
        echo "- seen by tshark: $(facts "$f")"
        echo "- tshark rpc,programs:"
        echo
        echo '```'
        tshark -r "$f" -2 -q -z rpc,programs 2>/dev/null | sed -n '/^Program/,/^====/p' | sed '/^====/d'
        echo '```'
    done
} >"$prov"
echo "wrote $prov and $(ls "$out"/*.pcap | wc -l) captures ($(du -sh "$dest" | cut -f1))"
