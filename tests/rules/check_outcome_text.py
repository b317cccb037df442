#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What an RR-230 outcome finding says about the failure's cause, on every
link type.

Each scenario in outcomes/ ends with an NFSACL SETACL sent as a Long Call
with a multi-segment Position-Zero read chunk and answered GARBAGE_ARGS; what
went before it is the evidence the finding must weigh (docs/rules.md,
RR-230). For each scenario and link the runner generates the capture with
rpcrdma-pcapgen, runs `ulb-lint --format json` on it, checks the RR-* findings
against the truth file's "expect" list, and checks the RR-230 message
against sentences built from the truth file's messages (sizes and frames of
the failing call and of the call that went through): the chunk shape that
matches a hazard is never named as the cause, and is offered as a possible
cause only when no call of the same shape went through.

usage: check_outcome_text.py [--lint ULB-LINT] [--pcapgen GENERATOR] [--links ib,rocev2,iwarp]
Exit status: 0 when every case matches, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HAZARD = "a multi-segment Position-Zero read chunk, which some implementations refuse"


def calls(truth):
    """(call, its reply) pairs of the truth file, in order."""
    msgs = truth["messages"]
    out = []
    for i, m in enumerate(msgs):
        if m["dir"] == "call":
            rep = next((r for r in msgs[i + 1:] if r["dir"] == "reply" and r["rdma_xid"] == m["rdma_xid"]), None)
            out.append((m, rep))
    return out


def wanted(name, truth):
    """(sentences the message must hold, sentences it must not) for scenario name."""
    pairs = calls(truth)
    fail, _ = pairs[-1]
    ok_call, ok_reply = pairs[-2]
    must = ["rejected its %d bytes of arguments (GARBAGE_ARGS)" % fail["payload_len"]]
    never = ["Known interop hazard"]
    if name in ("same-shape", "multi-segment"):
        must.append("The same procedure succeeded with %d bytes as a 2-segment Long Call (frame %d): for a limit "
                    "on the arguments' size, against the chunk shape as the cause"
                    % (ok_call["payload_len"], ok_reply["first_frame"]))
        must.append("Its shape matches a known hazard, which this argues against: " + HAZARD)
        never.append("Possible cause")
    elif name == "other-call-same-shape":
        must.append("The same server took 1 call of the same kind (NFSv3 WRITE as a 2-segment Long Call, %d bytes, "
                    "frame %d): against the chunk shape as the cause" % (ok_call["payload_len"], ok_reply["first_frame"]))
        never.append("Possible cause")
    elif name == "smaller-inline":
        must.append("The same procedure succeeded with %d bytes sent inline (frame %d): a size limit fits"
                    % (ok_call["payload_len"], ok_reply["first_frame"]))
        must.append("Possible cause, not shown by the capture: " + HAZARD)
    elif name == "nothing-else":
        must.append("Possible cause (nothing in the capture argues for or against it): " + HAZARD)
    else:
        raise SystemExit("%s: no expectation for this scenario" % name)
    return must, never


def check(lint, pcapgen, scn, link, tmp):
    name = os.path.basename(scn)[:-len(".scn")]
    cap, tj = os.path.join(tmp, "%s-%s.pcap" % (name, link)), os.path.join(tmp, "%s-%s.json" % (name, link))
    subprocess.run([pcapgen, "--link", link, scn, "-o", cap, "--truth", tj], check=True)
    truth = json.load(open(tj))
    p = subprocess.run([lint, "--format", "json", "--quiet", cap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    found = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    bad = []
    got = sorted((f["rule"], f["frame"]) for f in found if f["rule"].startswith("RR-"))
    want = sorted((e["rule"], e["frame"]) for e in truth.get("expect", []))
    if got != want:
        bad.append("findings %s, expected %s" % (got, want))
    r230 = [f["message"] for f in found if f["rule"] == "RR-230"]
    if len(r230) != 1:
        return bad + ["%d RR-230 findings" % len(r230)]
    must, never = wanted(name, truth)
    bad += ["missing %r" % s for s in must if s not in r230[0]]
    bad += ["must not say %r" % s for s in never if s in r230[0]]
    if bad:
        bad.append("message: %s" % r230[0])
    return bad


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--links", default="ib,rocev2,iwarp")
    a = ap.parse_args(argv[1:])
    scns = sorted(os.path.join(HERE, "outcomes", f) for f in os.listdir(os.path.join(HERE, "outcomes"))
                  if f.endswith(".scn"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in scns:
            for link in a.links.split(","):
                bad = check(a.lint, a.pcapgen, scn, link, tmp)
                failed += bool(bad)
                for b in bad:
                    print("FAIL %s on %s: %s" % (os.path.basename(scn), link, b))
    print("outcome text: %d scenarios x %d links, %s" % (len(scns), len(a.links.split(",")),
                                                        "FAILED" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
