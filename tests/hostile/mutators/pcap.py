# SPDX-License-Identifier: GPL-2.0-or-later
"""The classic pcap container: a 24-byte global header and 16-byte record
headers, parsed here, and the mutators of its global header, its record
headers and the first bytes of its frames."""
import struct

from .common import (OTHER_LINKTYPES, SUPPORTED_LINKTYPES, interesting, mutator,
                     pick_indices)

PCAP_MAGICS = {
    b"\xd4\xc3\xb2\xa1": ("<", False),   # microseconds, little-endian
    b"\xa1\xb2\xc3\xd4": (">", False),   # microseconds, big-endian
    b"\x4d\x3c\xb2\xa1": ("<", True),    # nanoseconds, little-endian
    b"\xa1\xb2\x3c\x4d": (">", True),    # nanoseconds, big-endian
}
# Magic words a reader may meet: the four above (as LE words), Kuznetzov's
# modified pcap (both orders), pcapng's SHB type, and plain junk.
PCAP_MAGIC_WORDS = [0xA1B2C3D4, 0xD4C3B2A1, 0xA1B23C4D, 0x4D3CB2A1, 0xA1B2CD34,
                    0x34CDB2A1, 0x0A0D0D0A, 0x00000000, 0xFFFFFFFF]


class Pcap:
    """A classic pcap file: global header fields and record-header offsets.

    The walk stops at the first record that does not fit in the file, so a
    damaged file still gives the records before the damage."""

    def __init__(self, data):
        self.data = bytearray(data)
        m = PCAP_MAGICS.get(bytes(self.data[:4]))
        if m is None or len(self.data) < 24:
            raise ValueError("not a pcap file")
        self.e, self.nsec = m
        self.recs = []
        off, n = 24, len(self.data)
        while off + 16 <= n:
            caplen = self.u32(off + 8)
            if off + 16 + caplen > n:
                break
            self.recs.append(off)
            off += 16 + caplen
        self.end = off        # end of the last whole record

    def u32(self, off):
        return struct.unpack_from(self.e + "I", self.data, off)[0]

    def put32(self, off, v):
        struct.pack_into(self.e + "I", self.data, off, v & 0xFFFFFFFF)

    @property
    def linktype(self):
        return self.u32(20)

    def rec(self, i):
        """(ts_sec, ts_frac, caplen, len) of record i."""
        return struct.unpack_from(self.e + "IIII", self.data, self.recs[i])

    def payload(self, i):
        off = self.recs[i]
        return bytes(self.data[off + 16:off + 16 + self.u32(off + 8)])

    def records(self):
        """[(ts_sec, ts_frac, len, payload)] for rebuilding."""
        out = []
        for i in range(len(self.recs)):
            s, f, _, wl = self.rec(i)
            out.append((s, f, wl, self.payload(i)))
        return out

    def build(self, records, header=None):
        """A pcap with this global header (default: ours) and these records;
        caplen is the payload's length."""
        out = bytearray(header if header is not None else self.data[:24])
        for s, f, wl, p in records:
            out += struct.pack(self.e + "IIII", s & 0xFFFFFFFF, f & 0xFFFFFFFF,
                               len(p), wl & 0xFFFFFFFF) + p
        return bytes(out)


# ---- pcap global header ---------------------------------------------------------

def ctx_pcap(ctx):
    """The input as pcap, parsed."""
    return Pcap(ctx.views.read("pcap"))


@mutator("pcap")
def m_pcap_magic(ctx):
    """Another magic, the rest left as is: a swapped magic makes every field
    read in the wrong byte order; nanosecond magic rescales timestamps."""
    p = ctx_pcap(ctx)
    w = ctx.rng.choice(PCAP_MAGIC_WORDS + [ctx.rng.getrandbits(32)])
    struct.pack_into("<I", p.data, 0, w)
    ctx.note("pcap magic word 0x%08x (LE)", w)
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_byteswap(ctx):
    """A correct file in the other byte order (and optionally nanosecond):
    the readers' swapped paths on good data."""
    p = ctx_pcap(ctx)
    e2 = ">" if p.e == "<" else "<"
    nsec = ctx.rng.random() < 0.5
    magic = 0xA1B23C4D if (nsec or p.nsec) else 0xA1B2C3D4
    hdr = struct.pack(e2 + "IHHiIII", magic, *struct.unpack_from(p.e + "HHiIII", p.data, 4))
    out = bytearray(hdr)
    scale = 1000 if nsec and not p.nsec else 1
    for i in range(len(p.recs)):
        s, f, cl, wl = p.rec(i)
        out += struct.pack(e2 + "IIII", s, (f * scale) & 0xFFFFFFFF, cl, wl) + p.payload(i)
    ctx.note("pcap rewritten %s-endian%s", "big" if e2 == ">" else "little",
             ", nanosecond" if magic == 0xA1B23C4D else "")
    return bytes(out), "pcap"


@mutator("pcap")
def m_pcap_version(ctx):
    """pcap version other than 2.4 (libpcap accepts some, rejects others)."""
    p = ctx_pcap(ctx)
    maj, mnr = ctx.rng.choice([(2, 3), (2, 2), (1, 0), (0, 0), (3, 0), (2, 5), (0xFFFF, 0xFFFF)])
    struct.pack_into(p.e + "HH", p.data, 4, maj, mnr)
    ctx.note("pcap version %d.%d", maj, mnr)
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_snaplen(ctx):
    """Snaplen 0, tiny (below every caplen: caplen > snaplen), at and past
    libpcap's 262144 maximum, 2^31, 2^32-1."""
    p = ctx_pcap(ctx)
    maxcap = max((p.rec(i)[2] for i in range(len(p.recs))), default=100)
    v = ctx.rng.choice([0, 1, 14, 64, 96, max(1, maxcap // 2), maxcap - 1, 65535, 262144,
                        262145, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF])
    p.put32(16, v)
    ctx.note("pcap snaplen %d (largest caplen %d)", v & 0xFFFFFFFF, maxcap)
    return bytes(p.data), "pcap"


@mutator("pcap", weight=2)
def m_pcap_linktype(ctx):
    """Frames read by another link decoder: mostly a supported one (EN10MB,
    SLL, SLL2, INFINIBAND, ERF, RAW), sometimes junk or FCS/extension bits."""
    p = ctx_pcap(ctx)
    old = p.linktype
    if ctx.rng.random() < 0.8:
        v = ctx.rng.choice([x for x in SUPPORTED_LINKTYPES if x != old] or SUPPORTED_LINKTYPES)
    else:
        v = ctx.rng.choice(OTHER_LINKTYPES)
    p.put32(20, v)
    ctx.note("pcap linktype %d -> %d", old, v)
    return bytes(p.data), "pcap"


# ---- pcap record headers -----------------------------------------------------------

@mutator("pcap", weight=2)
def m_pcap_caplen(ctx):
    """caplen changed without moving the data: the reader loses record sync
    (or meets 0, 2^32-1, caplen > len, caplen > snaplen)."""
    p = ctx_pcap(ctx)
    if not p.recs:
        return None
    snap = p.u32(16)
    for i in pick_indices(ctx.rng, len(p.recs)):
        off = p.recs[i]
        cl, wl = p.u32(off + 8), p.u32(off + 12)
        v = ctx.rng.choice([0, 1, wl + 1, cl - 1, cl + 1, snap + 1, 262145, 0x7FFFFFFF,
                            0xFFFFFFFF, interesting(ctx.rng, cl)])
        p.put32(off + 8, v)
        ctx.note("record %d (frame %d) caplen %d -> %d", i, i + 1, cl, v & 0xFFFFFFFF)
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_len(ctx):
    """Wire length 0, below caplen (caplen > len), 2^32-1, random."""
    p = ctx_pcap(ctx)
    if not p.recs:
        return None
    for i in pick_indices(ctx.rng, len(p.recs)):
        off = p.recs[i]
        cl, wl = p.u32(off + 8), p.u32(off + 12)
        v = ctx.rng.choice([0, 1, max(0, cl - 1), cl // 2, 0xFFFF, 0x10000, 0xFFFFFFFF,
                            interesting(ctx.rng, wl)])
        p.put32(off + 12, v)
        ctx.note("record %d (frame %d) len %d -> %d", i, i + 1, wl, v & 0xFFFFFFFF)
    return bytes(p.data), "pcap"


@mutator("pcap", weight=2)
def m_pcap_ts(ctx):
    """Timestamps 0 and 2^32-1, sub-second fields past one second, and time
    going backwards (a step back, or a window in reverse order)."""
    p = ctx_pcap(ctx)
    n = len(p.recs)
    if not n:
        return None
    rng = ctx.rng
    how = rng.choice(["fields", "fields", "step_back", "reverse_window", "all_zero"])
    if how == "fields":
        for i in pick_indices(rng, n):
            off = p.recs[i]
            which = rng.choice([0, 4])
            v = rng.choice([0, 0xFFFFFFFF, 999999, 1000000, 999999999, 1000000000, 0x80000000,
                            interesting(rng, p.u32(off + which))])
            p.put32(off + which, v)
            ctx.note("record %d ts_%s = %d", i, "sec" if which == 0 else "frac", v & 0xFFFFFFFF)
    elif how == "step_back":
        k = rng.randrange(n)
        back = rng.choice([1, 60, 3600, 0x7FFFFFFF, 0xFFFFFFFF])
        for i in range(k, n):
            off = p.recs[i]
            p.put32(off, p.u32(off) - back)
        ctx.note("ts_sec of records %d.. reduced by %d", k, back)
    elif how == "reverse_window":
        k = rng.randrange(n)
        m = min(n, k + rng.choice([2, 5, 50, n]))
        ts = [(p.u32(p.recs[i]), p.u32(p.recs[i] + 4)) for i in range(k, m)]
        for j, i in enumerate(range(k, m)):
            p.put32(p.recs[i], ts[-1 - j][0])
            p.put32(p.recs[i] + 4, ts[-1 - j][1])
        ctx.note("timestamps of records %d..%d reversed", k, m - 1)
    else:
        for off in p.recs:
            p.put32(off, 0)
            p.put32(off + 4, 0)
        ctx.note("every timestamp 0")
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_reorder(ctx):
    """Records swapped or a window reversed with their timestamps: frames
    out of order and time going backwards (PSN/TCP reordering paths)."""
    p = ctx_pcap(ctx)
    recs = p.records()
    n = len(recs)
    if n < 2:
        return None
    rng = ctx.rng
    if rng.random() < 0.5:
        for _ in range(rng.choice([1, 3, 10])):
            i = rng.randrange(n - 1)
            j = min(n - 1, i + rng.choice([1, 1, 2, 5, 100]))
            recs[i], recs[j] = recs[j], recs[i]
            ctx.note("records %d and %d swapped", i, j)
    else:
        k = rng.randrange(n - 1)
        m = min(n, k + rng.choice([2, 3, 20, n]))
        recs[k:m] = recs[k:m][::-1]
        ctx.note("records %d..%d reversed", k, m - 1)
    return p.build(recs), "pcap"


@mutator("pcap")
def m_pcap_dup_drop(ctx):
    """Records duplicated (retransmissions, duplicate PSNs) or dropped
    (a lost handshake, a missing middle of a message)."""
    p = ctx_pcap(ctx)
    recs = p.records()
    n = len(recs)
    if not n:
        return None
    rng = ctx.rng
    idx = pick_indices(rng, n)
    if rng.random() < 0.5:
        for i in reversed(idx):
            times = rng.choice([1, 1, 2, 50])
            recs[i:i + 1] = [recs[i]] * (times + 1)
            ctx.note("record %d duplicated %d times", i, times)
    else:
        for i in reversed(idx):
            del recs[i]
            ctx.note("record %d dropped", i)
    return p.build(recs), "pcap"


@mutator("pcap")
def m_pcap_snap(ctx):
    """Frames snapped short, consistently (caplen < len, data cut): a
    capture taken with a small snaplen, and the reassembly of cut frames."""
    p = ctx_pcap(ctx)
    recs = p.records()
    if not recs:
        return None
    rng = ctx.rng
    if rng.random() < 0.4:
        snap = rng.choice([14, 34, 54, 64, 96, 128, 200])
        recs = [(s, f, wl, pl[:snap]) for s, f, wl, pl in recs]
        hdr = bytearray(p.data[:24])
        struct.pack_into(p.e + "I", hdr, 16, snap)
        ctx.note("every frame snapped to %d bytes (snaplen too)", snap)
        return p.build(recs, hdr), "pcap"
    for i in pick_indices(rng, len(recs)):
        s, f, wl, pl = recs[i]
        k = rng.randrange(0, len(pl) + 1)
        recs[i] = (s, f, wl, pl[:k])
        ctx.note("record %d snapped to %d of %d bytes", i, k, len(pl))
    return p.build(recs), "pcap"


@mutator("pcap", weight=2)
def m_pkt_fields(ctx):
    """Boundary values in the first 160 bytes of some frames, big-endian as
    on the wire: link, IP/UDP/TCP, BTH/RETH, DDP/RDMAP, MPA and RPC-over-RDMA
    header fields (lengths, counts, offsets) that editcap's uniform flips
    rarely hit in the right combination."""
    p = ctx_pcap(ctx)
    if not p.recs:
        return None
    rng = ctx.rng
    for i in pick_indices(rng, len(p.recs), rng.choice([1, 2, 5, 20])):
        off = p.recs[i]
        cl = p.u32(off + 8)
        for _ in range(rng.choice([1, 1, 2, 3])):
            w = rng.choice([1, 2, 4])
            if cl < w:
                continue
            at = rng.randrange(0, min(cl, 160) - w + 1)
            old = int.from_bytes(p.data[off + 16 + at:off + 16 + at + w], "big")
            v = interesting(rng, old, 8 * w)
            p.data[off + 16 + at:off + 16 + at + w] = v.to_bytes(w, "big")
            ctx.note("frame %d byte %d: %d-byte 0x%x -> 0x%x", i + 1, at, w, old, v)
    return bytes(p.data), "pcap"
