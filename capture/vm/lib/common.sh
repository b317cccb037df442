# Shared helpers: logging, failing, and cleanup on exit/interrupt.
# shellcheck shell=bash

LAB_STEP="start"
_CLEANUPS=()

log()  { printf '[lab] %s\n' "$*" >&2; }
LAB_T0=$(date +%s)
step() { LAB_STEP="$*"; log "step: $* (at +$(( $(date +%s) - LAB_T0 ))s)"; }
die() {
    log "FAILED in step: $LAB_STEP: $*"
    declare -F serial_tails >/dev/null && serial_tails
    exit 1
}

# on_exit CMD...: run CMD (one string, eval'd) at exit, most recent first.
on_exit() { _CLEANUPS+=("$*"); }

_run_cleanups() {
    local rc=$? i
    trap - EXIT INT TERM
    for ((i = ${#_CLEANUPS[@]} - 1; i >= 0; i--)); do
        eval "${_CLEANUPS[$i]}" >/dev/null 2>&1 || true
    done
    exit "$rc"
}
_on_err() {
    log "FAILED in step: $LAB_STEP: command '$2' exited $1"
    declare -F serial_tails >/dev/null && serial_tails
}
trap '_on_err $? "$BASH_COMMAND"' ERR
trap _run_cleanups EXIT
trap 'log "interrupted during step: $LAB_STEP"; exit 130' INT TERM

need_root() { [ "$(id -u)" = 0 ] || die "must run as root"; }

# lab_lock: one lab at a time on a host. The guests' subnets, tap names and the image cache
# are fixed, so a second run would break the first; it waits here instead (the live tests
# of ctest, a user's run and a benchmark may all start one). LAB_LOCK names another file.
lab_lock() {
    local f=${LAB_LOCK:-/run/lock/rpcrdma-lab.lock}
    exec 8>>"$f" || die "cannot open the lab's lock file $f"
    if ! flock -n 8; then
        log "another lab run holds $f: waiting for it to end"
        # in short waits, so that a signal to this run is handled while it waits
        until flock -w 5 8; do :; done
        log "the other lab run ended: going on"
    fi
    LAB_T0=$(date +%s)
}

need_cmds() {
    local c missing=()
    for c in "$@"; do command -v "$c" >/dev/null 2>&1 || missing+=("$c"); done
    [ ${#missing[@]} -eq 0 ] || die "missing commands: ${missing[*]} (apt-get install qemu-system-x86 qemu-utils debootstrap e2fsprogs tshark)"
}

# elapsed SECONDS_START -> "Ns"
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }
