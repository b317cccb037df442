#!/bin/bash
# Guest side of the lab command channel. The host drops NAME.sh into /lab/cmd
# (9p share); we run each once in the background and leave NAME.log and NAME.rc.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cmd=/lab/cmd
mkdir -p "$cmd"
[ -d /lab/bin ] && export PATH=/lab/bin:$PATH
uname -r >/lab/ready
while :; do
    for f in "$cmd"/*.sh; do
        [ -e "$f" ] || continue
        n=${f%.sh}
        [ -e "$n.started" ] && continue
        : >"$n.started"
        ( bash "$f" >"$n.log" 2>&1; echo $? >"$n.rc.tmp"; mv "$n.rc.tmp" "$n.rc" ) </dev/null &
    done
    sleep 0.3
done
