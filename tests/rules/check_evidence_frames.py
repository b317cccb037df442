#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A finding's frames name every frame its text points at.

ulb-lint --format json gives each finding a "frames" list, which the plugin
and the reports use to mark the evidence.  A finding whose message says
"the call at frame 16" or "(frame 8)" rests on that frame, so the list must
hold it.  Run over every rule scenario (the violation, where the findings
are) on the given links, and over the captures given with --capture.  The
oracle is the finding's own text, written by a different part of the code
than the frames list."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

MENTION = re.compile(r"\bframes? ((?:\d+(?:, | and | or |-| to )?)+)")


def mentioned(msg):
    out = set()
    for m in MENTION.finditer(msg):
        out |= set(int(x) for x in re.findall(r"\d+", m.group(1)))
    return out


def check(lint, pcap, problems, label):
    r = subprocess.run([lint, "--format", "json", pcap], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        problems.append("%s: ulb-lint exited %d: %s" % (label, r.returncode, r.stderr.strip()[:200]))
        return 0
    n = 0
    for line in r.stdout.splitlines():
        try:
            f = json.loads(line)
        except ValueError:
            continue
        if "rule" not in f:
            continue
        n += 1
        missing = sorted(mentioned(f["message"]) - set(f.get("frames", [])))
        if missing:
            problems.append("%s:%d: %s names frame(s) %s that its frames %s lack: %s" %
                            (label, f["frame"], f["rule"], missing, f.get("frames"), f["message"][:160]))
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--rules-dir", required=True)
    ap.add_argument("--links", default="rocev2,iwarp")
    ap.add_argument("--capture", action="append", default=[])
    a = ap.parse_args()
    problems = []
    findings = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in sorted(glob.glob(os.path.join(a.rules_dir, "RR-*.scn"))):
            if scn.endswith(".clean.scn"):
                continue
            name = os.path.basename(scn)[:-4]
            for link in a.links.split(","):
                pcap = os.path.join(tmp, "%s-%s.pcap" % (name, link))
                g = subprocess.run([a.pcapgen, scn, "-o", pcap, "--truth", pcap + ".json", "--link", link],
                                   capture_output=True, text=True)
                if g.returncode:
                    problems.append("%s (%s): rpcrdma-pcapgen failed: %s" % (name, link, g.stderr.strip()[:200]))
                    continue
                findings += check(a.lint, pcap, problems, "%s.pcap (%s)" % (name, link))
        for cap in a.capture:
            findings += check(a.lint, cap, problems, cap)
    for p in problems:
        print("FAIL " + p)
    print("evidence frames: %d findings, %d name a frame their frames lack" % (findings, len(problems)))
    sys.exit(1 if problems or not findings else 0)


if __name__ == "__main__":
    main()
