#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Broken and deep tunnels.  Every frame of a mirrored capture (rpcrdma-pcapgen
--encap) is damaged in its tunnel headers here, and ulb-lint must exit 0 or 1
and say nothing at all: a frame whose tunnel cannot be opened is not known to
carry RDMA, and conditions about frames that are not RDMA are not told
(docs/architecture.md).  The damages: the frame cut (as by a snaplen) at
every byte of the tunnel headers; GRE version 1, the RFC 1701 routing bit;
ERSPAN with the other type's version, ERSPAN III with frame type 1 or its O
bit and no room for the subheader; VXLAN without the I flag; an outer IP
length too short for the tunnel headers.

Then the bounds that are meant to hold: a frame wrapped in VXLAN four times
over (our own VXLAN writer below, RFC 7348) still gives the plain capture's
findings; five times over it is given up (no RDMA frame).  And a mirror that
cut what it mirrored (ERSPAN type II, T bit set, the frame shortened) gives
the findings of the plain capture cut by a snaplen at the same byte.  And
the shapes the generator does not write (ERSPAN type I, IP in GRE, ERSPAN
III carrying IP), rewritten here, give the plain capture's findings.

    check_encap_hostile.py --lint L --pcapgen G SCENARIO
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

from lintjson import Failures, cut_pcap, run

MAX_DEPTH = 4           # analyzer/decode/tunnel.h TUNNEL_MAX_DEPTH


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\xd4\xc3\xb2\xa1":
        raise SystemExit("%s: not a little-endian microsecond pcap" % path)
    recs, pos = [], 24
    while pos + 16 <= len(data):
        sec, usec, caplen, wirelen = struct.unpack_from("<IIII", data, pos)
        recs.append([sec, usec, wirelen, bytearray(data[pos + 16:pos + 16 + caplen])])
        pos += 16 + caplen
    return data[:24], recs


def write_pcap(path, hdr, recs):
    with open(path, "wb") as f:
        f.write(hdr[:16] + struct.pack("<I", 262144) + hdr[20:24])
        for sec, usec, wirelen, b in recs:
            f.write(struct.pack("<IIII", sec, usec, len(b), max(wirelen, len(b))) + bytes(b))


def lint(lint_bin, cap):
    """(exit status, findings without the file name, statistics line without it)."""
    p = subprocess.run([lint_bin, "--format", "json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    found = []
    for line in p.stdout.decode().splitlines():
        if line.strip():
            d = json.loads(line)
            d.pop("file", None)
            found.append(d)
    err = p.stderr.decode().strip().splitlines()
    return p.returncode, found, (err[-1] if err else "").replace(os.path.basename(cap), "CAPTURE")


def gen(a, tmp, name, spec, extra=()):
    cap = os.path.join(tmp, name)
    cmd = [a.pcapgen, "--link", "rocev2", "--no-handshake", a.scenario, "-o", cap, "--truth", cap + ".json"]
    run(cmd + (["--encap", spec] if spec else []) + list(extra))
    return cap


def outer_ip(frame):
    """Offset of the outer IP header and its version (the writer's frames: optional one tag)."""
    off = 14 + (4 if frame[12:14] == b"\x81\x00" else 0)
    return off, frame[off] >> 4


def tunnel_at(frame):
    """Offset of the GRE or UDP header after the outer IP header."""
    off, v = outer_ip(frame)
    return off + (20 if v == 4 else 40)


def set_ip_len(frame, total_payload):
    """Rewrite the outer IP length fields (and the IPv4 header checksum) for a payload of that size."""
    off, v = outer_ip(frame)
    if v == 4:
        struct.pack_into(">H", frame, off + 2, 20 + total_payload)
        struct.pack_into(">H", frame, off + 10, 0)
        s = sum(struct.unpack(">10H", bytes(frame[off:off + 20])))
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        struct.pack_into(">H", frame, off + 10, ~s & 0xFFFF)
    else:
        struct.pack_into(">H", frame, off + 4, total_payload)


def damages(spec):
    """(name, function(frame) -> damaged frame) for captures wrapped by spec."""
    def bits(rel, mask, value):
        def f(b):
            at = tunnel_at(b) + rel
            b[at] = (b[at] & ~mask) | value
            return b
        return f

    def short_ip(b):
        set_ip_len(b, 6)
        return b
    kind = spec.split(",")[0]
    out = [("outer IP length shorter than the tunnel headers", short_ip)]
    if kind != "vxlan":
        out += [("GRE version 1", bits(1, 0x07, 0x01)), ("GRE routing bit", bits(0, 0x40, 0x40))]
    if kind == "erspan2":
        out += [("ERSPAN II header with version 2", bits(8, 0xF0, 0x20))]
    if kind == "erspan3":
        out += [("ERSPAN III header with version 1", bits(8, 0xF0, 0x10)),
                ("ERSPAN III frame type 1", bits(18, 0x7C, 0x04))]
    if kind == "vxlan":
        out += [("VXLAN without the I flag", bits(8, 0x08, 0x00))]
    return out


def overhead(frame):
    """Where the wrapped Ethernet frame starts (pcapgen's encapsulations)."""
    t = tunnel_at(frame)
    _, v = outer_ip(frame)
    if frame[t - (20 if v == 4 else 40) + (9 if v == 4 else 6)] == 17:
        return t + 16                   # UDP + VXLAN
    flags, proto = struct.unpack_from(">HH", frame, t)
    n = t + 4 + 4 * bin(flags & 0xB000).count("1")
    if proto == 0x88BE and flags & 0x1000:
        n += 8
    elif proto == 0x22EB:
        n += 12 + (8 if frame[n + 11] & 1 else 0)
    return n


VXLAN_OVERHEAD = 14 + 20 + 8 + 8


def vxlan(frame, wire):
    """Our own VXLAN writer (RFC 7348 section 5): Ethernet, IPv4, UDP to 4789
    with no checksum, the I flag and VNI 7, then the frame (wire bytes long,
    of which frame holds what was captured)."""
    udp = struct.pack(">HHHH", 49152, 4789, 16 + wire, 0)
    ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) + 8 + wire, 0, 0,
                               64, 17, 0, bytes([198, 51, 100, 1]), bytes([198, 51, 100, 2])))
    return bytearray(b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00" + ip + udp +
                     struct.pack(">II", 0x08000000, 7 << 8) + frame)


def check_damage(a, tmp, fail):
    n = 0
    for spec in ("erspan2", "erspan3,subhdr", "gre,csum,key,seq", "vxlan,ipv6,vlan"):
        hdr, recs = read_pcap(gen(a, tmp, "w.pcap", spec))
        cases = [(name, [[s, u, w, f(bytearray(b))] for s, u, w, b in recs]) for name, f in damages(spec)]
        first = overhead(recs[0][3])
        for cut in range(tunnel_at(recs[0][3]), first + 14):
            cases.append(("cut at byte %d" % cut, [[s, u, w, b[:cut]] for s, u, w, b in recs]))
        for name, mutated in cases:
            cap = os.path.join(tmp, "m.pcap")
            write_pcap(cap, hdr, mutated)
            rc, found, stats = lint(a.lint, cap)
            n += 1
            if rc not in (0, 1) or found or " 0 RDMA frames" not in stats:
                fail.add("--encap %s, %s: exit %d, %d findings, '%s'%s" % (
                    spec, name, rc, len(found), stats,
                    (": " + found[0]["message"]) if found else ""))
    return n


def check_bounds(a, tmp, fail):
    plain = gen(a, tmp, "p.pcap", None)
    want = lint(a.lint, plain)
    hdr, recs = read_pcap(plain)
    for depth in (MAX_DEPTH, MAX_DEPTH + 1):
        nested = []
        for s, u, w, b in recs:
            for _ in range(depth):
                b = vxlan(b, w)
                w += VXLAN_OVERHEAD
            nested.append([s, u, w, b])
        cap = os.path.join(tmp, "n.pcap")
        write_pcap(cap, hdr, nested)
        got = lint(a.lint, cap)
        if depth == MAX_DEPTH and got != want:
            fail.add("%d nested VXLAN tunnels: %s, the plain capture %s" % (depth, got[2], want[2]))
        if depth > MAX_DEPTH and (got[0] not in (0, 1) or got[1] or " 0 RDMA frames" not in got[2]):
            fail.add("%d nested VXLAN tunnels: not given up: %s" % (depth, got[2]))
    # A mirror that cut the frames it mirrored (T bit) reads as a snaplen cut.
    keep = 120
    cut_plain = os.path.join(tmp, "pc.pcap")
    ncut = cut_pcap(plain, cut_plain, keep)
    want = lint(a.lint, cut_plain)
    hdr, recs = read_pcap(gen(a, tmp, "e.pcap", "erspan2"))
    for r in recs:
        start = overhead(r[3])
        if len(r[3]) - start > keep:
            r[3] = r[3][:start + keep]
            r[3][tunnel_at(r[3]) + 10] |= 0x04          # T, in the ERSPAN header's second word
            set_ip_len(r[3], len(r[3]) - tunnel_at(r[3]))
            r[2] = len(r[3])
    cap = os.path.join(tmp, "t.pcap")
    write_pcap(cap, hdr, recs)
    got = lint(a.lint, cap)
    if not ncut or got[1:] != want[1:]:
        fail.add("ERSPAN T bit, frames cut to %d bytes: %s / %d findings; the plain capture cut by a snaplen: %s / %d findings%s"
                 % (keep, got[2], len(got[1]), want[2], len(want[1]),
                    "".join("\n    wrapped: " + d["message"] for d in got[1] if d not in want[1]) +
                    "".join("\n    plain:   " + d["message"] for d in want[1] if d not in got[1])))
    return 3


def reshaped(recs, fn):
    """Each record rewritten by fn(frame, tunnel offset) -> (frame, bytes removed), lengths kept right."""
    out = []
    for sec, usec, wirelen, b in recs:
        b, removed = fn(bytearray(b), tunnel_at(b))
        set_ip_len(b, wirelen - removed - tunnel_at(b))
        out.append([sec, usec, wirelen - removed, b])
    return out


def check_variants(a, tmp, fail):
    """What the generator does not write, written here from the specifications:
    ERSPAN type I (GRE 0x88BE without the S bit, no ERSPAN header), IPv4 in
    GRE (protocol 0x0800, no Ethernet header), ERSPAN type III with frame
    type 2 (IP); each must give the plain capture's findings."""
    want = lint(a.lint, gen(a, tmp, "p.pcap", None))

    def erspan1(b, t):
        struct.pack_into(">HH", b, t, 0, 0x88BE)
        return b, 0

    def ip_in_gre(b, t):
        struct.pack_into(">HH", b, t, 0, 0x0800)
        return b[:t + 4] + b[t + 4 + 14:], 14

    def erspan3_ip(b, t):
        word = struct.unpack_from(">H", b, t + 8 + 10)[0]
        struct.pack_into(">H", b, t + 8 + 10, (word & ~0x7C00) | 2 << 10)
        return b[:t + 20] + b[t + 20 + 14:], 14
    cases = (("ERSPAN type I", "gre", erspan1), ("IPv4 in GRE", "gre", ip_in_gre),
             ("ERSPAN type III, frame type IP", "erspan3", erspan3_ip))
    for name, spec, fn in cases:
        hdr, recs = read_pcap(gen(a, tmp, "v.pcap", spec))
        cap = os.path.join(tmp, "v2.pcap")
        write_pcap(cap, hdr, reshaped(recs, fn))
        got = lint(a.lint, cap)
        if got != want:
            fail.add("%s: %s / %d findings; the plain capture: %s / %d findings"
                     % (name, got[2], len(got[1]), want[2], len(want[1])))
    return len(cases)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("scenario")
    a = ap.parse_args()
    fail = Failures("broken and nested tunnels")
    with tempfile.TemporaryDirectory() as tmp:
        n = check_damage(a, tmp, fail)
        n += check_bounds(a, tmp, fail)
        n += check_variants(a, tmp, fail)
    fail.finish(n)


if __name__ == "__main__":
    sys.exit(main())
