# lab agent: rpcrdma-agent requester against the agent responder and against the
# kernel NFS server, over rxe and siw, every injectable violation, verify on the
# host, the kernel's conformance table and the DDP throughput benchmark.
# shellcheck shell=bash

AGENT_PORT=20050
AGENT_BIN=${AGENT_BIN:-}

# agent_verify CAP MANIFEST... : rpcrdma-agent verify on the host; one line in agent.tsv
agent_verify() {
    local cap=$1 rc=0; shift
    local file=$OUT/$cap.pcap
    [ -e "$file" ] || file=$OUT/$cap.pcapng
    "$AGENT_BIN" verify "$file" "$@" >"$OUT/logs/$cap.verify.txt" 2>&1 || rc=$?
    local sum; sum=$(tail -n 1 "$OUT/logs/$cap.verify.txt")
    printf '%s\t%s\t%s\n' "$cap" "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" "$sum" >>"$OUT/agent.tsv"
    log "  verify $cap: $sum"
    [ "$rc" = 0 ] || AGENT_FAILED=$((AGENT_FAILED + 1))
}

# wait until a guest command's log says the server listens
wait_serving() {
    local rc=0
    gwait_log "$1" 'serving on' 60 || rc=$?
    case $rc in
        0) ;;
        1) die "the agent responder exited early" ;;
        *) die "the agent responder did not start listening" ;;
    esac
}

collect_agent() {
    local cap=$1 g f
    for g in client server; do
        for f in "$RUN/$g/out/$cap".*; do
            if [ -e "$f" ]; then mv "$f" "$OUT/"; fi
        done
    done
}

# agent_pair NAME T SERVE_INJECT DRIVE_INJECT SCENARIO [pcap|pcapng [DRIVE_OPTIONS]] : agent against agent
agent_pair() {
    local name=$1 t=$2 sinj=$3 dinj=$4 scn=$5 fmt=${6:-pcap} dopts=${7:-} ip dev srv rc=0 src=0
    eval "ip=\$SERVER_IP_$t dev=\$DEV_$t"
    CAP=agent-$name-$t
    step "agent: $name over $t -> $CAP.pcap"
    gstart server "$CAP-serve" "rpcrdma-agent serve -d $dev -p $AGENT_PORT --once --timeout 60 ${sinj:+--inject $sinj} -m /lab/out/$CAP.serve.manifest"
    srv=$GCMD
    wait_serving "$srv"
    gexec client "$CAP-drive" 600 "rpcrdma-agent drive -d $dev -p $AGENT_PORT --timeout 60 ${dinj:+--inject $dinj} $dopts -F $fmt -w /lab/out/$CAP.$fmt $ip /lab/agent/$scn" || rc=$?
    cp "$GCMD.log" "$OUT/logs/$CAP.drive.log"
    gwait "$srv" 120 || src=$?
    cp "$srv.log" "$OUT/logs/$CAP.serve.log"
    collect_agent "$CAP"
    [ "$rc" = 0 ] || { tail -n 20 "$OUT/logs/$CAP.drive.log" >&2; log "  drive exited $rc"; AGENT_FAILED=$((AGENT_FAILED + 1)); }
    [ "$src" = 0 ] || log "  serve exited $src"
    if [ -e "$OUT/$CAP.$fmt" ]; then agent_verify "$CAP" "$OUT/$CAP.$fmt.manifest" "$OUT/$CAP.serve.manifest"; fi
}

# klog WHAT CAP : guest/klog.sh in both guests at once (begin: markers and tracepoints on;
# end: the kernel log and trace of the run, moved into logs/ as CAP.<guest>.dmesg/.trace)
klog() {
    local what=$1 cap=$2 g c=()
    for g in server client; do
        gstart "$g" "klog-$what-$cap" "bash /lab/guest/klog.sh $what $cap /lab/out/klog"; c+=("$GCMD")
    done
    for g in "${c[@]}"; do gwait "$g" 60 || log "  klog $what $cap: exited $?"; done
    [ "$what" = end ] || return 0
    for g in server client; do
        for f in "$RUN/$g/out/klog/$cap".*; do
            if [ -e "$f" ]; then mv "$f" "$OUT/logs/"; fi
        done
    done
}

# agent_kernel NAME T DRIVE_INJECT SCENARIO : agent against the kernel's svcrdma
agent_kernel() {
    local name=$1 t=$2 dinj=$3 scn=$4 dopts=${5:-} ip dev rc=0
    eval "ip=\$SERVER_IP_$t dev=\$DEV_$t"
    CAP=agent-$name-$t
    step "agent: $name against the kernel over $t -> $CAP.pcap"
    klog begin "$CAP"
    gexec client "$CAP-drive" 600 "rpcrdma-agent drive -d $dev -p 20049 --target kernel --timeout 30 $dopts ${dinj:+--inject $dinj} -w /lab/out/$CAP.pcap $ip /lab/agent/$scn" || rc=$?
    cp "$GCMD.log" "$OUT/logs/$CAP.drive.log"
    echo "$rc" >"$OUT/logs/$CAP.drive.rc"
    klog end "$CAP"
    collect_agent "$CAP"
    [ "$rc" = 0 ] || { tail -n 20 "$OUT/logs/$CAP.drive.log" >&2; log "  drive exited $rc"; AGENT_FAILED=$((AGENT_FAILED + 1)); }
    if [ -e "$OUT/$CAP.pcap" ]; then agent_verify "$CAP" "$OUT/$CAP.pcap.manifest"; fi
}

# agent_bench T : the agent's NFS READ (RDMA Write) and WRITE (RDMA Read) with 1 MiB
# DDP transfers, captured, against ib_write_bw / ib_read_bw on the same link
agent_bench() {
    local t=$1 ip dev op verb srv ib ibw ag drops ratio
    eval "ip=\$SERVER_IP_$t dev=\$DEV_$t"
    for op in read write; do
        if [ "$op" = read ]; then verb=write; else verb=read; fi
        # the agent first: a perftest run that hangs on siw (seen with ib_read_bw) can
        # leave the link unusable for what follows
        CAP=agent-bench$op-$t
        step "bench: agent NFS $op over $t (capture on, no manifest) -> $CAP"
        gstart server "$CAP-serve" "rpcrdma-agent serve -d $dev -p $AGENT_PORT --once --timeout 120"
        srv=$GCMD; wait_serving "$srv"
        gexec client "$CAP-drive" 900 "rpcrdma-agent drive -d $dev -p $AGENT_PORT --timeout 120 --window credits --no-manifest -w /tmp/$CAP.pcap $ip /lab/agent/bench-$op.scn; rm -f /tmp/$CAP.pcap" || true
        cp "$GCMD.log" "$OUT/logs/$CAP.drive.log"
        gwait "$srv" 120 || true
        # perftest's own MB/s comes from its cycle counter, which TCG guests do not keep
        # (it prints 0.00): the link's rate is also timed by the wall clock, as the agent's
        # is, from a run of 1 transfer and one of BENCH_N (their difference leaves out the
        # process start, the connection and the registration, as the agent's figure does)
        step "bench: ib_${verb}_bw over $t"
        gstart server "ib$verb-$t-srv" "for n in 1 $BENCH_N; do timeout 150 ib_${verb}_bw -d $dev -R -F -s 1048576 -n \$n; done"
        srv=$GCMD; sleep 8
        gexec client "ib$verb-$t" 400 "for n in 1 $BENCH_N; do s=\$(date +%s%N); timeout 150 ib_${verb}_bw -d $dev -R -F -s 1048576 -n \$n $ip; echo \"WALL n=\$n ns=\$((\$(date +%s%N) - s))\"; sleep 4; done" || true
        cp "$GCMD.log" "$OUT/logs/bench-ib$verb-$t.log"
        gwait "$srv" 60 || true
        ib=$(awk '/^ *1048576 /{print $4}' "$OUT/logs/bench-ib$verb-$t.log" | tail -n 1)
        ibw=$(awk '/^WALL n=/{split($2, n, "="); split($3, t, "="); w[n[2]] = t[2]}
                   END { if (w[1] != "" && w[BENCH] > w[1]) printf "%.1f", (BENCH - 1) * 1048576 / ((w[BENCH] - w[1]) / 1e9) / 1e6 }' \
              BENCH="$BENCH_N" "$OUT/logs/bench-ib$verb-$t.log")
        # the wall-clock figure is the one compared; perftest's is kept beside it
        [ -z "$ibw" ] || ib="$ibw (perftest: ${ib:-?})"
        ag=$(sed -n 's/.*DDP throughput: \([0-9.]*\) MB\/s.*/\1/p' "$OUT/logs/$CAP.drive.log" | tail -n 1)
        drops=$(sed -n 's/.*pcap_stats: .* \([0-9]*\) dropped, \([0-9]*\) dropped by.*/\1+\2/p' "$OUT/logs/$CAP.drive.log" | tail -n 1)
        outst=$(sed -n 's/.*most calls outstanding: \([0-9]*\).*/\1/p' "$OUT/logs/$CAP.drive.log" | tail -n 1)
        ratio=$(awk -v a="${ag:-0}" -v b="${ibw:-${ib:-0}}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "NFS $op" "RDMA $verb" "${ib:-?}" "${ag:-?}" "$ratio" "${drops:-?}" "${outst:-?}" >>"$OUT/bench.tsv"
        log "  NFS $op over $t: ib_${verb}_bw ${ib:-?} MB/s, agent ${ag:-?} MB/s (x$ratio), capture drops ${drops:-?}"
    done
}

# agent_setup_check T : setup/cleanup/refusal/signals on a dummy netdev in the client
agent_setup_check() {
    local t=$1 rc=0
    step "agent: setup and cleanup over $t"
    gexec client "agent-setup-$t" 300 "bash /lab/guest/agent-setup-check.sh $t" || rc=$?
    cp "$GCMD.log" "$OUT/logs/agent-setup-$t.log"
    printf '%s\t%s\t%s\n' "agent-setup-$t" "$([ $rc = 0 ] && echo PASS || echo "FAIL($rc)")" \
        "$(tail -n 1 "$OUT/logs/agent-setup-$t.log")" >>"$OUT/agent.tsv"
    log "  $(tail -n 1 "$OUT/logs/agent-setup-$t.log")"
    [ "$rc" = 0 ] || AGENT_FAILED=$((AGENT_FAILED + 1))
}

# agent_run_info : what the conformance table needs to know of this run: the kernel of
# each guest (uname -r), when, how it was started, and the injections the agent has
agent_run_info() {
    gmust server info 60 "bash /lab/guest/info.sh"; gout >"$OUT/versions-server.txt"
    {
        echo "lab-kernel: $LAB_KERNEL"
        echo "server-kernel: $(sed -n 's/^uname-r: //p' "$OUT/versions-server.txt")"
        echo "client-kernel: $(sed -n 's/^uname-r: //p' "$OUT/versions.txt")"
        echo "date: $(date -u +%FT%TZ)"
        echo "cmdline: ${AGENT_PAIRS:+AGENT_PAIRS=$AGENT_PAIRS }${AGENT_BENCH:+AGENT_BENCH=$AGENT_BENCH }$LAB_CMDLINE"
        echo "transports: $TRANSPORTS"
        echo "quick: $QUICK"
    } >"$OUT/run-info.txt"
    "$AGENT_BIN" list-injections >"$OUT/injections.txt"
}

lab_agent() {
    local t
    T0=$(date +%s)
    AGENT_FAILED=0
    AGENT_BIN=$REPO_DIR/build/bin/rpcrdma-agent
    [ -x "$AGENT_BIN" ] || die "build rpcrdma-agent first (cmake --build build): $AGENT_BIN is missing"
    # --proxy: the third guest too, for the proxy's relay check after the agent's runs
    [ "${AGENT_PROXY:-0}" = 1 ] && LAB_PROXY=1
    lab_boot
    agent_run_info
    # --with-nfs: lab run --quick's capture (the reduced workload, NFSv4.1 over rxe) on this
    # boot, so that one boot serves every quick tier (CI)
    if [ "${AGENT_NFS:-0}" = 1 ]; then
        LAB_LONG=0 QUICK=1 PHASES="" nfs_capture rxe 4.1
        column -t -s $'\t' "$OUT/phases.tsv" >&2 || cat "$OUT/phases.tsv" >&2
    fi
    cp -r "$LAB_DIR/agent" "$RUN/client/agent"
    printf 'capture\tverify\tsummary\n' >"$OUT/agent.tsv"
    for t in ${TRANSPORTS//,/ }; do
        [ "${BENCH_ONLY:-0}" = 1 ] && continue
        # AGENT_PAIRS=0: the kernel runs only (what the conformance table needs); the quick
        # tier checks setup and cleanup over rxe alone (CI's time: the full tier does both)
        if [ "${AGENT_PAIRS:-1}" != 0 ] && { [ "$QUICK" != 1 ] || [ "$t" = rxe ]; }; then
            agent_setup_check "$t"
        fi
        # siw's run is written as pcapng (libpcap writes pcap; the agent converts)
        if [ "${AGENT_PAIRS:-1}" = 0 ]; then :
        elif [ "$t" = siw ]; then agent_pair shapes "$t" "" "" shapes.scn pcapng
        else agent_pair shapes "$t" "" "" shapes.scn; fi
        # WRITE then READ of the same ranges: serve keeps what was written (the full tier)
        if [ "$QUICK" != 1 ] && [ "${AGENT_PAIRS:-1}" != 0 ]; then
            agent_pair write-read "$t" "" "" write-read.scn
        fi
        # the same calls pipelined: up to the credits the responder grants outstanding
        if [ "${AGENT_PAIRS:-1}" != 0 ] && [ "$t" = rxe ]; then
            agent_pair shapes-window "$t" "" "" shapes.scn pcap "--window credits"
        fi
        if [ "$QUICK" != 1 ] && [ "${AGENT_PAIRS:-1}" != 0 ]; then
            # the requester (drive) breaks calls; the agent responder answers
            agent_pair inj-vers "$t" "" RR-001 inject-v3.scn
            agent_pair inj-xid "$t" "" RR-002 inject-v3.scn
            agent_pair inj-msgp-retry "$t" "" RR-130,RR-116 inject-v3.scn
            agent_pair inj-ineligible3 "$t" "" RR-141 inject-v3.scn
            agent_pair inj-ineligible4 "$t" "" RR-143 inject-v4.scn
            agent_pair inj-proc "$t" "" bad-proc inject-v3.scn
            agent_pair inj-credit0-call "$t" "" zero-credit inject-v3.scn
            agent_pair inj-dup "$t" "" dup-xid inject-v3.scn
            agent_pair inj-small-rc "$t" "" small-reply-chunk:op=READDIR inject-bigreply.scn
            agent_pair inj-oversize "$t" "" oversize-send:op=WRITE inject-bigreply.scn pcap "--retries 1"
            # the responder (serve) breaks replies; the agent requester reacts
            agent_pair inj-misdirected "$t" RR-081 "" inject-two-reads.scn
            agent_pair inj-unused "$t" RR-088 "" inject-unused.scn
            agent_pair inj-credit0 "$t" RR-100 "" inject-v3.scn
            agent_pair inj-overrun "$t" zero-credit credit-overrun inject-v3.scn
            agent_pair inj-above "$t" grant-above "" inject-v3.scn
            agent_pair inj-beyond "$t" RR-085 "" inject-read.scn
            agent_pair inj-reply-vers "$t" bad-vers:nth=2 "" inject-v3.scn
            agent_pair inj-reply-oversize "$t" oversize-send:op=READDIR "" inject-bigreply.scn
            agent_pair inj-inline "$t" inline-despite-write "" inject-reads2.scn
            agent_pair inj-extra-read "$t" extra-read:op=WRITE "" inject-bigreply.scn
            agent_pair inj-read-after "$t" read-after-reply:op=WRITE "" inject-bigreply.scn
            agent_pair inj-err-code "$t" err-code small-reply-chunk:op=READDIR inject-bigreply.scn
        fi
        # the quick tier runs NFSv3 against the kernel over rxe alone (CI's time)
        if [ "$QUICK" != 1 ] || [ "$t" = rxe ]; then agent_kernel kernel-v3 "$t" "" kernel-v3.scn; fi
        agent_kernel kernel-v41 "$t" "" kernel-v41.scn
        # the quick tier's one injection, so that its table has a verdict
        if [ "$QUICK" = 1 ] && [ "$t" = rxe ]; then agent_kernel kernel-inj-vers "$t" RR-001 kernel-inject.scn; fi
        if [ "$QUICK" != 1 ]; then
            # the requester breaks calls; the kernel's svcrdma answers
            agent_kernel kernel-inj-vers "$t" RR-001 kernel-inject.scn
            agent_kernel kernel-inj-xid "$t" RR-002 kernel-inject.scn
            agent_kernel kernel-inj-msgp-retry "$t" RR-130,RR-116 kernel-inject.scn
            agent_kernel kernel-inj-ineligible3 "$t" RR-141 kernel-inject.scn
            agent_kernel kernel-inj-ineligible4 "$t" RR-143 kernel-inject-v4.scn
            agent_kernel kernel-inj-proc "$t" bad-proc kernel-inject.scn
            agent_kernel kernel-inj-disc "$t" bad-discriminator kernel-inject.scn
            agent_kernel kernel-inj-nomsg "$t" nomsg-empty kernel-inject.scn "--retries 1"
            agent_kernel kernel-inj-short "$t" short-header kernel-inject.scn
            agent_kernel kernel-inj-credit0 "$t" zero-credit kernel-inject.scn
            agent_kernel kernel-inj-dup "$t" dup-xid kernel-inject.scn
            agent_kernel kernel-inj-reconnect "$t" reconnect-xid:nth=2 kernel-inject.scn
            agent_kernel kernel-inj-small-rc "$t" small-reply-chunk:op=READDIR kernel-inject-bigreply.scn
            agent_kernel kernel-inj-oversize "$t" oversize-send:op=WRITE kernel-inject-bigreply.scn "--retries 1"
            agent_kernel kernel-nfsacl "$t" "" kernel-nfsacl.scn
            replay_setacl "$t"
        fi
    done
    if [ "${AGENT_PROXY:-0}" = 1 ]; then
        proxy_relay_quick
        AGENT_FAILED=$((AGENT_FAILED + PROXY_FAILED))
    fi
    if [ "$QUICK" != 1 ] && [ "${AGENT_BENCH:-1}" = 1 ]; then
        BENCH_N=${BENCH_N:-200}
        printf 'transport\tagent\tverb\tib_bw_MBps\tagent_MBps\tratio\tcapture_drops\toutstanding\n' >"$OUT/bench.tsv"
        for t in ${TRANSPORTS//,/ }; do agent_bench "$t"; done
    fi
    lab_finish
    if ! python3 "$LAB_DIR/conformance.py" --md "$OUT/conformance.md" --json "$OUT/conformance.json" "$OUT"; then
        log "the conformance table could not be written"; AGENT_FAILED=$((AGENT_FAILED + 1))
    fi
    column -t -s $'\t' "$OUT/agent.tsv" >&2 || cat "$OUT/agent.tsv" >&2
    if [ -e "$OUT/bench.tsv" ]; then column -t -s $'\t' "$OUT/bench.tsv" >&2; fi
    # the side-by-side tables (the details per kernel are in the file)
    if [ -e "$OUT/conformance.md" ]; then
        awk '/^### Details/ { skip = 1; next } /^## / { skip = 0 } !skip' "$OUT/conformance.md" >&2
    fi
    [ "$AGENT_FAILED" = 0 ] || die "$AGENT_FAILED agent run(s) failed (see agent.tsv and logs/)"
}
