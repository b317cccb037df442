#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint's options do what the man page says, on a real capture whose
findings real_findings.json pins down (nfs3-siw: RR-029 and one RR-240
info, two RR-230 warnings, no error) and on a generated one with RDMA_MSGP (whose
severity the profile changes)."""
import argparse
import json
import os
import re
import subprocess
import tempfile

from lintjson import Failures, run

LINE = re.compile(r"^(?P<file>.+?):(?P<frame>\d+): (?P<sev>error|warning|info): (?P<rule>(RR|CAP|ENG)-[\w-]+) .+ \[.+\]$")


def lint(*args):
    p = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--real", required=True, help="sample-pcaps/real/nfs3-siw.pcap")
    ap.add_argument("--msgp-scenario", required=True, help="tests/scenarios/16-hdr-procs.scn")
    a = ap.parse_args()
    L, cap = a.lint, a.real
    fail = Failures("cli lint")
    n = 0

    def expect(cond, what):
        nonlocal n
        n += 1
        if not cond:
            fail.add(what)

    rc, out, err = lint(L, cap)
    lines = out.splitlines()
    expect(rc == 0, "no error finding: exit %d, want 0" % rc)
    expect(lines and all(LINE.match(l) for l in lines), "text lines are file:frame: severity: RULE text [ref]: %r" % lines[:2])
    rules = [LINE.match(l).group("rule") for l in lines if LINE.match(l)]
    expect(rules.count("RR-230") == 2 and rules.count("RR-240") == 1, "the capture's findings: %s" % sorted(set(rules)))
    expect("findings: 0 error, 2 warning" in err, "statistics line on stderr: %r" % err[-300:])

    rc, _, _ = lint(L, "--fail-on", "warning", cap)
    expect(rc == 1, "--fail-on warning with two warnings: exit %d, want 1" % rc)
    rc, _, _ = lint(L, "--fail-on", "info", cap)
    expect(rc == 1, "--fail-on info: exit %d, want 1" % rc)
    rc, out, _ = lint(L, "--fail-on", "warning", "--disable", "RR-230", cap)
    expect(rc == 0 and "RR-230" not in out, "--disable RR-230 --fail-on warning: exit %d" % rc)
    rc, out, _ = lint(L, "--enable", "hazard-multisegment-pzrc", cap)
    got = {LINE.match(l).group("rule") for l in out.splitlines() if LINE.match(l)}
    expect(rc == 0 and got == {"RR-240"}, "--enable by name runs only that rule: %s" % got)
    rc, _, err = lint(L, "--enable", "RR-999", cap)
    expect(rc == 2 and "RR-999" in err, "unknown rule: exit %d, %r" % (rc, err))
    for bad in (["--inline-threshold", "12x"], ["--inline-threshold", "100"], ["--profile", "rfc9999"],
                ["--fail-on", "fatal"]):
        rc, out, err = lint(L, *bad, cap)
        expect(rc == 2 and not out and err, "%s: exit %d" % (bad, rc))

    rc, out, _ = lint(L, "--format", "json", cap)
    recs = [json.loads(l) for l in out.splitlines()]
    keys = {"file", "frame", "frames", "xid", "conn", "rule", "severity", "message", "ref"}
    expect(recs and all(keys <= set(r) for r in recs), "JSON findings carry %s" % sorted(keys))
    expect(all(r["frame"] in r["frames"] or r["rule"].startswith("RR-23") for r in recs),
           "the frame pointed at is among the evidence frames")
    r230 = [r for r in recs if r["rule"] == "RR-230"]
    expect(len(r230) == 2 and all(len(r["frames"]) >= 6 for r in r230),
           "an outcome finding lists every attempt and answer as evidence: %s" % [r["frames"] for r in r230])
    expect(any("SETACL" in r["message"] and "GARBAGE_ARGS" in r["message"] and "Long Call" in r["message"]
               and "2 new connections" in r["message"] for r in r230), "the SETACL outcome in one line")

    rc, out, _ = lint(L, "--summary", cap)
    expect("summary of" in out and "response time" in out and "RR-230" in out and "DDP share" in out,
           "--summary text: %r" % out[-400:])
    rc, out, _ = lint(L, "--summary", "--format", "json", cap)
    summ = [json.loads(l) for l in out.splitlines() if '"summary"' in l]
    expect(len(summ) == 1 and summ[0]["summary"]["rules"].get("RR-230") == 2 and
           all("response_ms" in c for c in summ[0]["summary"]["connections"]), "--summary json")

    rc, out, _ = lint(L, cap, cap)
    expect(rc == 0 and out.count(": RR-230 ") == 4, "two files: both checked")

    with tempfile.TemporaryDirectory() as tmp:
        # The handshake cut: thresholds unknown, RR-041 once; --inline-threshold 4096 says what Linux uses.
        first = min(json.loads(l)["first_frame"] for l in run([L, "--dump", "--format", "json", "--quiet", cap]).splitlines())
        cut = os.path.join(tmp, "cut.pcap")
        run(["editcap", "-r", cap, cut, "%d-%d" % (first, 2 ** 31 - 1)])
        rc, out, _ = lint(L, cut)
        expect(out.count(": RR-041 ") == 1, "RR-041 once without the handshake")
        rc, out, _ = lint(L, "--inline-threshold", "4096", "--summary", cut)
        expect(": RR-041 " not in out and ": RR-040 " not in out and "from --inline-threshold" in out,
               "--inline-threshold 4096: no RR-040/041, summary names the source")

        msgp = os.path.join(tmp, "msgp.pcap")
        run([a.pcapgen, "--link", "rocev2", a.msgp_scenario, "-o", msgp, "--truth", os.path.join(tmp, "t.json")])
        rc, out, _ = lint(L, "--enable", "RR-130", msgp)
        sev = {LINE.match(l).group("sev") for l in out.splitlines() if LINE.match(l)}
        expect(rc == 1 and sev == {"error"}, "RR-130 is an error under rfc8166: %s exit %d" % (sev, rc))
        rc, out, _ = lint(L, "--enable", "RR-130", "--profile", "rfc5666", msgp)
        sev = {LINE.match(l).group("sev") for l in out.splitlines() if LINE.match(l)}
        expect(rc == 0 and sev == {"info"}, "RR-130 is info under rfc5666: %s exit %d" % (sev, rc))

    rc, out, _ = lint(L, "--list-rules")
    expect(rc == 0 and "RR-091" in out and "result-length-matches" in out, "--list-rules")
    docs = re.search(r"each rule's documentation: (\S*)rules\.md#RR-091", out)
    expect(docs is not None, "--list-rules names where each rule is documented")
    if docs and docs.group(1).startswith("file://"):
        path = docs.group(1)[len("file://"):] + "rules.md"
        expect(os.path.isfile(path) and '<a id="RR-091"></a>' in open(path).read(),
               "--list-rules' documentation link leads to RR-091's row")
    fail.finish(n)


if __name__ == "__main__":
    main()
