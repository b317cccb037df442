# SPDX-License-Identifier: GPL-2.0-or-later
"""Mutators that call Wireshark's own tools: editcap -E (random byte flips
in the packet data) and mergecap -a (a capture glued to itself)."""
from .common import mutator


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
    nfs42-siw so damaged peaked at 219 MB; hostile_memory runs it."""
    glued = _glue(ctx, "pcap", copies=5)
    return _editcap(ctx, "pcap", 0.02, src=glued), "pcap"
