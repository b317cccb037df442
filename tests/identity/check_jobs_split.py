#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --jobs N on captures whose host groups share engine or decoder state.

docs/ulb-lint.1 (JOBS) says a split finds what one process finds, compared
sorted, save two named cases (memory bounds on captures past them; an
NFSv4.1 session reached through two groups).  The oracle is ulb-lint without
--jobs.  Each capture here is small, none is in a named case, and each is
built so that one piece of state is shared across host groups:

  - cm2, cm3: two and three generated RoCEv2 conversations (rpcrdma-pcapgen scenarios,
    moved to addresses of their own as bench/mixjoin.py moves a pass),
    interleaved by time, so their IB CM handshakes (which carry the same
    communication IDs, as two hosts' CM agents may) overlap;
  - dreq: three such conversations 1 ms apart, so no handshakes overlap,
    but one's DREQ comes after the next one's handshake; two frames of the
    last are swapped (a reordering its PSNs show);
  - hash: one generated iWARP conversation (tests/rules/outcomes/nothing-else.scn,
    a Long Call the server rejects) twice, 5 s apart, from clients
    4.46.150.100 and 207.97.233.139 to servers of their own: two hosts whose
    32-bit requester hashes (engine/conn.c addr_hash) are equal, so one
    process takes the second client's call for a retry of the first's;
  - gid: that conversation over RoCEv1 (client GID fe80::5054:ff:fe5a:1001)
    and, 5 s later, over RoCEv2 on IPv6 from the same client address to
    another server: one host, whose retried XID the engine finds across
    both (it keys a host by its address whatever carried it), while
    rr_frame_hosts tags a GRH GID and an IPv6 address apart;
  - end: frames 10 to 15 of a generated iWARP conversation (no handshake:
    the decoder holds their bytes until the capture ends), then 100 s later
    frame 6 of a generated RoCEv2 one (a reply) between other hosts, the
    capture's last frame: one process makes the RoCEv2 connection at that
    frame and the iWARP ones after it, when the capture ends;
  - part: the same, and then frame 10 of that RoCEv2 conversation 10 s
    before the first (time goes back: joined captures), where one process
    makes the iWARP connections, after the RoCEv2 one;
  - tcp: the bundled iWARP capture nfs3-siw.pcap with 4200 one-byte TCP
    segments of as many connections between two other hosts inserted after
    its frame 2000: more TCP directions at once than the decoder's table
    holds (4096), which one process fills with every host's streams.

Every capture is compared for --jobs 2 and 3: sorted JSON findings and the
statistics line's counts.  Exit 1 with a line for each difference.

    check_jobs_split.py --lint ULB-LINT --pcapgen GEN --root REPO
"""
import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check_jobs import compare, run  # noqa: E402  (one definition of "the same findings")

# Scenarios, each conversation's time shift (us), and two frames (from 1) to swap after the merge.
CM_SETS = {"cm3": (["tests/rules/RR-102.scn", "tests/rules/RR-103.clean.scn", "tests/rules/RR-103.scn"], 0, None),
           "cm2": (["tests/legal/backchannel.scn", "tests/legal/shapes.scn"], 0, None),
           "dreq": (["tests/legal/backchannel.scn", "tests/legal/reply-chunk-retry.scn", "tests/legal/shapes.scn"],
                    1000, (113, 114))}
PCAP_HDR = struct.Struct("<IHHiIII")
REC = struct.Struct("<IIII")


def read_pcap(path):
    """(header bytes, [(usec, wirelen, frame)]) of a little-endian microsecond pcap."""
    data = open(path, "rb").read()
    if data[:4] != b"\xd4\xc3\xb2\xa1":
        raise SystemExit("%s: not a little-endian microsecond pcap" % path)
    recs, pos = [], 24
    while pos + 16 <= len(data):
        sec, usec, caplen, wire = REC.unpack_from(data, pos)
        recs.append((sec * 1000000 + usec, wire, data[pos + 16:pos + 16 + caplen]))
        pos += 16 + caplen
    return data[:24], recs


def write_pcap(path, hdr, recs):
    with open(path, "wb") as out:
        out.write(hdr)
        for usec, wire, frame in recs:
            out.write(REC.pack(usec // 1000000, usec % 1000000, len(frame), wire))
            out.write(frame)


def cm_capture(a, tmp, name):
    """The generated conversations on addresses of their own, merged by time (ties in file order)."""
    sys.path.insert(0, os.path.join(a.root, "bench"))
    from mixjoin import rewrite
    merged, hdr = [], None
    scns, shift, swap = CM_SETS[name]
    for k, scn in enumerate(scns):
        cap = os.path.join(tmp, "%s-%d.pcap" % (name, k))
        subprocess.run([a.pcapgen, "--link", "rocev2", os.path.join(a.root, scn), "-o", cap, "--truth",
                        cap + ".json"], check=True, stdout=subprocess.DEVNULL)
        hdr, recs = read_pcap(cap)
        merged += [(usec + k * shift, k, i, wire, rewrite(frame, k)) for i, (usec, wire, frame) in enumerate(recs)]
    merged.sort(key=lambda r: r[:3])
    if swap:
        merged[swap[0] - 1], merged[swap[1] - 1] = merged[swap[1] - 1], merged[swap[0] - 1]
    out = os.path.join(tmp, name + ".pcap")
    write_pcap(out, hdr, [(usec, wire, frame) for usec, _, _, wire, frame in merged])
    return out


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def tcp_frame(i):
    """One byte of data on TCP connection i between 192.0.2.1 and 192.0.2.2 (no address of the capture's)."""
    src, dst = bytes([192, 0, 2, 1]), bytes([192, 0, 2, 2])
    tcp = struct.pack("!HHIIBBHHH", 10000 + i, 20049, 1000, 0, 5 << 4, 0x18, 65535, 0, 0) + b"x"
    tcp = tcp[:16] + struct.pack("!H", csum(src + dst + struct.pack("!BBH", 0, 6, len(tcp)) + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), i & 0xFFFF, 0, 64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return b"\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00" + ip + tcp


def remap(recs, shift, table):
    """Ethernet IPv4 frames with their addresses mapped by table, IPv4 and TCP checksums redone, time shifted."""
    out = []
    for usec, wire, frame in recs:
        f = bytearray(frame)
        if len(f) >= 34 and f[12:14] == b"\x08\x00":
            ihl, total = (f[14] & 15) * 4, struct.unpack_from("!H", f, 16)[0]
            for at in (26, 30):
                f[at:at + 4] = table.get(bytes(f[at:at + 4]), bytes(f[at:at + 4]))
            f[24:26] = b"\0\0"
            f[24:26] = struct.pack("!H", csum(bytes(f[14:14 + ihl])))
            if f[23] == 6 and len(f) >= 14 + total:
                seg = bytearray(f[14 + ihl:14 + total])
                seg[16:18] = b"\0\0"
                c = csum(bytes(f[26:34]) + struct.pack("!BBH", 0, 6, len(seg)) + bytes(seg))
                f[14 + ihl + 16:14 + ihl + 18] = struct.pack("!H", c)
        out.append((usec + shift, wire, bytes(f)))
    return out


def hash_capture(a, tmp):
    cap = os.path.join(tmp, "hash-1.pcap")
    subprocess.run([a.pcapgen, "--link", "iwarp", os.path.join(a.root, "tests/rules/outcomes/nothing-else.scn"),
                    "-o", cap, "--truth", cap + ".json"], check=True, stdout=subprocess.DEVNULL)
    hdr, recs = read_pcap(cap)
    ip = lambda s: bytes(int(x) for x in s.split("."))
    client, server = ip("10.1.0.1"), ip("10.1.0.2")
    both = remap(recs, 0, {client: ip("4.46.150.100"), server: ip("192.0.2.10")}) + \
        remap(recs, 5000000, {client: ip("207.97.233.139"), server: ip("192.0.2.20")})
    out = os.path.join(tmp, "hash.pcap")
    write_pcap(out, hdr, both)
    return out


def gid_capture(a, tmp):
    sys.path.insert(0, os.path.join(a.root, "bench"))
    from mixjoin import icrc
    scn = os.path.join(a.root, "tests/rules/outcomes/nothing-else.scn")
    v6 = lambda s: socket.inet_pton(socket.AF_INET6, s)
    table = {v6("fd00:1::1"): v6("fe80::5054:ff:fe5a:1001"), v6("fd00:1::2"): v6("fe80::5054:ff:fe5a:2002")}
    caps = []
    for link in ("rocev1", "rocev2-ipv6"):
        cap = os.path.join(tmp, "gid-%s.pcap" % link)
        subprocess.run([a.pcapgen, "--link", link, scn, "-o", cap, "--truth", cap + ".json"], check=True,
                       stdout=subprocess.DEVNULL)
        caps.append(read_pcap(cap))
    moved = []
    for usec, wire, frame in caps[1][1]:
        f = bytearray(frame)
        if len(f) >= 58 and f[12:14] == b"\x86\xdd":
            good = struct.unpack_from("<I", frame, len(frame) - 4)[0] == icrc(frame, 14, 40, False)
            for at in (22, 38):
                f[at:at + 16] = table.get(bytes(f[at:at + 16]), bytes(f[at:at + 16]))
            if good:
                struct.pack_into("<I", f, len(f) - 4, icrc(bytes(f), 14, 40, False))
        moved.append((usec + 5000000, wire, bytes(f)))
    out = os.path.join(tmp, "gid.pcap")
    write_pcap(out, caps[0][0], caps[0][1] + moved)
    return out


def end_capture(a, tmp, part=False):
    sys.path.insert(0, os.path.join(a.root, "bench"))
    from mixjoin import rewrite
    scn = os.path.join(a.root, "tests/scenarios/01-inline-basic.scn")
    recs = {}
    for link in ("iwarp", "rocev2"):
        cap = os.path.join(tmp, "end-%s.pcap" % link)
        subprocess.run([a.pcapgen, "--link", link, scn, "-o", cap, "--truth", cap + ".json"], check=True,
                       stdout=subprocess.DEVNULL)
        hdr, recs[link] = read_pcap(cap)
    usec, wire, frame = recs["rocev2"][5]
    frames = recs["iwarp"][9:15] + [(usec + 100000000, wire, rewrite(frame, 2))]
    if part:
        usec, wire, frame = recs["rocev2"][9]
        frames.append((usec - 10000000, wire, rewrite(frame, 2)))
    out = os.path.join(tmp, "part.pcap" if part else "end.pcap")
    write_pcap(out, hdr, frames)
    return out


def tcp_capture(a, tmp, n=4200, after=2000):
    hdr, recs = read_pcap(os.path.join(a.root, "sample-pcaps", "real", "nfs3-siw.pcap"))
    t = recs[after - 1][0]
    extra = [(t + 1 + i, len(tcp_frame(i)), tcp_frame(i)) for i in range(n)]
    out = os.path.join(tmp, "tcp.pcap")
    write_pcap(out, hdr, recs[:after] + extra + recs[after:])
    return out


def tcp_against_alone(a, got, jobs, n=4200, after=2000):
    """tcp is a documented difference (docs/ulb-lint.1, JOBS: each worker has the memory bounds of one
    process): one process forgets idle iWARP streams when the other hosts' 4200 connections fill its
    TCP table, a worker does not.  The oracle for the split is nfs3-siw.pcap read alone, its frames
    after `after` moved by the n inserted ones, beside the ENG-LIMIT of the worker that holds them."""
    alone = run(a.lint, [os.path.join(a.root, "sample-pcaps", "real", "nfs3-siw.pcap")])[0]

    def key(line, shift):
        d = json.loads(line)
        move = (lambda f: f + n if shift and f > after else f)
        return (d["rule"], move(d["frame"]), d["xid"], d["conn"])
    want = sorted(key(l, True) for l in alone)
    have = sorted(key(l, False) for l in got[0] if json.loads(l)["rule"] != "ENG-LIMIT")
    bad = []
    if want != have:
        bad.append("tcp, --jobs %s: not the findings of nfs3-siw.pcap alone: %s" %
                   (jobs, sorted(set(want) ^ set(have))[:4]))
    if sum(json.loads(l)["rule"] == "ENG-LIMIT" for l in got[0]) != 1:
        bad.append("tcp, --jobs %s: the worker with the 4200 connections should say ENG-LIMIT once" % jobs)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        caps = [(name, cm_capture(a, tmp, name)) for name in sorted(CM_SETS)] + [
            ("hash", hash_capture(a, tmp)), ("gid", gid_capture(a, tmp)), ("end", end_capture(a, tmp)),
            ("part", end_capture(a, tmp, True)), ("tcp", tcp_capture(a, tmp))]
        for name, cap in caps:
            one = run(a.lint, [cap])
            for jobs in ("2", "3"):
                got = run(a.lint, ["-j", jobs, cap])
                # gid: the RoCEv1 GID and the IPv6 address are one host, so its two servers are one
                # group with it, and the capture is one process's; every other capture is split.
                split = "split over %s threads" % jobs in got[1]
                if split != (name != "gid"):
                    bad.append("%s, --jobs %s: %s: %s" % (name, jobs, "split" if split else "not split",
                                                          got[1].strip()[-200:]))
                if name == "tcp":
                    bad += tcp_against_alone(a, got, jobs)
                else:
                    bad += compare("%s, --jobs %s" % (name, jobs), one, got)
    for b in bad:
        print(b)
    print("%d differences" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
