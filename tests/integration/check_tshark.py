#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generated captures (with the handshake) against Wireshark's own rpcordma.

For every scenario, tshark -2 must agree with ulb-lint on the length of
every message Wireshark reassembles without marking it Malformed.
Wireshark reports the length in the frame where its reassembly completes,
which is the last frame of ulb-lint's message.  What Wireshark's number
means depends on the shape:
  - a read chunk (one Position) or a Position-Zero read chunk, and a Reply
    chunk: the RPC message, as ours;
  - a multi-packet Send: the whole Send, transport header included;
  - a call with read chunks at two or more Positions, or a reply with Write
    chunks: Wireshark 4.0 cannot place these (it misplaces the second chunk
    of a two-WRITE COMPOUND and needs ULP hooks for Write chunks).  They are
    counted as "not comparable", never as agreement; the ground-truth check
    (check_truth.py) is what vouches for ulb-lint there.
"""
import argparse
import os
import tempfile

from lintjson import Failures, lint_dump, rebuild_scenarios, run, tshark
from pcapjoin import join_groups


def compare(out, by_last, where, fail):
    """(compared, not comparable, checks) of tshark's reassembled lengths
    against ulb-lint's messages, keyed by the frame that completes them."""
    compared = skipped = checks = 0
    for line in out.splitlines():
        f = (line.split("\t") + ["", "", ""])[:3]
        if not f[0] or f[2]:
            continue          # Malformed in Wireshark: nothing to agree with
        frame, length = int(f[0]), int(f[1].split(",")[0])
        ms = by_last.get(frame, [])
        if any(m["write_chunks"] or len([p for p in m["read_positions"] if p]) > 1 for m in ms):
            skipped += 1
            continue
        checks += 1
        if not any(m["payload_len"] == length or
                   (not m["read_positions"] and not m["reply_chunk"] and
                    m["payload_len"] + m["rdma_hdr_len"] == length) for m in ms):
            fail.add("%s: Wireshark rebuilt %d bytes, ulb-lint %s" %
                     (where(frame), length, [m["payload_len"] for m in ms] or "nothing ending there"))
        else:
            compared += 1
    return compared, skipped, checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--link", required=True)
    a = ap.parse_args()
    fail = Failures("tshark %s" % a.link)
    scns = rebuild_scenarios(a.scenarios)
    compared = skipped = checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        caps, names = [], []
        for scn in scns:
            base = os.path.splitext(os.path.basename(scn))[0]
            cap = os.path.join(tmp, base + ".pcap")
            run([a.pcapgen, "--link", a.link, "--handshake", scn, "-o", cap,
                 "--truth", os.path.join(tmp, base + ".json")])
            caps.append(cap)
            names.append(base)
        # Few tshark starts for every scenario: their captures joined end to
        # end (pcapjoin.py), each message looked for at its frame in the join.
        for cap, members in join_groups(caps, os.path.join(tmp, "joined.pcap")):
            by_last = {}
            for i, off in members:
                for m in lint_dump(a.lint, caps[i]):
                    by_last.setdefault(m["last_frame"] + off, []).append(m)

            def where(frame, members=members):
                i, off = max((i, off) for i, off in members if off < frame)
                return "%s: frame %d" % (names[i], frame - off)
            out = tshark(["-2", "-r", cap, "-Y", "rpcordma.reassembled.length", "-T", "fields",
                          "-e", "frame.number", "-e", "rpcordma.reassembled.length", "-e", "_ws.malformed"])
            n = compare(out, by_last, where, fail)
            compared, skipped, checks = compared + n[0], skipped + n[1], checks + n[2]
    if compared == 0:
        fail.add("Wireshark reassembled nothing: the cross-check compared no message")
    print("tshark %s: %d reassemblies agree, %d not comparable (Wireshark 4.0 limits)" %
          (a.link, compared, skipped))
    fail.finish(checks)


if __name__ == "__main__":
    main()
