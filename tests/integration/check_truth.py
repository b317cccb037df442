#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generated captures against their ground truth.

For every scenario in a folder, generate the capture with rpcrdma-pcapgen
for one link type, with or without the connection handshake, rebuild it with
ulb-lint --dump, and compare every message with what the generator says it
sent: XID, direction, RDMA proc, RPC program/version/procedure, the frames
that carried it, and the Payload length and SHA-256.
"""
import argparse
import json
import os
import sys
import tempfile

from lintjson import Failures, lint_dump, rebuild_scenarios, run

FIELDS = ("dir", "rdma_proc", "rpc_program", "rpc_version", "rpc_procedure",
          "payload_len", "payload_sha256", "frames", "first_frame", "last_frame")


def compare(scn, truth, got, fail):
    checks = 0
    want = truth["messages"]
    # Key by (xid, dir, backchannel): XIDs may repeat across directions.
    def key(m):
        return (m["xid"].lower(), m["dir"], bool(m.get("backchannel", False)))
    have = {}
    for m in got:
        have.setdefault(key(m), []).append(m)
    # Injected violations are the lint's business, not the rebuild's.
    injected = set(key(w) for w in want if w.get("injected"))
    for k in injected:
        have.pop(k, None)
    for w in want:
        if key(w) in injected:
            continue
        checks += 1
        lst = have.get(key(w))
        if not lst:
            fail.add("%s: %s %s not found by ulb-lint" % (scn, w["dir"], w["xid"]))
            continue
        g = lst.pop(0)
        if w.get("payload_on_wire", True) is False or w.get("complete", True) is False:
            # Chunk data that never went on the wire (e.g. a call answered
            # with ERR_CHUNK before the server read it): only "incomplete" is right.
            checks += 1
            if g.get("complete", True):
                fail.add("%s: %s %s: its chunk data was never sent, yet ulb-lint calls it complete" %
                         (scn, w["dir"], w["xid"]))
            continue
        for f in FIELDS:
            if f not in w:
                continue
            checks += 1
            if w[f] != g.get(f):
                fail.add("%s: %s %s field %s: truth %r, ulb-lint %r" %
                         (scn, w["dir"], w["xid"], f, w[f], g.get(f)))
        if not g.get("complete", True):
            fail.add("%s: %s %s marked incomplete" % (scn, w["dir"], w["xid"]))
    for k, lst in have.items():
        for g in lst:
            fail.add("%s: ulb-lint found %s %s that the generator did not send" % (scn, g["dir"], g["xid"]))
    return checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--link", required=True)
    ap.add_argument("--handshake", choices=("on", "off"), required=True)
    ap.add_argument("--format", default="pcap")
    a = ap.parse_args()
    fail = Failures("truth %s handshake=%s" % (a.link, a.handshake))
    checks = 0
    scns = rebuild_scenarios(a.scenarios)
    if not scns:
        print("no scenarios in " + a.scenarios)
        sys.exit(1)
    with tempfile.TemporaryDirectory() as tmp:
        for scn in scns:
            base = os.path.splitext(os.path.basename(scn))[0]
            cap = os.path.join(tmp, base + "." + a.format)
            tru = os.path.join(tmp, base + ".json")
            run([a.pcapgen, "--link", a.link, "--handshake" if a.handshake == "on" else "--no-handshake",
                 "--format", a.format, scn, "-o", cap, "--truth", tru])
            with open(tru) as f:
                truth = json.load(f)
            checks += compare(base, truth, lint_dump(a.lint, cap), fail)
    fail.finish(checks)


if __name__ == "__main__":
    main()
