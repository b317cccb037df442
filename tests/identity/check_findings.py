#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint's findings, compared with a stored reference.

Runs `ulb-lint --format json` on every bundled capture under sample-pcaps/
and on captures that rpcrdma-pcapgen makes from the repository's scenarios
(tests/scenarios and tests/legal on every link type; tests/rules and
tests/rules/outcomes on ib, rocev2 and iwarp), and compares the findings,
sorted, with the reference files in this folder.  The reference was made by
an ulb-lint built before the speed work on the engine and the decoder, so a
change that alters any finding (its rule, frames, XID, connection, severity
or text) fails here.  A deliberate change of a finding, or a new bundled
capture, means writing the reference again with --write from an ulb-lint
that has that change and none of the speed work under test.

    check_findings.py --lint ULB-LINT --pcapgen GEN --root REPO [--write]

--write makes the reference files instead (from the ulb-lint given).
Exit 0 when every group matches, 1 with the first differences otherwise.
"""
import argparse
import concurrent.futures
import difflib
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ALL_LINKS = ("ib ib-grh erf-ib rocev1 rocev2 rocev2-ipv6 rocev2-vlan rocev2-sll rocev2-sll2 "
             "iwarp iwarp-ipv6 iwarp-crc iwarp-markers iwarp-sll").split()
RULE_LINKS = ("ib", "rocev2", "iwarp")


def findings(lint, cap, name):
    """The sorted findings of one capture, each a JSON line with 'file' set
    to the capture's stable name."""
    p = subprocess.run([lint, "--format", "json", "--quiet", cap],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        return ["# ulb-lint exit %d on %s: %s" % (p.returncode, name, p.stderr.decode()[-300:])]
    out = []
    for line in p.stdout.decode().splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        if "rule" not in d:
            continue
        d["file"] = name
        out.append(json.dumps(d, sort_keys=True))
    return sorted(out)


def generated(gen, lint, scn, link, name, tmp):
    cap = os.path.join(tmp, name.replace("/", "_") + ".pcap")
    p = subprocess.run([gen, "--link", link, scn, "-o", cap, "--truth", cap + ".json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return ["# rpcrdma-pcapgen exit %d on %s" % (p.returncode, name)]
    try:
        return findings(lint, cap, name)
    finally:
        os.unlink(cap)
        os.unlink(cap + ".json")


def groups(root):
    """{group: [(kind, args, name)]}: what each reference file covers."""
    g = {"captures": []}
    for cap in sorted(glob.glob(os.path.join(root, "sample-pcaps", "**", "*.pcap*"), recursive=True)):
        if cap.endswith((".pcap", ".pcapng")):
            g["captures"].append(("cap", cap, os.path.relpath(cap, root)))
    scn = sorted(glob.glob(os.path.join(root, "tests", "scenarios", "*.scn")) +
                 glob.glob(os.path.join(root, "tests", "legal", "*.scn")))
    g["scenarios"] = [("gen", (s, link), "%s@%s" % (os.path.relpath(s, root), link))
                      for s in scn for link in ALL_LINKS]
    rules = sorted(glob.glob(os.path.join(root, "tests", "rules", "*.scn")) +
                   glob.glob(os.path.join(root, "tests", "rules", "outcomes", "*.scn")))
    g["rules"] = [("gen", (s, link), "%s@%s" % (os.path.relpath(s, root), link))
                  for s in rules for link in RULE_LINKS]
    return g


def run_group(items, lint, gen, tmp, pool):
    def one(it):
        kind, args, name = it
        if kind == "cap":
            return findings(lint, args, name)
        return generated(gen, lint, args[0], args[1], name, tmp)
    lines = []
    for res in pool.map(one, items):
        lines += res
    return lines


def contradictions(group, lines):
    """Findings that say opposite things of one frame: an RDMA operation outside the segment its
    handle names (RR-085) does not also match no segment at all (ENG-UNMATCHED-RDMA).  1 if any."""
    seen = {}
    for line in lines:
        if line.startswith("{"):
            d = json.loads(line)
            seen.setdefault((d["file"], d["frame"]), set()).add(d["rule"])
    both = sorted(k for k, rules in seen.items() if {"RR-085", "ENG-UNMATCHED-RDMA"} <= rules)
    for f, fr in both[:10]:
        print("%s: %s frame %d: RR-085 and ENG-UNMATCHED-RDMA contradict each other" % (group, f, fr))
    return 1 if both else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for group, items in groups(a.root).items():
            got = run_group(items, a.lint, a.pcapgen, tmp, pool)
            bad += contradictions(group, got)
            ref = os.path.join(HERE, "ref-%s.jsonl" % group)
            if a.write:
                with open(ref, "w") as f:
                    f.write("".join(l + "\n" for l in got))
                print("%s: %d inputs, %d findings written" % (ref, len(items), len(got)))
                continue
            with open(ref) as f:
                want = f.read().splitlines()
            if got == want:
                print("%s: %d inputs, %d findings, identical" % (group, len(items), len(got)))
                continue
            bad += 1
            diff = list(difflib.unified_diff(want, got, "reference", "now", lineterm="", n=0))
            print("%s: %d inputs: findings differ (%d lines of diff; first ones):" % (group, len(items), len(diff)))
            print("\n".join(diff[:40]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
