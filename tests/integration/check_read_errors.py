# SPDX-License-Identifier: GPL-2.0-or-later
"""Every read error names the file, the byte offset and the last good frame
in plain words, and says what was analysed before it.

The damaged files are made here from a real capture, by this script's own
pcap and pcapng writers, so the script knows where each damage lies: that
is the oracle for the offset and the frame the message must name.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures  # noqa: E402


def pcap_records(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:4] == b"\xd4\xc3\xb2\xa1", "little-endian microsecond pcap expected"
    pos, recs = 24, []
    while pos + 16 <= len(data):
        caplen = struct.unpack_from("<I", data, pos + 8)[0]
        recs.append(data[pos:pos + 16 + caplen])
        pos += 16 + caplen
    return data[:24], recs


def pcapng_blocks(head, recs):
    """SHB, IDB, then one EPB per record."""
    linktype, snaplen = struct.unpack_from("<I", head, 20)[0], struct.unpack_from("<I", head, 16)[0]
    shb = struct.pack("<IIIHHqI", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1, 28)
    idb = struct.pack("<IIHHII", 1, 20, linktype, 0, snaplen, 20)
    out = [shb, idb]
    for r in recs:
        sec, usec, caplen, wirelen = struct.unpack_from("<IIII", r, 0)
        ts = sec * 1000000 + usec
        body = r[16:] + b"\0" * (-caplen % 4)
        n = 32 + len(body)
        out.append(struct.pack("<IIIIIII", 6, n, 0, ts >> 32, ts & 0xFFFFFFFF, caplen, wirelen) +
                   body + struct.pack("<I", n))
    return out


def lint(binary, path):
    p = subprocess.run([binary, "--quiet", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stderr.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("capture")
    a = ap.parse_args()
    fail = Failures("read_errors")
    head, recs = pcap_records(a.capture)
    k = 10                                   # damage after this many good frames
    good = 24 + sum(len(r) for r in recs[:k])
    blocks = pcapng_blocks(head, recs)
    ng_good = sum(len(b) for b in blocks[:2 + k])
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        def write(name, data):
            p = os.path.join(tmp, name)
            with open(p, "wb") as f:
                f.write(data)
            return p

        # pcap: the file stops inside frame k+1's data / header.
        cases.append((write("cut-data.pcap", head + b"".join(recs[:k]) + recs[k][:30]), good, k, "ends inside a frame"))
        cases.append((write("cut-hdr.pcap", head + b"".join(recs[:k]) + recs[k][:7]), good, k, "ends inside a record header"))
        # pcap: record k+1 claims 4 GiB.
        bad = bytearray(recs[k])
        struct.pack_into("<I", bad, 8, 0xFFFFFFFF)
        cases.append((write("caplen.pcap", head + b"".join(recs[:k]) + bytes(bad)), good, k, "claims 4294967295 captured bytes"))
        # pcapng: the file stops inside block k+3; block k+3 has an absurd length.
        cases.append((write("cut.pcapng", b"".join(blocks[:2 + k]) + blocks[2 + k][:40]), ng_good, k, "ends inside a block"))
        bad = bytearray(blocks[2 + k])
        struct.pack_into("<I", bad, 4, 0x7FFFFFF0)
        cases.append((write("blocklen.pcapng", b"".join(blocks[:2 + k]) + bytes(bad) + b"".join(blocks[3 + k:])), ng_good, k, "damaged"))
        # pcapng: the section header itself (length 28 -> 2147483632): nothing can be read.
        shb = bytearray(blocks[0])
        struct.pack_into("<I", shb, 4, 0x7FFFFFF0)
        cases.append((write("shb.pcapng", bytes(shb) + b"".join(blocks[1:])), 0, 0, "section header block at byte offset 0 is damaged"))
        cases.append((write("text.pcap", b"this is not a capture file\n"), 0, 0, "not a pcap or pcapng capture"))
        cases.append((write("empty.pcap", b""), 0, 0, "empty"))

        checked = 0
        for path, off, frames, words in cases:
            name = os.path.basename(path)
            rc, err = lint(a.lint, path)
            checked += 1
            if rc != 2:
                fail.add("%s: exit %d, expected 2" % (name, rc))
            if path not in err:
                fail.add("%s: the message does not name the file: %r" % (name, err))
            if words not in err:
                fail.add("%s: expected the words %r in %r" % (name, words, err))
            if frames:
                if "byte offset %d," % off not in err:
                    fail.add("%s: expected byte offset %d in %r" % (name, off, err))
                if "after frame %d (the last good frame)" % frames not in err or \
                   "Frames 1 to %d were analysed" % frames not in err:
                    fail.add("%s: expected the last good frame %d and what was analysed in %r" % (name, frames, err))
            elif "othing was analysed" not in err:
                fail.add("%s: expected 'nothing was analysed' in %r" % (name, err))
            if re.search(r"INSANE|dump file;", err) and "libpcap:" not in err:
                fail.add("%s: libpcap's words without ours: %r" % (name, err))
    fail.finish(checked)


if __name__ == "__main__":
    main()
