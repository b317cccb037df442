#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""RR-121 (a call that must be refused, left unanswered) and capture loss.

Silence is inferred, so a lost answer must not read as one. On every link,
with and without the handshake, the generator makes two captures of the same
traffic: a call with rdma_vers 2 that the server answers with ERR_VERS, and
later calls that are answered; and the twin where that call gets no answer
(reply=none). Then:

 - the silent twin: ulb-lint reports RR-121 at the call's Send, as the
   generator's truth expects (the traffic is one RR-121 would tell);
 - the answered capture, whole: no RR-121 (the truth expects none);
 - the answered capture with the frames of the ERR_VERS left out (the
   truth names them), as a capture that lost them: still no RR-121, since a
   loss explains the silence. The responder's next Send shows the gap.

usage: check_silence_loss.py --lint ULB-LINT --pcapgen GENERATOR [--links ib,rocev2,iwarp]
Exit status: 0 when every case holds, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import pcapdrop  # noqa: E402

SCENARIO = """seed 3121
expect on
rpc 3 NULL   # a ping first: the capture starts mid-session
rpc 3 GETATTR reply=%s
inject bad-vers call
rpc 3 GETATTR
rpc 3 GETATTR
rpc 3 GETATTR
"""


def generate(gen, scn, link, hs, tmp, tag):
    path = os.path.join(tmp, tag + ".scn")
    with open(path, "w") as f:
        f.write(scn)
    cap, truth = os.path.join(tmp, tag + ".pcap"), os.path.join(tmp, tag + ".json")
    subprocess.run([gen, path, "--link", link, "--handshake" if hs else "--no-handshake",
                    "-o", cap, "--truth", truth], check=True)
    with open(truth) as f:
        return cap, json.load(f)


def rr121(lint, cap):
    """The frames ulb-lint reports RR-121 at."""
    p = subprocess.run([lint, "--format", "json", "--quiet", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise RuntimeError("ulb-lint exit status %d on %s: %s" % (p.returncode, cap, p.stderr.decode()))
    out = set()
    for line in p.stdout.decode().splitlines():
        rec = json.loads(line)
        if rec.get("rule") == "RR-121":
            out.add(rec.get("frame"))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--links", default="ib,rocev2,iwarp")
    a = ap.parse_args(argv[1:])
    fails = []
    with tempfile.TemporaryDirectory(prefix="silence-loss-") as tmp:
        for link in [l for l in a.links.split(",") if l]:
            for hs in (True, False):
                tag = "%s-%s" % (link, "hs" if hs else "nohs")
                cap, truth = generate(a.pcapgen, SCENARIO % "none", link, hs, tmp, tag + "-silent")
                want = {e["frame"] for e in truth["expect"] if e["rule"] == "RR-121"}
                got = rr121(a.lint, cap)
                if not want or got != want:
                    fails.append("%s silent: RR-121 expected at %s, reported at %s" %
                                 (tag, sorted(want), sorted(got)))
                cap, truth = generate(a.pcapgen, SCENARIO % "error-vers", link, hs, tmp, tag + "-answered")
                if any(e["rule"] == "RR-121" for e in truth["expect"]):
                    fails.append("%s answered: the truth expects RR-121" % tag)
                if rr121(a.lint, cap):
                    fails.append("%s answered: RR-121 reported on the whole capture" % tag)
                gone = {f for m in truth["messages"] if m["rdma_proc"] == "RDMA_ERROR" for f in m["frames"]}
                if not gone:
                    fails.append("%s answered: the truth names no RDMA_ERROR" % tag)
                    continue
                hdr, _, recs = pcapdrop.records(cap)
                lost = os.path.join(tmp, tag + "-lost.pcap")
                pcapdrop.write(lost, hdr, [r for i, r in enumerate(recs) if i + 1 not in gone])
                got = rr121(a.lint, lost)
                if got:
                    fails.append("%s with frames %s lost: RR-121 reported at %s although a loss explains "
                                 "the silence" % (tag, sorted(gone), sorted(got)))
                else:
                    print("ok   %s: RR-121 when silent, none when the answer (frames %s) is lost" %
                          (tag, sorted(gone)))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
