# SPDX-License-Identifier: GPL-2.0-or-later
"""What every mutator shares: boundary values, record picks, the context a
mutator runs in (rng, views of the input, scratch folder, notes) and the
registry the @mutator decorator fills."""
import os
import random
import subprocess
import tempfile


# Link types ulb-lint decodes; swapping one for another is the interesting
# case (the frame bytes are then read by the wrong link decoder).
SUPPORTED_LINKTYPES = [1, 113, 276, 247, 197, 101]      # EN10MB SLL SLL2 IB ERF RAW
OTHER_LINKTYPES = [0, 228, 229, 12, 14, 105, 127, 0xFFFF, 0x0400_0001, 0x1000_0001]


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
