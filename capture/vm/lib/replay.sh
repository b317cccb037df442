# lab replay step: rpcrdma-agent replay of the NFSACL SETACL that the real captures
# (sample-pcaps/real/nfs3-rxe.pcap, nfs3-siw.pcap) show answered GARBAGE_ARGS, sent
# again to the kernel server in variations (chunk shape, inline, TCP, fewer entries):
# which factor decides.  Called per transport by `lab agent`, after lab_boot.
# shellcheck shell=bash

# the SETACL's XID in each capture (ulb-lint's RR-230 finding names it)
# shellcheck disable=SC2034  # read through eval in replay_setacl
REPLAY_XID_rxe=0x5aaab4aa
REPLAY_XID_siw=0x39b8ac49

# replay_setacl T : one line in agent.tsv (PASS when the replay ran and concluded),
# the replay's capture, JSON and log in $OUT
replay_setacl() {
    local t=$1 ip dev xid rc=0 f concl
    eval "ip=\$SERVER_IP_$t dev=\$DEV_$t xid=\$REPLAY_XID_$t"
    CAP=replay-setacl-$t
    step "replay: NFSACL SETACL $xid of nfs3-$t.pcap against the kernel over $t -> $CAP.json"
    mkdir -p "$RUN/client/replay"
    cp "$REPO_DIR/sample-pcaps/real/nfs3-$t.pcap" "$RUN/client/replay/"
    gmust server "$CAP-file" 60 "bash /lab/guest/replay.sh server"
    gexec client "$CAP" 1200 "bash /lab/guest/replay.sh client $t $xid $ip $dev" || rc=$?
    cp "$GCMD.log" "$OUT/logs/$CAP.log"
    for f in "$RUN/client/out/$CAP".*; do
        if [ -e "$f" ]; then mv "$f" "$OUT/"; fi
    done
    concl=$(sed -n 's/^conclusion: //p' "$OUT/logs/$CAP.log" | tail -n 1)
    [ -n "$concl" ] || [ "$rc" != 0 ] || rc=1
    printf '%s\t%s\t%s\n' "$CAP" "$([ "$rc" = 0 ] && echo PASS || echo "FAIL($rc)")" \
        "${concl:-no conclusion}" >>"$OUT/agent.tsv"
    log "  $CAP: ${concl:-no conclusion (exit $rc)}"
    [ "$rc" = 0 ] || { tail -n 20 "$OUT/logs/$CAP.log" >&2; AGENT_FAILED=$((AGENT_FAILED + 1)); }
}
