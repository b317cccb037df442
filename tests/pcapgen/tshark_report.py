#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cross-check rpcrdma-pcapgen captures with tshark (manual tool, slow).

For every link type and every scenario except inject-*, generate the capture
with the handshake on and ask tshark (two-pass) what it sees: frames,
malformed packets, expert errors, MPA CRC verdicts, RPC-over-RDMA headers
(-Y rpcordma) and RPC calls (-z rpc,programs), next to what the truth file
says. Wireshark 4.0 has no pcap mapping for LINKTYPE_INFINIBAND (247), so
ib and ib-grh captures are rewrapped as ERF type 21 records before tshark
reads them.

usage: tshark_report.py GENERATOR SCENARIO_DIR [LINK...]
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def rewrap_erf(src, dst):
    d = open(src, "rb").read()
    out = bytearray(d[:20]) + struct.pack("<I", 197)
    o = 24
    while o < len(d):
        sec, usec, cap, orig = struct.unpack_from("<IIII", d, o)
        pkt = d[o + 16:o + 16 + cap]
        ts = (sec << 32) | ((usec << 32) // 1000000)
        erf = struct.pack("<Q", ts) + bytes([21, 0x04]) + struct.pack(">HHH", 16 + cap, 0, orig)
        out += struct.pack("<IIII", sec, usec, cap + 16, orig + 16) + erf + pkt
        o += 16 + cap
    open(dst, "wb").write(out)


def tshark(args):
    # out-of-order reassembly lets tshark follow the reorder= scenarios
    r = subprocess.run(["tshark", "-o", "tcp.reassemble_out_of_order:TRUE"] + args,
                       capture_output=True, text=True)
    return r.stdout


def one(gen, scn, link, tmp):
    cap, tj = os.path.join(tmp, "c.pcap"), os.path.join(tmp, "c.json")
    subprocess.run([gen, scn, "--link", link, "--handshake", "--format", "pcap", "-o", cap,
                    "--truth", tj], check=True)
    truth = json.load(open(tj))
    if link in ("ib", "ib-grh"):
        erf = os.path.join(tmp, "c-erf.pcap")
        rewrap_erf(cap, erf)
        cap = erf
    v = tshark(["-2", "-r", cap, "-V"])
    res = {
        "frames": truth["frames"],
        "malformed": len(re.findall(r"\[Malformed Packet:", v)),
        "bugs": len(re.findall(r"\[Dissector bug", v)),
        "errors": len(re.findall(r"\[Expert Info \(Error", v)),
        "good_crc": v.count("(Good CRC32)"),
        "bad_crc": v.count("(Bad CRC32"),
        "rpcordma": len(tshark(["-2", "-r", cap, "-Y", "rpcordma"]).splitlines()),
        "truth_msgs": len(truth["messages"]),
    }
    calls = 0
    for line in tshark(["-2", "-r", cap, "-q", "-z", "rpc,programs"]).splitlines():
        m = re.match(r"^\S+\(\d+\)\s+\d+\s+(\d+)", line)
        if m:
            calls += int(m.group(1))
    res["rpc_calls"] = calls
    res["truth_calls"] = sum(1 for m in truth["messages"]
                             if m["dir"] == "call" and m["rpc_program"] is not None)
    return res


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    gen, sdir = argv[1], argv[2]
    links = argv[3:] or subprocess.run([gen, "--list-links"], capture_output=True, text=True,
                                       check=True).stdout.split()
    scns = sorted(f for f in os.listdir(sdir) if f.endswith(".scn") and not f.startswith("inject"))
    with tempfile.TemporaryDirectory() as tmp:
        for link in links:
            tot = dict(malformed=0, bugs=0, errors=0, good_crc=0, bad_crc=0, rpcordma=0,
                       truth_msgs=0, rpc_calls=0, truth_calls=0, frames=0)
            notes = []
            for s in scns:
                r = one(gen, os.path.join(sdir, s), link, tmp)
                for k in tot:
                    tot[k] += r[k]
                if r["malformed"] or r["errors"] or r["bad_crc"]:
                    notes.append("%s: %d malformed, %d dissector bugs, %d expert errors, "
                                 "%d bad CRC" % (s, r["malformed"], r["bugs"], r["errors"],
                                                 r["bad_crc"]))
            print("%-13s frames=%d rpcordma-frames=%d (sends %d) rpc-calls=%d (truth %d) "
                  "malformed=%d dissector-bugs=%d expert-errors=%d mpa-crc good=%d bad=%d" %
                  (link, tot["frames"], tot["rpcordma"], tot["truth_msgs"], tot["rpc_calls"],
                   tot["truth_calls"], tot["malformed"], tot["bugs"], tot["errors"],
                   tot["good_crc"], tot["bad_crc"]))
            for n in notes:
                print("    " + n)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
