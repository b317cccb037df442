# SPDX-License-Identifier: GPL-2.0-or-later
"""Mutators of any container: truncation, raw concatenation, boundary
values in the first bytes, and 'stack', several of our own in a row."""
import struct

from .common import MUTATORS, Ctx, interesting, mutator
from .pcap import Pcap
from .pcapng import png_blocks
from .views import FixedViews


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
    tmpviews = FixedViews(ctx.views.path[fmt], fmt, ctx.views.linktype)
    for name in names:
        if cur is not None:
            path = ctx.tmp("." + fmt)
            with open(path, "wb") as f:
                f.write(cur)
            tmpviews = FixedViews(path, fmt, ctx.views.linktype)
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
