# lab proxy: a third guest between client and server runs `rpcrdma-agent proxy`; the
# Linux client mounts the Linux server through it, over rxe and siw, NFSv3/4.1/4.2. Both
# legs are real wires (client-proxy, proxy-server), each captured by the proxy and checked
# with `rpcrdma-agent verify` against its manifest on the host; files cross-checked by
# SHA-256 on both ends; the workload timed through the proxy and on a direct mount.
# shellcheck shell=bash

# the proxy's address facing the client, the server's address facing the proxy, per transport
PROXY_IP_rxe=10.0.2.3 PROXY_SRV_rxe=10.0.4.1 PROXY_CDEV_rxe=rxe0 PROXY_SDEV_rxe=rxe1
PROXY_IP_siw=10.0.3.3 PROXY_SRV_siw=10.0.5.1 PROXY_CDEV_siw=siw0 PROXY_SDEV_siw=siw1
PROXY_MEM=${PROXY_MEM:-1024}

# proxy_boot: server (listens on its four links), proxy (listens toward the client,
# connects to the server), client (connects to both)
proxy_boot() {
    local p=() i
    step "boot: server, proxy and client guests"
    for i in 0 1 2 3 4 5; do p[i]=$(free_port); done
    GUEST_MEM_OF[proxy]=$PROXY_MEM
    qemu_boot server 1 "listen:${p[0]}" "listen:${p[1]}" "listen:${p[4]}" "listen:${p[5]}"
    wait_listen "${p[0]}"; wait_listen "${p[1]}"; wait_listen "${p[4]}"; wait_listen "${p[5]}"
    qemu_boot proxy 3 "listen:${p[2]}" "listen:${p[3]}" "connect:${p[4]}" "connect:${p[5]}"
    wait_listen "${p[2]}"; wait_listen "${p[3]}"
    qemu_boot client 2 "connect:${p[0]}" "connect:${p[1]}" "connect:${p[2]}" "connect:${p[3]}"
    wait_ready server 600; wait_ready proxy 600; wait_ready client 600
}

# proxy_wait_serving CMD : until the proxy's log says it listens
proxy_wait_serving() {
    gwait_log "$1" 'serving on' 60
}

# proxy_verify CAP LEG : verify one leg's capture with its manifest; a line in proxy.tsv
proxy_verify() {
    local cap=$1 leg=$2 rc=0 f=$OUT/$1.$2.pcap sum
    if [ ! -e "$f" ]; then
        printf '%s\t%s\t%s\n' "$cap.$leg" "FAIL(missing)" "no capture" >>"$OUT/proxy.tsv"
        PROXY_FAILED=$((PROXY_FAILED + 1)); return 0
    fi
    "$AGENT_BIN" verify --quiet "$f" "$f.manifest" >"$OUT/logs/$cap.$leg.verify.txt" 2>&1 || rc=$?
    sum=$(tail -n 1 "$OUT/logs/$cap.$leg.verify.txt")
    printf '%s\t%s\t%s\n' "$cap.$leg" "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" "$sum" >>"$OUT/proxy.tsv"
    log "  verify $cap.$leg: $sum"
    [ "$rc" = 0 ] || PROXY_FAILED=$((PROXY_FAILED + 1))
}

# proxy_check_sums TAG : what the client wrote through the proxy, read on the server, and
# the server's own files as the client read them through the proxy
proxy_check_sums() {
    local tag=$1 want=$RUN/client/out/$1.sums n
    gexec server "sums-$tag" 120 "cd /srv/export/p-$tag && sha256sum w* | sort -k2" || true
    if [ -s "$want" ] && diff "$want" "$GCMD.log" >"$OUT/logs/$tag.sums.diff" &&
       diff "$RUN/server/out/src.sums" "$RUN/client/out/$tag.srcsums" >>"$OUT/logs/$tag.sums.diff"; then
        n=$(($(wc -l <"$want") + $(wc -l <"$RUN/server/out/src.sums")))
        printf '%s\t%s\t%s\n' "$tag.sums" PASS "$n SHA-256 match ($(wc -l <"$want") written through the proxy, read on the server; $(wc -l <"$RUN/server/out/src.sums") made on the server, read through the proxy)" >>"$OUT/proxy.tsv"
    else
        printf '%s\t%s\t%s\n' "$tag.sums" FAIL "see logs/$tag.sums.diff" >>"$OUT/proxy.tsv"
        PROXY_FAILED=$((PROXY_FAILED + 1))
    fi
    log "  $(tail -n 1 "$OUT/proxy.tsv" | cut -f2-)"
}

# proxy_work T V IP TAG : mount, the timed work, (NFSv4 through the proxy) a delegation
# recalled over the backchannel, umount; WORKLOAD_SECONDS in the work's log. Returns the
# first failure's status.
proxy_work() {
    local t=$1 v=$2 ip=$3 tag=$4 maddr="" rc=0 log=$OUT/logs/$4.work.log
    # NFSv3 through the proxy: MOUNT over TCP at the server's direct address (SERVER_IP_T, lib/run.sh)
    [ "$v" != 3 ] || [ "${tag:0:1}" != p ] || eval "maddr=\$SERVER_IP_$t"
    : >"$log"
    gexec client "$tag-mount" 120 "bash /lab/guest/proxy-work.sh mount $v $ip $tag $maddr" || rc=$?
    cat "$GCMD.log" >>"$log"
    [ "$rc" = 0 ] || return "$rc"
    gexec client "$tag-work" 900 "bash /lab/guest/proxy-work.sh work $tag $PROXY_SIZE" || rc=$?
    cat "$GCMD.log" >>"$log"
    if [ "$rc" = 0 ] && [ "$v" != 3 ] && [ "${tag:0:1}" = p ]; then
        gexec client "$tag-deleg-open" 60 "bash /lab/guest/proxy-work.sh deleg-open $tag" || rc=$?
        gexec server "$tag-deleg-break" 60 "sleep 2; timeout 45 sh -c 'echo changed-on-server >>/srv/export/px-src/deleg-$tag.txt'" || rc=$?
        gexec client "$tag-deleg-close" 60 "bash /lab/guest/proxy-work.sh deleg-close $tag" || rc=$?
        cat "$GCMD.log" >>"$log"
    fi
    gexec client "$tag-umount" 120 "bash /lab/guest/proxy-work.sh umount" || rc=$?
    cat "$GCMD.log" >>"$log"
    return "$rc"
}

# proxy_mount_run T V : the workload through the proxy, captured on both legs, then direct
proxy_mount_run() {
    local t=$1 v=$2 cap tag pip sip cdev sdev px rc=0 prc=0 tp td
    eval "pip=\$PROXY_IP_$t sip=\$PROXY_SRV_$t cdev=\$PROXY_CDEV_$t sdev=\$PROXY_SDEV_$t"
    tag=$t${v//./}; cap=proxy-nfs${v//./}-$t
    step "proxy: NFSv$v over $t through the proxy -> $cap.{client,server}.pcap"
    gstart proxy "$cap-proxy" "rpcrdma-agent proxy -d $cdev --listen $pip --server $sip --server-dev $sdev --once --timeout 120 -w /lab/out/$cap.client.pcap --server-capture /lab/out/$cap.server.pcap"
    px=$GCMD
    proxy_wait_serving "$px" || { log "  the proxy did not start"; PROXY_FAILED=$((PROXY_FAILED + 1)); return 0; }
    proxy_work "$t" "$v" "$pip" "p$tag" || rc=$?
    gwait "$px" 120 || prc=$?
    cp "$px.log" "$OUT/logs/$cap.proxy.log"
    mv "$RUN/proxy/out/$cap".* "$OUT/" 2>/dev/null || true
    tp=$(sed -n 's/^WORKLOAD_SECONDS //p' "$OUT/logs/p$tag.work.log" | tail -n 1)
    printf '%s\t%s\t%s\n' "$cap.workload" "$([ $rc = 0 ] && [ $prc = 0 ] && echo PASS || echo "FAIL($rc/$prc)")" \
        "through the proxy in ${tp:-?} s; $(grep -o '[0-9]* calls, .*' "$OUT/logs/$cap.proxy.log" | tail -n 1)" >>"$OUT/proxy.tsv"
    [ "$rc" = 0 ] && [ "$prc" = 0 ] || { tail -n 20 "$OUT/logs/p$tag.work.log" "$OUT/logs/$cap.proxy.log" >&2; PROXY_FAILED=$((PROXY_FAILED + 1)); }
    proxy_check_sums "p$tag"
    proxy_verify "$cap" client
    proxy_verify "$cap" server
    [ "${PROXY_DIRECT:-1}" = 1 ] || return 0
    step "proxy: NFSv$v over $t direct (the cost's baseline)"
    eval "sip=\$SERVER_IP_$t"
    rc=0
    proxy_work "$t" "$v" "$sip" "d$tag" || rc=$?
    td=$(sed -n 's/^WORKLOAD_SECONDS //p' "$OUT/logs/d$tag.work.log" | tail -n 1)
    [ "$rc" = 0 ] || { log "  the direct mount's workload failed ($rc)"; PROXY_FAILED=$((PROXY_FAILED + 1)); }
    printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$v" "${tp:-?}" "${td:-?}" \
        "$(awk -v a="${tp:-0}" -v b="${td:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "?" }')" >>"$OUT/proxy-cost.tsv"
    log "  NFSv$v over $t: the work through the proxy ${tp:-?} s, direct ${td:-?} s"
}

# proxy_sigcheck : SIGTERM leaves no file of either leg behind; SIGINT, the orderly end, keeps
# both legs' captures and manifests (guest/proxy-sigcheck.sh)
proxy_sigcheck() {
    local rc=0
    step "proxy: SIGTERM and SIGINT while waiting, both legs capturing"
    gexec proxy sigcheck 60 "bash /lab/guest/proxy-sigcheck.sh $PROXY_CDEV_rxe $PROXY_IP_rxe $PROXY_SRV_rxe $PROXY_SDEV_rxe" || rc=$?
    cp "$GCMD.log" "$OUT/logs/proxy-sigcheck.log"
    printf '%s\t%s\t%s\n' proxy-signals "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" \
        "$(grep '^exit' "$GCMD.log" | tail -n 1)" >>"$OUT/proxy.tsv"
    [ "$rc" = 0 ] || PROXY_FAILED=$((PROXY_FAILED + 1))
}

# proxy_cpu : each guest's QEMU CPU seconds so far and the run's wall time (cpu.tsv): what
# the third guest costs on the host's cores under TCG
proxy_cpu() {
    local n
    printf 'guest\tcpu_s\twall_s\n' >"$OUT/cpu.tsv"
    for n in "${!QEMU_PID[@]}"; do
        printf '%s\t%s\t%s\n' "$n" "$(ps -o times= -p "${QEMU_PID[$n]}" | tr -d ' ')" \
            "$(( $(date +%s) - T0 ))" >>"$OUT/cpu.tsv"
    done
}

# proxy_relay_quick: what `lab proxy --quick` checks (SIGTERM; NFSv4.1 over rxe through the
# proxy with 1 MiB writers, checksums, verify on both legs; no direct mount), in a run that
# booted the proxy's guest already (`lab agent --proxy`: one boot for both quick tiers)
proxy_relay_quick() {
    PROXY_FAILED=0 PROXY_SIZE=${PROXY_SIZE:-1} PROXY_DIRECT=0
    gmust server proxy-src 120 "bash /lab/guest/proxy-work.sh prepare $PROXY_SIZE"
    printf 'check\tresult\tsummary\n' >"$OUT/proxy.tsv"
    proxy_sigcheck
    proxy_mount_run rxe 4.1
    column -t -s $'\t' "$OUT/proxy.tsv" >&2 || cat "$OUT/proxy.tsv" >&2
}

lab_proxy() {
    local t v
    T0=$(date +%s)
    PROXY_FAILED=0
    LAB_PROXY=1
    AGENT_BIN=$REPO_DIR/build/bin/rpcrdma-agent
    [ -x "$AGENT_BIN" ] || die "build rpcrdma-agent first (cmake --build build): $AGENT_BIN is missing"
    lab_boot
    gmust server proxy-src 120 "bash /lab/guest/proxy-work.sh prepare $PROXY_SIZE"
    printf 'check\tresult\tsummary\n' >"$OUT/proxy.tsv"
    if [ -n "${PROXY_INJ:-}" ]; then
        proxy_inj_matrix
        lab_finish
        return 0
    fi
    proxy_sigcheck
    printf 'transport\tnfs\tproxy_s\tdirect_s\tratio\n' >"$OUT/proxy-cost.tsv"
    for t in ${TRANSPORTS//,/ }; do
        for v in ${NFS_VERS//,/ }; do proxy_mount_run "$t" "$v"; done
    done
    gexec proxy dmesg 60 "dmesg" || true
    proxy_cpu
    lab_finish
    column -t -s $'\t' "$OUT/proxy.tsv" >&2 || cat "$OUT/proxy.tsv" >&2
    column -t -s $'\t' "$OUT/proxy-cost.tsv" >&2 || cat "$OUT/proxy-cost.tsv" >&2
    column -t -s $'\t' "$OUT/cpu.tsv" >&2 || cat "$OUT/cpu.tsv" >&2
    [ "$PROXY_FAILED" = 0 ] || die "$PROXY_FAILED proxy check(s) failed (see proxy.tsv and logs/)"
}

# ---- the client's conformance matrix: rpcrdma-agent proxy --inject breaks the replies the
# Linux client (xprtrdma) gets; the client leg's manifest (role=proxy) holds the inject,
# reaction and verdict lines (capture/vm/conformance.py's client table).
# PROXY_INJ: "matrix" (PROXY_INJ_MATRIX), "server-matrix" (PROXY_INJ_SERVER_MATRIX) or a
# blank-separated list of --inject items; an item "server:ITEM" is --inject-server ITEM: the
# proxy breaks the calls the Linux server (svcrdma) gets, the server leg's manifest holds the
# inject, reaction and verdict lines, and the client leg must stay clean (the client is not
# broken by it). The cb-* items are backward calls of the proxy's own, sent once the client
# bound the back channel (NFSv4.1 and later). PROXY_INJ_NFS: the NFS versions (4.1 by default;
# 3 names its runs NAME-v3).
PROXY_INJ_MATRIX=${PROXY_INJ_MATRIX:-"zero-credit:op=READ grant-above:op=READ reply-chunk-cut:op=READDIR
  write-length-lie:op=READ unused-nonzero:op=READ bad-vers:op=READ bad-proc:op=READ orphan-reply:op=READ
  oversize-send:op=READDIR cb-long-call cb-reply-chunk cb-nfs-program cb-over-grant"}
PROXY_INJ_SERVER_MATRIX=${PROXY_INJ_SERVER_MATRIX:-"server:bad-vers:op=READ server:zero-credit:op=READ
  server:xid-mismatch:op=READ server:bad-proc:op=READ server:nomsg-empty:op=GETATTR
  server:short-header:op=READ server:record-mark:op=READ server:unaligned-payload:op=GETATTR
  server:unaligned-position:op=WRITE"}
PROXY_INJ_STEP=${PROXY_INJ_STEP:-20}   # seconds each step of the workload may take (then: a hang)

# proxy_inj_run T V ITEM : one injection; agent-proxy-inj-NAME-T.pcap + .manifest in OUT,
# logs/CAP.drive.{log,rc} (the proxy's), logs/CAP.client.dmesg, logs/CAP.app.txt
proxy_inj_run() {
    local t=$1 v=$2 item=$3 name cap pip sip cdev sdev maddr="" px rc=0 prc=0 opt=--inject leg=client
    eval "pip=\$PROXY_IP_$t sip=\$PROXY_SRV_$t cdev=\$PROXY_CDEV_$t sdev=\$PROXY_SDEV_$t"
    # server:ITEM breaks the calls to the server (the server leg's manifest judges svcrdma)
    if [ "${item#server:}" != "$item" ]; then item=${item#server:} opt=--inject-server leg=server; fi
    name=${item%%[:=]*}; [ "$leg" = client ] || name=server-$name; [ "$v" = 4.1 ] || name=$name-v${v//./}
    cap=agent-proxy-inj-$name-$t
    [ "$v" != 3 ] || eval "maddr=\$SERVER_IP_$t"
    # a port of its own: the client's state for an address and port (its NFSv4.1 session, an
    # RPC a hang left retrying) does not reach the next injection's mount
    PROXY_INJ_PORT=$((${PROXY_INJ_PORT:-20049} + 1))
    step "proxy inject: $item, NFSv$v over $t -> $cap.pcap"
    gstart proxy "$cap-proxy" "echo \$\$ >/tmp/pinj.pid; exec rpcrdma-agent proxy -d $cdev --listen $pip:$PROXY_INJ_PORT --server $sip --server-dev $sdev --timeout 10 $opt '$item' -w /lab/out/$cap.pcap --server-capture /lab/out/$cap.server.pcap"
    px=$GCMD
    if ! proxy_wait_serving "$px"; then
        log "  the proxy did not start"; PROXY_FAILED=$((PROXY_FAILED + 1))
        cp "$px.log" "$OUT/logs/$cap.drive.log"; return 0
    fi
    : >"$OUT/logs/$cap.app.txt"
    gexec client "$cap-begin" 30 "bash /lab/guest/proxy-inj.sh begin $cap" || true
    gexec client "$cap-mount" 90 "bash /lab/guest/proxy-inj.sh mount $v $pip '$maddr' $PROXY_INJ_PORT" || rc=$?
    cat "$GCMD.log" >>"$OUT/logs/$cap.app.txt"
    if [ "$rc" = 0 ]; then
        gexec client "$cap-work" $((PROXY_INJ_STEP * 4 + 40)) "bash /lab/guest/proxy-inj.sh work $PROXY_INJ_STEP" || true
        cat "$GCMD.log" >>"$OUT/logs/$cap.app.txt"
    fi
    gexec client "$cap-umount" 60 "bash /lab/guest/proxy-inj.sh umount" || true
    cat "$GCMD.log" >>"$OUT/logs/$cap.app.txt"
    # with --inject the proxy ends 4 x --timeout after the client let its transport go (it
    # awaits reconnects); else it is stopped with SIGINT, its orderly end (both legs kept)
    gwait "$px" 120 || prc=$?
    if [ "$prc" = 124 ]; then
        gexec proxy "$cap-stop" 30 'kill -INT "$(cat /tmp/pinj.pid)"' || true
        gwait "$px" 30 || true
        echo "APP step=proxy rc=124 the client never let the connection go: the proxy was stopped (SIGINT)" >>"$OUT/logs/$cap.app.txt"
    fi
    gexec client "$cap-end" 30 "bash /lab/guest/proxy-inj.sh end $cap" || true
    cp "$GCMD.log" "$OUT/logs/$cap.client.dmesg"
    cp "$px.log" "$OUT/logs/$cap.drive.log"
    cat "$px.rc" >"$OUT/logs/$cap.drive.rc" 2>/dev/null || echo "$prc" >"$OUT/logs/$cap.drive.rc"
    mkdir -p "$OUT/server-leg"
    mv "$RUN/proxy/out/$cap.server".* "$OUT/server-leg/" 2>/dev/null || true
    mv "$RUN/proxy/out/$cap".* "$OUT/" 2>/dev/null || true
    log "  $(grep -h '^APP\|^UMOUNT' "$OUT/logs/$cap.app.txt" | tr '\n' ';')"
    grep -h 'reaction .*verdict' "$OUT/logs/$cap.drive.log" | sed 's/^/  /' >&2 || true
    proxy_inj_verify "$cap"
    [ "$leg" = client ] || proxy_inj_verify_server "$cap"
}

# proxy_inj_verify_server CAP : (server:ITEM) the server leg's capture against its manifest,
# which must hold the injection's reaction and verdict lines; the client leg's manifest (just
# verified) must hold none: the client was not broken. A line CAP.server in agent.tsv.
proxy_inj_verify_server() {
    local cap=$1 rc=0 f=$OUT/server-leg/$1.server.pcap sum nr nc
    if [ ! -e "$f" ] || [ ! -e "$f.manifest" ]; then
        printf '%s\t%s\t%s\n' "$cap.server" "FAIL(missing)" "no server-leg capture or manifest" >>"$OUT/agent.tsv"; return 0
    fi
    "$AGENT_BIN" verify --quiet "$f" "$f.manifest" >"$OUT/logs/$cap.server.verify.txt" 2>&1 || rc=$?
    sum=$(tail -n 1 "$OUT/logs/$cap.server.verify.txt")
    nr=$(grep -c '^reaction' "$f.manifest" || true)
    nc=$(grep -c '^\(inject\|reaction\)' "$OUT/$cap.pcap.manifest" 2>/dev/null || true)
    if [ "$rc" = 0 ] && { [ "${nr:-0}" = 0 ] || [ "${nc:-0}" != 0 ]; }; then
        rc=3 sum="$sum; $nr reaction lines on the server leg (want 1 or more), $nc inject/reaction lines on the client leg (want 0)"
    fi
    printf '%s\t%s\t%s\n' "$cap.server" "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" "$sum" >>"$OUT/agent.tsv"
    log "  verify $cap.server: $sum; $(grep -h '^verdict' "$f.manifest" | head -n 3 | tr '\n' ';')"
}

# proxy_inj_verify CAP : the client leg's capture against its manifest; a line in agent.tsv
proxy_inj_verify() {
    local cap=$1 rc=0 f=$OUT/$1.pcap sum
    if [ ! -e "$f" ] || [ ! -e "$f.manifest" ]; then
        printf '%s\t%s\t%s\n' "$cap" "FAIL(missing)" "no capture or manifest" >>"$OUT/agent.tsv"; return 0
    fi
    "$AGENT_BIN" verify --quiet "$f" "$f.manifest" >"$OUT/logs/$cap.verify.txt" 2>&1 || rc=$?
    sum=$(tail -n 1 "$OUT/logs/$cap.verify.txt")
    printf '%s\t%s\t%s\n' "$cap" "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" "$sum" >>"$OUT/agent.tsv"
    log "  verify $cap: $sum"
}

# proxy_inj_matrix : every item of PROXY_INJ over every transport and PROXY_INJ_NFS version
proxy_inj_matrix() {
    local t v item items=$PROXY_INJ
    [ "$items" != matrix ] || items=$PROXY_INJ_MATRIX
    [ "$items" != server-matrix ] || items=$PROXY_INJ_SERVER_MATRIX
    "$AGENT_BIN" list-injections >"$OUT/injections.txt"
    "$AGENT_BIN" proxy --list-injections >"$OUT/proxy-injections.txt"
    printf 'capture\tverify\tsummary\n' >"$OUT/agent.tsv"
    for t in ${TRANSPORTS//,/ }; do
        for v in ${PROXY_INJ_NFS:-4.1}; do
            for item in $items; do proxy_inj_run "$t" "$v" "$item"; done
        done
    done
}
