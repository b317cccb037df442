# SPDX-License-Identifier: GPL-2.0-or-later
"""Join classic pcap files end to end, as `mergecap -a` would, so that one
reader start (tshark, ulb-lint) covers many small captures.

Each part is moved back in time by a whole number of hours from the part
before it: time going backwards by more than a second is how the engine
tells captures joined end to end, and each part is then analysed as if it
were alone (docs/architecture.md, CAP-JOINED).  Times inside a part keep
their distances to the microsecond.
"""
import struct

MAGIC = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
         b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}
STEP_S = 3600


def is_pcap(path):
    with open(path, "rb") as f:
        return f.read(4) in MAGIC


def records(data, e):
    """(offset of the record header, seconds, caplen) of every record."""
    out, pos = [], 24
    while pos + 16 <= len(data):
        sec, _, caplen, _ = struct.unpack_from(e + "IIII", data, pos)
        out.append((pos, sec, caplen))
        pos += 16 + caplen
    return out


def join_pcaps(parts, dst):
    """Write the classic pcap files `parts` to dst, one after the other.
    Returns, for each part, the number its frames are shifted by in dst
    (frame n of part i is frame n + offsets[i] of dst).  Every part must
    share the first one's byte order, time resolution and link type."""
    head, e, out, offsets, frames, start = None, None, [], [], 0, None
    for i, path in enumerate(parts):
        with open(path, "rb") as f:
            data = f.read()
        pe = MAGIC.get(data[:4])
        if pe is None:
            raise ValueError("%s: not a classic pcap file" % path)
        if head is None:
            head, e = bytearray(data[:24]), pe
        elif data[:4] != head[:4] or data[20:24] != head[20:24]:
            raise ValueError("%s: byte order, time resolution or link type differs from %s" %
                             (path, parts[0]))
        head[16:20] = struct.pack(e + "I", max(struct.unpack_from(e + "I", head, 16)[0],
                                               struct.unpack_from(pe + "I", data, 16)[0]))
        recs = records(data, e)
        offsets.append(frames)
        frames += len(recs)
        if not recs:
            continue
        if start is None:
            start = recs[0][1]
        shift = start - i * STEP_S - recs[0][1]
        for pos, sec, caplen in recs:
            rec = bytearray(data[pos:pos + 16 + caplen])
            struct.pack_into(e + "I", rec, 0, (sec + shift) & 0xffffffff)
            out.append(bytes(rec))
    with open(dst, "wb") as f:
        f.write(bytes(head))
        f.write(b"".join(out))
    return offsets


def join_groups(caps, dst):
    """The captures to read instead of caps: the classic pcap files among
    them joined into dst, any other (pcapng) read alone.  Returns
    [(capture, [(index in caps, frame offset), ...]), ...]."""
    pcaps = [i for i, c in enumerate(caps) if is_pcap(c)]
    groups = []
    if pcaps:
        offsets = join_pcaps([caps[i] for i in pcaps], dst)
        groups.append((dst, list(zip(pcaps, offsets))))
    groups += [(c, [(i, 0)]) for i, c in enumerate(caps) if i not in pcaps]
    return groups
