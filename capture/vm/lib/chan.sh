# Host side of the command channel: each guest has a 9p share $RUN/<guest>;
# commands are files in its cmd/ folder, run by guest/agent.sh.
# shellcheck shell=bash

_CMD_SEQ=0

# gstart GUEST NAME 'shell text' : queue a command, do not wait. Sets GCMD.
gstart() {
    local name=$2 text=$3 dir="$RUN/$1/cmd"
    _CMD_SEQ=$((_CMD_SEQ + 1))
    GCMD="$dir/$(printf %03d $_CMD_SEQ)-$name"
    printf 'set -u\n%s\n' "$text" >"$GCMD.tmp"
    mv "$GCMD.tmp" "$GCMD.sh"
}

# gwait CMDPATH TIMEOUT : wait for a queued command; returns its exit code (124 on timeout).
# Polled every 0.2 s: a run waits for a few hundred commands, most of them short, and a
# whole-second poll cost each of them half a second on average.
gwait() {
    local c=$1 t=$2 i=0
    while [ ! -e "$c.rc" ]; do
        sleep 0.2; i=$((i + 1))
        if [ "$i" -ge $((t * 5)) ]; then log "timeout after ${t}s: $(basename "$c")"; return 124; fi
        qemu_alive || die "a guest died (see serial logs)"
    done
    return "$(cat "$c.rc")"
}

# gwait_log CMD PATTERN TIMEOUT : until the command's log holds PATTERN (a server saying it
# listens), polled as gwait polls; 1 when the command exited first (its log's tail on
# stderr), 124 after TIMEOUT seconds.
gwait_log() {
    local c=$1 pat=$2 t=$3 i=0
    until grep -q "$pat" "$c.log" 2>/dev/null; do
        [ -e "$c.rc" ] && { tail -n 20 "$c.log" >&2; return 1; }
        sleep 0.2; i=$((i + 1))
        [ "$i" -lt $((t * 5)) ] || return 124
    done
}

# gexec GUEST NAME TIMEOUT 'shell text' : run and wait; output stays in the .log file.
gexec() {
    gstart "$1" "$2" "$4"
    gwait "$GCMD" "$3"
}

# gout : print the output of the last command
gout() { cat "$GCMD.log" 2>/dev/null; }

# gmust GUEST NAME TIMEOUT 'text' : like gexec, but a failure stops the lab.
gmust() {
    local rc=0
    gexec "$@" || rc=$?
    if [ "$rc" != 0 ]; then
        tail -n 40 "$GCMD.log" >&2 2>/dev/null
        die "$1: '$2' exited $rc"
    fi
}
