#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fill the `example` field of each rule in rules.def with a finding ulb-lint
really printed: from the rule's violation scenario (tests/rules, RoCEv2, with
the handshake), else from the real captures.  Run by hand after the rules or
their messages change, then regenerate docs/rules.md:
  scripts/harvest-examples.py --lint build/bin/ulb-lint --pcapgen build/bin/rpcrdma-pcapgen
  cmake --build build --target update-rules-doc
"""
import argparse
import glob
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "analyzer/include/rpcrdma/rules.def")


def findings(lint, cap, extra=()):
    p = subprocess.run([lint, "--format", "json", *extra, cap], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    a = ap.parse_args()
    examples = {}
    with tempfile.TemporaryDirectory() as tmp:
        for scn in sorted(glob.glob(os.path.join(ROOT, "tests/rules/RR-*.scn"))):
            if ".clean." in scn:
                continue
            rule = os.path.basename(scn)[:-4]
            for hs in ("--handshake", "--no-handshake"):
                if rule in examples:
                    break
                cap = os.path.join(tmp, rule + ".pcap")
                subprocess.run([a.pcapgen, "--link", "rocev2", hs, scn, "-o", cap, "--truth", cap + ".json"],
                               check=True, stdout=subprocess.DEVNULL)
                truth = json.load(open(cap + ".json"))
                opts = ["--profile", truth["profile"]] if truth.get("profile") else []
                for d in findings(a.lint, cap, opts):
                    if d["rule"] == rule:
                        examples[rule] = "%s.pcap:%d: %s: %s %s" % (rule, d["frame"], d["severity"], rule,
                                                                    d["message"])
                        break
        for cap in sorted(glob.glob(os.path.join(ROOT, "sample-pcaps/real/*.pcap"))):
            for d in findings(a.lint, cap):
                if d["rule"].startswith("RR-") and d["rule"] not in examples:
                    examples[d["rule"]] = "%s:%d: %s: %s %s" % (os.path.basename(cap), d["frame"], d["severity"],
                                                                d["rule"], d["message"])
    text = open(DEF, encoding="utf-8").read()

    def fill(m):
        ex = examples.get(m.group(2), "").replace("\\", "\\\\").replace('"', "'")
        return m.group(1) + '"' + ex + '")'
    text2 = re.sub(r'(RR_RULE\(RR_\d+_\w+, "(RR-\d+)",(?:[^()]|\([^()]*\))*?\n\t"[^"\n]*",\n\t"[^"\n]*",\n\t)"[^"\n]*"\)',
                   fill, text)
    open(DEF, "w", encoding="utf-8").write(text2)
    print("examples for %d rules" % len(examples))


if __name__ == "__main__":
    main()
