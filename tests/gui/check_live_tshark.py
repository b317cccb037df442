#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin in a live tshark capture: frames arrive one by one from a FIFO.

    check_live_tshark.py --ws-user WS_USER --plugin PLUGIN.so --lint ULB_LINT
                         [--rate N] CAPTURE

pcap_pace.py writes CAPTURE into a FIFO at N frames/s; `tshark -i FIFO`
with the plugin (as an unprivileged user, ws-user.sh) prints every frame as
it arrives (rule codes, severities, the Info column) and writes the capture
to a file with -w.  A single-pass tshark prints a frame once, when it
arrives, so a finding that only the end of the capture reveals cannot be
printed at its frame.  What is checked:

  findings  every finding printed live is one of ulb-lint's findings of the
            file (ulb-lint --format json, the oracle), same frame, rule and
            severity: no false finding, and none of the engine's "ended too
            soon" marks (ENG-INCOMPLETE, ENG-UNMATCHED-RDMA, RR-103 replies
            with no call, RR-003); and the live findings are exactly those a
            single-pass `tshark -r CAPTURE` prints (the file read at once).
  decode    every frame's Info column equals the file read's, and no frame
            shows "RPC V0 proc-0" (a reply handed to RPC with no call).
  saved     the file tshark wrote holds the capture: ulb-lint finds the same
            findings in it as in CAPTURE, and the plugin reading it with two
            passes (tshark -2 -r) shows all of them, at their frames.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, lint_findings  # noqa: E402

FIELDS = ["frame.number", "rpcrdma.rule", "rpcrdma.rule.severity", "_ws.col.Info"]
SEVERITY = {"0": "info", "1": "warning", "2": "error"}
# Marks of an engine that was ended before the capture was: never in a
# correct run of this capture (ulb-lint's set has none of them).
ENDED_MARKS = ("ENG-INCOMPLETE", "ENG-UNMATCHED-RDMA", "RR-103", "RR-003")


def field_args():
    args = ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in FIELDS:
        args += ["-e", f]
    return args


def parse_rows(text, where):
    """{frame: (findings {(rule, severity)}, info)} from -T fields output."""
    rows = {}
    for line in text.splitlines():
        cols = line.split("\t")
        if len(cols) != len(FIELDS):
            raise SystemExit("%s: a line with %d columns, not %d: %r" % (where, len(cols), len(FIELDS), line))
        rules = [r for r in cols[1].split(",") if r]
        # rpcrdma.rule.severity is a number with names; ulb-lint prints the names.
        sevs = [SEVERITY.get(s, s) for s in cols[2].split(",") if s]
        if len(rules) != len(sevs):
            raise SystemExit("%s: frame %s has %d rules and %d severities" % (where, cols[0], len(rules), len(sevs)))
        rows[int(cols[0])] = (set(zip(rules, sevs)), cols[3])
    return rows


def findings_of(rows):
    return {(fr, rule, sev) for fr, (fs, _) in rows.items() for rule, sev in fs}


class Runner:
    def __init__(self, ws_user, plugin, home):
        self.ws = [ws_user, plugin, "--home", home, "--"]

    def start(self, args, out, err):
        return subprocess.Popen(self.ws + ["tshark"] + args, stdout=out, stderr=err)

    def tshark(self, args, where):
        p = subprocess.run(self.ws + ["tshark"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = p.stderr.decode(errors="replace")
        if p.returncode != 0 or "Couldn't load plugin" in err:
            raise SystemExit("%s: tshark failed (%d):\n%s" % (where, p.returncode, err[-3000:]))
        return p.stdout.decode(errors="replace")


def live_capture(run, pacer, cap, tmp, rate):
    """tshark -i FIFO fed by the pacer: (its rows, the file it wrote)."""
    fifo = os.path.join(tmp, "feed.fifo")
    os.mkfifo(fifo, 0o666)
    os.chmod(fifo, 0o666)  # the umask may have cut the mode; tshark may run as nobody
    saved = os.path.join(tmp, "out", "live.pcapng")
    with open(os.path.join(tmp, "live.txt"), "w+b") as out, open(os.path.join(tmp, "live.err"), "w+b") as err:
        ts = run.start(["-i", fifo, "-l", "-w", saved, "-P"] + field_args(), out, err)
        pace = subprocess.run([sys.executable, pacer, "--rate", str(rate), cap, fifo],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            rc = ts.wait(timeout=60)
        except subprocess.TimeoutExpired:
            ts.kill()
            raise SystemExit("live: tshark did not end 60 s after the feed ended")
        out.seek(0)
        err.seek(0)
        text, etext = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    sys.stdout.write(pace.stdout.decode(errors="replace"))
    if pace.returncode != 0 or rc != 0 or "Couldn't load plugin" in etext:
        raise SystemExit("live: pacer %d, tshark %d:\n%s" % (pace.returncode, rc, etext[-3000:]))
    return parse_rows(text, "live"), saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--rate", type=float, default=2000.0)
    ap.add_argument("capture")
    a = ap.parse_args()
    fails = Failures("live_tshark")
    checks = 0
    tmp = tempfile.mkdtemp(prefix="rr-live-")
    try:
        os.chmod(tmp, 0o755)
        os.mkdir(os.path.join(tmp, "out"))
        os.chmod(os.path.join(tmp, "out"), 0o777)
        cap = os.path.join(tmp, os.path.basename(a.capture))
        shutil.copyfile(a.capture, cap)
        os.chmod(cap, 0o644)
        run = Runner(a.ws_user, os.path.abspath(a.plugin), os.path.join(tmp, "home"))
        run.tshark(["-v"], "prepare")       # puts the plugin in place once

        oracle_list, _ = lint_findings(a.lint, cap)
        oracle = {(d["frame"], d["rule"], d["severity"]) for d in oracle_list}
        ref = parse_rows(run.tshark(["-r", cap] + field_args(), "file read"), "file read")
        live, saved = live_capture(run, os.path.join(HERE, "pcap_pace.py"), cap, tmp, a.rate)
        got = findings_of(live)
        print("live_tshark: ulb-lint %d findings; live %d frames, %d findings; file read %d frames, %d findings"
              % (len(oracle), len(live), len(got), len(ref), len(findings_of(ref))))

        for f in sorted(got - oracle):
            fails.add("live: frame %d shows %s (%s), not one of ulb-lint's findings" % f)
        for f in sorted(got):
            if f[1] in ENDED_MARKS:
                fails.add("live: frame %d shows %s: the engine was ended before the capture" % (f[0], f[1]))
        for f in sorted(findings_of(ref) ^ got):
            fails.add("frame %d %s (%s): %s" % (f + ("live only" if f in got else "file read only",)))
        checks += 3
        if set(live) != set(ref):
            fails.add("live capture has %d frames, the file %d" % (len(live), len(ref)))
        for num in sorted(set(live) & set(ref)):
            checks += 1
            info = live[num][1]
            if "RPC V0 proc-0" in info:
                fails.add("live: frame %d decodes as %r: a reply handed to RPC without its call" % (num, info))
            elif info != ref[num][1]:
                fails.add("live: frame %d Info %r, the file read shows %r" % (num, info, ref[num][1]))
        for f in sorted(oracle - got):
            print("live_tshark: not shown live (told at the end of the capture): frame %d %s (%s)" % f)

        back_list, _ = lint_findings(a.lint, saved)
        back = {(d["frame"], d["rule"], d["severity"]) for d in back_list}
        two = findings_of(parse_rows(run.tshark(["-2", "-r", saved] + field_args(), "read back"), "read back"))
        for name, s in (("ulb-lint on the saved capture", back), ("tshark -2 -r on the saved capture", two)):
            checks += 1
            for f in sorted(s ^ oracle):
                fails.add("%s: frame %d %s (%s) %s" % ((name,) + f + ("extra" if f in s else "missing",)))
        print("live_tshark: saved capture: ulb-lint %d findings, tshark -2 %d" % (len(back), len(two)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fails.finish(checks)


if __name__ == "__main__":
    main()
