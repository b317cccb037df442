#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An RDMA operation after the reply (RR-068 Read, RR-092 Write) is a
finding about the call whose segment it reaches: the finding carries that
call's XID, so that a reader of --format json (and rpcrdma-agent verify)
can tie it to its exchange even when it lands after later calls.  The
oracle is the generator's truth: the reply its injector marked
(read-after-reply, write-after-reply) and that reply's XID."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CASES = {"RR-068": "read-after-reply", "RR-092": "write-after-reply"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--rules-dir", required=True)
    a = ap.parse_args()
    problems, checked = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for rule, injector in sorted(CASES.items()):
            for link in ("rocev2", "iwarp"):
                cap = os.path.join(tmp, "%s-%s.pcap" % (rule, link))
                truth_path = cap + ".json"
                subprocess.run([a.pcapgen, os.path.join(a.rules_dir, rule + ".scn"), "--link", link,
                                "-o", cap, "--truth", truth_path], check=True, capture_output=True)
                with open(truth_path) as f:
                    truth = json.load(f)
                want = {m["xid"] for m in truth["messages"] if injector in m.get("injected", [])}
                if not want:
                    problems.append("%s %s: the truth marks no message %s" % (rule, link, injector))
                    continue
                r = subprocess.run([a.lint, "--format", "json", cap], capture_output=True, text=True)
                found = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
                found = [f for f in found if f.get("rule") == rule]
                if not found:
                    problems.append("%s %s: no %s finding" % (rule, link, rule))
                for f in found:
                    checked += 1
                    if f.get("xid") not in want:
                        problems.append("%s %s frame %s: xid %s, the truth says %s" %
                                        (rule, link, f.get("frame"), f.get("xid"), sorted(want)))
    for p in problems:
        print("FAIL " + p)
    print("%d findings checked, %d problems" % (checked, len(problems)))
    return 1 if problems or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
