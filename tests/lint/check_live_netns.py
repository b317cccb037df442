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

--held SCENARIO --pcapgen GEN: a finding held for a loss to show, on a
connection that then falls idle, is told while the capture is idle.  GEN
makes the scenario's RoCEv2 capture; tcpreplay sends its frames up to the
generator's expected finding and the acknowledgment after it, then nothing:
the finding (the file run's, which must be the generator's) must be on
ulb-lint's stdout within --idle seconds, before ulb-lint is ended.
"""
import select
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


def first_frames(src, dst, n):
    """Write the first n records of the classic pcap src to dst."""
    data = open(src, "rb").read()
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\xa1\xb2\xc3\xd4": ">"}[data[:4]]
    pos = 24
    for _ in range(n):
        pos += 16 + struct.unpack_from(e + "I", data, pos + 8)[0]
    open(dst, "wb").write(data[:pos])


def start_lint(a, tmp, ns, extra):
    for args in (["netns", "add", ns], ["-n", ns, "link", "add", "rr0", "type", "veth", "peer", "name", "rr1"]):
        subprocess.run(["ip"] + args, check=True)
    sh(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1")
    for dev in ("rr0", "rr1", "lo"):
        subprocess.run(["ip", "-n", ns, "link", "set", dev, "mtu", "9000" if dev != "lo" else "65536", "up"],
                       check=True)
    err = open(os.path.join(tmp, "lint.err"), "w+")
    lint = subprocess.Popen(["ip", "netns", "exec", ns, a.lint, "--format", "json", "-i", "rr1"] + extra +
                            ["udp", "port", str(ROCE_PORT)], stdout=subprocess.PIPE, stderr=err)
    a.procs.append(lint)
    deadline = time.monotonic() + 20
    while "capturing on rr1" not in open(err.name).read():
        if time.monotonic() > deadline or lint.poll() is not None:
            raise SystemExit("ulb-lint -i did not start:\n" + open(err.name).read())
        time.sleep(0.05)
    return lint, err


def run_held(a, tmp, ns):
    full, cut = os.path.join(tmp, "held.pcap"), os.path.join(tmp, "first.pcap")
    subprocess.run([a.pcapgen, "--link", "rocev2", a.held, "-o", full, "--truth", full + ".json"], check=True,
                   stdout=subprocess.DEVNULL)
    expect = json.load(open(full + ".json"))["expect"]
    want = subprocess.run([a.lint, "-q", "--format", "json", full], stdout=subprocess.PIPE, check=False)
    want, _ = findings(want.stdout.decode())
    if len(expect) != 1 or [(w["rule"], w["frame"]) for w in want] != [(expect[0]["rule"], expect[0]["frame"])]:
        print("FAIL: the file run's findings are not the generator's %s" % expect)
        return 1
    first_frames(full, cut, expect[0]["frame"] + 1)
    lint, err = start_lint(a, tmp, ns, [])
    sh(ns, a.tcpreplay, "-q", "-i", "rr0", cut, stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    out = b""
    while time.monotonic() < t0 + a.idle and b"\n" not in out:
        r, _, _ = select.select([lint.stdout], [], [], 0.1)
        if r:
            out += os.read(lint.stdout.fileno(), 65536)
    waited = time.monotonic() - t0
    lint.send_signal(signal.SIGINT)
    lint.communicate(timeout=30)
    got, _ = findings(out.decode().split("\n")[0] if b"\n" in out else "")
    strip = lambda rows: [{k: v for k, v in r.items() if k != "file"} for r in rows]
    if strip(got) != strip(want):
        print("FAIL: the held %s (frame %d) was not on stdout within %.0f s of idle capture:\n%s"
              % (expect[0]["rule"], expect[0]["frame"], a.idle, open(err.name).read()))
        return 1
    print("ok: the held %s (frame %d) out %.2f s after the replay, the capture idle" %
          (expect[0]["rule"], expect[0]["frame"], waited))
    return 0


def run(a, tmp, ns):
    cut = os.path.join(tmp, "roce.pcap")
    nframes = roce_only(a.capture, cut)
    want = subprocess.run([a.lint, "-q", "--format", "json", cut], stdout=subprocess.PIPE, check=False)
    want, _ = findings(want.stdout.decode())
    lint, err = start_lint(a, tmp, ns, ["--summary", "--interval", "2"])
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
    ap.add_argument("--capture")
    ap.add_argument("--held")
    ap.add_argument("--pcapgen")
    ap.add_argument("--idle", type=float, default=6.0, help="seconds the held finding may take once idle")
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
        return run_held(a, tmp, ns) if a.held else run(a, tmp, ns)
    finally:
        for p in a.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
