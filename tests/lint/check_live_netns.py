# SPDX-License-Identifier: GPL-2.0-or-later
"""`ulb-lint -i` on a veth pair finds what the capture file gives.

In a network namespace of its own, a veth pair rr0 <-> rr1: tcpreplay sends
a bundled real capture (RoCEv2, UDP 4791) out of rr0, ulb-lint captures on
rr1 with the filter `udp port 4791` and is ended with SIGINT once the
replay is over.  The oracle is ulb-lint on the file cut to the same frames
(the capture's UDP 4791 frames, chosen here by this script's own pcap
reader): its findings in JSON Lines.  When libpcap dropped nothing and every
frame arrived, the findings must be equal, frame numbers included; otherwise
the frame-independent content (rule, severity, XID, connection, message
with frame numbers set aside) must be.  The --summary line must report the
capture's counts.  Needs root (skipped, exit 77, otherwise); the namespace
is removed whatever happens.
"""
import argparse
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

ROCE_PORT = 4791


def roce_only(src, dst):
    """Write the Ethernet/IPv4/UDP 4791 frames of the classic pcap src to dst; returns how many."""
    data = open(src, "rb").read()
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">"}.get(data[:4])
    if not e or struct.unpack_from(e + "I", data, 20)[0] != 1:
        raise SystemExit("%s: not a microsecond Ethernet pcap" % src)
    out, pos, n = [data[:24]], 24, 0
    while pos + 16 <= len(data):
        caplen = struct.unpack_from(e + "I", data, pos + 8)[0]
        rec = data[pos:pos + 16 + caplen]
        p = rec[16:]
        pos += 16 + caplen
        if len(p) >= 38 and p[12:14] == b"\x08\x00" and p[23] == 17:
            ihl = (p[14] & 15) * 4
            if struct.unpack_from(">H", p, 14 + ihl + 2)[0] == ROCE_PORT:
                out.append(rec)
                n += 1
    open(dst, "wb").write(b"".join(out))
    return n


def findings(text):
    rows = [json.loads(l) for l in text.splitlines() if l.strip()]
    return [r for r in rows if "rule" in r], [r for r in rows if "summary" in r]


def frame_free(f):
    msg = re.sub(r"\bframes? \d+", "frame N", f["message"])
    return (f["rule"], f["severity"], f["xid"], f["conn"], msg)


def sh(ns, *cmd, **kw):
    return subprocess.run(["ip", "netns", "exec", ns] + list(cmd), check=True, **kw)


def run(a, tmp, ns):
    cut = os.path.join(tmp, "roce.pcap")
    nframes = roce_only(a.capture, cut)
    want = subprocess.run([a.lint, "-q", "--format", "json", cut], stdout=subprocess.PIPE, check=False)
    want, _ = findings(want.stdout.decode())
    for args in (["netns", "add", ns], ["-n", ns, "link", "add", "rr0", "type", "veth", "peer", "name", "rr1"]):
        subprocess.run(["ip"] + args, check=True)
    sh(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
    for dev in ("rr0", "rr1", "lo"):
        subprocess.run(["ip", "-n", ns, "link", "set", dev, "mtu", "9000" if dev != "lo" else "65536", "up"],
                       check=True)
    err = open(os.path.join(tmp, "lint.err"), "w+")
    lint = subprocess.Popen(["ip", "netns", "exec", ns, a.lint, "--format", "json", "--summary", "-i", "rr1",
                             "--interval", "2", "udp", "port", str(ROCE_PORT)],
                            stdout=subprocess.PIPE, stderr=err)
    a.procs.append(lint)
    deadline = time.monotonic() + 20
    while "capturing on rr1" not in open(err.name).read():
        if time.monotonic() > deadline or lint.poll() is not None:
            raise SystemExit("ulb-lint -i did not start:\n" + open(err.name).read())
        time.sleep(0.05)
    sh(ns, a.tcpreplay, "-q", "-i", "rr0", "--multiplier", str(a.multiplier), cut, stdout=subprocess.DEVNULL)
    time.sleep(1.0)
    lint.send_signal(signal.SIGINT)
    out, _ = lint.communicate(timeout=30)
    if lint.returncode not in (0, 1):
        raise SystemExit("ulb-lint -i exited %d:\n%s" % (lint.returncode, open(err.name).read()))
    got, summ = findings(out.decode())
    sys.stdout.write(open(err.name).read())
    if len(summ) != 1 or summ[0].get("schema") != 1:
        print("FAIL: no --summary line after SIGINT")
        return 1
    cap = summ[0]["summary"]["capture"]
    print("file: %d frames of UDP %d, %d findings; live: %d frames, %d dropped by libpcap, %d by the "
          "interface, %d findings" % (nframes, ROCE_PORT, len(want), cap["frames"], cap["dropped"],
                                      cap["ifdropped"], len(got)))
    strip = lambda rows: [{k: v for k, v in r.items() if k != "file"} for r in rows]
    if cap["dropped"] == 0 and cap["ifdropped"] == 0 and cap["frames"] == nframes:
        if strip(got) != strip(want):
            print("FAIL: nothing was dropped, yet the findings differ from the file's")
            for w, g in zip(strip(want), strip(got)):
                if w != g:
                    print("  file: %s\n  live: %s" % (w, g))
            return 1
        print("ok: the same %d findings as the file, frame numbers included" % len(got))
        return 0
    if sorted(map(frame_free, got)) != sorted(map(frame_free, want)):
        print("FAIL: frames were lost and the frame-independent findings differ")
        return 1
    print("ok: the same %d findings as the file, frame numbers aside (frames were lost)" % len(got))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--multiplier", type=float, default=4.0, help="tcpreplay's speed-up of the capture's timing")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("skipped: network namespaces and capturing need root")
        return 77
    a.tcpreplay = shutil.which("tcpreplay")
    if not a.tcpreplay:
        print("FAIL: tcpreplay is missing (scripts/install-deps.sh installs it)")
        return 1
    a.procs = []
    ns = "rrlint%d" % os.getpid()
    tmp = tempfile.mkdtemp(prefix="rr-live-")
    try:
        return run(a, tmp, ns)
    finally:
        for p in a.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
