#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent re-parse of rpcrdma-pcapgen output.

The generator is the decoder's oracle, so its own output needs a check that
does not reuse its code: this script, written separately and in another
language, reads the capture from scratch (pcap/pcapng, every link type),
verifies ICRC/VCRC and MPA CRCs, reassembles IB messages by PSN and iWARP
streams by TCP sequence number, follows RDMA Reads and Writes by R_Key/STag
and address, rebuilds every RPC Payload from the RPC-over-RDMA header and
compares it with the truth file: payload SHA-256, RDMA procedure, XID and
the exact set of frames that carried the message.

usage: verify_capture.py CAPTURE TRUTH.json
       verify_capture.py --matrix GENERATOR SCENARIO_DIR [LINK...]   (all links
                                                 or those given, both handshake settings)
       verify_capture.py --crc-only CAPTURE   (ICRC/VCRC of every IB/RoCE frame
                                               of any capture, e.g. real rxe
                                               traffic: checks the CRC rules)
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

# ---------------------------------------------------------------- checksums


def _table(poly, bits=32):
    t = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        t.append(c)
    return t


_T32C = _table(0x82F63B78)
_T16 = _table(0xD008)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _T32C[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def vcrc(data):
    c = 0xFFFF
    for b in data:
        c = _T16[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFF


def be(b, o, n=4):
    return int.from_bytes(b[o:o + n], "big")


# ---------------------------------------------------------------- capture files


def read_capture(path):
    data = open(path, "rb").read()
    frames = []
    if data[:4] == b"\xd4\xc3\xb2\xa1":
        lt = struct.unpack_from("<I", data, 20)[0]
        o = 24
        while o < len(data):
            _, _, cap, orig = struct.unpack_from("<IIII", data, o)
            frames.append((cap, orig, data[o + 16:o + 16 + cap]))
            o += 16 + cap
        return lt, frames
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        o, lt = 0, None
        while o < len(data):
            btype, blen = struct.unpack_from("<II", data, o)
            if btype == 1:
                lt = struct.unpack_from("<H", data, o + 8)[0]
            elif btype == 6:
                cap, orig = struct.unpack_from("<II", data, o + 20)
                frames.append((cap, orig, data[o + 28:o + 28 + cap]))
            o += blen
        return lt, frames
    raise ValueError("not a pcap or pcapng file")


# ---------------------------------------------------------------- link layers


class Frame:
    def __init__(self, num):
        self.num = num
        self.kind = None  # 'ib' or 'tcp'
        self.errors = []


def split_l2(lt, d):
    """Return (ethertype, offset of the network header) or ('ib', offset)."""
    if lt == 1:
        et, o = be(d, 12, 2), 14
        if et == 0x8100:
            et, o = be(d, 16, 2), 18
        return et, o
    if lt == 113:
        return be(d, 14, 2), 16
    if lt == 276:
        return be(d, 0, 2), 20
    if lt == 247:
        return "lrh", 0
    if lt == 197:
        if d[8] & 0x7F != 21:
            raise ValueError("ERF record type %d" % d[8])
        return "lrh", 16
    raise ValueError("link type %d" % lt)


def icrc_ok(d, start, lrh, grh_at, ip4_at, ip6_at, bth_at, end):
    """IBTA 7.8.1 / Annex A17 invariant CRC, variant fields set to ones."""
    pseudo = bytearray()
    if lrh is not None and grh_at is None:
        h = bytearray(d[lrh:lrh + 8])
        h[0] |= 0xF0
        pseudo += h
    else:
        pseudo += b"\xff" * 8
    if grh_at is not None or ip6_at is not None:
        at = grh_at if grh_at is not None else ip6_at
        h = bytearray(d[at:at + 40])
        h[0] |= 0x0F
        h[1:4] = b"\xff\xff\xff"
        h[7] = 0xFF
        pseudo += h
        if ip6_at is not None:
            u = bytearray(d[at + 40:at + 48])
            u[6:8] = b"\xff\xff"
            pseudo += u
    elif ip4_at is not None:
        h = bytearray(d[ip4_at:ip4_at + 28])
        h[1] = 0xFF
        h[8] = 0xFF
        h[10:12] = b"\xff\xff"
        h[26:28] = b"\xff\xff"
        pseudo += h
    b = bytearray(d[bth_at:bth_at + 12])
    b[4] = 0xFF
    pseudo += b
    pseudo += d[bth_at + 12:end]
    want = zlib.crc32(bytes(pseudo)) & 0xFFFFFFFF
    got = int.from_bytes(d[end:end + 4], "little")
    return want == got


def parse_frame(num, lt, d):
    f = Frame(num)
    kind, o = split_l2(lt, d)
    lrh = grh = ip4 = ip6 = None
    if kind == "lrh":
        lrh = o
        lnh = d[o + 1] & 3
        pktlen = (be(d, o + 4, 2) & 0x7FF) * 4
        end_ib = o + pktlen  # ICRC ends here, VCRC follows
        if vcrc(d[o:end_ib]) != int.from_bytes(d[end_ib:end_ib + 2], "little"):
            f.errors.append("VCRC")
        o += 8
        if lnh == 3:
            grh, o = o, o + 40
        bth = o
        end = end_ib - 4
    elif kind == 0x8915:
        grh, bth = o, o + 40
        end = len(d) - 4
    elif kind in (0x0800, 0x86DD):
        if kind == 0x0800:
            ip4, proto, tot = o, d[o + 9], be(d, o + 2, 2)
            l4, end_ip = o + (d[o] & 15) * 4, o + tot
        else:
            ip6, proto = o, d[o + 6]
            l4, end_ip = o + 40, o + 40 + be(d, o + 4, 2)
        if proto == 6:
            f.kind = "tcp"
            hl = (d[l4 + 12] >> 4) * 4
            f.src = (bytes(d[o + 12:o + 16]) if ip4 is not None else bytes(d[o + 8:o + 24]),
                     be(d, l4, 2))
            f.dst = (bytes(d[o + 16:o + 20]) if ip4 is not None else bytes(d[o + 24:o + 40]),
                     be(d, l4 + 2, 2))
            f.seq, f.flags = be(d, l4 + 4), d[l4 + 13]
            f.payload = bytes(d[l4 + hl:end_ip])
            return f
        if proto != 17 or be(d, l4 + 2, 2) != 4791:
            raise ValueError("frame %d: not RoCEv2" % num)
        bth = l4 + 8
        end = end_ip - 4
    else:
        raise ValueError("frame %d: ethertype %r" % (num, kind))
    if not icrc_ok(d, 0, lrh, grh, ip4, ip6, bth, end):
        f.errors.append("ICRC")
    f.kind = "ib"
    f.opcode, f.se = d[bth], bool(d[bth + 1] & 0x80)
    pad = (d[bth + 1] >> 4) & 3
    f.dqp, f.psn = be(d, bth + 4) & 0xFFFFFF, be(d, bth + 8) & 0xFFFFFF
    f.ext = bth + 12
    f.raw = d
    f.end = end - pad
    return f


# ---------------------------------------------------------------- RDMA state


class Msg:
    """One Send (RPC-over-RDMA message) as seen on the wire."""

    def __init__(self):
        self.data = bytearray()
        self.frames = set()
        self.done = False


class Memory:
    """Bytes placed by RDMA Writes and returned by RDMA Read Responses."""

    def __init__(self):
        self.pieces = []  # (key, va, bytes, frames)

    def add(self, key, va, data, frames):
        self.pieces.append((key, va, bytes(data), set(frames)))

    def get(self, key, va, length):
        buf = bytearray(length)
        have = bytearray(length)
        frames = set()
        for k, a, d, fr in self.pieces:
            if k != key or a + len(d) <= va or a >= va + length:
                continue
            lo, hi = max(a, va), min(a + len(d), va + length)
            buf[lo - va:hi - va] = d[lo - a:hi - a]
            for i in range(lo - va, hi - va):
                have[i] = 1
            frames |= fr
        if length and not all(have):
            raise ValueError("segment key 0x%08x va 0x%x len %d not fully transferred" %
                             (key, va, length))
        return bytes(buf), frames


PSN_MOD = 1 << 24


def ib_messages(frames, pmtu_hint, conns):
    """Reassemble Sends; record Write/Read data in Memory."""
    mem = Memory()
    sends = []  # in order of first packet
    cur = {}    # dqp -> Msg being assembled
    owner = {}  # (dqp, psn) -> Msg, for retransmissions
    wr = {}     # dqp -> [key, va]
    reads = {}  # requester qp -> list of [first_psn, npkts, key, va, offset]
    other = {}
    for c in conns:  # each connection's pair of QPs (a scenario may reconnect)
        cq, sq = int(c["client_qpn"], 16), int(c["server_qpn"], 16)
        other.update({cq: sq, sq: cq})
    for f in frames:
        if f.kind != "ib":
            continue
        op, d, x = f.opcode, f.raw, f.ext
        key = (f.dqp, f.psn)
        if op in (0x00, 0x01, 0x02, 0x04, 0x16, 0x17):
            if key in owner:  # a retransmission: the receiver keeps the first copy
                continue
            if op in (0x00, 0x04, 0x17):
                m = Msg()
                sends.append(m)
                cur[f.dqp] = m
            m = cur[f.dqp]
            if op in (0x16, 0x17):
                x += 4  # IETH
            m.data += d[x:f.end]
            m.frames.add(f.num)
            owner[key] = m
            if op in (0x02, 0x04, 0x16, 0x17):
                m.done = True
        elif op in (0x06, 0x07, 0x08, 0x0A):
            if op in (0x06, 0x0A):
                wr[f.dqp] = [be(d, x + 8), be(d, x, 8)]
                x += 16
            k = wr[f.dqp]
            mem.add(k[0], k[1], d[x:f.end], {f.num})
            k[1] += f.end - x
        elif op == 0x0C:
            n = max(1, -(-be(d, x + 12) // pmtu_hint))
            reads.setdefault(other[f.dqp], []).append([f.psn, n, be(d, x + 8), be(d, x, 8), 0])
        elif op in (0x0D, 0x0E, 0x0F, 0x10):
            if op != 0x0E:
                x += 4  # AETH
            for r in reads.get(f.dqp, []):
                if (f.psn - r[0]) % PSN_MOD < r[1]:
                    mem.add(r[2], r[3] + r[4], d[x:f.end], {f.num})
                    r[4] += f.end - x
                    break
            else:
                raise ValueError("frame %d: read response without request" % f.num)
    return sends, mem


def iwarp_messages(frames, truth_link):
    """TCP reassembly per direction, MPA (markers, CRC), DDP/RDMAP."""
    dirs = {}
    for f in frames:
        if f.kind != "tcp":
            continue
        # one direction of one TCP connection: a reconnect reuses the server's endpoint
        st = dirs.setdefault((f.src, f.dst), {"segs": [], "isn": None})
        if f.flags & 0x02:
            st["isn"] = f.seq
        if f.payload:
            st["segs"].append((f.seq, f.payload, f.num))
    mem = Memory()
    sends, errors = [], []
    sinks = {}
    pending = []
    for src, st in dirs.items():
        if not st["segs"]:
            continue
        base = (st["isn"] + 1) if st["isn"] is not None else st["segs"][0][0]
        if st["isn"] is None:  # no SYN: the earliest sequence number seen
            base = min(st["segs"], key=lambda s: ((s[0] - base + (1 << 31)) % (1 << 32)))[0]
        rel = []
        seen = []  # byte ranges already carried: a retransmitted copy adds no frame
        for s, p, n in st["segs"]:
            r = (s - base) % (1 << 32)
            if any(a <= r and r + len(p) <= b for a, b in seen):
                continue
            seen.append((r, r + len(p)))
            rel.append((r, p, n))
        size = max(r + len(p) for r, p, n in rel)
        stream = bytearray(size)
        for r, p, n in rel:
            stream[r:r + len(p)] = p
        pos, markers, crc = 0, "markers" in truth_link, "crc" in truth_link or "markers" in truth_link
        if stream[:16] in (b"MPA ID Req Frame", b"MPA ID Rep Frame"):
            markers, crc = bool(stream[16] & 0x80), bool(stream[16] & 0x40)
            pos = 20 + be(stream, 18, 2)
        fpdu0 = pos
        msgs = {}
        while pos < len(stream):
            start = pos
            words = []

            def word():
                nonlocal pos
                if markers and (pos - fpdu0) % 512 == 0:
                    pos += 4
                w = stream[pos:pos + 4]
                pos += 4
                return w

            first = word()
            ulen = be(first, 0, 2)
            body = bytearray(first)
            while len(body) < ((2 + ulen + 3) & ~3):
                body += word()
            crc_field_at = None
            if markers and (pos - fpdu0) % 512 == 0:
                pos += 4
            crc_field_at = pos
            pos += 4
            if crc:
                want = crc32c(bytes(stream[start:crc_field_at]))
                if want != int.from_bytes(stream[crc_field_at:crc_field_at + 4], "little"):
                    errors.append(("MPA CRC", start, pos, rel))
            fr = {n for r, p, n in rel if r < pos and r + len(p) > start}
            u = bytes(body[2:2 + ulen])
            tagged, last, opc = bool(u[0] & 0x80), bool(u[0] & 0x40), u[1] & 0x0F
            if tagged:
                stag, to, data = be(u, 2), be(u, 6, 8), u[14:]
                if opc == 0:
                    mem.add(stag, to, data, fr)
                else:
                    pending.append((stag, to, data, fr))
            else:
                qn, msn, mo, data = be(u, 6), be(u, 10), be(u, 14), u[18:]
                if qn == 1:
                    sinks[be(data, 0)] = (be(data, 4, 8), be(data, 16), be(data, 20, 8))
                elif qn == 0:
                    m = msgs.get(msn)
                    if m is None:
                        m = msgs[msn] = Msg()
                        m.first = start
                        sends.append(m)
                    m.data[mo:mo + len(data)] = data
                    m.frames |= fr
                    m.done = m.done or last
    for stag, to, data, fr in pending:  # Read Responses go to the sink STag
        sink_to, src_stag, src_to = sinks[stag]
        mem.add(src_stag, src_to + (to - sink_to), data, fr)
    # Sends from both directions interleave in time: order by first frame
    sends.sort(key=lambda m: min(m.frames))
    return sends, mem, errors


# ---------------------------------------------------------------- RPC-over-RDMA


def parse_hdr(b):
    h = {"xid": be(b, 0), "vers": be(b, 4), "proc": be(b, 12), "reads": [], "writes": [],
         "reply": None}
    p = 16
    if h["proc"] in (3, 4):
        h["payload"] = b""
        return h
    if h["proc"] == 2:
        p += 8
    while be(b, p) == 1:
        h["reads"].append(struct.unpack_from(">IIIQ", b, p + 4))
        p += 24
    p += 4
    while be(b, p) == 1:
        n = be(b, p + 4)
        h["writes"].append([struct.unpack_from(">IIQ", b, p + 8 + 16 * i) for i in range(n)])
        p += 8 + 16 * n
    p += 4
    if be(b, p) == 1:  # present: 1, count, segments (no list terminator)
        n = be(b, p + 4)
        h["reply"] = [struct.unpack_from(">IIQ", b, p + 8 + 16 * i) for i in range(n)]
        p += 8 + 16 * n
    else:
        p += 4
    h["payload"] = bytes(b[p:]) if h["proc"] in (0, 2) else b""
    return h


def rebuild(h, tm, mem):
    """The full Payload of one message, and the frames of its RDMA data."""
    frames = set()

    def seg(handle, length, off):
        data, fr = mem.get(handle, off, length)
        frames.update(fr)
        return data

    if tm["dir"] == "call":
        reads = h["reads"]
        if h["proc"] == 1:
            inline = b"".join(seg(hd, ln, of) for pos, hd, ln, of in reads if pos == 0)
        else:
            inline = h["payload"]
        chunks = []
        for pos, hd, ln, of in reads:
            if pos == 0:
                continue
            if chunks and chunks[-1][0] == pos:
                chunks[-1][1].append((hd, ln, of))
            else:
                chunks.append((pos, [(hd, ln, of)]))
        full, ip = bytearray(), 0
        for pos, segs in sorted(chunks, key=lambda c: c[0]):
            need = pos - len(full)
            full += inline[ip:ip + need]
            ip += need
            data = b"".join(seg(*s) for s in segs)
            full += data + b"\0" * (-len(data) % 4)
        full += inline[ip:]
        return bytes(full), frames
    if h["proc"] == 1:
        full = bytearray(b"".join(seg(hd, ln, of) for hd, ln, of in h["reply"]))
    else:
        full = bytearray(h["payload"])
    ins = []
    for k, chunk in enumerate(h["writes"]):
        data = b"".join(seg(hd, ln, of) for hd, ln, of in chunk if ln)
        off = tm["chunks"]["writes"][k]["data_offset"]
        if data:
            ins.append((off, data + b"\0" * (-len(data) % 4)))
    for off, data in sorted(ins):
        full[off:off] = data
    return bytes(full), frames


# Injectors after which the wire does not rebuild into the Payload as built
# (that is the violation): only the Send count, type, XID and CRCs are checked.
PAYLOAD_LIARS = {"unaligned-position", "segcount-changed", "pad-written", "truncate-snaplen",
                 "bad-proc", "record-mark", "split-run", "msg-pzrc", "msg-writes-reply-chunk",
                 "short-read-chunk", "long-read-chunk", "handle-changed", "phantom-length",
                 "unused-nonzero", "write-length-lie", "data-missing", "position-beyond",
                 "reply-chunk-changed", "partial-read", "no-rpc", "overlap-chunk",
                 "position-in-header", "position-in-item", "reply-chunk-cut",
                 "hidden-short-fill", "pad-inline", "write-late", "unaligned-payload"}

# Injectors whose message crossed the wire only in part (payload_on_wire is
# false, yet the bytes that did move are the message's frames).
PARTLY_ON_WIRE = {"partial-read"}


# Injectors that move a message's bytes again after its reply: those late
# copies carry nothing the receiver uses, so they are not the message's frames.
LATE_OPS = {"read-after-reply", "write-after-reply"}


def verify(cap_path, truth_path):
    truth = json.load(open(truth_path))
    lt, raw = read_capture(cap_path)
    problems = []
    frames, truncated = [], set()
    for i, (cap, orig, d) in enumerate(raw, 1):
        if cap < orig:
            truncated.add(i)
            continue
        frames.append(parse_frame(i, lt, d))
    if truth["link"].startswith("iwarp"):
        sends, mem, crc_err = iwarp_messages(frames, truth["link"])
        crc_frames = set()
        for what, s, e, rel in crc_err:
            crc_frames |= {n for r, p, n in rel if r < e and r + len(p) > s}
    else:
        sends, mem = ib_messages(frames, truth["mtu"], truth["connections"])
        crc_frames = {f.num for f in frames if f.errors}
    want = [tm for tm in truth["messages"] if "truncate-snaplen" not in tm["injected"]]
    cut_ok = set()
    for tm in truth["messages"]:
        if "truncate-snaplen" in tm["injected"]:
            cut_ok |= set(tm["frames"])
    if not truncated <= cut_ok:
        problems.append("truncated frames %s outside truncate-snaplen messages" %
                        sorted(truncated - cut_ok))
    sends = [m for m in sends if m.done]
    if len(sends) != len(want):
        problems.append("%d Sends on the wire, %d messages in the truth" % (len(sends), len(want)))
    crc_expected = set()
    for i, (m, tm) in enumerate(zip(sends, want)):
        tag = "message %d (%s xid %s)" % (i, tm["dir"], tm["xid"])
        h = parse_hdr(bytes(m.data))
        names = ["RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE", "RDMA_ERROR"]
        if (names[h["proc"]] if h["proc"] < 5 else "RDMA_UNKNOWN") != tm["rdma_proc"]:
            problems.append("%s: proc %d" % (tag, h["proc"]))
        if "0x%08x" % h["xid"] != tm["rdma_xid"]:
            problems.append("%s: header xid 0x%08x" % (tag, h["xid"]))
        inj = set(tm["injected"])
        if inj & {"bad-icrc", "bad-mpa-crc"}:
            crc_expected |= set(tm["frames"])
            if not crc_frames & set(tm["frames"]):
                problems.append("%s: injected CRC damage not found" % tag)
        if inj & PAYLOAD_LIARS or not tm["payload_on_wire"]:
            if (not tm["payload_on_wire"] and not inj & PARTLY_ON_WIRE and
                    sorted(m.frames) != tm["frames"]):
                problems.append("%s: frames %s, truth %s" % (tag, sorted(m.frames), tm["frames"]))
            continue
        try:
            full, fr = rebuild(h, tm, mem) if tm["rpc_program"] is not None else (b"", set())
        except (ValueError, KeyError, IndexError, struct.error) as e:
            problems.append("%s: cannot rebuild: %s" % (tag, e))
            continue
        if hashlib.sha256(full).hexdigest() != tm["payload_sha256"] or len(full) != tm["payload_len"]:
            problems.append("%s: payload mismatch (%d bytes rebuilt, %d in truth)" %
                            (tag, len(full), tm["payload_len"]))
        if full and full[:4] != bytes.fromhex(tm["xid"][2:]):
            problems.append("%s: Payload does not start with the XID" % tag)
        got = sorted(m.frames | fr)
        if inj & LATE_OPS:
            got = [f for f in got if f <= tm["last_frame"]]
        if got != tm["frames"]:
            problems.append("%s: frames %s, truth %s" % (tag, got, tm["frames"]))
    if not crc_frames <= crc_expected:
        problems.append("CRC errors in frames %s outside injected messages" %
                        sorted(crc_frames - crc_expected))
    return problems


def matrix(gen, scn_dir, links=None):
    links = links or subprocess.run([gen, "--list-links"], capture_output=True, text=True,
                                    check=True).stdout.split()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in sorted(os.listdir(scn_dir)):
            if not scn.endswith(".scn"):
                continue
            for link in links:
                for hs in ("--handshake", "--no-handshake"):
                    cap, tj = os.path.join(tmp, "c.pcap"), os.path.join(tmp, "c.json")
                    subprocess.run([gen, os.path.join(scn_dir, scn), "--link", link, hs, "-o", cap,
                                    "--truth", tj], check=True)
                    try:
                        probs = verify(cap, tj)
                    except Exception as e:  # a parse failure is a finding too
                        probs = ["exception: %r" % (e,)]
                    if probs:
                        failed += 1
                        print("FAIL %s %s %s" % (scn, link, hs))
                        for p in probs[:8]:
                            print("     " + p)
                    else:
                        passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def crc_only(path):
    lt, raw = read_capture(path)
    good = bad = skipped = 0
    for i, (cap, orig, d) in enumerate(raw, 1):
        try:
            f = parse_frame(i, lt, d) if cap == orig else None
        except (ValueError, IndexError):
            f = None
        if f is None or f.kind != "ib":
            skipped += 1
        elif f.errors:
            bad += 1
            print("frame %d: bad %s" % (i, " ".join(f.errors)))
        else:
            good += 1
    print("%d frames with good CRCs, %d bad, %d not IB/RoCE" % (good, bad, skipped))
    print("%d passed, %d failed" % (good, bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "--matrix":
        return matrix(argv[2], argv[3], argv[4:])
    if len(argv) == 3 and argv[1] == "--crc-only":
        return crc_only(argv[2])
    if len(argv) != 3:
        print(__doc__)
        return 2
    probs = verify(argv[1], argv[2])
    for p in probs:
        print(p)
    print("1 passed, 0 failed" if not probs else "0 passed, 1 failed")
    return 1 if probs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
