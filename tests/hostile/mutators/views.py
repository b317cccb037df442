# SPDX-License-Identifier: GPL-2.0-or-later
"""Views of an input: the same capture as pcap and as pcapng (editcap
converts), its link type, and the copies the Wireshark tools read."""
import os
import struct
import subprocess

from .pcap import PCAP_MAGICS, Pcap
from .pcapng import PNG_IDB, png_blocks


def sniff_format(data):
    if bytes(data[:4]) in PCAP_MAGICS:
        return "pcap"
    if bytes(data[:4]) == b"\x0a\x0d\x0d\x0a":
        return "pcapng"
    return None


# Wireshark 4.0's wiretap has no encapsulation for LINKTYPE_INFINIBAND (247):
# editcap and mergecap refuse such files.  -E flips bytes without looking at
# the encapsulation, so the tools are given a copy labelled EN10MB and the
# real link type is written back into what they produce.
WTAP_UNKNOWN_LINKTYPES = {247}
MASK_LINKTYPE = 1


def file_linktype(data, fmt):
    """The pcap header's link type, or the first IDB's; None if unreadable."""
    try:
        if fmt == "pcap":
            return Pcap(data[:24]).linktype
        for b in png_blocks(data):
            if b.type == PNG_IDB:
                return struct.unpack_from(b.e + "H", data, b.off + 8)[0]
    except (ValueError, struct.error):
        pass
    return None


def set_linktype(data, fmt, lt):
    """The same capture with another link type (pcap header, or every IDB)."""
    data = bytearray(data)
    if fmt == "pcap":
        p = Pcap(data[:24])
        struct.pack_into(p.e + "I", data, 20, lt)
    else:
        for b in png_blocks(data):
            if b.type == PNG_IDB:
                struct.pack_into(b.e + "H", data, b.off + 8, lt)
    return bytes(data)


class Views:
    """Paths of an input as pcap and as pcapng (None where editcap cannot
    convert, e.g. pcapng with several link types to pcap), its link type,
    and the copies the Wireshark tools read (see WTAP_UNKNOWN_LINKTYPES)."""

    def __init__(self, path, workdir, editcap="editcap", name=None):
        self.orig = path
        with open(path, "rb") as f:
            data = f.read()
        self.fmt = sniff_format(data)
        if self.fmt is None:
            raise ValueError("%s: neither pcap nor pcapng" % path)
        self.linktype = file_linktype(data, self.fmt)
        self.mask = self.linktype in WTAP_UNKNOWN_LINKTYPES
        stem = os.path.join(workdir, name or os.path.basename(path))
        self.path = {self.fmt: path}
        self.tool = {self.fmt: path}
        if self.mask:
            self.tool[self.fmt] = self._write(stem + ".mask." + self.fmt,
                                              set_linktype(data, self.fmt, MASK_LINKTYPE))
        other = "pcapng" if self.fmt == "pcap" else "pcap"
        masked = stem + (".mask." if self.mask else ".view.") + other
        if not os.path.exists(masked):
            p = subprocess.run([editcap, "-F", other, self.tool[self.fmt], masked + ".tmp"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if p.returncode == 0:
                os.replace(masked + ".tmp", masked)
        if not os.path.exists(masked):
            self.path[other] = self.tool[other] = None
        elif self.mask:
            self.tool[other] = masked
            with open(masked, "rb") as f:
                real = set_linktype(f.read(), other, self.linktype)
            self.path[other] = self._write(stem + ".view." + other, real)
        else:
            self.path[other] = self.tool[other] = masked

    @staticmethod
    def _write(path, data):
        if not os.path.exists(path):
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
        return path

    def unmask(self, data, fmt):
        """What a Wireshark tool wrote from a tool copy, with the real link type back."""
        return set_linktype(data, fmt, self.linktype) if self.mask else data

    def has(self, fmt):
        return self.path.get(fmt) is not None

    def read(self, fmt):
        with open(self.path[fmt], "rb") as f:
            return f.read()


class FixedViews(Views):
    """A one-format view of an intermediate file (inside 'stack')."""

    def __init__(self, path, fmt, linktype):
        self.orig = path
        self.fmt = fmt
        self.path = {fmt: path, ("pcapng" if fmt == "pcap" else "pcap"): None}
        self.tool = dict(self.path)
        self.mask = False
        self.linktype = linktype
        if fmt == "pcap":
            try:
                with open(path, "rb") as f:
                    self.linktype = Pcap(f.read(24)).linktype
            except ValueError:
                self.path[fmt] = None
