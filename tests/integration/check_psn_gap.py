#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Packets lost from an InfiniBand or RoCE capture are told where they went missing.

Real RoCEv2 captures lose frames on purpose (editcap -d): packets that
carry a PSN (Sends, RDMA Writes, Read Requests and Responses; not ACKs,
which take none), spread through the capture, one at a time.  The oracle
is the list of frames removed, read with Wireshark's own InfiniBand
decode: ulb-lint's CAP-PSN-GAP findings must count exactly that many
packets, and a READ reply whose Write data went with them is told
(ENG-INCOMPLETE) instead of being checked as if whole.  The capture as it
is has no CAP-PSN-GAP: a retransmission or a packet the capture only
reordered is not called lost.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from lintjson import Failures

# BTH opcodes of RC packets that take a PSN of their own (IBTA 9.7): Sends, RDMA Writes, Read Responses.
DATA_OPCODES = set(range(0, 12)) | {13, 14, 15, 16}
COUNT = re.compile(r"^(\d+) packets? ")


def tshark_packets(cap):
    env = dict(os.environ, WIRESHARK_CONFIG_DIR="/nonexistent")
    out = subprocess.run(["tshark", "-r", cap, "-Y", "infiniband.bth", "-T", "fields", "-e", "frame.number",
                          "-e", "infiniband.bth.opcode"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=env).stdout.decode()
    rows = []
    for line in out.splitlines():
        num, op = (line.split("\t") + [""])[:2]
        if op:
            rows.append((int(num), int(op.split(",")[0])))
    return rows


def findings(lint, cap):
    p = subprocess.run([lint, "--format", "json", cap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed on %s: %s" % (cap, p.stderr.decode()[-2000:]))
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def lost_packets(got):
    total = 0
    for d in got:
        if d["rule"] == "CAP-PSN-GAP":
            m = COUNT.match(d["message"])
            total += int(m.group(1)) if m else 0
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    fail = Failures("psn gap")
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in a.captures:
            name = os.path.basename(cap)
            checks += 1
            whole = lost_packets(findings(a.lint, cap))
            if whole:
                fail.add("%s as captured: %d packets called lost" % (name, whole))
            pkts = tshark_packets(cap)
            data = [n for n, op in pkts if op in DATA_OPCODES]
            lo, hi = len(data) // 10, len(data) * 9 // 10
            drop = data[lo:hi:max(1, (hi - lo) // 12)][:12]
            cut = os.path.join(tmp, "dropped-" + name)
            subprocess.run(["editcap", cap, cut] + [str(n) for n in drop], check=True)
            got = findings(a.lint, cut)
            checks += 1
            told = lost_packets(got)
            if told != len(drop):
                fail.add("%s with frames %s dropped: CAP-PSN-GAP counts %d packets, %d were dropped" %
                         (name, drop, told, len(drop)))
            writes = [n for n, op in pkts if n in set(drop) and 6 <= op <= 11]
            replies = [d for d in got if d["rule"] == "ENG-INCOMPLETE" and d["message"].startswith("reply XID")]
            checks += 1
            if writes and not replies:
                fail.add("%s: RDMA Writes %s dropped, yet no reply was told incomplete" % (name, writes))
            print("%s: %d data packets dropped, %d told lost in %d findings; %d ENG-INCOMPLETE" %
                  (name, len(drop), told, sum(d["rule"] == "CAP-PSN-GAP" for d in got),
                   sum(d["rule"] == "ENG-INCOMPLETE" for d in got)))
    fail.finish(checks)


if __name__ == "__main__":
    main()
