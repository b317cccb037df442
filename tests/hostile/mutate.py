#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Deterministic mutants of pcap / pcapng / ERF captures for the hostile campaign.

A mutant is fully determined by (input views, mutator name, seed): the same
three always give the same bytes (given the same editcap/mergecap version for
the mutators that call them, and CPython's `random` with an integer seed).

Two families of mutators:

 * Wireshark's own tools: `editcap -E <rate> --seed <n>` flips random bytes
   of the packet data (rates 0.005 and 0.02, written as pcap and as pcapng),
   and `mergecap -a` glues a capture to itself.  These never touch the
   container: editcap rewrites every header cleanly.

 * Our own code for what editcap never touches: the pcap global and record
   headers, pcapng block lengths, options, SHB/IDB/EPB/SPB fields, the ERF
   record header inside DLT_ERF (197) frames, link-type swaps, record
   order, truncation.  The container formats are parsed here directly (no
   libpcap, no scapy): pcap is a 24-byte global header and 16-byte record
   headers; pcapng is a chain of blocks type/total-length/body/total-length.

Every mutator takes a Ctx (rng, views of the input, a scratch directory and
a list of notes saying what it did, for the regression-seed report) and
returns (bytes, extension) or None when it does not apply to this input.

Command line (to reproduce one mutant by hand):
    mutate.py INPUT --mutator NAME --seed N -o OUT
    mutate.py --list
"""
import argparse
import hashlib
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------
# Constants

# Link types ulb-lint decodes; swapping one for another is the interesting
# case (the frame bytes are then read by the wrong link decoder).
SUPPORTED_LINKTYPES = [1, 113, 276, 247, 197, 101]      # EN10MB SLL SLL2 IB ERF RAW
OTHER_LINKTYPES = [0, 228, 229, 12, 14, 105, 127, 0xFFFF, 0x0400_0001, 0x1000_0001]

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

PNG_SHB = 0x0A0D0D0A
PNG_IDB = 0x00000001
PNG_SPB = 0x00000003
PNG_NRB = 0x00000004
PNG_ISB = 0x00000005
PNG_EPB = 0x00000006

ERF_TYPES = [0, 1, 2, 11, 16, 20, 21, 22, 23, 25, 0x7F, 0x80 | 21, 0x80 | 2, 0x80 | 25, 0xFF]


def interesting(rng, orig=None, bits=32):
    """A boundary value of the given width: where length checks go wrong."""
    top = (1 << bits) - 1
    vals = [0, 1, 2, 3, 4, 7, 8, 12, 15, 16, 0x7F, 0x80, 0xFF, 0x100, top, top - 1,
            1 << (bits - 1), (1 << (bits - 1)) - 1]
    if bits >= 32:
        vals += [0xFFF, 0x1000, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0x40001,
                 0x100000, 0x1000000, 0x10000000]
    if orig is not None:
        vals += [(orig + d) & top for d in (-4, -3, -2, -1, 1, 2, 3, 4)] + [(orig * 2) & top]
    if rng.random() < 0.15:
        return rng.getrandbits(bits)
    return rng.choice(vals) & top


def pad4(n):
    return (n + 3) & ~3


# ---------------------------------------------------------------------------
# pcap

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


def pick_indices(rng, n, k=None):
    """k record indices, biased towards the first records (the handshake and
    first calls, where connection state is set up) and otherwise uniform."""
    if n == 0:
        return []
    if k is None:
        k = rng.choice([1, 1, 1, 2, 3, 5, 10])
    out = set()
    for _ in range(min(k, n)):
        if rng.random() < 0.3:
            out.add(rng.randrange(min(n, 8)))
        else:
            out.add(rng.randrange(n))
    return sorted(out)


# ---------------------------------------------------------------------------
# pcapng

class Block:
    __slots__ = ("off", "type", "btl", "e")

    def __init__(self, off, btype, btl, e):
        self.off, self.type, self.btl, self.e = off, btype, btl, e


def png_blocks(data):
    """The blocks of a pcapng file, each with its section's byte order; stops
    at the first block that is malformed or does not fit."""
    out, off, e, n = [], 0, "<", len(data)
    while off + 12 <= n:
        if data[off:off + 4] == b"\x0a\x0d\x0d\x0a":
            bom = data[off + 8:off + 12]
            if bom == b"\x4d\x3c\x2b\x1a":
                e = "<"
            elif bom == b"\x1a\x2b\x3c\x4d":
                e = ">"
            else:
                break
        btype, btl = struct.unpack_from(e + "II", data, off)
        if btl < 12 or btl % 4 or off + btl > n:
            break
        out.append(Block(off, btype, btl, e))
        off += btl
    return out


def png_options_start(data, b):
    """Offset (from the block start) of a block's options, or None."""
    if b.type == PNG_SHB:
        return 24
    if b.type == PNG_IDB:
        return 16
    if b.type == PNG_ISB:
        return 20
    if b.type == PNG_EPB:
        caplen = struct.unpack_from(b.e + "I", data, b.off + 20)[0]
        return 28 + pad4(caplen)
    return None


def png_options(data, b):
    """[(absolute offset, code, length)] of a block's options, end-of-options included."""
    start = png_options_start(data, b)
    if start is None:
        return []
    off, end, out = b.off + start, b.off + b.btl - 4, []
    while off + 4 <= end:
        code, ln = struct.unpack_from(b.e + "HH", data, off)
        out.append((off, code, ln))
        if code == 0:
            break
        off += 4 + pad4(ln)
    return out


def png_block(btype, body, e="<"):
    """A whole block: type, total length, body (padded to 4), total length."""
    body = body + b"\0" * (pad4(len(body)) - len(body))
    btl = 12 + len(body)
    return struct.pack(e + "II", btype, btl) + body + struct.pack(e + "I", btl)


def png_option(code, value, e="<"):
    return struct.pack(e + "HH", code, len(value)) + value + b"\0" * (pad4(len(value)) - len(value))


def png_split(data):
    """Blocks as byte strings plus whatever trailing bytes were not a block."""
    blocks = png_blocks(data)
    parts = [bytes(data[b.off:b.off + b.btl]) for b in blocks]
    tail = bytes(data[blocks[-1].off + blocks[-1].btl:]) if blocks else bytes(data)
    return blocks, parts, tail


# ---------------------------------------------------------------------------
# Views of an input: the same capture as pcap and as pcapng (editcap converts)

def sniff_format(data):
    if bytes(data[:4]) in PCAP_MAGICS:
        return "pcap"
    if bytes(data[:4]) == b"\x0a\x0d\x0d\x0a":
        return "pcapng"
    return None


# Wireshark 4.0's wiretap has no encapsulation for LINKTYPE_INFINIBAND (247):
# editcap and mergecap refuse such files.  -E flips bytes without looking at
# the encapsulation, so the tools are given a copy labelled EN10MB and the
# real link type is written back into what they produce.
WTAP_UNKNOWN_LINKTYPES = {247}
MASK_LINKTYPE = 1


def file_linktype(data, fmt):
    """The pcap header's link type, or the first IDB's; None if unreadable."""
    try:
        if fmt == "pcap":
            return Pcap(data[:24]).linktype
        for b in png_blocks(data):
            if b.type == PNG_IDB:
                return struct.unpack_from(b.e + "H", data, b.off + 8)[0]
    except (ValueError, struct.error):
        pass
    return None


def set_linktype(data, fmt, lt):
    """The same capture with another link type (pcap header, or every IDB)."""
    data = bytearray(data)
    if fmt == "pcap":
        p = Pcap(data[:24])
        struct.pack_into(p.e + "I", data, 20, lt)
    else:
        for b in png_blocks(data):
            if b.type == PNG_IDB:
                struct.pack_into(b.e + "H", data, b.off + 8, lt)
    return bytes(data)


class Views:
    """Paths of an input as pcap and as pcapng (None where editcap cannot
    convert, e.g. pcapng with several link types to pcap), its link type,
    and the copies the Wireshark tools read (see WTAP_UNKNOWN_LINKTYPES)."""

    def __init__(self, path, workdir, editcap="editcap", name=None):
        self.orig = path
        with open(path, "rb") as f:
            data = f.read()
        self.fmt = sniff_format(data)
        if self.fmt is None:
            raise ValueError("%s: neither pcap nor pcapng" % path)
        self.linktype = file_linktype(data, self.fmt)
        self.mask = self.linktype in WTAP_UNKNOWN_LINKTYPES
        stem = os.path.join(workdir, name or os.path.basename(path))
        self.path = {self.fmt: path}
        self.tool = {self.fmt: path}
        if self.mask:
            self.tool[self.fmt] = self._write(stem + ".mask." + self.fmt,
                                              set_linktype(data, self.fmt, MASK_LINKTYPE))
        other = "pcapng" if self.fmt == "pcap" else "pcap"
        masked = stem + (".mask." if self.mask else ".view.") + other
        if not os.path.exists(masked):
            p = subprocess.run([editcap, "-F", other, self.tool[self.fmt], masked + ".tmp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if p.returncode == 0:
                os.replace(masked + ".tmp", masked)
        if not os.path.exists(masked):
            self.path[other] = self.tool[other] = None
        elif self.mask:
            self.tool[other] = masked
            with open(masked, "rb") as f:
                real = set_linktype(f.read(), other, self.linktype)
            self.path[other] = self._write(stem + ".view." + other, real)
        else:
            self.path[other] = self.tool[other] = masked

    @staticmethod
    def _write(path, data):
        if not os.path.exists(path):
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
        return path

    def unmask(self, data, fmt):
        """What a Wireshark tool wrote from a tool copy, with the real link type back."""
        return set_linktype(data, fmt, self.linktype) if self.mask else data

    def has(self, fmt):
        return self.path.get(fmt) is not None

    def read(self, fmt):
        with open(self.path[fmt], "rb") as f:
            return f.read()


class Ctx:
    def __init__(self, views, seed, tmpdir, editcap="editcap", mergecap="mergecap"):
        self.views = views
        self.seed = seed
        self.rng = random.Random(seed)
        self.tmpdir = tmpdir
        self.editcap = editcap
        self.mergecap = mergecap
        self.notes = []

    def note(self, fmt, *args):
        self.notes.append(fmt % args if args else fmt)

    def tool(self, cmd):
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError("%s failed: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")[-400:]))

    def tmp(self, suffix):
        fd, path = tempfile.mkstemp(suffix=suffix, dir=self.tmpdir)
        os.close(fd)
        return path


# ---------------------------------------------------------------------------
# Mutator registry

class Mutator:
    def __init__(self, name, fn, needs, weight, external):
        self.name, self.fn, self.needs, self.weight, self.external = name, fn, needs, weight, external

    def applies(self, views):
        if self.needs == "any":
            return True
        if self.needs == "erf":
            return views.has("pcap") and views.linktype == 197
        return views.has(self.needs)


MUTATORS = {}


def mutator(needs, weight=1, external=False):
    """needs: 'pcap', 'pcapng', 'erf' (a DLT_ERF pcap) or 'any'; weight: how
    often it comes round in the campaign's cycle; external: calls editcap or
    mergecap (not used inside 'stack')."""
    def deco(fn):
        name = fn.__name__.replace("m_", "", 1)
        MUTATORS[name] = Mutator(name, fn, needs, weight, external)
        return fn
    return deco


# ---- Wireshark tools ---------------------------------------------------------

def _editcap(ctx, fmt, rate, src=None):
    src = src or ctx.views.tool[fmt]
    out = ctx.tmp("." + fmt)
    # editcap's own PRNG is seeded with our seed: same seed, same flips.
    ctx.tool([ctx.editcap, "-E", str(rate), "--seed", str(ctx.seed), "-F", fmt, src, out])
    ctx.note("editcap -E %s --seed %d -F %s", rate, ctx.seed, fmt)
    with open(out, "rb") as f:
        return ctx.views.unmask(f.read(), fmt)


@mutator("pcap", weight=2, external=True)
def m_editcap_e005_pcap(ctx):
    """editcap -E 0.005 (random byte flips in packet data), pcap out."""
    return _editcap(ctx, "pcap", 0.005), "pcap"


@mutator("pcapng", weight=2, external=True)
def m_editcap_e005_pcapng(ctx):
    """editcap -E 0.005, pcapng out."""
    return _editcap(ctx, "pcapng", 0.005), "pcapng"


@mutator("pcap", weight=2, external=True)
def m_editcap_e02_pcap(ctx):
    """editcap -E 0.02, pcap out."""
    return _editcap(ctx, "pcap", 0.02), "pcap"


@mutator("pcapng", weight=2, external=True)
def m_editcap_e02_pcapng(ctx):
    """editcap -E 0.02, pcapng out."""
    return _editcap(ctx, "pcapng", 0.02), "pcapng"


def _glue(ctx, fmt, copies=2):
    """Path of the glued capture (link type still masked: see Views)."""
    src = ctx.views.tool[fmt]
    out = ctx.tmp("." + fmt)
    # Same connections, same XIDs, same PSNs again, time jumping back to the start.
    ctx.tool([ctx.mergecap, "-a", "-F", fmt, "-w", out] + [src] * copies)
    ctx.note("mergecap -a -F %s (capture glued to itself, %d copies)", fmt, copies)
    return out


@mutator("pcap", external=True)
def m_glue_pcap(ctx):
    """mergecap -a of the capture with itself, pcap out."""
    with open(_glue(ctx, "pcap"), "rb") as f:
        return ctx.views.unmask(f.read(), "pcap"), "pcap"


@mutator("pcapng", external=True)
def m_glue_pcapng(ctx):
    """mergecap -a of the capture with itself, pcapng out."""
    with open(_glue(ctx, "pcapng"), "rb") as f:
        return ctx.views.unmask(f.read(), "pcapng"), "pcapng"


@mutator("pcap", external=True)
def m_glue_editcap(ctx):
    """Glued and then damaged: the combination that once drove peak RSS to 219 MB."""
    glued = _glue(ctx, "pcap")
    rate = ctx.rng.choice([0.005, 0.02])
    return _editcap(ctx, "pcap", rate, src=glued), "pcap"


@mutator("pcap", external=True)
def m_glue5_editcap(ctx):
    """Five copies glued, then editcap -E 0.02: before the reassembly budget,
    nfs42-siw so damaged peaked at 219 MB (issue 7.1); hostile_memory runs it."""
    glued = _glue(ctx, "pcap", copies=5)
    return _editcap(ctx, "pcap", 0.02, src=glued), "pcap"


# ---- any format ----------------------------------------------------------------

def _any_view(ctx):
    fmts = [f for f in ("pcap", "pcapng") if ctx.views.has(f)]
    fmt = ctx.rng.choice(fmts)
    return bytearray(ctx.views.read(fmt)), fmt


@mutator("any", weight=2)
def m_truncate(ctx):
    """Cut the file: in the file header, just after a record/block boundary,
    or anywhere."""
    data, fmt = _any_view(ctx)
    rng, n = ctx.rng, len(data)
    how = rng.choice(["header", "boundary", "boundary", "anywhere", "anywhere", "empty"])
    if how == "header":
        cut = rng.randrange(0, min(n, 40))
    elif how == "boundary":
        if fmt == "pcap":
            offs = Pcap(data).recs or [24]
        else:
            offs = [b.off for b in png_blocks(data)] or [0]
        cut = min(n, rng.choice(offs) + rng.randrange(0, 40))
    elif how == "anywhere":
        cut = rng.randrange(0, n) if n else 0
    else:
        cut = 0
    ctx.note("%s truncated at byte %d of %d (%s)", fmt, cut, n, how)
    return bytes(data[:cut]), fmt


@mutator("any")
def m_cat_raw(ctx):
    """Raw concatenation (cat a a): in pcap the second global header is read
    as a record header; in pcapng it opens a new section, which is legal."""
    data, fmt = _any_view(ctx)
    ctx.note("%s concatenated to itself byte for byte", fmt)
    return bytes(data + data), fmt


@mutator("any")
def m_smash_headers(ctx):
    """Boundary values written at random places in the first 4 KiB (the file
    header, first records/blocks, the handshake frames), where editcap never
    writes."""
    data, fmt = _any_view(ctx)
    rng = ctx.rng
    lim = min(len(data), 4096)
    if lim < 4:
        return None
    for _ in range(rng.choice([1, 1, 2, 4, 8])):
        w = rng.choice([1, 2, 4])
        off = rng.randrange(0, lim - w + 1)
        v = interesting(rng, bits=8 * w)
        data[off:off + w] = v.to_bytes(w, rng.choice(["little", "big"]))
        ctx.note("%s byte %d: %d-byte value 0x%x", fmt, off, w, v)
    return bytes(data), fmt


# ---- pcap global header ---------------------------------------------------------

def _pcap(ctx):
    return Pcap(ctx.views.read("pcap"))


@mutator("pcap")
def m_pcap_magic(ctx):
    """Another magic, the rest left as is: a swapped magic makes every field
    read in the wrong byte order; nanosecond magic rescales timestamps."""
    p = _pcap(ctx)
    w = ctx.rng.choice(PCAP_MAGIC_WORDS + [ctx.rng.getrandbits(32)])
    struct.pack_into("<I", p.data, 0, w)
    ctx.note("pcap magic word 0x%08x (LE)", w)
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_byteswap(ctx):
    """A correct file in the other byte order (and optionally nanosecond):
    the readers' swapped paths on good data."""
    p = _pcap(ctx)
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
    p = _pcap(ctx)
    maj, mnr = ctx.rng.choice([(2, 3), (2, 2), (1, 0), (0, 0), (3, 0), (2, 5), (0xFFFF, 0xFFFF)])
    struct.pack_into(p.e + "HH", p.data, 4, maj, mnr)
    ctx.note("pcap version %d.%d", maj, mnr)
    return bytes(p.data), "pcap"


@mutator("pcap")
def m_pcap_snaplen(ctx):
    """Snaplen 0, tiny (below every caplen: caplen > snaplen), at and past
    libpcap's 262144 maximum, 2^31, 2^32-1."""
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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
    p = _pcap(ctx)
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


# ---- ERF records inside DLT_ERF pcaps --------------------------------------------

def _erf_records(ctx):
    p = _pcap(ctx)
    recs = [i for i in range(len(p.recs)) if p.u32(p.recs[i] + 8) >= 16]
    return p, recs


def _erf_mut(ctx, field):
    """One ERF header field (type at 8, flags 9, rlen 10-11, lctr 12-13, wlen
    14-15; big-endian) of some records."""
    p, recs = _erf_records(ctx)
    if not recs:
        return None
    rng = ctx.rng
    for j in pick_indices(rng, len(recs)):
        i = recs[j]
        base = p.recs[i] + 16
        cl = p.u32(p.recs[i] + 8)
        if field == "type":
            v = rng.choice(ERF_TYPES + [rng.getrandbits(8)])
            old = p.data[base + 8]
            p.data[base + 8] = v
        elif field == "flags":
            old = p.data[base + 9]
            v = rng.choice([0, 0xFF, 0x04, 0x08, 0x10, 0x20, 0x03, rng.getrandbits(8)])
            p.data[base + 9] = v
        else:
            at = {"rlen": 10, "wlen": 14, "lctr": 12}[field]
            old = struct.unpack_from(">H", p.data, base + at)[0]
            v = rng.choice([0, 1, 6, 7, 15, 16, 17, 24, max(0, cl - 1), cl, cl + 1, cl - 16,
                            cl - 15, 0x8000, 0xFFFF, interesting(rng, old, 16)]) & 0xFFFF
            struct.pack_into(">H", p.data, base + at, v)
        ctx.note("frame %d ERF %s %d -> %d (caplen %d)", i + 1, field, old, v, cl)
    return bytes(p.data), "pcap"


@mutator("erf", weight=3)
def m_erf_rlen(ctx):
    """ERF rlen: below the header, past the frame, 0xFFFF."""
    return _erf_mut(ctx, "rlen")


@mutator("erf", weight=3)
def m_erf_wlen(ctx):
    """ERF wlen: 0, past the record, the IB link-packet boundary (6)."""
    return _erf_mut(ctx, "wlen")


@mutator("erf", weight=3)
def m_erf_type(ctx):
    """Includes bit 7 (extension headers follow, read from the packet bytes)."""
    return _erf_mut(ctx, "type")


@mutator("erf", weight=2)
def m_erf_flags(ctx):
    """ERF flags byte (truncated, varlen, error bits)."""
    return _erf_mut(ctx, "flags")


@mutator("erf")
def m_erf_lctr(ctx):
    """ERF loss counter / colour field."""
    return _erf_mut(ctx, "lctr")


# ---- pcapng ---------------------------------------------------------------------------

def _png(ctx):
    data = bytearray(ctx.views.read("pcapng"))
    return data, png_blocks(data)


def _pick_block(rng, blocks, types=None):
    cand = [b for b in blocks if types is None or b.type in types]
    if not cand:
        return None
    # The first blocks (SHB, IDB, the first packets) matter most.
    if rng.random() < 0.4:
        return cand[rng.randrange(min(len(cand), 4))]
    return rng.choice(cand)


@mutator("pcapng", weight=3)
def m_png_block_length(ctx):
    """A block total length: front/back mismatch, 0, tiny, huge, not a
    multiple of 4, or both ends consistently wrong."""
    data, blocks = _png(ctx)
    b = _pick_block(ctx.rng, blocks)
    if b is None:
        return None
    rng = ctx.rng
    v = rng.choice([0, 4, 8, 12, 16, b.btl + 1, b.btl + 2, b.btl + 3, b.btl - 1, b.btl + 4,
                    b.btl - 4, b.btl * 2, 0x01000000, 0x10000000, 0x7FFFFFFC, 0x80000000,
                    0xFFFFFFFC, 0xFFFFFFFF, interesting(rng, b.btl)]) & 0xFFFFFFFF
    where = rng.choice(["front", "back", "both"])
    if where in ("front", "both"):
        struct.pack_into(b.e + "I", data, b.off + 4, v)
    if where in ("back", "both"):
        struct.pack_into(b.e + "I", data, b.off + b.btl - 4, v)
    ctx.note("block type 0x%x at %d: total length %d -> %d (%s)", b.type, b.off, b.btl, v, where)
    return bytes(data), "pcapng"


def _ensure_options(ctx, data, blocks):
    """A block with options; when none has any (editcap's EPBs have none),
    give a random EPB a comment option and end-of-options."""
    withopts = [b for b in blocks if png_options(data, b)]
    if withopts and ctx.rng.random() < 0.7:
        return data, blocks, _pick_block(ctx.rng, withopts)
    eps = [i for i, b in enumerate(blocks) if b.type in (PNG_EPB, PNG_IDB)]
    if not eps:
        return data, blocks, None
    i = ctx.rng.choice(eps)
    _, parts, tail = png_split(data)
    b = blocks[i]
    raw = parts[i]
    start = png_options_start(data, b)
    if png_options(data, b):
        body = raw[8:start]            # drop existing options; ours replace them
    else:
        body = raw[8:-4]
    opts = png_option(1, b"hostile", b.e) + png_option(0, b"", b.e)
    parts[i] = png_block(b.type, body + opts, b.e)
    data = bytearray(b"".join(parts) + tail)
    blocks = png_blocks(data)
    ctx.note("block %d (type 0x%x) given a comment option", i, b.type)
    return data, blocks, blocks[i] if i < len(blocks) else None


@mutator("pcapng", weight=2)
def m_png_option_length(ctx):
    """An option length past the block end, odd, 0xFFFF, or 0 for a
    non-end option."""
    data, blocks = _png(ctx)
    data, blocks, b = _ensure_options(ctx, data, blocks)
    if b is None:
        return None
    opts = png_options(data, b)
    off, code, ln = ctx.rng.choice(opts)
    room = b.off + b.btl - 4 - (off + 4)
    v = ctx.rng.choice([0xFFFF, 0x8000, room + 1, room + 4, room + 5, ln + 1, ln + 3,
                        max(0, ln - 1), 0, 1, 3]) & 0xFFFF
    struct.pack_into(b.e + "H", data, off + 2, v)
    if code == 0 and ctx.rng.random() < 0.5:
        struct.pack_into(b.e + "H", data, off, ctx.rng.choice([1, 2, 9, 0x8000, 0xFFFF]))
    ctx.note("block type 0x%x at %d: option code %d length %d -> %d (room %d)",
             b.type, b.off, code, ln, v, room)
    return bytes(data), "pcapng"


@mutator("pcapng")
def m_png_no_end_of_options(ctx):
    """Options without the end-of-options marker (block lengths fixed up, so
    only the missing marker is wrong), or with junk after it."""
    data, blocks = _png(ctx)
    data, blocks, b = _ensure_options(ctx, data, blocks)
    if b is None:
        return None
    idx = blocks.index(b)
    _, parts, tail = png_split(data)
    opts = png_options(data, b)
    raw = parts[idx]
    if opts and opts[-1][1] == 0:
        endoff = opts[-1][0] - b.off
        if ctx.rng.random() < 0.6:
            body = raw[8:endoff]
            ctx.note("block %d (type 0x%x): end-of-options removed", idx, b.type)
        else:
            body = raw[8:endoff + 4] + bytes([0xAB]) * ctx.rng.choice([2, 4, 6, 8])
            ctx.note("block %d (type 0x%x): junk after end-of-options", idx, b.type)
    else:
        body = raw[8:-4] + png_option(2, b"x" * 5, b.e)
        ctx.note("block %d (type 0x%x): an option appended with no end-of-options", idx, b.type)
    parts[idx] = png_block(b.type, body, b.e)
    return b"".join(parts) + tail, "pcapng"


@mutator("pcapng")
def m_png_shb(ctx):
    """SHB byte-order magic (swapped alone, junk), version, and section
    length (-1 is 'unknown' and legal; others lie)."""
    data, blocks = _png(ctx)
    shbs = [b for b in blocks if b.type == PNG_SHB]
    if not shbs:
        return None
    rng = ctx.rng
    b = rng.choice(shbs)
    what = rng.choice(["bom", "version", "seclen", "seclen"])
    if what == "bom":
        v = rng.choice([0x4D3C2B1A, 0x1A2B3C4D, 0, 0xFFFFFFFF, rng.getrandbits(32)])
        struct.pack_into(b.e + "I", data, b.off + 8, v)
        ctx.note("SHB at %d byte-order magic 0x%08x (%s)", b.off, v, b.e)
    elif what == "version":
        maj, mnr = rng.choice([(1, 1), (1, 2), (2, 0), (0, 0), (0xFFFF, 0)])
        struct.pack_into(b.e + "HH", data, b.off + 12, maj, mnr)
        ctx.note("SHB at %d version %d.%d", b.off, maj, mnr)
    else:
        actual = len(data) - b.off - b.btl
        v = rng.choice([-1, 0, 1, 4, actual, actual - 4, actual + 4, 1 << 62, -2,
                        rng.getrandbits(63)])
        struct.pack_into(b.e + "q", data, b.off + 16, v)
        ctx.note("SHB at %d section length %d (actual %d)", b.off, v, actual)
    return bytes(data), "pcapng"


@mutator("pcapng")
def m_png_byteswap(ctx):
    """A big-endian pcapng (from little-endian, or back): block headers,
    fixed fields and option code/length swapped; option values left as
    they are.  libpcap's swapped path on otherwise good data."""
    data, blocks = _png(ctx)
    if not blocks:
        return None
    out = bytearray()
    for b in blocks:
        e2 = ">" if b.e == "<" else "<"
        raw = bytearray(data[b.off:b.off + b.btl])

        def sw(fmt, at):
            struct.pack_into(e2 + fmt, raw, at, *struct.unpack_from(b.e + fmt, raw, at))
        sw("II", 0)
        sw("I", b.btl - 4)
        if b.type == PNG_SHB:
            sw("IHHq", 8)
        elif b.type == PNG_IDB:
            sw("HHI", 8)
        elif b.type == PNG_EPB:
            sw("IIIII", 8)
        elif b.type == PNG_SPB:
            sw("I", 8)
        elif b.type == PNG_ISB:
            sw("III", 8)
        for off, _, _ in png_options(data, b):
            sw("HH", off - b.off)
        out += raw
    out += data[blocks[-1].off + blocks[-1].btl:]
    ctx.note("pcapng rewritten with the other byte order")
    return bytes(out), "pcapng"


@mutator("pcapng", weight=2)
def m_png_idb(ctx):
    """IDB link type (another supported one, or junk), snaplen (0, tiny,
    huge), or if_tsresol/if_fcslen/if_tsoffset options with edge values."""
    data, blocks = _png(ctx)
    b = _pick_block(ctx.rng, blocks, (PNG_IDB,))
    if b is None:
        return None
    rng = ctx.rng
    what = rng.choice(["linktype", "linktype", "snaplen", "options"])
    if what == "linktype":
        old = struct.unpack_from(b.e + "H", data, b.off + 8)[0]
        if rng.random() < 0.8:
            v = rng.choice([x for x in SUPPORTED_LINKTYPES if x != old] or SUPPORTED_LINKTYPES)
        else:
            v = rng.choice([0, 228, 229, 0xFFFF, rng.getrandbits(16)])
        struct.pack_into(b.e + "H", data, b.off + 8, v)
        ctx.note("IDB at %d linktype %d -> %d", b.off, old, v)
        return bytes(data), "pcapng"
    if what == "snaplen":
        v = rng.choice([0, 1, 14, 64, 65535, 262144, 262145, 0x7FFFFFFF, 0xFFFFFFFF])
        struct.pack_into(b.e + "I", data, b.off + 12, v)
        ctx.note("IDB at %d snaplen %d", b.off, v)
        return bytes(data), "pcapng"
    code, val = rng.choice([
        (9, bytes([rng.choice([0, 9, 19, 63, 64, 0x7F, 0x80, 0x81, 0x9F, 0xBF, 0xFF])])),  # if_tsresol
        (13, bytes([rng.choice([0, 4, 0xFF])])),                                         # if_fcslen
        (14, struct.pack(b.e + "q", rng.choice([-1, 1 << 62, -(1 << 62), 0x7FFFFFFFFFFFFFFF]))),
    ])
    idx = blocks.index(b)
    _, parts, tail = png_split(data)
    raw = parts[idx]
    body = raw[8:16] + png_option(code, val, b.e) + png_option(0, b"", b.e)
    parts[idx] = png_block(PNG_IDB, body, b.e)
    ctx.note("IDB at %d: option %d = %s (other options dropped)", b.off, code, val.hex())
    return b"".join(parts) + tail, "pcapng"


@mutator("pcapng", weight=2)
def m_png_epb(ctx):
    """EPB captured length (past the block, 0, 2^32-1), original length
    (below caplen, 0), interface id with no IDB, timestamps."""
    data, blocks = _png(ctx)
    eps = [b for b in blocks if b.type == PNG_EPB]
    if not eps:
        return None
    rng = ctx.rng
    for j in pick_indices(rng, len(eps)):
        b = eps[j]
        what = rng.choice(["caplen", "caplen", "len", "ifid", "ts"])
        if what == "caplen":
            old = struct.unpack_from(b.e + "I", data, b.off + 20)[0]
            v = rng.choice([0, 1, old + 1, old + 4, b.btl - 31, b.btl - 32, b.btl, 262145,
                            0x7FFFFFFF, 0xFFFFFFFF, interesting(rng, old)]) & 0xFFFFFFFF
            struct.pack_into(b.e + "I", data, b.off + 20, v)
        elif what == "len":
            old = struct.unpack_from(b.e + "I", data, b.off + 24)[0]
            v = rng.choice([0, 1, max(0, old - 1), 0xFFFFFFFF, interesting(rng, old)]) & 0xFFFFFFFF
            struct.pack_into(b.e + "I", data, b.off + 24, v)
        elif what == "ifid":
            old = struct.unpack_from(b.e + "I", data, b.off + 8)[0]
            v = rng.choice([1, 2, 0xFFFF, 0xFFFFFFFF])
            struct.pack_into(b.e + "I", data, b.off + 8, v)
        else:
            hi, lo = struct.unpack_from(b.e + "II", data, b.off + 12)
            old = hi << 32 | lo
            v = rng.choice([0, 0xFFFFFFFF, 0xFFFFFFFF00000000, 0xFFFFFFFFFFFFFFFF, max(0, old - 10 ** 9)])
            struct.pack_into(b.e + "II", data, b.off + 12, v >> 32, v & 0xFFFFFFFF)
        ctx.note("EPB %d at %d: %s %d -> %d", j, b.off, what, old, v)
    return bytes(data), "pcapng"


@mutator("pcapng")
def m_png_spb(ctx):
    """EPBs turned into Simple Packet Blocks (captured length then comes
    from the IDB snaplen and the block length), optionally with a lying
    original length."""
    data, blocks = _png(ctx)
    if sum(1 for b in blocks if b.type == PNG_IDB) != 1:
        return None           # SPBs belong to interface 0 only
    _, parts, tail = png_split(data)
    rng = ctx.rng
    lie = rng.random() < 0.3      # one lying SPB stops libpcap; most mutants stay readable
    n = 0
    every = rng.random() < 0.3
    for i, b in enumerate(blocks):
        if b.type != PNG_EPB or not (every or rng.random() < 0.3):
            continue
        caplen, wl = struct.unpack_from(b.e + "II", data, b.off + 20)
        pkt = bytes(data[b.off + 28:b.off + 28 + caplen])
        orig = wl
        if lie and rng.random() < 0.3:
            lie = False
            orig = rng.choice([0, 1, caplen - 1, caplen + 1, 0xFFFF, 0xFFFFFFFF]) & 0xFFFFFFFF
            ctx.note("SPB from block %d: original length %d (data %d)", i, orig, caplen)
        parts[i] = png_block(PNG_SPB, struct.pack(b.e + "I", orig) + pkt, b.e)
        n += 1
    if not n:
        return None
    ctx.note("%d EPBs written as SPBs", n)
    return b"".join(parts) + tail, "pcapng"


@mutator("pcapng")
def m_png_second_idb(ctx):
    """A second interface with another link type, and some packets moved
    to it: frames of two link types in one file."""
    data, blocks = _png(ctx)
    idbs = [i for i, b in enumerate(blocks) if b.type == PNG_IDB]
    if not idbs:
        return None
    rng = ctx.rng
    b0 = blocks[idbs[0]]
    old = struct.unpack_from(b0.e + "H", data, b0.off + 8)[0]
    # libpcap refuses a second link type in one file, so half the time the
    # new interface has the same one and differs in snaplen and time resolution.
    if rng.random() < 0.5:
        lt = rng.choice([x for x in SUPPORTED_LINKTYPES if x != old])
    else:
        lt = old
    snap = rng.choice([0, 96, 262144])
    opts = b""
    if rng.random() < 0.5:
        opts = png_option(9, bytes([rng.choice([3, 9, 0x8A])]), b0.e) + png_option(0, b"", b0.e)
    newidb = png_block(PNG_IDB, struct.pack(b0.e + "HHI", lt, 0, snap) + opts, b0.e)
    _, parts, tail = png_split(data)
    newid = sum(1 for b in blocks if b.type == PNG_IDB)
    moved = 0
    for i, b in enumerate(blocks):
        if b.type == PNG_EPB and b.e == b0.e and rng.random() < 0.3:
            raw = bytearray(parts[i])
            struct.pack_into(b.e + "I", raw, 8, newid)
            parts[i] = bytes(raw)
            moved += 1
    parts.insert(idbs[-1] + 1, newidb)
    ctx.note("IDB %d (linktype %d snaplen %d%s) added; %d packets moved to it",
             newid, lt, snap, ", if_tsresol" if opts else "", moved)
    return b"".join(parts) + tail, "pcapng"


@mutator("pcapng")
def m_png_odd_blocks(ctx):
    """Blocks a packet reader must skip or check: unknown types, custom
    blocks, an NRB with bogus records, an ISB, a Decryption Secrets Block,
    an empty block, inserted at random places."""
    data, blocks = _png(ctx)
    if not blocks:
        return None
    _, parts, tail = png_split(data)
    rng = ctx.rng
    e = blocks[0].e
    for _ in range(rng.choice([1, 2, 5])):
        kind = rng.choice(["unknown", "custom", "nrb", "isb", "dsb", "empty"])
        if kind == "unknown":
            blk = png_block(rng.choice([0x2, 0x7, 0x8, 0x1234, 0x7FFFFFFF]), bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 4, 20]))), e)
        elif kind == "custom":
            blk = png_block(rng.choice([0x00000BAD, 0x40000BAD]), struct.pack(e + "I", 32473) + b"hostile!", e)
        elif kind == "nrb":
            rec = struct.pack(e + "HH", 1, rng.choice([0, 4, 0xFFFF])) + b"\x0a\x00\x00\x01"
            blk = png_block(PNG_NRB, rec + struct.pack(e + "HH", 0, 0), e)
        elif kind == "isb":
            blk = png_block(PNG_ISB, struct.pack(e + "III", rng.choice([0, 7, 0xFFFFFFFF]), 0, 0), e)
        elif kind == "dsb":
            blk = png_block(0x0000000A, struct.pack(e + "II", 0x544c534b, 0xFFFF) + b"x" * 8, e)
        else:
            blk = struct.pack(e + "III", 0x1234, 12, 12)
        at = rng.randrange(1, len(parts) + 1)
        parts.insert(at, blk)
        ctx.note("%s block inserted at block index %d", kind, at)
    return b"".join(parts) + tail, "pcapng"


# ---- several in-house mutations, one after another ----------------------------------

@mutator("any", weight=2)
def m_stack(ctx):
    """Two or three of our own mutators in a row on the same bytes (each
    later one parses what the earlier one left, so damage compounds)."""
    rng = ctx.rng
    fmt = "pcap" if ctx.views.has("pcap") and (rng.random() < 0.6 or not ctx.views.has("pcapng")) else "pcapng"
    pool = sorted(n for n, m in MUTATORS.items()
                  if not m.external and n != "stack" and m.needs in (fmt, "any", "erf")
                  and m.applies(ctx.views) and n not in ("cat_raw", "truncate"))
    if fmt == "pcapng":
        pool = [n for n in pool if MUTATORS[n].needs != "erf"]
    names = [rng.choice(pool) for _ in range(rng.choice([2, 2, 3]))]
    # Each stage reads the previous stage's bytes through a one-format view.
    cur = None
    tmpviews = _FixedViews(ctx.views.path[fmt], fmt, ctx.views.linktype)
    for name in names:
        if cur is not None:
            path = ctx.tmp("." + fmt)
            with open(path, "wb") as f:
                f.write(cur)
            tmpviews = _FixedViews(path, fmt, ctx.views.linktype)
        sub = Ctx(tmpviews, rng.getrandbits(31), ctx.tmpdir, ctx.editcap, ctx.mergecap)
        try:
            r = MUTATORS[name].fn(sub) if MUTATORS[name].applies(tmpviews) else None
        except (ValueError, struct.error, IndexError):
            r = None          # the earlier stage left something this one cannot parse
        ctx.note("stack: %s (seed %d)%s", name, sub.seed, "" if r else " - did not apply")
        ctx.notes += ["  " + s for s in sub.notes]
        if r is not None:
            cur, fmt2 = r
            if fmt2 != fmt:
                break
    if cur is None:
        return None
    # A final truncation now and then: damaged and cut short.
    if rng.random() < 0.2 and len(cur) > 1:
        cut = rng.randrange(1, len(cur))
        cur = cur[:cut]
        ctx.note("stack: truncated at %d", cut)
    return cur, fmt


class _FixedViews(Views):
    """A one-format view of an intermediate file (inside 'stack')."""

    def __init__(self, path, fmt, linktype):
        self.orig = path
        self.fmt = fmt
        self.path = {fmt: path, ("pcapng" if fmt == "pcap" else "pcap"): None}
        self.tool = dict(self.path)
        self.mask = False
        self.linktype = linktype
        if fmt == "pcap":
            try:
                with open(path, "rb") as f:
                    self.linktype = Pcap(f.read(24)).linktype
            except ValueError:
                self.path[fmt] = None


# ---------------------------------------------------------------------------
# Campaign helpers

def derive_seed(*parts):
    """A 31-bit seed from a campaign seed and names: stable across runs and
    Python versions (unlike hash())."""
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x7FFFFFFF


def schedule(views):
    """The cycle of mutator names that apply to these views, each repeated by
    its weight; the campaign walks it round-robin so every mutator is used
    on every input once enough mutants are made."""
    out = []
    for name in sorted(MUTATORS):
        m = MUTATORS[name]
        if m.applies(views):
            out += [name] * m.weight
    # Interleave (sorted order would put both editcap ones back to back).
    return out[0::2] + out[1::2]


def make_mutant(views, name, seed, tmpdir, editcap="editcap", mergecap="mergecap"):
    """(bytes, extension, notes) of mutant (name, seed); falls back to a
    truncation with the same seed if the mutator does not apply after all."""
    # Scratch files of the Wireshark tools and of 'stack' go in a folder of
    # this mutant's own, removed at the end (thousands of mutants per run).
    scratch = tempfile.mkdtemp(prefix="m-", dir=tmpdir)
    try:
        ctx = Ctx(views, seed, scratch, editcap, mergecap)
        r = MUTATORS[name].fn(ctx)
        if r is None:
            notes = ctx.notes + ["%s did not apply; truncate instead" % name]
            ctx = Ctx(views, seed, scratch, editcap, mergecap)
            ctx.notes = notes
            r = MUTATORS["truncate"].fn(ctx)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    data, fmt = r
    return data, fmt, ctx.notes


def main():
    ap = argparse.ArgumentParser(description="Make one mutant of a capture (see campaign.py).")
    ap.add_argument("input", nargs="?")
    ap.add_argument("--mutator", help="mutator name (see --list)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output")
    ap.add_argument("--list", action="store_true", help="list the mutators and exit")
    ap.add_argument("--editcap", default="editcap")
    ap.add_argument("--mergecap", default="mergecap")
    a = ap.parse_args()
    if a.list:
        for name in sorted(MUTATORS):
            m = MUTATORS[name]
            doc = (m.fn.__doc__ or "").strip().split("\n")[0]
            print("%-24s %-7s w%d  %s" % (name, m.needs, m.weight, doc))
        return 0
    if not (a.input and a.mutator and a.output):
        ap.error("INPUT, --mutator and -o are needed")
    if a.mutator not in MUTATORS:
        ap.error("unknown mutator %s" % a.mutator)
    tmp = tempfile.mkdtemp(prefix="mutate-")
    try:
        views = Views(a.input, tmp, a.editcap)
        if not MUTATORS[a.mutator].applies(views):
            sys.stderr.write("%s does not apply to %s\n" % (a.mutator, a.input))
            return 2
        data, fmt, notes = make_mutant(views, a.mutator, a.seed, tmp, a.editcap, a.mergecap)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open(a.output, "wb") as f:
        f.write(data)
    for n in notes:
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
