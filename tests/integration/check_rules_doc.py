#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/rules.md is exactly what the rule table generates (never edited by
hand), and ulb-lint --list-rules lists the same rules with the same
severities in both profiles."""
import argparse
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", required=True)
    ap.add_argument("--generator", required=True)
    ap.add_argument("--lint", required=True)
    a = ap.parse_args()
    problems = []
    generated = subprocess.run([a.generator], stdout=subprocess.PIPE, check=True).stdout.decode()
    committed = open(a.doc, encoding="utf-8").read()
    if generated != committed:
        problems.append("docs/rules.md differs from the rule table: run `cmake --build build --target update-rules-doc`")
    doc = {}
    for m in re.finditer(r"^\| (RR-\d+) \| `([^`]+)` \| (\w+) \| (\w+) \|", committed, re.M):
        doc[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    listed = {}
    out = subprocess.run([a.lint, "--list-rules"], stdout=subprocess.PIPE, check=True).stdout.decode()
    for line in out.splitlines():
        cols = line.split()
        if cols and re.match(r"^(RR|CAP|ENG)-", cols[0]) and cols[0].startswith("RR-"):
            listed[cols[0]] = (cols[1], cols[2], cols[3])
    if not listed or listed != doc:
        problems.append("--list-rules and docs/rules.md disagree: only in --list-rules %s, only in the doc %s, "
                        "different %s" % (sorted(set(listed) - set(doc)), sorted(set(doc) - set(listed)),
                                          sorted(k for k in set(doc) & set(listed) if doc[k] != listed[k])))
    for p in problems:
        print("FAIL rules doc: " + p)
    print("rules doc: %d rules compared, %s" % (len(doc), "FAILED" if problems else "all agree"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
