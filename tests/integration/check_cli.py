#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint as a user meets it: stdin, pcapng, bad input.

  - reading '-' (stdin) gives the same records as reading the file;
  - a capture cut in the middle of a record: exit 2, an error naming the
    file, and every message before the cut still printed; its --summary (JSON) and its --report page
    say why it was not read to its end (read_error), a whole capture's say null;
  - a missing file, a text file, a directory, an unknown option: exit 2 and one clear
    line on stderr, nothing on stdout, no crash;
  - the input file is never modified;
  - on a terminal (script(1)), the progress line of a large capture is cleared before each finding,
    so every finding's line starts with FILE:FRAME;
  - a bit flipped in a call's rdma_vers in a real RoCEv2 capture (its ICRC then fails): by default the
    packet is told (CAP-ICRC) and not used, so the server is not blamed (no RR-001 / RR-111); with
    --icrc ignore the damaged bytes are taken as sent and both are told.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from lintjson import Failures, run


def lint(args, stdin=None):
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--scenario", required=True)
    a = ap.parse_args()
    fail = Failures("cli")
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "c.pcapng")
        run([a.pcapgen, "--link", "rocev2", "--format", "pcapng", a.scenario, "-o", cap,
             "--truth", os.path.join(tmp, "t.json")])
        with open(cap, "rb") as f:
            data = f.read()
        before = hashlib.sha256(data).hexdigest()

        rc, out_file, _ = lint([a.lint, "--dump", "--format", "json", "--quiet", cap])
        rc2, out_stdin, _ = lint([a.lint, "--dump", "--format", "json", "--quiet", "-"], stdin=data)
        checks += 2
        if rc != 0 or rc2 != 0 or not out_file.strip():
            fail.add("file/stdin runs failed (%d, %d)" % (rc, rc2))
        if out_file != out_stdin:
            fail.add("stdin gives other records than the file")

        # Cut in the middle of the last record.
        cut = os.path.join(tmp, "cut.pcapng")
        with open(cut, "wb") as f:
            f.write(data[:len(data) - 37])
        rc, out, err = lint([a.lint, "--dump", "--format", "json", "--quiet", cut])
        checks += 3
        if rc != 2:
            fail.add("truncated capture: exit %d, want 2" % rc)
        if "cut.pcapng" not in err:
            fail.add("truncated capture: the error does not name the file: %r" % err)
        if len(out.splitlines()) < len(out_file.splitlines()) - 2:
            fail.add("truncated capture: messages before the cut were lost (%d of %d)" %
                     (len(out.splitlines()), len(out_file.splitlines())))

        for path, cut_short in ((cut, True), (cap, False)):
            rc, out, err = lint([a.lint, "--summary", "--format", "json", "--quiet", path])
            summary = json.loads(out.splitlines()[-1])["summary"]
            page = os.path.join(tmp, "page.html")
            lint([a.lint, "--quiet", "--report", page, path])
            with open(page, encoding="utf-8") as f:
                data = json.loads(re.search(r'id="rr-data">(.*?)</script>', f.read(), re.S).group(1))
            checks += 2
            for what, said in (("--summary", summary["read_error"]), ("--report", data["read_error"])):
                if cut_short and not (said and "byte offset" in said):
                    fail.add("truncated capture: %s's read_error is %r" % (what, said))
                if not cut_short and said is not None:
                    fail.add("whole capture: %s's read_error is %r, want null" % (what, said))

        text = os.path.join(tmp, "notes.txt")
        with open(text, "w") as f:
            f.write("this is not a capture\n" * 10)
        for args, what in (([os.path.join(tmp, "missing.pcap")], "missing file"),
                           ([text], "text file"),
                           (["--format", "xml", cap], "unknown format"),
                           (["--bogus", cap], "unknown option"),
                           ([tmp], "a directory"),
                           ([], "no file")):
            rc, out, err = lint([a.lint, "--dump"] + args)
            checks += 1
            if rc != 2 or out.strip() or not err.strip() or "Traceback" in err:
                fail.add("%s: exit %d, stdout %r, stderr %r" % (what, rc, out[:80], err[:200]))
            if what == "a directory" and "is a directory" not in err:
                fail.add("a directory: %r does not say so" % err.strip())

        checks += 1
        with open(cap, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != before:
                fail.add("the input capture was modified")
        checks += check_progress(a, tmp, fail)
        checks += check_damaged(a, tmp, fail)
    fail.finish(checks)


def check_damaged(a, tmp, fail):
    import struct
    real = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sample-pcaps", "real",
                        "nfs3-rxe.pcap")
    with open(real, "rb") as f:
        d = bytearray(f.read())
    off, n = 24, 1
    while n < 3012:                  # frame 3012: a call's Send, its RPC-over-RDMA header at byte 54
        off += 16 + struct.unpack_from("<I", d, off + 8)[0]
        n += 1
    d[off + 16 + 54 + 4] ^= 0x08     # rdma_vers 1 -> 0x08000001
    cap = os.path.join(tmp, "flipped.pcap")
    with open(cap, "wb") as f:
        f.write(d)
    rules = {}
    for how in ("check", "ignore"):
        _, out, _ = lint([a.lint, "--format", "json", "--quiet", "--icrc", how, cap])
        rules[how] = {json.loads(x)["rule"] for x in out.splitlines() if x.strip()}
    if "CAP-ICRC" not in rules["check"] or rules["check"] & {"RR-001", "RR-111"}:
        fail.add("a damaged packet, --icrc check: %s" % sorted(rules["check"]))
    if not {"RR-001", "RR-111"} <= rules["ignore"] or "CAP-ICRC" in rules["ignore"]:
        fail.add("a damaged packet, --icrc ignore: %s" % sorted(rules["ignore"]))
    return 2


def check_progress(a, tmp, fail):
    """A capture past the progress bar's 64 MiB, its findings read as a terminal shows them."""
    if not shutil.which("script"):
        return 0
    real = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sample-pcaps", "real",
                        "nfs3-rxe.pcap")          # a real capture with findings
    cap = os.path.join(tmp, "big.pcap")
    with open(real, "rb") as f:
        one = f.read()
    with open(cap, "wb") as f:       # joined end to end: one file header, the records again and again
        f.write(one[:24])
        while f.tell() < (65 << 20):
            f.write(one[24:])
    out = subprocess.run(["script", "-qc", "%s %s" % (a.lint, cap), "/dev/null"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode(errors="replace")
    shown = [line.rstrip("\r").split("\r")[-1].replace("\x1b[K", "") for line in out.split("\n")]
    bad = [s for s in shown if "%" in s and "(" in s and cap + ":" in s.split(")", 1)[-1]]
    findings = [s for s in shown if s.startswith(cap + ":")]
    if bad or not findings:
        fail.add("progress on a terminal: %d findings; lines mixing the progress line and a finding: %r"
                 % (len(findings), bad[:2]))
    return 1


if __name__ == "__main__":
    main()
