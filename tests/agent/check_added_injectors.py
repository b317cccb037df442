#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The injectors added to the generator's table for the agent
(tests/agent/injectors/NAME.scn, NAME.clean.scn): with and without the
handshake, ulb-lint reports exactly the rules the generator's truth file
expects for the violation, and nothing for the clean twin."""
import glob
import json
import os
import subprocess
import sys
import tempfile


def rules_of(lint, cap):
    p = subprocess.run([lint, "--format", "json", cap], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("ulb-lint %s: exit %d: %s" % (cap, p.returncode, p.stderr.strip()))
    out = set()
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rule = json.loads(line).get("rule", "")
            if rule.startswith("RR-"):
                out.add(rule)
    return out


def main():
    gen, lint, d = sys.argv[1], sys.argv[2], sys.argv[3]
    bad, n = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in sorted(glob.glob(os.path.join(d, "*.scn"))):
            clean = scn.endswith(".clean.scn")
            for hs in ("--handshake", "--no-handshake"):
                cap, truth = os.path.join(tmp, "c.pcap"), os.path.join(tmp, "c.json")
                subprocess.run([gen, scn, hs, "-o", cap, "--truth", truth], check=True,
                               capture_output=True)
                with open(truth) as f:
                    want = {e["rule"] for e in json.load(f).get("expect", [])}
                got = rules_of(lint, cap)
                name = "%s %s" % (os.path.basename(scn), hs)
                n += 1
                if clean and (want or got):
                    bad.append("%s: clean twin, yet expected %s, found %s" % (name, sorted(want), sorted(got)))
                elif not clean and (not want or want != got):
                    bad.append("%s: expected %s, found %s" % (name, sorted(want), sorted(got)))
                else:
                    print("ok  %s: %s" % (name, sorted(got) or "no finding"))
    for b in bad:
        print("FAIL", b)
    if n < 4:
        sys.exit("no scenario pair in %s" % d)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
