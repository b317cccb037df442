#!/bin/bash
# klog.sh begin NAME | end NAME DIR : the kernel's own account of one agent run.
#   begin: a marker line in the kernel log (/dev/kmsg), and the RPC-over-RDMA
#          tracepoints (rpcrdma:*, sunrpc:svc_xprt_*) switched on with an empty buffer
#   end:   a closing marker, then DIR/NAME.<host>.dmesg (the kernel log between the
#          two markers) and DIR/NAME.<host>.trace (the trace buffer of the run)
# The kernel logs little at its default level (svcrdma reports errors through
# tracepoints), so the trace carries most of what it did. Without tracefs only the
# dmesg part is written.
set -u
what=$1 name=$2 dir=${3:-}
host=$(hostname); host=${host#lab-}
tr=/sys/kernel/tracing
[ -e $tr/trace ] || mount -t tracefs nodev $tr 2>/dev/null || true
case $what in
begin)
    if [ -w $tr/set_event ]; then
        : >$tr/trace
        echo 'rpcrdma:*' >$tr/set_event || true
        for e in $tr/events/sunrpc/svc_xprt_*/enable; do [ -e "$e" ] && echo 1 >"$e"; done
        echo 1 >$tr/tracing_on
        echo "tracing $(wc -l <$tr/set_event) events"
    else
        echo "no tracefs: the kernel log only"
    fi
    echo "rr-lab: begin $name" >/dev/kmsg
    ;;
end)
    [ -n "$dir" ] || exit 2
    sleep 1     # what the kernel reports just after the last exchange (a disconnect)
    echo "rr-lab: end $name" >/dev/kmsg
    mkdir -p "$dir"
    dmesg | sed -n "/rr-lab: begin $name\$/,/rr-lab: end $name\$/p" >"$dir/$name.$host.dmesg"
    if [ -r $tr/trace ]; then grep -v '^#' $tr/trace >"$dir/$name.$host.trace" || true; fi
    wc -l "$dir/$name.$host".*
    ;;
*) exit 2 ;;
esac
