# SPDX-License-Identifier: GPL-2.0-or-later
"""A header-only capture: every frame cut at 128 bytes, as an sFlow sampler
keeps them.  The transport headers are in; most payload is not.

Real captures (every sample-pcaps/real/*.pcap and */*.pcap given): cut at
128 bytes (lintjson.cut_pcap), ulb-lint must report no error or warning
finding that the whole capture does not report at the same frame (the
whole capture's findings are the oracle), must still count the RPCs it saw
by their transport headers in the summary, and must say why it skipped
checks.  The rules that fired on each cut capture are printed.

Generated captures (--pcapgen, the rule scenarios of --rules): for rules
judged from a Send's transport header alone (HEADER_RULES), the finding the
generator's truth expects (rule and frame) must still come when every
frame is cut at 128 bytes; no other RR finding may come.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lintjson import Failures, cut_pcap, run  # noqa: E402

SNAPLEN = 128
# Rules a Send's transport header (and its wire length) decides, with a
# violation scenario whose header fits in 128 bytes.  On iWARP the decoder
# takes bytes the snaplen cut from a TCP stream as lost, and every check on
# that connection is skipped from then on: no link but IB and RoCE here.
HEADER_RULES = ("RR-100", "RR-101", "RR-106", "RR-117", "RR-132")
LINKS = ("rocev2", "ib")


def lint(lint_path, cap):
    """ulb-lint --summary --format json: (findings, summary, statistics line)."""
    p = subprocess.run([lint_path, "--summary", "--format", "json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed on %s: %s" % (cap, p.stderr.decode()[-2000:]))
    findings, summ = [], None
    for line in p.stdout.decode().splitlines():
        d = json.loads(line)
        if "summary" in d:
            summ = d["summary"]
        elif "rule" in d:
            findings.append(d)
    err = p.stderr.decode().strip().splitlines()
    return findings, summ, err[-1] if err else ""


def rpcs(summ):
    return sum(c["calls"] + c["replies"] for c in summ["connections"])


def check_real(a, fail, tmp):
    checked = 0
    for cap in a.captures:
        whole, wsum, _ = lint(a.lint, cap)
        base = {(d["rule"], d["frame"]) for d in whole}
        out = os.path.join(tmp, "headers.pcap")
        if cut_pcap(cap, out, SNAPLEN) is None:
            raise SystemExit("%s: not a classic pcap file" % cap)
        got, summ, stats = lint(a.lint, out)
        name = "%s cut at %d" % (os.path.basename(cap), SNAPLEN)
        for d in got:
            checked += 1
            if d["severity"] in ("error", "warning") and d["rule"].startswith("RR-") and \
                    (d["rule"], d["frame"]) not in base:
                fail.add("%s: %s at frame %s: %s" % (name, d["rule"], d["frame"], d["message"]))
        checked += 1
        if rpcs(wsum) and not rpcs(summ):
            fail.add("%s: the whole capture has %d RPCs, the summary of the cut one none" % (name, rpcs(wsum)))
        if rpcs(wsum) and "not captured" not in stats:
            fail.add("%s: no check counted as skipped because of the cut: %r" % (name, stats))
        fired = collections.Counter(d["rule"] for d in got if d["rule"].startswith("RR-"))
        print("%s: %d of %d RPCs counted; rules fired: %s" % (name, rpcs(summ), rpcs(wsum),
                                                              dict(sorted(fired.items())) or "none"))
    return checked


def check_generated(a, fail, tmp):
    checked = 0
    for rule in HEADER_RULES:
        scn = os.path.join(a.rules, rule + ".scn")
        for link in LINKS:
            cap, tru = os.path.join(tmp, "gen.pcap"), os.path.join(tmp, "gen.json")
            run([a.pcapgen, "--link", link, "--no-handshake", scn, "-o", cap, "--truth", tru])
            with open(tru) as f:
                want = {(e["rule"], e["frame"]) for e in json.load(f).get("expect", [])}
            out = os.path.join(tmp, "gen-headers.pcap")
            cut_pcap(cap, out, SNAPLEN)
            got, _, _ = lint(a.lint, out)
            have = {(d["rule"], d["frame"]) for d in got if d["rule"].startswith("RR-")}
            name = "%s on %s cut at %d" % (os.path.basename(scn), link, SNAPLEN)
            checked += 1
            if not want:
                fail.add("%s: the generator expects no finding" % name)
            for w in sorted(want - have):
                fail.add("%s: expected %s at frame %s, not reported" % (name, *w))
            for h in sorted(have - want):
                fail.add("%s: %s at frame %s not expected" % (name, *h))
    return checked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen")
    ap.add_argument("--rules", help="the rule scenarios (tests/rules)")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    fail = Failures("headers")
    with tempfile.TemporaryDirectory() as tmp:
        checked = check_real(a, fail, tmp)
        if a.pcapgen and a.rules:
            checked += check_generated(a, fail, tmp)
    fail.finish(checked)


if __name__ == "__main__":
    main()
