#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mixjoin - join classic pcap files end to end, PASSES times, into one
capture whose timestamps keep increasing, with every pass on addresses of
its own (bench/mix.sh's real-traffic mix).

    mixjoin.py -n PASSES -o OUT FILE...

Like bench/pcapcat.c, each file's records are shifted forward in time so
that its first record comes 1 ms after the last one written.  Unlike a
plain repeat, pass k (from 0) has the second byte of every IPv4 address
(the third of an IPv6 one) XORed with k, and the IPv4 header checksum, the
TCP checksum and the RoCEv2 ICRC made right again: a repeated connection is
then a new connection, not the old one going back in PSN, XID and TCP
sequence, so the mix's connections do not collide.  What the payload names stays as
it is: NFSv4.1 session IDs repeat from pass to pass (on the bundled real
captures 3 of 9 retried calls are then told as RR-231 instead of RR-234;
every other rule counts PASSES times its findings on the files alone).
"""
import argparse
import struct
import sys
import zlib


def csum_fix(old, delta_old, delta_new):
    """RFC 1624 incremental update of a 16-bit ones' complement checksum."""
    s = (~old & 0xFFFF)
    for i in range(0, len(delta_old), 2):
        s += (~((delta_old[i] << 8) | delta_old[i + 1])) & 0xFFFF
        s += (delta_new[i] << 8) | delta_new[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def icrc(frame, l3, iplen, v4):
    """The RoCEv2 ICRC of a frame (IBA Annex A17: 8 bytes of ones for the
    LRH, the IP and UDP headers and the BTH with their variant fields masked)."""
    ip = bytearray(frame[l3:l3 + iplen])
    if v4:
        ip[1] = 0xFF
        ip[8] = 0xFF
        ip[10] = ip[11] = 0xFF
    else:
        ip[0] |= 0x0F
        ip[1] = 0xFF
        ip[2] = ip[3] = 0xFF
        ip[7] = 0xFF
    udp = bytearray(frame[l3 + iplen:l3 + iplen + 8])
    udp[6] = udp[7] = 0xFF
    bth = bytearray(frame[l3 + iplen + 8:l3 + iplen + 20])
    bth[4] = 0xFF
    c = zlib.crc32(b"\xff" * 8)
    c = zlib.crc32(ip, c)
    c = zlib.crc32(udp, c)
    c = zlib.crc32(bth, c)
    return zlib.crc32(frame[l3 + iplen + 20:len(frame) - 4], c)


def rewrite(frame, k):
    """Frame with its addresses moved to pass k; unchanged when not IP."""
    if k == 0 or len(frame) < 14:
        return frame
    f = bytearray(frame)
    l3, et = 14, struct.unpack_from(">H", f, 12)[0]
    while et in (0x8100, 0x88A8) and len(f) >= l3 + 4:
        et = struct.unpack_from(">H", f, l3 + 2)[0]
        l3 += 4
    if et == 0x0800 and len(f) >= l3 + 20:
        iplen, proto, v4 = (f[l3] & 0x0F) * 4, f[l3 + 9], True
        at = (l3 + 13, l3 + 17)
        old = bytes(f[l3 + 12:l3 + 20])
        for a in at:
            f[a] ^= k
        new = bytes(f[l3 + 12:l3 + 20])
        c = struct.unpack_from(">H", f, l3 + 10)[0]
        struct.pack_into(">H", f, l3 + 10, csum_fix(c, old, new))
    elif et == 0x86DD and len(f) >= l3 + 40:
        iplen, proto, v4 = 40, f[l3 + 6], False
        old = bytes(f[l3 + 8:l3 + 40])
        for a in (l3 + 10, l3 + 26):
            f[a] ^= k
        new = bytes(f[l3 + 8:l3 + 40])
    else:
        return frame
    l4 = l3 + iplen
    if proto == 6 and len(f) >= l4 + 18:
        c = struct.unpack_from(">H", f, l4 + 16)[0]
        struct.pack_into(">H", f, l4 + 16, csum_fix(c, old, new))
    elif proto == 17 and len(f) >= l4 + 8 and struct.unpack_from(">H", f, l4 + 2)[0] == 4791:
        ulen = struct.unpack_from(">H", f, l4 + 4)[0]
        if ulen >= 8 + 16 and l4 + ulen == len(f):    # a whole frame with a right ICRC: redo it
            if struct.unpack_from("<I", frame, len(f) - 4)[0] == icrc(frame, l3, iplen, v4):
                struct.pack_into("<I", f, len(f) - 4, icrc(f, l3, iplen, v4))
        if struct.unpack_from(">H", f, l4 + 6)[0]:
            struct.pack_into(">H", f, l4 + 6, csum_fix(struct.unpack_from(">H", f, l4 + 6)[0], old, new))
    return bytes(f)


def records(path):
    data = open(path, "rb").read()
    e = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\x4d\x3c\xb2\xa1": ("<", 1000000),
         b"\xa1\xb2\xc3\xd4": (">", 1000), b"\xa1\xb2\x3c\x4d": (">", 1000000)}.get(data[:4])
    if not e:
        sys.exit("mixjoin: %s: not a classic pcap file" % path)
    pos = 24
    while pos + 16 <= len(data):
        sec, frac, caplen, wire = struct.unpack_from(e[0] + "IIII", data, pos)
        if pos + 16 + caplen > len(data):
            sys.exit("mixjoin: %s: record at byte %d is cut" % (path, pos))
        yield sec * 1000000000 + frac * (1000000000 // (e[1] * 1000)), wire, data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1)
    ap.add_argument("-o", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if not 1 <= a.n <= 255:
        sys.exit("mixjoin: -n must be 1..255")
    hdr = open(a.files[0], "rb").read(24)
    if hdr[:4] != b"\xd4\xc3\xb2\xa1":
        sys.exit("mixjoin: %s: only little-endian microsecond pcap is written" % a.files[0])
    last = None
    with open(a.o, "wb") as out:
        out.write(hdr)
        for k in range(a.n):
            for path in a.files:
                shift = None
                for ns, wire, frame in records(path):
                    if shift is None:
                        shift = 0 if last is None or ns > last + 1000000 else last + 1000000 - ns
                    ns += shift
                    last = ns
                    frame = rewrite(frame, k)
                    us = ns // 1000
                    out.write(struct.pack("<IIII", us // 1000000, us % 1000000, len(frame), wire))
                    out.write(frame)


if __name__ == "__main__":
    main()
