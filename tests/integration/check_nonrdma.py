# SPDX-License-Identifier: GPL-2.0-or-later
"""Traffic that is not RDMA gets nothing from ulb-lint.

The captures of sample-pcaps/other/ hold no RDMA at all (PROVENANCE.md says
how they were made: an HTTP download cut at 200 bytes a frame, plain UDP
with random bytes to port 4791).  That is the oracle: for each capture,
read from its file and through a pipe (`cat f | ulb-lint -`), ulb-lint
must exit 0 with --fail-on info, print no finding, and its statistics line
must count every frame of the file (counted here from the pcap records)
and 0 RDMA frames.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures  # noqa: E402

STATS = re.compile(r": (\d+) frames, (\d+) RDMA frames, (\d+) connections, .*findings: "
                   r"(\d+) error, (\d+) warning, (\d+) info")


def pcap_records(path):
    """Records in a classic pcap file, walked by this script's own reader."""
    with open(path, "rb") as f:
        data = f.read()
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
         b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}.get(data[:4])
    if not e:
        raise SystemExit("%s: not a pcap file" % path)
    pos, n = 24, 0
    while pos + 16 <= len(data):
        caplen = struct.unpack_from(e + "I", data, pos + 8)[0]
        pos += 16 + caplen
        n += 1
    return n


def lint(cmd, stdin=None):
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    fail = Failures("nonrdma")
    checked = 0
    for cap in a.captures:
        frames = pcap_records(cap)
        base = [a.lint, "--format", "json", "--fail-on", "info", "--no-progress"]
        for how, cmd, stdin in (("file", base + [cap], None), ("pipe", base + ["-"], cap)):
            name = "%s (%s)" % (os.path.basename(cap), how)
            rc, out, err = lint(cmd, stdin)
            found = [json.loads(l) for l in out.splitlines() if l.strip()]
            found = [d for d in found if "rule" in d]
            checked += 4
            if rc != 0:
                fail.add("%s: exit %d, want 0" % (name, rc))
            for d in found[:5]:
                fail.add("%s: finding at frame %s: %s %s" % (name, d.get("frame"), d["rule"], d["message"]))
            if len(found) > 5:
                fail.add("%s: ... %d findings in all, want none" % (name, len(found)))
            m = STATS.search(err)
            if not m:
                fail.add("%s: no statistics line in %r" % (name, err[-300:]))
                continue
            total, rdma, conns, e, w, i = (int(x) for x in m.groups())
            if total != frames:
                fail.add("%s: %d frames counted, the file holds %d" % (name, total, frames))
            if rdma or conns:
                fail.add("%s: %d RDMA frames, %d connections, want 0 and 0" % (name, rdma, conns))
            if e or w or i:
                fail.add("%s: the statistics count %d/%d/%d findings" % (name, e, w, i))
    fail.finish(checked)


if __name__ == "__main__":
    main()
