#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Misplaced read chunks are the protocol's fault, never the capture's.

Generates RR-032.scn on every link, with and without the handshake, and
checks ulb-lint against the generator's truth: each call the generator gave
a read chunk Position inside the RPC call header or inside another argument
(position-in-header, position-in-item) draws an RR-032 finding that names
that Position; the one past the end of the Payload (position-beyond) draws
RR-026 with its Position; the Long reply whose Reply chunk returns less than
the reply (reply-chunk-cut) draws RR-032 naming its Reply chunk; and no check is counted as skipped because bytes
were not captured, since every byte was.

usage: check_placement.py --lint ULB-LINT --pcapgen GENERATOR --scenario RR-032.scn
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

WANT = {"position-in-header": ("RR-032", "inside the RPC call header"),
        "position-in-item": ("RR-032", "inside the argument"),
        "position-beyond": ("RR-026", "lies beyond the Payload stream"),
        "reply-chunk-cut": ("RR-032", "its Reply chunk returns do not decode")}


def check(a, link, hs, tmp):
    tag = "%s handshake %s" % (link, "on" if hs else "off")
    cap = os.path.join(tmp, "%s-%d.pcap" % (link, hs))
    truth_path = cap + ".json"
    subprocess.run([a.pcapgen, a.scenario, "--link", link, "--handshake" if hs else "--no-handshake",
                    "-o", cap, "--truth", truth_path], check=True)
    truth = json.load(open(truth_path))
    out = subprocess.run([a.lint, "--format", "json", "--summary", cap], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout.decode()
    findings, summary = [], None
    for line in out.splitlines():
        rec = json.loads(line)
        if "summary" in rec:
            summary = rec["summary"]
        elif "rule" in rec:
            findings.append(rec)
    problems = []
    seen = 0
    for m in truth["messages"]:
        inj = [i for i in m.get("injected", []) if i in WANT]
        if not inj:
            continue
        seen += 1
        rule, words = WANT[inj[0]]
        if m["dir"] == "call":
            pos = [r["position"] for r in m["chunks"]["reads"] if r["position"]][0]
            where = ("Position %d," % pos, "Position %d " % pos)
        else:
            pos, where = 0, ("",)
        # a call's finding is at its Send; a Long reply's at the Send after its Writes
        hits = [f for f in findings if f["rule"] == rule and f["frame"] in m["frames"] and
                any(w in f["message"] for w in where) and words in f["message"]]
        if not hits:
            problems.append("%s: %s at frame %d (Position %d): no %s naming it; got %s" %
                            (tag, inj[0], m["first_frame"], pos, rule,
                             [f["message"] for f in findings if f["frame"] in m["frames"]]))
    if seen < 6:
        problems.append("%s: only %d injected calls in the truth" % (tag, seen))
    if summary is None:
        problems.append("%s: no summary" % tag)
    elif summary["skipped"].get("not_captured", 0):
        problems.append("%s: %d checks blamed on the capture, which lost nothing" %
                        (tag, summary["skipped"]["not_captured"]))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--scenario", required=True)
    a = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for link in ("ib", "rocev2", "iwarp"):
            for hs in (True, False):
                problems += check(a, link, hs, tmp)
    for p in problems:
        print("FAIL " + p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
