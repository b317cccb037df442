#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Correct traffic gives no false finding.  Each scenario in tests/legal is
traffic that RFC 8166 and RFC 8267 allow (found by an independent review to
draw false findings once); a `# allow: RR-xxx ...` line names the advisory
findings it may give (SHOULD-level shapes, hazards).  On every link type
given, with and without the handshake, ulb-lint must report no error and
nothing outside that list."""
import argparse
import glob
import json
import os
import re
import subprocess
import tempfile

from lintjson import Failures, run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--links", default="ib,rocev2,iwarp")
    a = ap.parse_args()
    fail = Failures("legal traffic")
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in sorted(glob.glob(os.path.join(a.dir, "*.scn"))):
            allow = set()
            for line in open(scn):
                m = re.match(r"#\s*allow:\s*(.*)", line)
                if m:
                    allow |= set(m.group(1).split())
            for link in a.links.split(","):
                for hs in ("--handshake", "--no-handshake"):
                    cap = os.path.join(tmp, "c.pcap")
                    run([a.pcapgen, "--link", link, hs, scn, "-o", cap, "--truth", cap + ".json"])
                    p = subprocess.run([a.lint, "--format", "json", cap], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
                    got = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
                    bad = [d for d in got if d["rule"].startswith("RR-") and
                           (d["severity"] == "error" or d["rule"] not in allow)]
                    n += 1
                    if p.returncode not in (0, 1) or bad:
                        fail.add("%s %s %s: %s" % (os.path.basename(scn), link, hs,
                                                   "; ".join("%s@%d %s" % (d["rule"], d["frame"], d["message"])
                                                             for d in bad[:3]) or "exit %d" % p.returncode))
    fail.finish(n)


if __name__ == "__main__":
    main()
