#!/bin/bash
# proxy-inj.sh STEP ... : (client) one injection of the lab proxy's client matrix
# (lib/proxy.sh proxy_inj_run), one step a call; the proxy breaks the server's replies.
#   begin NAME                    a marker in the kernel log: rr-lab: begin NAME
#   mount VERS IP [MOUNTADDR [PORT]]  IP:/srv/export on /mnt/pi (RDMA port PORT, 20049 by
#                                 default), bounded by a timeout
#   work SECONDS                  a directory listing, a file read, a small write, each
#                                 bounded (SIGKILL after SECONDS): what the application saw,
#                                 one line per step: APP step=... rc=... errno text
#   umount                        umount, else umount -f -l (a hang)
#   end NAME                      the end marker; the kernel log between both markers
# The mount is hard (the default): a reply the client never accepts is seen as a hang.
set -uo pipefail
m=/mnt/pi
mark() { echo "rr-lab: $1 $2" >/dev/kmsg; }
# app STEP SECONDS CMD... : one step of the workload, its exit status and error text
app() {
    local step=$1 t=$2 rc=0 err
    shift 2
    err=$(timeout -k 5 "$t" "$@" 2>&1 >/dev/null) || rc=$?
    err=$(printf '%s' "$err" | tr '\n' ' ' | cut -c1-200)
    echo "APP step=$step rc=$rc${err:+ $err}$([ "$rc" = 124 ] || [ "$rc" = 137 ] && echo ' (timed out: a hang)')"
    return 0
}
step=$1; shift
case $step in
begin)
    mark begin "$1" ;;
mount)
    v=$1 ip=$2 maddr=${3:-} port=${4:-20049}
    opts="vers=$v,proto=rdma,port=$port"
    [ -z "$maddr" ] || opts="$opts,mountaddr=$maddr,mountproto=tcp,nolock"
    mkdir -p "$m"
    # an NFSv4 client identity of its own for each mount (RFC 8881 §2.4, co_ownerid): a
    # client an earlier injection left retrying on its own proxy port would be found the
    # same client of the same server (session trunking), and this mount would queue
    # behind its dead transport
    id=/sys/fs/nfs/net/nfs_client/identifier
    [ ! -w "$id" ] || cat /proc/sys/kernel/random/uuid >"$id"
    app mount 60 mount -t nfs -o "$opts" "$ip:/srv/export" "$m"
    grep -q " $m " /proc/mounts ;;
work)
    t=$1
    app ls "$t" ls -l "$m/px-src"
    app readdir "$t" bash -o pipefail -c "ls -f '$m/bigdir' | wc -l"
    app cat "$t" bash -o pipefail -c "cat '$m/px-src/s1' | sha256sum"
    app write "$t" dd if=/dev/zero of="$m/pi-$$" bs=64k count=4 conv=fsync status=none
    timeout -k 2 10 rm -f "$m/pi-$$" 2>/dev/null || true ;;
umount)
    if timeout -k 2 20 umount "$m" 2>/dev/null; then echo "UMOUNT clean"
    else umount -f -l "$m" 2>&1; echo "UMOUNT forced (-f -l)"; fi ;;
end)
    mark end "$1"
    dmesg | sed -n "/rr-lab: begin $1\$/,/rr-lab: end $1\$/p" ;;
*) echo "unknown step $step"; exit 2 ;;
esac
