#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Feed a classic pcap file into a FIFO at a steady rate, as a live link would.

    pcap_pace.py [--rate N] [--wait S] [--hold S] CAPTURE FIFO

The pcap file header goes first, then one record every 1/N seconds
(default 250 frames/s, what a user's slow link shows; CI uses 2000).  The
records keep their own timestamps, so a capture made from the FIFO
(`tshark -i FIFO`, `wireshark -k -i FIFO`) holds the same frames the file
does and the engine judges the same times.  The FIFO is opened for writing
once a reader holds it (at most --wait seconds, default 60); after the last
record it stays open --hold seconds, then closes: the reader sees the end of
its input and stops capturing.  Prints one line: frames written, seconds.
Exits 1 with the place named when the capture is not a classic pcap, when
no reader comes, or when the reader goes away before the end.
"""
import argparse
import errno
import os
import struct
import sys
import time

MAGICS = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
          b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}


def records(path):
    """The file header, then every record (header and bytes) of a classic pcap."""
    with open(path, "rb") as f:
        data = f.read()
    endian = MAGICS.get(data[:4])
    if endian is None:
        raise ValueError("%s: not a classic pcap file (pcapng? convert it with editcap -F pcap)" % path)
    if len(data) < 24:
        raise ValueError("%s: truncated pcap file header" % path)
    out, pos = [data[:24]], 24
    while pos < len(data):
        if pos + 16 > len(data):
            raise ValueError("%s: truncated record header at byte %d" % (path, pos))
        caplen = struct.unpack_from(endian + "I", data, pos + 8)[0]
        end = pos + 16 + caplen
        if end > len(data):
            raise ValueError("%s: record at byte %d says %d bytes, the file ends first" % (path, pos, caplen))
        out.append(data[pos:end])
        pos = end
    return out


def open_writer(fifo, wait):
    """Open the FIFO for writing once a reader has it open (ENXIO until then)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise ValueError("%s: %s" % (fifo, e.strerror))
            if time.monotonic() > deadline:
                raise ValueError("%s: no reader opened it within %g s" % (fifo, wait))
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        return fd


def write_all(fd, buf):
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rate", type=float, default=250.0, help="frames per second (default 250)")
    ap.add_argument("--wait", type=float, default=60.0, help="seconds to wait for a reader (default 60)")
    ap.add_argument("--hold", type=float, default=0.0, help="seconds to keep the FIFO open after the last record")
    ap.add_argument("capture")
    ap.add_argument("fifo")
    a = ap.parse_args()
    if a.rate <= 0:
        ap.error("--rate must be positive")
    try:
        recs = records(a.capture)
        if not os.path.exists(a.fifo):
            raise ValueError("%s: no such FIFO (make it with mkfifo)" % a.fifo)
        fd = open_writer(a.fifo, a.wait)
    except (OSError, ValueError) as e:
        sys.exit("pcap_pace: %s" % e)
    start = time.monotonic()
    n = 0
    try:
        write_all(fd, recs[0])
        for i, rec in enumerate(recs[1:]):
            delay = start + i / a.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            write_all(fd, rec)
            n += 1
        time.sleep(a.hold)
    except BrokenPipeError:
        sys.exit("pcap_pace: %s: the reader went away after %d of %d frames" % (a.fifo, n, len(recs) - 1))
    finally:
        os.close(fd)
    print("pcap_pace: %d frames in %.1f s into %s" % (n, time.monotonic() - start, a.fifo))


if __name__ == "__main__":
    main()
