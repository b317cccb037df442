#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Turn pcap files into seeds for fuzz_capture.c.

Seed format: one byte choosing the link type (an index into the harness's
linktypes[]), then frames, each a 2-byte big-endian length and the bytes.
  make_capture_corpus.py OUTDIR FILE.pcap...   (at most 60 frames per seed)
"""
import os
import struct
import sys

LINKTYPES = [1, 113, 276, 247, 197, 101]


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic not in (0xa1b2c3d4, 0xa1b23c4d):
        raise SystemExit("%s: only little-endian classic pcap is read here" % path)
    lt = struct.unpack("<I", data[20:24])[0]
    o, out = 24, []
    while o + 16 <= len(data):
        cap = struct.unpack("<I", data[o + 8:o + 12])[0]
        out.append(data[o + 16:o + 16 + cap])
        o += 16 + cap
    return lt, out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for path in sys.argv[2:]:
        lt, fr = frames(path)
        if lt not in LINKTYPES:
            continue
        seed = bytes([LINKTYPES.index(lt)])
        for f in fr[:60]:
            f = f[:0xffff]
            seed += struct.pack(">H", len(f)) + f
        name = os.path.splitext(os.path.basename(path))[0]
        with open(os.path.join(outdir, name + ".seed"), "wb") as out:
            out.write(seed)


if __name__ == "__main__":
    main()
