#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""outstanding.py CAPTURE... : the most RPC calls outstanding per connection, from tshark.

For each lab capture: every RPC-over-RDMA message as tshark decodes it (XID, credit
value, direction), grouped by connection (the server's QP number for rxe, the TCP
stream for siw). A forward call is a message from the client that is not an RPC
reply; its reply is the first message from the server with the same XID. A call
sent again with an XID still outstanding (a retransmission) is not counted twice.
Prints, per connection: calls, the most outstanding at once, the credits the client
asked for and the server granted (RFC 8166 section 3.3.1). Backchannel calls (from
the server) and their replies are left out.
"""
import subprocess
import sys

FIELDS = ["frame.number", "ip.src", "infiniband.bth.destqp", "tcp.stream", "rpcordma.xid",
          "rpcordma.flow_control", "rpc.msgtyp"]
CLIENT_IPS = ("10.0.0.2", "10.0.1.2")


def messages(cap):
    out = subprocess.run(["tshark", "-r", cap, "-Y", "rpcordma", "-T", "fields", "-E", "separator=\t",
                          "-E", "occurrence=f"] + sum([["-e", f] for f in FIELDS], []),
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
    for line in out.splitlines():
        yield dict(zip(FIELDS, line.split("\t")))


def analyse(cap):
    conns = {}
    owner = {}           # xid -> connection of its outstanding call
    for m in messages(cap):
        if not m.get("rpcordma.xid"):
            continue
        xid = int(m["rpcordma.xid"], 0)
        credits = int(m["rpcordma.flow_control"] or 0)
        from_client = m["ip.src"] in CLIENT_IPS
        mtype = m.get("rpc.msgtyp", "")
        if from_client and mtype != "1":          # a forward call
            key = ("qp " + m["infiniband.bth.destqp"]) if m["infiniband.bth.destqp"] else ("tcp " + m["tcp.stream"])
            c = conns.setdefault(key, {"calls": 0, "open": set(), "max": 0, "asked": 0, "granted": 0,
                                       "max_frame": 0})
            c["asked"] = max(c["asked"], credits)
            if xid in c["open"]:
                continue
            c["calls"] += 1
            c["open"].add(xid)
            owner[xid] = key
            if len(c["open"]) > c["max"]:
                c["max"], c["max_frame"] = len(c["open"]), int(m["frame.number"])
        elif not from_client and mtype != "0":    # not a backchannel call: a forward reply                     # a forward reply
            key = owner.pop(xid, None)
            if key:
                conns[key]["open"].discard(xid)
                conns[key]["granted"] = max(conns[key]["granted"], credits)
    return conns


def main():
    for cap in sys.argv[1:]:
        conns = analyse(cap)
        print(cap)
        for key, c in conns.items():
            print("  %-12s calls %5d  most outstanding %3d (frame %d)  credits asked %d granted %d" % (
                key, c["calls"], c["max"], c["max_frame"], c["asked"], c["granted"]))


if __name__ == "__main__":
    main()
