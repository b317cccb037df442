#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --jobs N against one thread: the same findings, the same counts.

The oracle is ulb-lint without --jobs, whose findings findings_identity
holds to a stored reference.  Checked here:
  - every bundled capture (sample-pcaps/**), with --jobs 2: most are one
    group of hosts and are read by one thread, the rest are split;
  - a capture that must be split: bundled real captures joined end to end
    twice by bench/mixjoin.py (each pass on addresses of its own), with
    --jobs 2 and 3, and as pcapng (read by each worker, not mapped).  It holds no NFSv4.1 session and stays under the
    engine's memory bounds, the two things docs/ulb-lint.1 names that can
    make a split differ (see JOBS there);
  - standard input, which cannot be read twice (also after a file that is
    not split, whose attempt must leave standard input open), an InfiniBand capture (no
    addresses) and a VXLAN-tunneled one (the inner hosts decide), made by
    rpcrdma-pcapgen: one thread each, said so, the same findings;
  - hosts that all send to a multicast group and to the broadcast address:
    still a group per conversation.
Findings are compared sorted (those told at the capture's end come worker
by worker); the statistics line must give the same frames, RDMA frames,
connections, calls, replies and findings, and say how it was split.

    check_jobs.py --lint ULB-LINT --pcapgen GEN --root REPO
"""
import argparse
import glob
import json
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile

JOINED = ["nfs3-rxe.pcap", "nfs3-siw.pcap", "6.12/nfs3-rxe.pcap", "6.12/nfs3-siw.pcap", "7/nfs3-rxe.pcap",
          "7/nfs3-siw.pcap", "nfs40-rxe.pcap", "nfs40-siw.pcap", "rping-rxe.pcap", "rping-siw.pcap",
          "ibwritebw-rxe.pcap", "ibwritebw-siw.pcap"]
STATS = re.compile(r"(\d+) frames, (\d+) RDMA frames, (\d+) connections, (\d+) calls, (\d+) replies "
                   r"\((\d+) incomplete\); findings: (\d+) error, (\d+) warning, (\d+) info; (\d+) checks skipped")


def run(lint, args, stdin=None, env=None, as_limit=None):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
    p = subprocess.run([lint, "--format", "json"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=stdin, env=env, preexec_fn=limit if as_limit else None)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode()[-400:]))
    lines = []
    for l in p.stdout.decode().splitlines():
        if l.strip():
            d = json.loads(l)
            d["file"] = ""          # the name given; standard input is "<stdin>"
            lines.append(json.dumps(d, sort_keys=True))
    return sorted(lines), p.stderr.decode()


def stats(err):
    m = STATS.search(err)
    return m.groups() if m else None


def compare(name, want, got):
    """A sentence for each difference between two runs, [] when they agree."""
    bad = []
    if want[0] != got[0]:
        w, g = set(want[0]), set(got[0])
        bad.append("%s: findings differ: %d only in one thread, %d only in --jobs; first: %s" %
                   (name, len(w - g), len(g - w), sorted(w ^ g)[:2]))
    if stats(want[1]) is None or stats(want[1]) != stats(got[1]):
        bad.append("%s: statistics differ: %s / %s" % (name, stats(want[1]), stats(got[1])))
    return bad


def write_udp(path, frames, size):
    """A pcap of UDP frames of size payload bytes over Ethernet, one for each (source, destination)."""
    recs = []
    for i, (src, dst) in enumerate(frames):
        udp = struct.pack(">HHHH", 5000, 6000, 8 + size, 0) + bytes(size)
        ip = struct.pack(">BBHHHBBH4B4B", 0x45, 0, 20 + len(udp), i, 0, 64, 17, 0, *src, *dst) + udp
        eth = bytes(12) + b"\x08\x00" + ip
        recs.append(struct.pack("<IIII", 1700000000, i, len(eth), len(eth)) + eth)
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1) + b"".join(recs))


def write_bulky(path):
    """Forty 4042-byte UDP frames between two host pairs that never meet: two groups, frames past the
    size at which a split stops paying (docs/ulb-lint.1, JOBS)."""
    write_udp(path, [((10, 0, 0, 1 + 2 * (i % 2)), (10, 0, 0, 2 + 2 * (i % 2))) for i in range(40)], 4000)


def write_multicast(path):
    """Two UDP conversations, 10.0.0.1-10.0.0.2 and 10.0.0.3-10.0.0.4, whose four hosts also send to the
    mDNS group 224.0.0.251 and the broadcast address: two groups of hosts (a frame to a group is its
    sender's alone, docs/ulb-lint.1, JOBS), where joining every sender of a group would leave one."""
    mdns, bcast = (224, 0, 0, 251), (255, 255, 255, 255)
    pairs = [(1, 2), (2, 1), (3, 4), (4, 3), (1, mdns), (3, mdns), (2, bcast), (4, bcast)]
    write_udp(path, [((10, 0, 0, s), d if isinstance(d, tuple) else (10, 0, 0, d))
                     for s, d in pairs * 8], 32)


def file_changed_under(a, joined, one, tmp):
    """The mapped capture cut short, then grown, by another program while --jobs reads it (the shim
    does it as the first thread starts): a clear error and status 2, never a signal; and a warning that
    names the bytes not checked, with the findings of the capture as it was."""
    bad = []
    # A run cut short ends from a signal handler, its worker threads not joined: no leak to report.
    env = dict(os.environ, LD_PRELOAD=a.shim, ASAN_OPTIONS="verify_asan_link_order=0", RR_SHIM_FILE="",
               TSAN_OPTIONS=os.environ.get("TSAN_OPTIONS", "") + ":report_thread_leaks=0")
    # Cut to a third, its lost pages raise SIGBUS; cut by one byte, its last page reads as zeros past the end.
    for keep in (os.path.getsize(joined) // 3, os.path.getsize(joined) - 1):
        cut = os.path.join(tmp, "cut.pcap")
        shutil.copy(joined, cut)
        env.update(RR_SHIM_FILE=cut, RR_SHIM_TRUNCATE=str(keep))
        p = subprocess.run([a.lint, "-j", "2", cut], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if p.returncode != 2 or "the file was cut short while --jobs read it" not in p.stderr.decode():
            bad.append("a capture cut short to %d bytes under -j: exit %d (want 2, and why): %s" %
                       (keep, p.returncode, p.stderr.decode()[-300:]))
    # No room in the address space to map it (ulimit -v): one thread reads it, and says why.
    version = subprocess.run([a.lint, "--version"], capture_output=True, text=True).stdout
    # An address space too small for a split (ulimit -v: the file, a heap and a stack per worker) but
    # not for one thread: one thread reads it and says why; with room, it is split.  The sanitizers
    # reserve terabytes of shadow memory: no limit can be set for them.
    if "Sanitizer" not in version:
        for limit, split in ((200 << 20, False), (2 << 30, True)):
            got = run(a.lint, ["-j", "2", joined], as_limit=limit)
            bad += compare("-j 2 in %d MiB of address space" % (limit >> 20), one, got)
            said = "read by one thread: the address space is limited" in got[1]
            if said == split or ("host groups split over 2 threads" in got[1]) != split:
                bad.append("-j 2 in %d MiB of address space: %s: %s" %
                           (limit >> 20, "not split" if split else "no word of the limit", got[1][-300:]))
    if "ThreadSanitizer" in version:
        print("no room to map: skipped under ThreadSanitizer (its runtime takes no preloaded mmap)")
    else:
        roomless = dict(os.environ, LD_PRELOAD=a.noroom_shim, ASAN_OPTIONS="verify_asan_link_order=0",
                        RR_SHIM_NO_ROOM=joined)
        got = run(a.lint, ["-j", "2", joined], env=roomless)
        bad += compare("a capture with no room to map it under -j", one, got)
        if "read by one thread: there is no room to map it" not in got[1]:
            bad.append("a capture with no room to map it under -j: not said: %s" % got[1][-300:])
    grown, more = os.path.join(tmp, "grown.pcap"), os.path.join(tmp, "more.bin")
    shutil.copy(joined, grown)
    with open(joined, "rb") as f, open(more, "wb") as g:
        g.write(f.read()[24:])
    env = dict(env, RR_SHIM_FILE=grown, RR_SHIM_APPEND=more)
    del env["RR_SHIM_TRUNCATE"]
    got = run(a.lint, ["-j", "2", grown], env=env)
    bad += compare("a capture grown under -j", one, got)
    want = "the %d bytes after byte offset %d were not checked" % (os.path.getsize(more), os.path.getsize(joined))
    if want not in got[1]:
        bad.append("a capture grown under -j: no warning that %s: %s" % (want, got[1][-300:]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--shim", required=True, help="jobs_file_shim.so (LD_PRELOAD)")
    ap.add_argument("--noroom-shim", required=True, help="jobs_noroom_shim.so (LD_PRELOAD)")
    a = ap.parse_args()
    bad, split = [], 0
    caps = sorted(c for c in glob.glob(os.path.join(a.root, "sample-pcaps", "**", "*.pcap*"), recursive=True)
                  if c.endswith((".pcap", ".pcapng")))
    for cap in caps:
        one, two = run(a.lint, [cap]), run(a.lint, ["-j", "2", cap])
        bad += compare(os.path.relpath(cap, a.root), one, two)
        split += "split over 2 threads" in two[1]
    print("bundled captures: %d, of which %d split; %d differ" % (len(caps), split, len(bad)))
    with tempfile.TemporaryDirectory() as tmp:
        joined = os.path.join(tmp, "joined.pcap")
        subprocess.run([sys.executable, os.path.join(a.root, "bench", "mixjoin.py"), "-n", "2", "-o", joined] +
                       [os.path.join(a.root, "sample-pcaps", "real", f) for f in JOINED], check=True)
        one = run(a.lint, [joined])
        for jobs in ("2", "3"):
            got = run(a.lint, ["-j", jobs, joined])
            bad += compare("joined capture, --jobs " + jobs, one, got)
            m = re.search(r"(\d+) host groups split over %s threads \(frames each:([ \d]+)\)" % jobs, got[1])
            if not m:
                bad.append("joined capture, --jobs %s: not split: %s" % (jobs, got[1].strip()[-300:]))
            elif sum(int(x) for x in m.group(2).split()) != int(stats(got[1])[0]):
                bad.append("joined capture, --jobs %s: the workers' frames do not add up to the capture's" % jobs)
            elif min(int(x) for x in m.group(2).split()) == 0:
                bad.append("joined capture, --jobs %s: a worker had no frames: %s" % (jobs, m.group(0)))
        print("joined capture: %d findings, %s" % (len(one[0]), stats(one[1])))
        bad += file_changed_under(a, joined, one, tmp)
        # The same as pcapng: not mapped, each worker reads the file itself.
        joined_ng = os.path.join(tmp, "joined.pcapng")
        subprocess.run(["editcap", "-F", "pcapng", joined, joined_ng], check=True)
        got = run(a.lint, ["-j", "2", joined_ng])
        bad += compare("joined capture as pcapng, --jobs 2", one, got)
        if "split over 2 threads" not in got[1]:
            bad.append("joined capture as pcapng: not split: " + got[1].strip()[-300:])
        with open(joined, "rb") as f:
            piped = run(a.lint, ["-j", "2", "-"], stdin=f)
        bad += compare("standard input", (one[0], one[1]), (piped[0], piped[1]))
        if "read by one thread" not in piped[1]:
            bad.append("standard input: no word that it was read by one thread: " + piped[1][:200])
        # A file not split, then standard input: the first must leave the second's descriptor alone.
        single = os.path.join(a.root, "sample-pcaps", "real", "rping-rxe.pcap")
        with open(joined, "rb") as f:
            both = subprocess.run([a.lint, "-j", "2", single, "-"], stdin=f, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE).stderr.decode()
        if both.count(" RDMA frames, ") != 2 or stats(both.split("<stdin>: read by one thread")[-1]) != stats(one[1]):
            bad.append("a file not split, then standard input: stdin was not read whole: " + both[-400:])
        bulky = os.path.join(tmp, "bulky.pcap")
        write_bulky(bulky)
        got = run(a.lint, ["-j", "2", bulky])
        if "read by one thread: its frames average 4042 bytes" not in got[1]:
            bad.append("bulky frames: not read by one thread for their size: " + got[1][:300])
        mcast = os.path.join(tmp, "multicast.pcap")
        write_multicast(mcast)
        one, got = run(a.lint, [mcast]), run(a.lint, ["-j", "2", mcast])
        bad += compare("multicast", one, got)
        if "2 host groups split over 2 threads" not in got[1]:
            bad.append("multicast: its senders to a group were not two groups: " + got[1][-300:])
        scn = os.path.join(a.root, "tests", "scenarios", "01-inline-basic.scn")
        for name, args, why in (("InfiniBand", ["--link", "ib"], "carries a network address"),
                                ("VXLAN", ["--link", "rocev2", "--encap", "vxlan"], "tunneled frames")):
            cap = os.path.join(tmp, name + ".pcap")
            subprocess.run([a.pcapgen] + args + [scn, "-o", cap, "--truth", cap + ".json"], check=True,
                           stdout=subprocess.DEVNULL)
            one, got = run(a.lint, [cap]), run(a.lint, ["-j", "2", cap])
            bad += compare(name, one, got)
            if "read by one thread: " not in got[1] or why not in got[1]:
                bad.append("%s: not read by one thread for its %s: %s" % (name, why, got[1][:300]))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
