# SPDX-License-Identifier: GPL-2.0-or-later
"""ERF records inside DLT_ERF (197) pcaps: the 16-byte ERF header each
frame starts with (type, flags, rlen, lctr, wlen)."""
import struct

from .common import interesting, mutator, pick_indices
from .pcap import ctx_pcap

ERF_TYPES = [0, 1, 2, 11, 16, 20, 21, 22, 23, 25, 0x7F, 0x80 | 21, 0x80 | 2, 0x80 | 25, 0xFF]


def _erf_records(ctx):
    p = ctx_pcap(ctx)
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
