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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--link", required=True)
    a = ap.parse_args()
    fail = Failures("tshark %s" % a.link)
    checks = compared = skipped = 0
    scns = rebuild_scenarios(a.scenarios)
    with tempfile.TemporaryDirectory() as tmp:
        for scn in scns:
            base = os.path.splitext(os.path.basename(scn))[0]
            cap = os.path.join(tmp, base + ".pcap")
            run([a.pcapgen, "--link", a.link, "--handshake", scn, "-o", cap,
                 "--truth", os.path.join(tmp, base + ".json")])
            out = tshark(["-2", "-r", cap, "-Y", "rpcordma.reassembled.length", "-T", "fields",
                          "-e", "frame.number", "-e", "rpcordma.reassembled.length", "-e", "_ws.malformed"])
            by_last = {}
            for m in lint_dump(a.lint, cap):
                by_last.setdefault(m["last_frame"], []).append(m)
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
                    fail.add("%s: frame %d: Wireshark rebuilt %d bytes, ulb-lint %s" %
                             (base, frame, length, [m["payload_len"] for m in ms] or "nothing ending there"))
                else:
                    compared += 1
    if compared == 0:
        fail.add("Wireshark reassembled nothing: the cross-check compared no message")
    print("tshark %s: %d reassemblies agree, %d not comparable (Wireshark 4.0 limits)" %
          (a.link, compared, skipped))
    fail.finish(checks)


if __name__ == "__main__":
    main()
