#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn an rpcrdma-pcapgen truth file into an rpcrdma-agent manifest.

The generator's truth (docs/pcapgen.md, "Truth file") says what it put on
the wire, computed without the engine; the manifest (capture/agent/manifest.h)
is what the live agent writes about a run.  Converting one into the other
gives `rpcrdma-agent verify` an independent oracle:

* one rpc line per message: xid = the transport header's rdma_xid (the XID
  the engine keys messages by; it equals the RPC XID unless the generator
  broke RR-002), direction, RDMA proc, credit, Payload length and SHA-256,
  chunk lists.  rebuilt=no where the truth cannot promise the engine's
  rebuild: a message of an exchange an injector changed (check_truth.py
  leaves injected messages to the rule checks too) or whose Payload was not
  all on the wire;
* one inject line per (rule, message) of the truth's "expect" list: the
  expected frame is mapped to the message it belongs to (the message whose
  Send starts there, else the one that owns the frame, else the exchange in
  progress), because an agent knows messages, not frame numbers;
* a capture line with dropped=0 (the generator loses nothing).

usage: truth2manifest.py TRUTH.json -o OUT.manifest [--capture-file NAME]
                         [--role pcapgen|drive|serve] [--no-injects] [--dropped N]
"""
import argparse
import json
import os
import sys


def segs(lst, with_pos=None):
    out = []
    for s in lst:
        seg = "0x%x:%d:0x%x" % (int(s["handle"], 16), s["length"], int(s["offset"], 16))
        out.append(("%d:" % with_pos + seg) if with_pos is not None else seg)
    return out


def chunk_fields(chunks):
    if not chunks:
        return "-", "-", "-"
    reads = []
    for c in chunks.get("reads", []):
        reads += segs(c["segments"], c["position"])
    writes = [",".join(segs(c["segments"])) or "empty" for c in chunks.get("writes", [])]
    reply = chunks.get("reply")
    if reply is None:
        rep = "-"
    else:
        rep = ",".join(segs(reply)) or "empty"
    return ",".join(reads) or "-", ";".join(writes) or "-", rep


def exchange(m):
    return (m.get("conn"), m["rdma_xid"].lower(), bool(m.get("backchannel", False)))


def rebuildable(m, broken):
    """Whether the engine must rebuild m as the generator built it: not when
    an injector changed its exchange (the call's damage shows in the reply:
    an RDMA_ERROR copying a bad version, data written where the call said
    nothing fits) or part of its Payload never crossed the wire."""
    return (exchange(m) not in broken and m.get("payload_on_wire", True)
            and m.get("complete", True))


def owner(messages, frame):
    """The message a finding at frame is about."""
    starts = [m for m in messages if m.get("first_frame") == frame]
    if starts:
        return starts[-1]
    has = [m for m in messages if frame in m.get("frames", [])]
    if has:
        return has[-1]
    # An RDMA operation that carried none of a message's bytes (a Read
    # Request, a Write outside every segment): the last call sent before it.
    before = [m for m in messages if m["dir"] == "call" and m.get("first_frame") is not None
              and m["first_frame"] <= frame]
    return before[-1] if before else None


def convert(truth, capture_file, role, with_injects=True, dropped=0):
    msgs = truth["messages"]
    lines = ["# rpcrdma-agent manifest 1",
             "# from rpcrdma-pcapgen truth: scenario %s, link %s" % (truth.get("scenario"), truth.get("link"))]
    injectors = sorted({i for m in msgs for i in m.get("injected", [])})
    broken = {exchange(m) for m in msgs if m.get("injected")}
    lines.append("\t".join(["run", "role=" + role, "transport=" + truth.get("link", "-"),
                            "device=pcapgen", "netdev=-", "local=client", "remote=server", "port=0",
                            "target=agent", "scenario=" + str(truth.get("scenario", "")),
                            "inject=" + (",".join(injectors) or "-")]))
    lines.append("\t".join(["capture", "file=" + capture_file, "received=%d" % truth.get("frames", 0),
                            "dropped=%d" % dropped, "ifdropped=0"]))
    for m in msgs:
        reads, writes, reply = chunk_fields(m.get("chunks"))
        lines.append("\t".join([
            "rpc", "xid=0x%08x" % int(m["rdma_xid"], 16), "dir=" + m["dir"],
            "proc=" + m["rdma_proc"], "vers=1", "credit=%d" % m["rdma_credit"],
            "len=%d" % m["payload_len"], "sha256=" + m["payload_sha256"],
            "rebuilt=" + ("yes" if rebuildable(m, broken) else "no"),
            "reads=" + reads, "writes=" + writes, "reply=" + reply]))
    if with_injects:
        done = set()
        for e in truth.get("expect", []):
            m = owner(msgs, e["frame"])
            if m is None:
                sys.exit("truth2manifest: %s at frame %d belongs to no message" % (e["rule"], e["frame"]))
            key = (e["rule"], m["rdma_xid"], m["dir"])
            if key in done:
                continue
            done.add(key)
            lines.append("\t".join(["inject", "rule=" + e["rule"],
                                    "xid=0x%08x" % int(m["rdma_xid"], 16), "dir=" + m["dir"], "also=-",
                                    "note=expected at frame %d" % e["frame"]]))
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("truth")
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--capture-file", help="the capture's file name for the capture line "
                    "(default: the truth's name with .pcap or .pcapng)")
    ap.add_argument("--role", default="pcapgen", choices=("pcapgen", "drive", "serve"))
    ap.add_argument("--no-injects", action="store_true", help="leave the inject lines out")
    ap.add_argument("--dropped", type=int, default=0, help="dropped= of the capture line")
    a = ap.parse_args(argv[1:])
    with open(a.truth) as f:
        truth = json.load(f)
    cap = a.capture_file or (os.path.splitext(os.path.basename(a.truth))[0] + "." +
                             truth.get("format", "pcap"))
    text = convert(truth, cap, a.role, not a.no_injects, a.dropped)
    with open(a.out, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
