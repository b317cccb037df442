#!/bin/bash
# refresh-samples.sh [--kernel K] OUTDIR[,OUTDIR...] [DEST] : copy the captures of lab runs into
# sample-pcaps/real (or DEST) and write PROVENANCE.md, one section per capture,
# with versions, the lab command, the workload phases and tshark's rpc,programs counts.
# With --kernel K (a run of `lab run --kernel K`, K other than 6.1) the captures go to
# sample-pcaps/real/K/ and only the part "# Linux K: ..." of PROVENANCE.md is rewritten;
# without it, only the part before the first such heading.
set -euo pipefail
kernel=""
if [ "${1:-}" = --kernel ]; then kernel=${2:?}; shift 2; fi
outs=${1:?usage: refresh-samples.sh [--kernel K] OUTDIR[,OUTDIR...] [DEST]}
out=${outs%%,*}
repo=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
real=${2:-$repo/sample-pcaps/real}
dest=$real${kernel:+/$kernel}
mkdir -p "$dest"
prov=$real/PROVENANCE.md
here=$(dirname "$(readlink -f "$0")")
run_facts() {  # the lab command and date of the run in $out
    cmdline=$(sed -n 's/: finished.*//p' "$out/logs/timing.txt" | tail -1)
    when=$(date -u -r "$out/versions.txt" +%FT%TZ)
}
run_facts
ver() { sed -n "s/^$1: //p" "$out/versions.txt"; }

describe() {  # what a capture holds
    case $1 in
    rping-*)     echo "rping -C 10 -S 64 (RDMA-CM connect, 10 ping-pong iterations of RDMA Send/Read/Write, disconnect); not RPC traffic" ;;
    ibwritebw-*) echo "ib_write_bw -R -s 4096 -n 20 (perftest over RDMA-CM: 20 RDMA Writes of 4 KiB); not RPC traffic" ;;
    nfs*)        awk -F'\t' -v c="${1%.pcap}" '$1==c {printf "%s%s (%s, %s)", sep, $2, $3, $4; sep=", "}' "$out/phases.tsv"
                 # sub-step results some phases report (acl3)
                 sed -n 's/^RESULT \(.*\)/; \1/p' "$out/logs/${1%.pcap}.workload.log" 2>/dev/null |
                     sed "s|/mnt/lab/w-[^/]*/||; s|/mnt/lab/||" | tr -d '\n'
                 # the sizes of manyfiles and streams, from the phase's trace
                 sed -n "s/.*seq -f client-made-entry-%04g-of-a-long-listing 1 \([0-9]*\)$/; manyfiles: \1 files/p
                         s/.*dd if=\/tmp\/[0-9]*k of=\/mnt\/lab\/w-[^ ]*\/sd1 bs=\([0-9]*k\) count=1 oflag=direct$/; streams: 4 O_DIRECT writers of \1/p" \
                     "$out/logs/${1%.pcap}.workload.log" 2>/dev/null | sort -u | tr -d '\n' ;;
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

cbfacts() {  # the backchannel (group M of the rules): frames of each callback operation
    local op n
    for op in 'CB_SEQUENCE nfs.cb.operation == 11' 'CB_RECALL nfs.cb.operation == 4' \
              'CB_NOTIFY_LOCK nfs.cb.operation == 13' 'CB_GETATTR nfs.cb.operation == 3' \
              'CB_NULL rpc.program == 0x40000000 && rpc.procedure == 0'; do
        n=$(tshark -r "$1" -2 -Y "${op#* }" -T fields -e frame.number 2>/dev/null | paste -sd, -)
        printf '%s%s: %s' "${sep:-}" "${op%% *}" "${n:-none}"; sep="; "
    done
}

provenance_head() {  # the part of PROVENANCE.md about sample-pcaps/real itself (Linux 6.1)
    echo "# Provenance of the real captures"
    echo
    echo "Made by the two-guest QEMU lab (capture/vm/lab, see docs/lab.md): the real Linux NFS client and"
    echo "server over rxe (RoCEv2, client eth0 10.0.0.2 <-> server 10.0.0.1) and siw (iWARP, client eth1"
    echo "10.0.1.2 <-> server 10.0.1.1). Each file is \`tcpdump -i ethX -s 0\` on the client, started before"
    echo "the mount (or the verbs tool), so the RDMA-CM / MPA handshake is included. Offloads (TSO/GSO/GRO)"
    echo "are off on both guests, so each RDMA/MPA segment is one frame."
    echo
    echo "Refresh: \`capture/vm/lab run --out DIR && capture/vm/refresh-samples.sh DIR\`. The captures of"
    echo "other kernels are in folders named after the kernel, described in the parts \"# Linux K\" below."
    echo
    echo "What to expect in them (NFSv3 SETACL of 400 entries answered GARBAGE_ARGS, then 3 reconnects and"
    echo "retransmissions; NFSv3 GETACL of 400 entries failing on the client; NFSv4.0 callbacks over TCP;"
    echo "duplicate rxe Sends with the same PSN): see \"Known behaviour\" in docs/lab.md."
    echo
    echo "Workload phases are listed as name (status, duration); the phases are defined in"
    echo "capture/vm/guest/nfs-phase.sh. The counts are from \`tshark -r FILE -2 -q -z rpc,programs\`"
    echo "(tshark $(tshark --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')): matched call/reply pairs per RPC program and version."
}

provenance_kernel_head() {  # the part of PROVENANCE.md about sample-pcaps/real/K
    echo "# Linux $kernel: sample-pcaps/real/$kernel/"
    echo
    echo "Made by \`capture/vm/lab run --kernel $kernel\` (Debian $(ver debian), see docs/lab.md, the longer tier):"
    echo "the same two guests, links and capture as above, with the workload like users' (phases manyfiles,"
    echo "links, locks, bigio, streams, delegw and the fault phases nfsd-restart and linkflap, in"
    echo "capture/vm/guest/nfs-phase.sh). nfsd's max_block_size is 1 MiB. Refresh: the lab command named"
    echo "below with \`--out DIR\`, then \`capture/vm/refresh-samples.sh --kernel $kernel DIR\`."
    echo
    echo "Size budget: at most 5 MiB per capture and 32 MiB for the 6.12 and 7 folders together, so the"
    echo "data phases move little data (one 1 MiB WRITE in rw and one 1 MiB READ in bigio; 1 KiB rsize/wsize"
    echo "in streams, where many small calls are outstanding at once); the snap length is full (tcpdump -s 0)."
    echo "\"most outstanding\" is capture/vm/outstanding.py: per connection, the most forward calls sent"
    echo "without a reply yet, with the credits asked for (calls) and granted (replies)."
}

sections() {
    local f
    for f in $(for out in ${outs//,/ }; do ls "$out"/*.pcap; done | sort -t/ -k1 | awk -F/ '{print $NF "\t" $0}' | sort | cut -f2); do
        out=$(dirname "$f"); run_facts
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
        echo "- siw: out-of-tree build of drivers/infiniband/sw/siw from $(ver 'siw source')"
        echo "- size: $(stat -c %s "$f") bytes, $(tshark -r "$f" 2>/dev/null | wc -l) frames"
        echo "- workload: $(describe "$b")"
        echo "- seen by tshark: $(facts "$f")"
        if [ -n "$kernel" ]; then
            echo "- backchannel frames (tshark -2): $(sep='' cbfacts "$f")"
            echo "- most outstanding per connection (outstanding.py):"
            echo
            echo '```'
            python3 "$here/outstanding.py" "$f" | sed 1d | sed 's/^ *//'
            echo '```'
        fi
        echo "- tshark rpc,programs:"
        echo
        echo '```'
        tshark -r "$f" -2 -q -z rpc,programs 2>/dev/null | sed -n '/^Program/,/^====/p' | sed '/^====/d'
        echo '```'
    done
}

# keep the other part(s) of PROVENANCE.md: the parts are separated by "# Linux K: ..." headings
part() {  # part K: the lines of that part of the old file ("" = the part before any such heading)
    [ -f "$prov" ] || return 0
    awk -v k="$1" '/^# Linux [^ ]+: /{cur=$3; sub(":", "", cur)} (k == "" && cur == "") || (k != "" && cur == k)' "$prov"
}
strip() { sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }    # no blank lines at the end
old_kernels=$( [ -f "$prov" ] && sed -n 's/^# Linux \([^ ]*\): .*/\1/p' "$prov" || true)
new=$(mktemp)
{
    if [ -z "$kernel" ]; then provenance_head; sections; else part "" | strip; fi
    for k in $(printf '%s\n' $old_kernels $kernel | sort -uV); do
        echo
        if [ "$k" = "$kernel" ]; then provenance_kernel_head; sections; else part "$k" | strip; fi
    done
} >"$new"
mv "$new" "$prov"
echo "wrote $prov and the captures of $outs into $dest ($(du -sh "$dest" | cut -f1))"
