# SPDX-License-Identifier: GPL-2.0-or-later
"""A frame cut by the snaplen is "not captured", never evidence.

Every real capture is cut at several snaplens by this script's own pcap
writer (each record keeps min(caplen, snaplen) bytes; the original length
stays, as tcpdump -s / ibdump -s write it).  ulb-lint must then report no
error or warning finding of a rule that the whole capture does not report
at the same frame: what the cut removed is skipped and counted, and the
statistics line says so.  Capture conditions (CAP-*) and the engine's own
(ENG-INCOMPLETE: a message could not be rebuilt whole) are what a cut is
expected to bring; ENG-ULP (a walk stopped on an unknown op) is not.

A headers-only capture has a CAP-TRUNC per frame.  The text output lists
the first --cap-lines of each capture condition (default 10) and then one
line with how many more, between which frames; the oracle is the JSON
output, which lists every one: the text must list the same first frames,
count the rest exactly, and lose no other finding.  The statistics line's
"cut short" count is every CAP-TRUNC.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures, cut_pcap, lint_findings  # noqa: E402

SNAPLENS = (64, 128, 256, 1500)
EXPECTED = re.compile(r"^(CAP-|ENG-INCOMPLETE$|ENG-LIMIT$|ENG-UNMATCHED-RDMA$|ENG-NOT-V1$)")


TEXT = re.compile(r"^[^:]+:(\d+): \w+: (\S+) ")
TAIL = re.compile(r"^[^:]+: \w+: (CAP-\S+) (\d+) more not listed, frames (\d+) to (\d+) \((\d+) in all;")


def check_listing(lint, cut, name, full, fail):
    """The text output of cut, at the default limit, at 3 and at 0 (every one), against full (JSON)."""
    checks = 0
    for limit in (None, 3, 0):
        args = [lint] + ([] if limit is None else ["--cap-lines", str(limit)]) + [cut]
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        lines = p.stdout.decode().splitlines()
        n = 10 if limit is None else limit
        listed, tails = {}, {}
        for line in lines:
            m, t = TEXT.match(line), TAIL.match(line)
            if m:
                listed.setdefault(m.group(2), []).append(int(m.group(1)))
            elif t:
                tails[t.group(1)] = tuple(int(t.group(i)) for i in range(2, 6))
            else:
                fail.add("%s, --cap-lines %s: a line that is neither a finding nor a count: %r" % (name, limit, line))
        want = {}
        for d in full:
            want.setdefault(d["rule"], []).append(d["frame"])
        for rule, frames in want.items():
            checks += 1
            capped = rule.startswith("CAP-") and n and len(frames) > n
            shown = frames[:n] if capped else frames
            if listed.get(rule, []) != shown:
                fail.add("%s, --cap-lines %s: %s lists frames %s..., JSON %s..." %
                         (name, limit, rule, listed.get(rule, [])[:5], shown[:5]))
            if capped and tails.get(rule) != (len(frames) - n, frames[n], frames[-1], len(frames)):
                fail.add("%s, --cap-lines %s: %s count line %s, expected %s" %
                         (name, limit, rule, tails.get(rule), (len(frames) - n, frames[n], frames[-1], len(frames))))
            if not capped and rule in tails:
                fail.add("%s, --cap-lines %s: a count line for %s, all of whose findings fit" % (name, limit, rule))
        stats = p.stderr.decode().strip().splitlines()[-1]
        m = re.search(r"; (\d+) RDMA frames cut short by the capture", stats)
        ntrunc = len(want.get("CAP-TRUNC", []))
        checks += 1
        if (int(m.group(1)) if m else 0) != ntrunc:
            fail.add("%s: the statistics line says %s frames cut short, JSON has %d CAP-TRUNC: %r" %
                     (name, m.group(1) if m else "no", ntrunc, stats))
    return checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    fail = Failures("snaplen")
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in a.captures:
            whole, _ = lint_findings(a.lint, cap)
            base = {(d["rule"], d["frame"]) for d in whole}
            for snap in SNAPLENS:
                cut = os.path.join(tmp, "cut-%d.pcap" % snap)
                ncut = cut_pcap(cap, cut, snap)
                if ncut is None:
                    raise SystemExit("%s: not a pcap file" % cap)
                got, stats = lint_findings(a.lint, cut)
                name = "%s cut at %d" % (os.path.basename(cap), snap)
                if snap == 64:
                    checked += check_listing(a.lint, cut, name, got, fail)
                for d in got:
                    checked += 1
                    if d["severity"] not in ("error", "warning") or EXPECTED.match(d["rule"]):
                        continue
                    if (d["rule"], d["frame"]) not in base:
                        fail.add("%s: %s at frame %s: %s" % (name, d["rule"], d["frame"], d["message"]))
                # Cutting RPC traffic must show up as skipped checks, with the reason.
                m = re.search(r"(\d+) checks skipped", stats)
                checked += 1
                if not m:
                    fail.add("%s: no skipped-checks count in %r" % (name, stats))
                elif ncut and "nfs" in os.path.basename(cap) and snap in (128, 256) and int(m.group(1)) == 0:
                    fail.add("%s: %d frames cut, yet no check counted as skipped" % (name, ncut))
                elif int(m.group(1)) and "not captured" not in stats:
                    fail.add("%s: skipped checks without the reason: %r" % (name, stats))
    fail.finish(checked)


if __name__ == "__main__":
    main()
