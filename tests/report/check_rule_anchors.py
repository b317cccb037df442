#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every rule has its own anchor in docs/rules.md, and the report links there.

The codes a finding can carry are read from the rule table itself
(analyzer/include/rpcrdma/rules.def: every RR_RULE, RR_NOCHECK and RR_COND
entry) and from `ulb-lint --list-rules`.  docs/rules.md must hold exactly one
`<a id="CODE"></a>` for each, and that anchor must sit on the row of that code.
Then `ulb-lint --report` on each --capture: the page's rule entries (the JSON
the page draws from) must name, as their anchor, an anchor of docs/rules.md
on their own code's row.  Exit 0 when all hold, 1 otherwise.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def table_codes(rules_def):
    src = open(rules_def, encoding="utf-8").read()
    return re.findall(r'^RR_(?:RULE|NOCHECK|COND)\(\s*\w+,\s*"([A-Z]+-[A-Z0-9-]+)"', src, re.M)


def listed_codes(lint):
    out = subprocess.run([lint, "--list-rules"], stdout=subprocess.PIPE, check=True).stdout.decode()
    codes = [l.split()[0] for l in out.splitlines() if re.match(r"^(RR|CAP|ENG)-", l)]
    tail = out.split("not checkable by a passive observer", 1)
    if len(tail) == 2:
        codes += re.findall(r"\b(RR-\d+)\b", tail[1])
    return codes


def doc_anchors(doc):
    """code -> the codes of the rows its anchors are on."""
    rows = {}
    for line in open(doc, encoding="utf-8"):
        m = re.match(r"^\| ([A-Z]+-[A-Z0-9-]+) \|", line)
        for a in re.findall(r'<a id="([^"]+)"></a>', line):
            rows.setdefault(a, []).append(m.group(1) if m else None)
    return rows


def report_anchors(lint, capture, tmp):
    page = os.path.join(tmp, os.path.basename(capture) + ".html")
    p = subprocess.run([lint, "-q", "--no-progress", "--report", page, capture], stdout=subprocess.DEVNULL)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint --report failed (%d) on %s" % (p.returncode, capture))
    html = open(page, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="rr-data">(.*?)</script>', html, re.S)
    if not m:
        raise SystemExit("%s: no #rr-data in the page" % page)
    return {code: r.get("anchor") for code, r in json.loads(m.group(1))["rules"].items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules-def", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--capture", action="append", default=[])
    a = ap.parse_args()
    bad = []
    codes = sorted(set(table_codes(a.rules_def)) | set(listed_codes(a.lint)))
    anchors = doc_anchors(a.doc)
    for code in codes:
        rows = anchors.get(code, [])
        if rows != [code]:
            bad.append("%s: anchors on the rows %s of docs/rules.md, not one on its own row" % (code, rows))
    linked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in a.capture:
            for code, anchor in sorted(report_anchors(a.lint, cap, tmp).items()):
                linked += 1
                if anchors.get(anchor) != [code]:
                    bad.append("%s: the report of %s links it to docs/rules.md#%s, which is not its row"
                               % (code, cap, anchor))
    for b in bad[:40]:
        print("FAIL: " + b)
    print("%d codes, %d anchors in docs/rules.md, %d report links: %s" % (
        len(codes), len(anchors), linked, "%d problems" % len(bad) if bad else "all on their rows"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
