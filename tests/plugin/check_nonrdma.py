# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin claims no frame that is not RDMA.

Each capture given (sample-pcaps/other/: an HTTP download cut at 200 bytes
a frame, plain UDP with random bytes to port 4791) is read by tshark -2
twice, as an unprivileged user (ws-user.sh): with the plugin and without
it.  The run without the plugin is the oracle.  With the plugin, no frame
may have an rpcrdma item (-Y rpcrdma matches nothing), and every frame's
protocols, Protocol and Info columns and expert infos must be those of the
oracle.

--damaged-ack CAPTURE: a copy of a real RoCEv2 capture whose RC
Acknowledge frames get their ICRC inverted (found by this script's own
pcap walk).  An ACK with a bad ICRC is still an ACK: with the plugin, none
of those frames may carry an RPC-over-RDMA Send or message, their only
expert infos beyond the oracle's are CAP-ICRC, their Protocol column is the
oracle's and their Info column the oracle's, marked "[CAP-ICRC] " in front
(as Wireshark marks "[TCP Retransmission]").
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

FIELDS = ["frame.number", "frame.protocols", "_ws.col.Protocol", "_ws.col.Info", "_ws.expert.message"]
RPC_ITEMS = ("rpcrdma.send || rpcrdma.message || rpcrdma.xid || rpcrdma.send.completed_in "
             "|| rpcrdma.rebuilt_in || rpcrdma.proc")


class Tshark:
    def __init__(self, ws_user, plugin, home):
        self.ws_user, self.plugin, self.home = ws_user, plugin, home

    def run(self, args, plugin=True):
        cmd = [self.ws_user, self.plugin if plugin else "none", "--home",
               self.home if plugin else self.home + "-none", "--", "tshark"] + args
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr.decode()[-2000:]))
        return p.stdout.decode(errors="replace")

    def column(self, name):
        """A column's field: `_ws.col.info` from Wireshark 4.2 on (where `_ws.col.Info` stays empty
        with -2), `_ws.col.Info` before."""
        if not hasattr(self, "lower_columns"):
            self.lower_columns = "\t_ws.col.info\t" in self.run(["-G", "fields"], plugin=False)
        return "_ws.col." + (name.lower() if self.lower_columns else name)

    def rows(self, cap, plugin):
        args = ["-r", cap, "-2", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|"]
        for f in FIELDS:
            args += ["-e", self.column(f[8:]) if f.startswith("_ws.col.") else f]
        out = {}
        for line in self.run(args, plugin).splitlines():
            cols = line.split("\t")
            out[int(cols[0])] = cols[1:]
        return out

    def frames(self, cap, dfilter):
        out = self.run(["-r", cap, "-2", "-Y", dfilter, "-T", "fields", "-e", "frame.number"])
        return [int(x) for x in out.split()]


def experts(row):
    return set(m for m in row[3].split("|") if m)


def rocev2_acks(src, dst):
    """Copy src to dst with the ICRC of every whole RoCEv2 RC Acknowledge
    (IPv4, BTH opcode 0x11) inverted; returns their frame numbers."""
    with open(src, "rb") as f:
        data = bytearray(f.read())
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">"}.get(bytes(data[:4]))
    if not e:
        raise SystemExit("%s: not a microsecond pcap" % src)
    pos, num, acks = 24, 0, []
    while pos + 16 <= len(data):
        caplen, wirelen = struct.unpack_from(e + "II", data, pos + 8)
        p, num = pos + 16, num + 1
        if caplen == wirelen and data[p + 12:p + 14] == b"\x08\x00" and data[p + 23] == 17:
            udp = p + 14 + (data[p + 14] & 0x0F) * 4
            dport, ulen = struct.unpack_from(">HH", data, udp + 2)
            if dport == 4791 and data[udp + 8] == 0x11:
                for i in range(udp + ulen - 4, udp + ulen):
                    data[i] ^= 0xFF
                acks.append(num)
        pos = p + caplen
    with open(dst, "wb") as f:
        f.write(data)
    os.chmod(dst, 0o644)
    return acks


def compare(ts, cap, frames, fail, what, info_mark=""):
    """The plugin's rows for frames against the oracle's; returns the plugin's rows.
    info_mark: what the plugin puts in front of those frames' Info."""
    mine, oracle = ts.rows(cap, True), ts.rows(cap, False)
    if sorted(mine) != sorted(oracle):
        fail.append("%s: %d frames with the plugin, %d without" % (what, len(mine), len(oracle)))
    for n in frames if frames is not None else sorted(oracle):
        a, b = mine.get(n), oracle.get(n)
        if a is None or b is None:
            continue
        for i, name in enumerate(FIELDS[1:4]):
            want = info_mark + b[i] if name == "_ws.col.Info" else b[i]
            # From Wireshark 4.2 on a postdissector cannot mark the Info of a frame the lower layer
            # labelled; the mark is then absent, and the rest must still be the oracle's.
            if a[i] != want and not (name == "_ws.col.Info" and ts.lower_columns and a[i] == b[i]):
                fail.append("%s frame %d: %s %r, without the plugin %r" % (what, n, name, a[i], b[i]))
    return mine, oracle


def check_plain(ts, cap, fail):
    name = os.path.basename(cap)
    claimed = ts.frames(cap, "rpcrdma")
    if claimed:
        fail.append("%s: %d frames have an rpcrdma item (first: %s)" % (name, len(claimed), claimed[:5]))
    mine, oracle = compare(ts, cap, None, fail, name)
    for n in sorted(oracle):
        extra = experts(mine.get(n, ["", "", "", ""])) - experts(oracle[n])
        if extra:
            fail.append("%s frame %d: expert infos the oracle has not: %s" % (name, n, sorted(extra)[:3]))
    return len(oracle)


def check_damaged(ts, src, tmp, fail):
    cap = os.path.join(tmp, "damaged-" + os.path.basename(src))
    acks = rocev2_acks(src, cap)
    if not acks:
        raise SystemExit("%s: no RoCEv2 RC Acknowledge to damage" % src)
    what = "%s with %d ACK ICRCs inverted" % (os.path.basename(src), len(acks))
    rpc = set(ts.frames(cap, RPC_ITEMS)) & set(acks)
    if rpc:
        fail.append("%s: ACK frames carry RPC-over-RDMA items: %s" % (what, sorted(rpc)[:5]))
    mine, oracle = compare(ts, cap, acks, fail, what, info_mark="[CAP-ICRC] ")
    for n in acks:
        extra = experts(mine.get(n, ["", "", "", ""])) - experts(oracle.get(n, ["", "", "", ""]))
        extra = [m for m in extra if not m.startswith("CAP-ICRC: ")]
        if extra:
            fail.append("%s frame %d: expert infos beyond CAP-ICRC: %s" % (what, n, extra[:3]))
    return len(acks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--damaged-ack", action="append", default=[], metavar="CAPTURE")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-nonrdma.")
    os.chmod(tmp, 0o755)
    fail, checked = [], 0
    try:
        ts = Tshark(a.ws_user, a.plugin, os.path.join(tmp, "home"))
        if "rpcrdma" not in ts.run(["-G", "protocols"]).split():
            raise SystemExit("the plugin did not load: tshark -G protocols has no rpcrdma")
        for cap in a.captures:
            checked += check_plain(ts, cap, fail)
        for cap in a.damaged_ack:
            checked += check_damaged(ts, cap, tmp, fail)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for m in fail[:40]:
        print("FAIL plugin_nonrdma: %s" % m)
    if fail:
        print("plugin_nonrdma: %d problems in %d frames" % (len(fail), checked))
        sys.exit(1)
    print("plugin_nonrdma: %d frames as Wireshark alone shows them" % checked)


if __name__ == "__main__":
    main()
