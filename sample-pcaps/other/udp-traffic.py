#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The UDP traffic of udp-mixed.pcap (see PROVENANCE.md), sent over the loopback.

Three kinds, none of it RDMA:
  * DNS: 60 A queries to a tiny resolver on port 53 (IPv4 and IPv6), each answered;
  * a bulk stream: 300 datagrams of 1000 bytes to port 9000, read by a sink;
  * port 4791 (RoCEv2's): 48 datagrams of seeded random bytes, 4 to 1400 bytes
    long, to a sink.  A draw whose second byte has a zero low nibble (the
    TVer field a Base Transport Header would have there) is drawn again, so
    no datagram is a BTH: the port alone must claim nothing.
"""
import random
import socket
import struct
import threading
import time

RNG = random.Random(4791)


def dns_query(qid, name):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", 1, 1)


def dns_answer(query):
    qid = struct.unpack(">H", query[:2])[0]
    head = struct.pack(">HHHHHH", qid, 0x8180, 1, 1, 0, 0)
    rr = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 300, 4) + bytes([192, 0, 2, qid & 0xFF])
    return head + query[12:] + rr


def resolver(sock, n):
    for _ in range(n):
        data, peer = sock.recvfrom(2048)
        sock.sendto(dns_answer(data), peer)


def sink(sock, n):
    sock.settimeout(5)
    try:
        for _ in range(n):
            sock.recvfrom(65536)
    except socket.timeout:
        pass


def not_a_bth(n):
    while True:
        b = bytes(RNG.getrandbits(8) for _ in range(n))
        if n < 2 or b[1] & 0x0F:
            return b


def main():
    r4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r4.bind(("127.0.0.1", 53))
    r6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    r6.bind(("::1", 53))
    bulk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    bulk.bind(("127.0.0.1", 9000))
    roce = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    roce.bind(("127.0.0.1", 4791))
    roce6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    roce6.bind(("::1", 4791))
    threads = [threading.Thread(target=resolver, args=(r4, 40)),
               threading.Thread(target=resolver, args=(r6, 20)),
               threading.Thread(target=sink, args=(bulk, 300)),
               threading.Thread(target=sink, args=(roce, 40)),
               threading.Thread(target=sink, args=(roce6, 8))]
    for t in threads:
        t.start()
    c4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    c6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    for i in range(60):
        c, dst = (c4, ("127.0.0.1", 53)) if i < 40 else (c6, ("::1", 53))
        c.sendto(dns_query(0x1000 + i, "host%d.example.org" % i), dst)
        c.recvfrom(2048)
    payload = bytes(RNG.getrandbits(8) for _ in range(1000))
    for i in range(300):
        c4.sendto(payload, ("127.0.0.1", 9000))
        if i % 50 == 49:
            time.sleep(0.01)
    for i in range(48):
        n = RNG.choice((4, 11, 15, 16, 40, 60, 200, 1400)) if i % 3 else RNG.randint(4, 1400)
        if i < 40:
            c4.sendto(not_a_bth(n), ("127.0.0.1", 4791))
        else:
            c6.sendto(not_a_bth(n), ("::1", 4791))
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
