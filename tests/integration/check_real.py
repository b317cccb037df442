#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Real Linux NFS/RDMA captures against Wireshark.

For one capture:
  1. every RPC call and reply that `tshark -2` finds, ulb-lint finds too
     (matched by XID and direction), with the same program and version;
  2. every message is rebuilt completely, READ replies whose data came in a
     Write chunk included (Wireshark 4.0 shows those as Malformed);
  3. where both rebuild a chunked message, the lengths agree;
  4. all of this again with the connection handshake cut out of the capture
     (every frame before the first RPC-over-RDMA frame is removed).
With --negative the capture holds plain verbs traffic: ulb-lint must find
no RPC message at all.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from lintjson import Failures, lint_dump, run, tshark


def tshark_rpcs(cap):
    """(frame, xid, msgtyp, prog, vers, reassembled_len, malformed) per RPC frame."""
    # Only RPC carried over RDMA: the lab's MOUNT and portmap traffic runs over plain TCP.
    out = tshark(["-2", "-r", cap, "-Y", "rpc && (infiniband || iwarp_ddp_rdmap || rpcordma)",
                  "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=,",
                  "-e", "frame.number", "-e", "rpc.xid", "-e", "rpc.msgtyp",
                  "-e", "rpc.program", "-e", "rpc.programversion",
                  "-e", "rpcordma.reassembled.length", "-e", "_ws.malformed",
                  "-e", "rpc.repframe", "-e", "rpc.reqframe"])
    rows = []
    for line in out.splitlines():
        f = line.split("\t")
        f += [""] * (9 - len(f))
        xids = [x for x in f[1].split(",") if x]
        types = [t for t in f[2].split(",") if t]
        for i, xid in enumerate(xids):
            rows.append({
                "frame": int(f[0]),
                "xid": "0x%08x" % int(xid, 16),
                "dir": "call" if (types[i] if i < len(types) else types[0]) == "0" else "reply",
                "prog": int(f[3].split(",")[0]) if f[3] else None,
                "vers": int(f[4].split(",")[0]) if f[4] else None,
                "reasm": int(f[5].split(",")[0]) if f[5] else None,
                "malformed": bool(f[6]),
            })
    return rows


def first_rpcrdma_frame(cap):
    # (-c counts frames read, not frames shown: take the first line instead.)
    out = tshark(["-r", cap, "-Y", "rpcordma", "-T", "fields", "-e", "frame.number"])
    return int(out.split()[0]) if out.strip() else 1


def cut_handshake(cap, out):
    first = first_rpcrdma_frame(cap)
    if first <= 1:
        return False
    run(["editcap", "-r", cap, out, "%d-%d" % (first, 2**31 - 1)])
    return True


def check(name, lint, cap, want, fail):
    got = lint_dump(lint, cap)
    checks = 0
    have = {}
    for m in got:
        have.setdefault((m["xid"], m["dir"]), []).append(m)
    for w in want:
        checks += 1
        lst = have.get((w["xid"], w["dir"]))
        if not lst:
            fail.add("%s: tshark's %s %s (frame %d) not found" % (name, w["dir"], w["xid"], w["frame"]))
            continue
        g = lst[0]
        if w["dir"] == "call" and w["prog"] is not None:
            checks += 1
            if g["rpc_program"] != w["prog"] or g["rpc_version"] != w["vers"]:
                fail.add("%s: call %s: tshark program %s/%s, ulb-lint %s/%s" %
                         (name, w["xid"], w["prog"], w["vers"], g["rpc_program"], g["rpc_version"]))
        if w["reasm"] is not None and not w["malformed"]:
            checks += 1
            # A multi-packet Send: Wireshark counts the whole Send, header included.
            multi_send = not g["read_positions"] and not g["reply_chunk"]
            # A Reply chunk written in pieces whose lengths are not multiples
            # of 4 (Linux 7.2 writes a READLINK reply as 120 + 7 + 1 bytes):
            # Wireshark rounds each RDMA Write up to 4 bytes, while the reply
            # is what the returned segment lengths say (RFC 8166 §3.4.6).
            writes = len(g["frames"]) - 1
            padded_pieces = (g["reply_chunk"] and g["rdma_proc"] == "RDMA_NOMSG" and
                             0 < w["reasm"] - g["payload_len"] <= 3 * writes)
            if g["payload_len"] != w["reasm"] and not padded_pieces and not (
                    multi_send and g["payload_len"] + g["rdma_hdr_len"] == w["reasm"]):
                fail.add("%s: %s %s: tshark rebuilt %d bytes, ulb-lint %d" %
                         (name, w["dir"], w["xid"], w["reasm"], g["payload_len"]))
    for m in got:
        checks += 1
        if not m["complete"]:
            fail.add("%s: %s %s (frames %d-%d) not rebuilt completely" %
                     (name, m["dir"], m["xid"], m["first_frame"], m["last_frame"]))
    return checks, got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--negative", action="store_true")
    ap.add_argument("capture")
    a = ap.parse_args()
    name = os.path.basename(a.capture)
    fail = Failures("real " + name)
    if a.negative:
        got = lint_dump(a.lint, a.capture)
        for m in got:
            fail.add("plain verbs traffic taken for RPC: %s %s frames %s" % (m["dir"], m["xid"], m["frames"][:5]))
        fail.finish(1)
        return
    want = tshark_rpcs(a.capture)
    if not want:
        fail.add("tshark finds no RPC in the capture: is it the right file?")
    checks, got = check(name, a.lint, a.capture, want, fail)
    malformed_replies = sum(1 for w in want if w["malformed"] and w["dir"] == "reply")
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "cut.pcap")
        if cut_handshake(a.capture, cut):
            c2, _ = check(name + " (handshake cut)", a.lint, cut, want, fail)
            checks += c2
        else:
            fail.add("the capture has no frame before its first RPC-over-RDMA frame: no handshake to cut")
    print("%s: tshark found %d RPC messages (%d replies shown Malformed), ulb-lint %d" %
          (name, len(want), malformed_replies, len(got)))
    fail.finish(checks)


if __name__ == "__main__":
    main()
