#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A mirrored conversation is the same conversation.  Each scenario is
generated twice, once plain and once wrapped by rpcrdma-pcapgen --encap as a
mirroring switch or an overlay would (ERSPAN, GRE, VXLAN); on every link and
with the handshake on and off, ulb-lint's findings, statistics and --dump on
the wrapped capture must equal those on the plain one (the plain capture is
the oracle), and the generator's truth file must be byte for byte the same.

    check_encap.py --lint L --pcapgen G --encap SPEC [--encap SPEC ...]
                   [--links rocev2,iwarp] SCENARIO...

At least one capture must give findings, so that "equal" is not "both
empty"."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from lintjson import Failures, run


def lint(lint_bin, cap):
    """(findings, statistics line, dump), with the file's name taken out."""
    name = os.path.basename(cap)
    p = subprocess.run([lint_bin, "--format", "json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.stderr.write("ulb-lint failed (%d) on %s:\n%s\n" % (p.returncode, cap, p.stderr.decode()))
        raise SystemExit(1)
    found = []
    for line in p.stdout.decode().splitlines():
        if line.strip():
            d = json.loads(line)
            d.pop("file", None)
            found.append(d)
    err = p.stderr.decode().strip().splitlines()
    stats = (err[-1] if err else "").replace(name, "CAPTURE")
    dump = run([lint_bin, "--dump", "--format", "json", "--quiet", cap])
    return found, stats, dump


def differ(what, a, b):
    """The first difference between two lists of lines or records, for the message."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "%s #%d: plain %s / wrapped %s" % (what, i + 1, str(x)[:200], str(y)[:200])
    return "%s: plain has %d, wrapped %d" % (what, len(a), len(b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--encap", action="append", required=True)
    ap.add_argument("--links", default="rocev2,iwarp")
    ap.add_argument("scenarios", nargs="+")
    a = ap.parse_args()
    fail = Failures("encapsulation")
    n = findings = 0
    with tempfile.TemporaryDirectory() as tmp:
        for scn in a.scenarios:
            for link in a.links.split(","):
                for hs in ("--handshake", "--no-handshake"):
                    base = [a.pcapgen, "--link", link, hs, scn]
                    plain = os.path.join(tmp, "plain.pcap")
                    run(base + ["-o", plain, "--truth", plain + ".json"])
                    want = lint(a.lint, plain)
                    findings += len(want[0])
                    for spec in a.encap:
                        where = "%s %s %s --encap %s" % (os.path.basename(scn), link, hs, spec)
                        cap = os.path.join(tmp, "wrapped.pcap")
                        run(base + ["--encap", spec, "-o", cap, "--truth", cap + ".json"])
                        n += 1
                        with open(plain + ".json", "rb") as f1, open(cap + ".json", "rb") as f2:
                            if f1.read() != f2.read():
                                fail.add("%s: the truth file changed" % where)
                        got = lint(a.lint, cap)
                        if got[1] != want[1]:
                            fail.add("%s: statistics: plain '%s' / wrapped '%s'" % (where, want[1], got[1]))
                        if got[0] != want[0]:
                            fail.add("%s: %s" % (where, differ("finding", want[0], got[0])))
                        if got[2] != want[2]:
                            fail.add("%s: %s" % (where, differ("--dump line", want[2].splitlines(),
                                                               got[2].splitlines())))
    if not findings:
        fail.add("no scenario gave a finding: the comparison proves nothing")
    fail.finish(n)


if __name__ == "__main__":
    main()
