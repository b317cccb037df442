# SPDX-License-Identifier: GPL-2.0-or-later
"""The pcapng container: a chain of blocks type / total length / body /
total length, parsed here, and the mutators of its blocks, options and
SHB/IDB/EPB/SPB fields."""
import struct

from .common import SUPPORTED_LINKTYPES, interesting, mutator, pad4, pick_indices

PNG_SHB = 0x0A0D0D0A
PNG_IDB = 0x00000001
PNG_SPB = 0x00000003
PNG_NRB = 0x00000004
PNG_ISB = 0x00000005
PNG_EPB = 0x00000006


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


# ---- the mutators ---------------------------------------------------------

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
