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
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures, cut_pcap, lint_findings  # noqa: E402

SNAPLENS = (64, 128, 256, 1500)
EXPECTED = re.compile(r"^(CAP-|ENG-INCOMPLETE$|ENG-LIMIT$|ENG-UNMATCHED-RDMA$|ENG-NOT-V1$)")


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
