#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Wireshark's own decode of rpcrdma-pcapgen --encap: an oracle that the
wrapping is what the specifications say, independent of our decoder.

For every encapsulation given, on each link, tshark (built-in dissectors
only) must dissect each wrapped frame as the outer headers this script
expects from the --encap text (Ethernet, an optional 802.1Q tag, IPv4 or
IPv6, then GRE + ERSPAN, GRE, or UDP + VXLAN) followed by exactly the
protocols it finds in the same frame of the plain capture (so the inner
UDP 4791 / TCP frames are all there); the ERSPAN version must be the type's
(1 for type II, 2 for type III), and no IP, UDP or GRE checksum may be
bad.

    check_encap_tshark.py --pcapgen G --encap SPEC [--encap SPEC ...]
                          [--links rocev2,iwarp] SCENARIO...
"""
import argparse
import os
import tempfile

from lintjson import Failures, run, tshark

CHECKSUMS = ["-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"]
# Wireshark's proto_checksum_enum_e: 0 bad, 4 illegal.
BAD_STATUS = {"0", "4"}


def outer_chain(spec):
    """The protocols tshark shows before the wrapped frame, read from the spec."""
    words = spec.split(",")
    kind, opts = words[0], set(words[1:])
    chain = "eth:ethertype:" + ("vlan:ethertype:" if "vlan" in opts else "")
    chain += "ipv6:" if "ipv6" in opts else "ip:"
    return chain + {"erspan2": "gre:erspan:", "erspan3": "gre:erspan:", "gre": "gre:",
                    "vxlan": "udp:vxlan:"}[kind]


def fields(cap, names):
    args = ["-r", cap, "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a"] + CHECKSUMS
    for f in names:
        args += ["-e", f]
    return [line.split("\t") for line in tshark(args).splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--encap", action="append", required=True)
    ap.add_argument("--links", default="rocev2,iwarp")
    ap.add_argument("scenarios", nargs="+")
    a = ap.parse_args()
    fail = Failures("encapsulation seen by tshark")
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in a.scenarios:
            for link in a.links.split(","):
                base = [a.pcapgen, "--link", link, scn]
                plain = os.path.join(tmp, "plain.pcap")
                run(base + ["-o", plain, "--truth", plain + ".json"])
                want = [r[0] for r in fields(plain, ["frame.protocols"])]
                inner = sum(1 for p in want if ":udp:infiniband" in p or ":tcp" in p)
                if not inner:
                    fail.add("%s %s: tshark finds no RoCEv2 or TCP frame in the plain capture"
                             % (os.path.basename(scn), link))
                for spec in a.encap:
                    where = "%s %s --encap %s" % (os.path.basename(scn), link, spec)
                    cap = os.path.join(tmp, "wrapped.pcap")
                    run(base + ["--encap", spec, "-o", cap, "--truth", cap + ".json"])
                    rows = fields(cap, ["frame.protocols", "erspan.version", "ip.checksum.status",
                                        "udp.checksum.status", "gre.checksum.status"])
                    n += 1
                    if len(rows) != len(want):
                        fail.add("%s: %d frames, the plain capture has %d" % (where, len(rows), len(want)))
                        continue
                    outer = outer_chain(spec)
                    for i, (row, plain_chain) in enumerate(zip(rows, want), 1):
                        if row[0] != outer + plain_chain:
                            fail.add("%s: frame %d is %s, expected %s" % (where, i, row[0], outer + plain_chain))
                            break
                        version = {"erspan2": "1", "erspan3": "2"}.get(spec.split(",")[0], "")
                        if row[1] != version:
                            fail.add("%s: frame %d: ERSPAN version '%s', expected '%s'" % (where, i, row[1], version))
                            break
                        bad = [s for col in row[2:] for s in col.split(",") if s in BAD_STATUS]
                        if bad:
                            fail.add("%s: frame %d: a bad checksum (ip %s, udp %s, gre %s)"
                                     % (where, i, row[2], row[3], row[4]))
                            break
    fail.finish(n)


if __name__ == "__main__":
    main()
