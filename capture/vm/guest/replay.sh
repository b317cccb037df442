#!/bin/bash
# replay.sh server : the file the replayed SETACL names (an empty file in the export,
#                    its ACL replaced by each SETACL that works)
# replay.sh client T XID SERVER_IP DEV : rpcrdma-agent replay of the call XID of
#                    /lab/replay/nfs3-T.pcap against the kernel server over T; writes
#                    /lab/out/replay-setacl-T.{json,pcap}
set -euo pipefail
f=/srv/export/replay-acl
case $1 in
server)
    : >"$f"; chmod 666 "$f"; getfacl -n "$f" | grep -c '^user' ;;
client)
    t=$2 xid=$3 ip=$4 dev=$5 out=/lab/out/replay-setacl-$t
    rpcrdma-agent replay "/lab/replay/nfs3-$t.pcap" --xid "$xid" --target "$ip" -d "$dev" \
        --fh-from "$f" --entries 300,340,200 --timeout 30 --json "$out.json" -w "$out.pcap" \
        --overwrite ;;
*) exit 2 ;;
esac
