#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The findings the GUI showed (collect.lua's files) against ulb-lint's.

    compare_findings.py --lint ULB_LINT --capture CAPTURE --final final.txt [--live live.txt]

ulb-lint --format json on CAPTURE is the oracle: its (frame, rule,
severity) set.  final.txt (what a re-dissection of every frame shows once
the capture has ended) must equal it; live.txt (what frames showed when
the live capture first dissected them) may miss what only the end of the
capture tells, but must hold nothing outside it.  Prints each difference
and exits 1 when there is one.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from lintjson import Failures, lint_findings  # noqa: E402


def read_set(path):
    out = set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) != 3 or not parts[0].isdigit():
                raise SystemExit("%s:%d: not 'FRAME RULE SEVERITY': %r" % (path, n, line))
            out.add((int(parts[0]), parts[1], parts[2]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--final", required=True)
    ap.add_argument("--live")
    a = ap.parse_args()
    found, _ = lint_findings(a.lint, a.capture)
    oracle = {(d["frame"], d["rule"], d["severity"]) for d in found}
    final = read_set(a.final)
    fails = Failures("gui findings")
    print("gui findings: ulb-lint %d; the GUI after the capture %d" % (len(oracle), len(final)))
    for f in sorted(final - oracle):
        fails.add("after the capture: frame %d shows %s (%s), not one of ulb-lint's findings" % f)
    for f in sorted(oracle - final):
        fails.add("after the capture: ulb-lint's frame %d %s (%s) is not shown" % f)
    checks = 2
    if a.live:
        live = read_set(a.live)
        print("gui findings: during the live capture %d" % len(live))
        for f in sorted(live - oracle):
            fails.add("during the capture: frame %d showed %s (%s), not one of ulb-lint's findings" % f)
        checks += 1
    fails.finish(checks)


if __name__ == "__main__":
    main()
