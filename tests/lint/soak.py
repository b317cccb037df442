# SPDX-License-Identifier: GPL-2.0-or-later
"""Soak: ulb-lint reading a pipe for a long time keeps its memory flat.

A writer sends one endless pcap stream into `ulb-lint -` (by default with
--summary --format json, what a dashboard runs): rpcrdma-pcapgen's scenarios
one after the other, each generated afresh with the next seed (so every
one brings new connections: seeds drive addresses and QPNs), on RoCEv2 and
iWARP in turn, their timestamps moved on so that time never goes back.
Every --sample seconds ulb-lint's resident set (VmRSS) is read.

The bound: after the warm-up (the first fifth of the run, at least 10 s),
no sample may exceed the largest warm-up sample by more than --growth MiB,
and none may exceed --max-rss MiB.  The curve is printed (time, RSS,
frames sent) for the record.
"""
import argparse
import glob
import os
import queue
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

LINKS = ("rocev2", "iwarp")


def generator(a, tmp, out, stop):
    """Captures, one per seed, as lists of (ts_usec, record bytes after the header) on out."""
    scns = sorted(s for s in glob.glob(os.path.join(a.scenarios, "[0-9]*.scn")))
    seed = 1
    while not stop.is_set():
        scn = scns[seed % len(scns)]
        pcap = os.path.join(tmp, "g%d.pcap" % (seed % 4))
        subprocess.run([a.pcapgen, "--link", LINKS[seed % 2], "--seed", str(seed), "--format", "pcap", scn,
                        "-o", pcap, "--truth", pcap + ".json"], check=True, stdout=subprocess.DEVNULL)
        data = open(pcap, "rb").read()
        recs, pos = [], 24
        while pos + 16 <= len(data):
            sec, usec, caplen, wirelen = struct.unpack_from("<IIII", data, pos)
            recs.append((sec * 1000000 + usec, caplen, wirelen, data[pos + 16:pos + 16 + caplen]))
            pos += 16 + caplen
        while not stop.is_set():
            try:
                out.put(recs, timeout=0.5)
                break
            except queue.Full:
                pass
        seed += 1


def writer(a, pipe, q, stop, sent):
    """Header once, then every capture with its times shifted to follow the one before."""
    pipe.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1))
    now = 1_700_000_000 * 1000000
    while not stop.is_set():
        try:
            recs = q.get(timeout=0.5)
        except queue.Empty:
            continue
        base = recs[0][0]
        buf = []
        for ts, caplen, wirelen, body in recs:
            t = now + (ts - base)
            buf.append(struct.pack("<IIII", t // 1000000, t % 1000000, caplen, wirelen) + body)
        now = now + (recs[-1][0] - base) + 1000
        try:
            pipe.write(b"".join(buf))
        except BrokenPipeError:
            return
        sent[0] += len(recs)
        sent[1] += 1


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--seconds", type=float, default=45)
    ap.add_argument("--sample", type=float, default=2)
    ap.add_argument("--growth", type=float, default=8, help="MiB allowed above the warm-up's peak")
    ap.add_argument("--max-rss", type=float, default=128, help="MiB no sample may exceed")
    ap.add_argument("--only-if-env", metavar="VAR", help="skip (exit 77) unless VAR is set to 1")
    ap.add_argument("lint_args", nargs="*", default=["--summary", "--format", "json"])
    a = ap.parse_args()
    if a.only_if_env and os.environ.get(a.only_if_env) != "1":
        print("skipped: set %s=1 to run this soak (docs/testing.md)" % a.only_if_env)
        return 77
    tmp = tempfile.mkdtemp(prefix="rr-soak-")
    lint = subprocess.Popen([a.lint, "-q"] + a.lint_args + ["-"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stop = threading.Event()
    q = queue.Queue(maxsize=64)
    sent = [0, 0]
    gens = [threading.Thread(target=generator, args=(a, tmp, q, stop), daemon=True)]
    w = threading.Thread(target=writer, args=(a, lint.stdin, q, stop, sent), daemon=True)
    for t in gens + [w]:
        t.start()
    t0 = time.monotonic()
    curve = []
    while time.monotonic() - t0 < a.seconds and lint.poll() is None:
        time.sleep(a.sample)
        curve.append((time.monotonic() - t0, rss_mib(lint.pid), sent[0], sent[1]))
        print("%7.1f s  RSS %7.1f MiB  %9d frames  %6d captures" % curve[-1], flush=True)
    stop.set()
    w.join(5)
    lint.stdin.close()
    err = lint.stderr.read().decode()
    lint.wait()
    for t in gens:
        t.join(10)
    shutil.rmtree(tmp, ignore_errors=True)
    if lint.returncode not in (0, 1):
        print("FAIL: ulb-lint exited %d: %s" % (lint.returncode, err[-2000:]))
        return 1
    warm = [c for c in curve if c[0] <= max(10.0, a.seconds / 5)]
    rest = [c for c in curve if c not in warm]
    if not warm or not rest:
        print("FAIL: too short a run to judge (%d samples)" % len(curve))
        return 1
    bound = max(c[1] for c in warm) + a.growth
    peak = max(c[1] for c in rest)
    print("%d frames in %d captures; RSS after the warm-up at most %.1f MiB (bound %.1f, limit %.0f)" %
          (sent[0], sent[1], peak, bound, a.max_rss))
    if peak > bound or peak > a.max_rss:
        print("FAIL: ulb-lint's memory grew")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
