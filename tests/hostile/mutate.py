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
   order, truncation.  The container formats are parsed directly (no
   libpcap, no scapy): pcap is a 24-byte global header and 16-byte record
   headers; pcapng is a chain of blocks type/total-length/body/total-length.

The mutators live in the package beside this file, one module per container
(mutators/pcap.py, pcapng.py, erf.py), one for the Wireshark tools (tools.py)
and one for any container (generic.py); mutators/common.py has the registry
and Ctx, mutators/views.py the pcap/pcapng views of an input.  This file
keeps what campaign.py uses (Views, schedule, derive_seed, make_mutant) and
the command line.

Every mutator takes a Ctx (rng, views of the input, a scratch directory and
a list of notes saying what it did, for the regression-seed report) and
returns (bytes, extension) or None when it does not apply to this input.

Command line (to reproduce one mutant by hand):
    mutate.py INPUT --mutator NAME --seed N -o OUT
    mutate.py --list
"""
import argparse
import hashlib
import shutil
import sys
import tempfile

# No __pycache__ in the source tree when run by hand (campaign.py, run by
# ctest, sets the same before it imports this file).
sys.dont_write_bytecode = True
from mutators import MUTATORS, Ctx, Views  # noqa: E402  (campaign.py uses Views too)


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
