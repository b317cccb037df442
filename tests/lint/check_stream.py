# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint prints findings while it reads: `tcpdump -w - | ulb-lint -`.

Two checks (docs/testing.md, "Streaming"):

--pause CAPTURE: a writer sends the records of the first half of a classic
  pcap into ulb-lint's standard input, then stops writing for --hold
  seconds with the pipe open, then sends the rest.  The oracle is
  ulb-lint's run on the file itself: its first finding (a frame well inside
  the first half) must be on ulb-lint's stdout before the pause ends; once
  the rest is sent, the whole output must equal the file run's.

--equal CAPTURE...: every capture is read from its file and from a pipe
  written in small pieces; the findings (text and JSON Lines) must be the
  same, line for line, once the file name is set aside.

--held SCENARIO --pcapgen GEN: findings held for a loss to show are bounded
  in capture time.  GEN makes the scenario's capture on each --held-link: a
  held finding (its connection never sends again) and, past the bound, more
  traffic on another connection.  The oracle is the generator's expected
  findings, which the file run must give; the whole capture goes into
  ulb-lint's standard input and the pipe stays open for --hold seconds: the
  held finding must be on stdout before the pipe closes, and the whole
  output must equal the file run's.
"""
import json
import argparse
import os
import select
import struct
import subprocess
import sys
import tempfile
import threading
import time


def records_end(data, nframes):
    """Byte offset just after the first nframes records of a classic pcap, and the record count."""
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
         b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}.get(data[:4])
    if not e:
        raise SystemExit("not a classic pcap")
    pos, n, cut = 24, 0, None
    while pos + 16 <= len(data):
        caplen = struct.unpack_from(e + "I", data, pos + 8)[0]
        pos += 16 + caplen
        n += 1
        if n == nframes:
            cut = pos
    return cut, n


def file_run(lint, path, fmt):
    p = subprocess.run([lint, "-q", "--format", fmt, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed (%d) on %s: %s" % (p.returncode, path, p.stderr.decode()))
    return p.stdout.decode()


def as_stdin(text, path):
    """The file run's lines as a run on standard input names them."""
    return text.replace(path + ":", "<stdin>:").replace('"file":"%s"' % path, '"file":"<stdin>"')


def lines_until(fd, deadline, want):
    """Read fd until a line equal to want arrives or the deadline passes; (seen, when, bytes read)."""
    buf = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False, None, buf
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return False, None, buf
        buf += chunk
        if want in buf.decode(errors="replace").splitlines():
            return True, time.monotonic(), buf


def pause_check(lint, path, hold):
    data = open(path, "rb").read()
    _, total = records_end(data, 0)
    half, _ = records_end(data, total // 2)
    expected = as_stdin(file_run(lint, path, "text"), path)
    first = expected.splitlines()[0]
    frame = int(first.split(":")[1])
    if frame > total // 4:
        raise SystemExit("%s: its first finding (frame %d) is not well inside the first half" % (path, frame))
    p = subprocess.Popen([lint, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    p.stdin.write(data[:half])
    p.stdin.flush()
    seen, when, got = lines_until(p.stdout.fileno(), t0 + hold, first)
    during = len(got)
    # The pause lasts its full length whatever was seen, then the rest goes.
    time.sleep(max(0.0, t0 + hold - time.monotonic()))
    p.stdin.write(data[half:])
    p.stdin.close()
    got += p.stdout.read()
    p.wait()
    if not seen:
        print("FAIL: %s: the finding on frame %d was not on stdout during the %.0f s pause after frame %d "
              "(%d bytes of output then):\n  %s" % (path, frame, hold, total // 2, during, first))
        return 1
    print("ok: %s: frame %d's finding out %.2f s into the pause after frame %d" % (path, frame, when - t0,
                                                                                 total // 2))
    if got.decode() != expected:
        print("FAIL: %s: the whole output through the pausing pipe differs from the file run's" % path)
        return 1
    return 0


def piped_run(lint, path, fmt):
    """The capture written into ulb-lint's stdin in 1000-byte pieces."""
    p = subprocess.Popen([lint, "-q", "--format", fmt, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    data = open(path, "rb").read()
    out = []
    t = threading.Thread(target=lambda: out.append(p.stdout.read()))
    t.start()
    for i in range(0, len(data), 1000):
        p.stdin.write(data[i:i + 1000])
        p.stdin.flush()
    p.stdin.close()
    t.join()
    p.wait()
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint - failed (%d) on %s: %s" % (p.returncode, path, p.stderr.read().decode()))
    return out[0].decode()


def equal_check(lint, paths):
    bad = n = 0
    for path in paths:
        for fmt in ("text", "json"):
            want = as_stdin(file_run(lint, path, fmt), path)
            got = piped_run(lint, path, fmt)
            n += len(want.splitlines())
            if got != want:
                bad += 1
                print("FAIL: %s (%s): piped findings differ from the file's" % (path, fmt))
    print("%d captures, %d findings each way; %d differ" % (len(paths), n, bad))
    return 1 if bad else 0


def held_check(lint, gen, scn, links, hold):
    rc = 0
    with tempfile.TemporaryDirectory() as tmp:
        for link in links:
            cap, truth = os.path.join(tmp, link + ".pcap"), os.path.join(tmp, link + ".json")
            subprocess.run([gen, "--link", link, scn, "-o", cap, "--truth", truth], check=True,
                           stdout=subprocess.DEVNULL)
            expect = json.load(open(truth))["expect"]
            expected = as_stdin(file_run(lint, cap, "text"), cap)
            lines = expected.splitlines()
            got_rules = [(l.split(": ", 2)[2].split()[0], int(l.split(": ")[0].rsplit(":", 1)[1])) for l in lines]
            want = [(e["rule"], e["frame"]) for e in expect]
            if got_rules != want:
                print("FAIL: %s: the file run's findings %s are not the generator's %s" % (link, got_rules, want))
                rc = 1
                continue
            p = subprocess.Popen([lint, "-q", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
            t0 = time.monotonic()
            p.stdin.write(open(cap, "rb").read())
            p.stdin.flush()
            seen, when, got = lines_until(p.stdout.fileno(), t0 + hold, lines[0])
            during = len(got)
            time.sleep(max(0.0, t0 + hold - time.monotonic()))
            p.stdin.close()
            got += p.stdout.read()
            p.wait()
            if not seen:
                print("FAIL: %s: the held finding was not on stdout while the pipe stayed open %.0f s "
                      "(%d bytes of output then):\n  %s" % (link, hold, during, lines[0]))
                rc = 1
                continue
            print("ok: %s: the held finding out %.2f s after the capture was written" % (link, when - t0))
            if got.decode() != expected:
                print("FAIL: %s: the whole output through the pipe differs from the file run's" % link)
                rc = 1
    return rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pause", action="append", default=[])
    ap.add_argument("--hold", type=float, default=4.0)
    ap.add_argument("--equal", nargs="*", default=[])
    ap.add_argument("--held")
    ap.add_argument("--held-link", action="append", default=[])
    ap.add_argument("--pcapgen")
    a = ap.parse_args()
    rc = 0
    for path in a.pause:
        rc |= pause_check(a.lint, path, a.hold)
    if a.equal:
        rc |= equal_check(a.lint, a.equal)
    if a.held:
        rc |= held_check(a.lint, a.pcapgen, a.held, a.held_link or ["rocev2", "iwarp"], a.hold)
    return rc


if __name__ == "__main__":
    sys.exit(main())
