# SPDX-License-Identifier: GPL-2.0-or-later
"""A capture that lost packets, made from a whole one: the records of a
classic pcap file, some of them left out (as ibdump or a busy sniffer loses
them, without saying so).

    records(path)            -> (header bytes, endianness, [record bytes])
    write(path, hdr, recs)   writes a pcap of those records
    drop_random(n, rate, seed)      indices kept, each lost with chance rate
    drop_bursts(n, length, starts)  indices kept, length frames lost at each start
    roce_packet(rec)         (source address, dst QP, PSN, opcode) of a RoCEv2 record, or None
    tcp_segment(rec)         ((src, sport, dst, dport), payload length) of a TCP record, or None
"""
import ipaddress
import random
import struct

_MAGIC = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
          b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}
ROCEV2_PORT = 4791


def records(path):
    """The file header, the byte order, and every record (its 16-byte header
    and data) of a classic pcap; None when the file is not one."""
    with open(path, "rb") as f:
        data = f.read()
    e = _MAGIC.get(data[:4])
    if not e:
        return None
    out, pos = [], 24
    while pos + 16 <= len(data):
        caplen = struct.unpack_from(e + "I", data, pos + 8)[0]
        out.append(data[pos:pos + 16 + caplen])
        pos += 16 + caplen
    return data[:24], e, out


def write(path, hdr, recs):
    with open(path, "wb") as f:
        f.write(hdr)
        f.write(b"".join(recs))


def drop_random(n, rate, seed):
    """The indices of n records that survive when each is lost with chance rate."""
    rng = random.Random(seed)
    return [i for i in range(n) if rng.random() >= rate]


def drop_bursts(n, length, starts):
    """The indices that survive when length consecutive records are lost at each start."""
    gone = set()
    for s in starts:
        gone.update(range(s, min(n, s + length)))
    return [i for i in range(n) if i not in gone]


def _ip(data):
    """(protocol, source, destination, offset of the transport header) of an
    Ethernet (VLAN-tagged or not) IPv4 / IPv6 frame, or None."""
    if len(data) < 14:
        return None
    off, etype = 12, struct.unpack_from(">H", data, 12)[0]
    while etype in (0x8100, 0x88a8) and len(data) >= off + 6:
        off += 4
        etype = struct.unpack_from(">H", data, off)[0]
    off += 2
    if etype == 0x0800 and len(data) >= off + 20:
        return (data[off + 9], ".".join(str(b) for b in data[off + 12:off + 16]),
                ".".join(str(b) for b in data[off + 16:off + 20]), off + (data[off] & 15) * 4,
                off + struct.unpack_from(">H", data, off + 2)[0])
    if etype == 0x86dd and len(data) >= off + 40:
        return (data[off + 6], ipaddress.IPv6Address(bytes(data[off + 8:off + 24])).compressed,
                ipaddress.IPv6Address(bytes(data[off + 24:off + 40])).compressed, off + 40,
                off + 40 + struct.unpack_from(">H", data, off + 4)[0])
    return None


def tcp_segment(rec):
    """((source, source port, destination, destination port), payload bytes
    on the wire) of an Ethernet TCP record, or None."""
    ip = _ip(rec[16:])
    data = rec[16:]
    if not ip or ip[0] != 6 or len(data) < ip[3] + 20:
        return None
    _, src, dst, off, end = ip
    sport, dport = struct.unpack_from(">HH", data, off)
    return (src, sport, dst, dport), end - off - (data[off + 12] >> 4) * 4


def roce_packet(rec, linktype=1):
    """(source address, destination QP, PSN, BTH opcode) of an Ethernet /
    IPv4 or IPv6 / UDP 4791 record, or None: which flow a frame travelled
    on and where in its sequence."""
    data = rec[16:]
    ip = _ip(data) if linktype == 1 else None
    if not ip or ip[0] != 17:
        return None
    off = ip[3]
    if len(data) < off + 8 + 12 or struct.unpack_from(">H", data, off + 2)[0] != ROCEV2_PORT:
        return None
    bth = data[off + 8:off + 20]
    dqp = struct.unpack_from(">I", bth, 4)[0] & 0xFFFFFF
    psn = struct.unpack_from(">I", bth, 8)[0] & 0xFFFFFF
    return ip[1], dqp, psn, bth[0]
