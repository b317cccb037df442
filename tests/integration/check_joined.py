# SPDX-License-Identifier: GPL-2.0-or-later
"""A capture joined to itself (mergecap -a: time goes backwards, every XID
repeats) is told once as several captures, and each part is analysed as
the capture alone is.

Each real capture is written three times into one pcap by this script (the
records as they are, one file after the other).  The oracle is ulb-lint on
the capture alone: part k must give the same (rule, frame) findings,
shifted by k times the capture's frame count, and no RR-* finding may come
from the join itself (a repeated XID read as a retry, a reply matched
across parts).  Exactly one CAP-JOINED names the first join.
"""
import argparse
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures, lint_findings  # noqa: E402

COPIES = 3


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    e = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    pos, out = 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack_from(e + "I", data, pos + 8)[0]
        out.append(data[pos:pos + 16 + caplen])
        pos += 16 + caplen
    return data[:24], out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    fail = Failures("joined")
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in a.captures:
            name = os.path.basename(cap)
            head, recs = records(cap)
            joined = os.path.join(tmp, "joined.pcap")
            with open(joined, "wb") as f:
                f.write(head + b"".join(recs) * COPIES)
            alone = {(d["rule"], d["frame"]) for d in lint_findings(a.lint, cap)[0]
                     if d["rule"].startswith("RR-")}
            got = lint_findings(a.lint, joined)[0]
            n = len(recs)
            joins = [d for d in got if d["rule"] == "CAP-JOINED"]
            checked += 1
            if len(joins) != 1 or joins[0]["frame"] != n + 1:
                fail.add("%s: expected one CAP-JOINED at frame %d, got %s" %
                         (name, n + 1, [d["frame"] for d in joins]))
            for k in range(COPIES):
                part = {(d["rule"], d["frame"] - k * n) for d in got
                        if d["rule"].startswith("RR-") and k * n < d["frame"] <= (k + 1) * n}
                checked += 1
                if part != alone:
                    fail.add("%s part %d: %s more, %s missing than the capture alone" %
                             (name, k + 1, sorted(part - alone)[:5], sorted(alone - part)[:5]))
    fail.finish(checked)


if __name__ == "__main__":
    main()
