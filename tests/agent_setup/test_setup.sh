#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test_setup.sh DRIVER FAKE_RDMA: `rpcrdma-agent setup` and `cleanup`, the
# run-scoped links of drive/serve (exit, SIGTERM, SIGINT, crash) and the
# address refusal, on the host: DRIVER is tests/agent_setup/setup_main.c,
# FAKE_RDMA a logging stand-in for rdma(8) over a fake sysfs tree.
# The oracle is the fake's log of `rdma link add/delete` calls and the
# state file: exactly the links the agent recorded are deleted, never one
# it did not make.
set -u
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
drv=$(abs "$1")
fake=$(abs "$2")
tmp=$(mktemp -d)
bg=
trap '[ -n "$bg" ] && kill -KILL $bg 2>/dev/null; rm -rf "$tmp"' EXIT

export RPCRDMA_AGENT_SYSFS=$tmp/sys
export RPCRDMA_AGENT_STATE=$tmp/run/rpcrdma-agent/links
export RPCRDMA_AGENT_RDMA=$fake
export FAKE_RDMA_LOG=$tmp/rdma.log
ln -s "$fake" "$tmp/modprobe"
export RPCRDMA_AGENT_MODPROBE=$tmp/modprobe
unset RPCRDMA_AGENT_ADDRS FAKE_RDMA_FAIL_ADD FAKE_RDMA_FAIL_DELETE
cls=$RPCRDMA_AGENT_SYSFS/class/infiniband
# rdma_rxe is loaded, siw is not: `setup --siw` must modprobe it.
mkdir -p "$cls" "$RPCRDMA_AGENT_SYSFS/module/rdma_rxe"
: >"$FAKE_RDMA_LOG"

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }     # stdout: see the --crash line
pass() { echo "ok: $*"; }

# t WANT_RC ARGS...: run the driver; stdout in $out, stderr in $err.
t() {
	local want=$1
	shift
	"$drv" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	if [ "$rc" != "$want" ]; then
		fail "$* exited $rc, want $want; stdout: $out; stderr: $err"
		return 1
	fi
	return 0
}
state_has() { grep -Eqx "$1" "$RPCRDMA_AGENT_STATE"; }
log_has() { grep -Fqx "$1" "$FAKE_RDMA_LOG"; }
adds() { grep -c '^rdma link add ' "$FAKE_RDMA_LOG"; }
deleted() { grep '^rdma link delete ' "$FAKE_RDMA_LOG" | sed 's/^rdma link delete //' | sort | tr '\n' ' '; }
# A fake link someone else made (not in the state file).
foreign() {
	mkdir -p "$cls/$1/ports/1/gid_attrs/ndevs"
	echo "$2" >"$cls/$1/ports/1/gid_attrs/ndevs/0"
}
dead_pid() {
	sleep 0 &
	local p=$!
	wait $p
	echo $p
}
wait_for() { # wait_for SECONDS COMMAND...
	local n=$(($1 * 20))
	shift
	while [ $n -gt 0 ]; do
		"$@" && return 0
		sleep 0.05
		n=$((n - 1))
	done
	return 1
}

# ---- setup: create, record, name ----
if t 0 setup --rxe lo; then
	[ "$out" = rxe_agent0 ] && pass "setup prints rxe_agent0" || fail "setup printed '$out'"
	log_has "rdma link add rxe_agent0 type rxe netdev lo" && pass "rdma link add called" ||
		fail "no 'rdma link add rxe_agent0 type rxe netdev lo' in $(cat "$FAKE_RDMA_LOG")"
	state_has "rxe_agent0 rxe lo [0-9]+ persistent" && pass "setup recorded persistent" ||
		fail "state lacks rxe_agent0: $(cat "$RPCRDMA_AGENT_STATE")"
	grep -q '^modprobe' "$FAKE_RDMA_LOG" && fail "modprobe ran though rdma_rxe is loaded"
fi
# rxe_agent1 exists but is someone else's: the next free name is rxe_agent2.
foreign rxe_agent1 lo
foreign rxe_foreign lo
if t 0 setup --rxe=lo; then
	[ "$out" = rxe_agent2 ] && pass "first free name skips recorded and existing devices" ||
		fail "second setup printed '$out', want rxe_agent2"
fi
if t 0 setup --siw lo --name siw_lab; then
	[ "$out" = siw_lab ] && pass "--name" || fail "--name printed '$out'"
	log_has "modprobe siw" && pass "modprobe siw before the first siw link" || fail "modprobe siw not run"
	log_has "rdma link add siw_lab type siw netdev lo" || fail "no siw link add"
	state_has "siw_lab siw lo [0-9]+ persistent" || fail "state lacks siw_lab"
fi
t 1 setup --rxe lo --name rxe_foreign &&
	{ [[ $err == *"already exists"* ]] && pass "--name of an existing device refused" || fail "$err"; }

# ---- refusal: non-test addresses ----
sum=$(cksum <"$RPCRDMA_AGENT_STATE")
n=$(adds)
if RPCRDMA_AGENT_ADDRS='lo=127.0.0.1,::1,8.8.8.8' t 1 setup --rxe lo; then
	[[ $err == *lo*8.8.8.8*--force* ]] && pass "refusal names netdev, address and --force" ||
		fail "refusal message: $err"
fi
if RPCRDMA_AGENT_ADDRS='fake0=192.0.2.9;fake1=2001:db9::1' t 1 setup --siw fake1; then
	[[ $err == *fake1*2001:db9::1*--force* ]] && pass "IPv6 refusal" || fail "IPv6 refusal message: $err"
fi
t 1 setup --rxe nosuchnetdev9 && { [[ $err == *"no network interface named nosuchnetdev9"* ]] ||
	fail "missing netdev message: $err"; }
[ "$(adds)" = "$n" ] && pass "no link added when refused" || fail "a refused setup ran rdma link add"
[ "$(cksum <"$RPCRDMA_AGENT_STATE")" = "$sum" ] || fail "a refused setup changed the state file"
RPCRDMA_AGENT_ADDRS='fake0=198.18.0.1,fd00::1,fe80::1%fake0,169.254.3.4/16' t 0 setup --rxe fake0 &&
	pass "test addresses accepted ($out)"
fake0=$out
RPCRDMA_AGENT_ADDRS='lo=8.8.8.8' t 0 setup --rxe lo --force && pass "--force overrides ($out)"
forced=$out

# ---- failures ----
n=$(adds)
sum=$(cksum <"$RPCRDMA_AGENT_STATE")
FAKE_RDMA_FAIL_ADD="Operation not permitted" t 1 setup --rxe lo &&
	{ [[ $err == *"link add rxe_agent"*"failed"*"Operation not permitted"* ]] && pass "rdma failure reported" ||
		fail "rdma failure message: $err"; }
RPCRDMA_AGENT_RDMA=$tmp/no/such/rdma t 1 setup --rxe lo &&
	{ [[ $err == *iproute2* ]] && pass "missing rdma tool names iproute2" || fail "missing tool message: $err"; }
RPCRDMA_AGENT_RDMA=rdma-not-installed-here t 1 setup --rxe lo &&
	{ [[ $err == *iproute2* ]] || fail "missing tool (PATH) message: $err"; }
[ "$(cksum <"$RPCRDMA_AGENT_STATE")" = "$sum" ] || fail "a failed setup changed the state file"
m=$(adds)
RPCRDMA_AGENT_STATE=/proc/self/no/links t 1 setup --rxe lo &&
	{ [ "$(adds)" = "$m" ] && pass "no link without a writable state file" ||
		fail "link added though it could not be recorded"; }
t 2 setup
t 2 setup --rxe lo --siw lo
t 2 setup --rxe
t 2 setup --rxe lo extra
t 2 setup --bogus
t 2 cleanup --bogus
t 1 setup --rxe lo --name bad/name
t 0 setup --help && { [[ $out == usage:* ]] || fail "setup --help: $out"; }

# ---- run-scoped links ----
if t 0 run rxe lo; then
	name=$out
	log_has "rdma link delete $name" && pass "run link removed at exit ($name)" || fail "run link $name not deleted at exit"
	grep -q "^$name " "$RPCRDMA_AGENT_STATE" && fail "run link $name still recorded after exit"
	[ -d "$cls/$name" ] && fail "run link $name still exists after exit"
fi
for sig in TERM INT; do
	"$drv" run rxe lo --wait >"$tmp/out.$sig" 2>"$tmp/err.$sig" &
	bg=$!
	if ! wait_for 10 test -s "$tmp/out.$sig"; then
		fail "run --wait printed nothing"
		continue
	fi
	name=$(cat "$tmp/out.$sig")
	state_has "$name rxe lo $bg run" || fail "run link not recorded as '$name rxe lo $bg run'"
	kill -$sig $bg
	wait $bg
	rc=$?
	want=$((128 + $(kill -l $sig)))
	[ $rc = $want ] && pass "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, want $want"
	grep -q interrupted "$tmp/err.$sig" || fail "SIG$sig: no message: $(cat "$tmp/err.$sig")"
	bg=
	# The reaper deletes once the owner is gone.
	if wait_for 10 log_has "rdma link delete $name" && wait_for 5 sh -c "! grep -q '^$name ' '$RPCRDMA_AGENT_STATE'"; then
		pass "SIG$sig: run link $name removed"
	else
		fail "SIG$sig: run link $name not removed; log: $(tail -3 "$FAKE_RDMA_LOG"); state: $(cat "$RPCRDMA_AGENT_STATE")"
	fi
done

# ---- crashes: the next start removes the dead run's links ----
{ t 137 run rxe lo --crash; } 2>/dev/null      # no "Killed" notice from bash
crashed=$out
state_has "$crashed rxe lo [0-9]+ run" && [ -d "$cls/$crashed" ] || fail "crashed run left no record of $crashed"
dead=$(dead_pid)
foreign rxe_stale lo
foreign rxe_live lo
foreign rxe_reused lo           # recorded on eth9, now on lo: someone reused the name
mkdir -p "$cls/siw_stale" && echo lo >"$cls/siw_stale/.netdev"   # netdev only via `rdma -j link show`
cat >>"$RPCRDMA_AGENT_STATE" <<EOF
rxe_stale rxe lo $dead run
rxe_live rxe lo $$ run
rxe_reused rxe eth9 $dead run
siw_stale siw lo $dead run
rxe_gone rxe lo 1 persistent
EOF
before=$(deleted)
if t 0 cleanup --recover; then
	after=$(deleted)
	for d in $crashed rxe_stale siw_stale; do
		log_has "rdma link delete $d" && ! grep -q "^$d " "$RPCRDMA_AGENT_STATE" ||
			fail "recovery did not remove $d"
	done
	for d in rxe_live rxe_reused; do
		log_has "rdma link delete $d" && fail "recovery deleted $d"
	done
	state_has "rxe_live rxe lo $$ run" || fail "recovery dropped the live run's record"
	grep -q '^rxe_reused ' "$RPCRDMA_AGENT_STATE" && fail "recovery kept the reused name's record"
	[[ $err == *"removed stale link rxe_stale"* ]] || fail "recovery message: $err"
	[[ $err == *rxe_reused*eth9* ]] || fail "reused-name message: $err"
	[ "$(echo $after)" != "$(echo $before)" ] && pass "recovery removed $crashed rxe_stale siw_stale, kept rxe_live, forgot rxe_reused"
fi
dead=$(dead_pid)
foreign rxe_stale2 lo
echo "rxe_stale2 rxe lo $dead run" >>"$RPCRDMA_AGENT_STATE"
t 0 setup --rxe lo && log_has "rdma link delete rxe_stale2" && pass "setup recovers first ($out)" ||
	fail "setup did not recover rxe_stale2"
last=$out

# ---- cleanup ----
FAKE_RDMA_FAIL_DELETE="Device or resource busy" t 1 cleanup &&
	{ [[ $err == *"cannot remove"*"busy"* ]] && state_has "rxe_agent0 rxe lo [0-9]+ persistent" &&
		pass "failed delete reported, record kept" || fail "failed delete: $err"
	  [[ $out == *"rxe_gone: already gone"* ]] || fail "cleanup output (gone): $out"; }
before=$(deleted)
if t 0 cleanup; then
	[[ $out == *"removed rxe_agent0 (rxe on lo)"* ]] || fail "cleanup output: $out"
	[[ $out == *"rxe_live: in use by the running agent pid $$"* ]] || fail "cleanup output (live): $out"
	want=$(printf '%s\n' $before rxe_agent0 rxe_agent2 siw_lab $fake0 $forced $last | sort | tr '\n' ' ')
	[ "$(deleted)" = "$want" ] && pass "cleanup deleted exactly the setup links" ||
		fail "cleanup deleted [$(deleted)], want [$want]"
fi
t 0 cleanup --all && { log_has "rdma link delete rxe_live" && pass "cleanup --all removes a live run's link" ||
	fail "--all left rxe_live"; }
grep -v '^#' "$RPCRDMA_AGENT_STATE" | grep -q . && fail "state not empty: $(cat "$RPCRDMA_AGENT_STATE")"
t 0 cleanup && { [[ $out == "no RDMA links recorded"* ]] || fail "empty cleanup: $out"; }
for d in rxe_agent1 rxe_foreign rxe_reused; do
	log_has "rdma link delete $d" && fail "deleted $d, which the agent did not make"
	[ -d "$cls/$d" ] || fail "$d is gone"
done
ls "$(dirname "$RPCRDMA_AGENT_STATE")" | grep -q tmp && fail "temporary state file left behind"

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed; rdma log:" >&2
	cat "$FAKE_RDMA_LOG" >&2
	exit 1
fi
echo "all checks passed"
