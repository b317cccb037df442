#!/bin/bash
# verbs.sh rping|ibwritebw server|client DEV IP : plain verbs traffic (negative cases for NFS decoders)
set -euo pipefail
tool=$1 side=$2 dev=$3 ip=$4
case $tool-$side in
rping-server)     exec timeout 120 rping -s -a "$ip" -C 10 -S 64 -v ;;
rping-client)     exec timeout 120 rping -c -a "$ip" -C 10 -S 64 -v ;;
ibwritebw-server) exec timeout 150 ib_write_bw -d "$dev" -R -F -s 4096 -n 20 ;;
ibwritebw-client) exec timeout 150 ib_write_bw -d "$dev" -R -F -s 4096 -n 20 "$ip" ;;
esac
exit 2
