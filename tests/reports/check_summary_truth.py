#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --summary's numbers against the capture generator's ground truth.

rpcrdma-pcapgen --truth lists every message it wrote: its procedure, its
payload length and its chunks (a reply's as the responder returned them,
so with the lengths it wrote).  From that alone, with RFC 8166 3.5:

  DDP bytes     read chunks at a non-zero Position (calls) and write chunks
                (replies): the sum of their segment lengths;
  Long bytes    Position-Zero read chunks (calls) and the reply chunk
                (replies), likewise;
  inline bytes  RDMA_MSG / RDMA_MSGP: the payload without each DDP chunk's
                data and its XDR pad (the Send after the transport header);
                RDMA_NOMSG: none.

The summary (--summary --format json), summed over its connections, must
give the same, with the truth's count of calls and replies and no retry.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, run  # noqa: E402

INLINE_PROCS = ("RDMA_MSG", "RDMA_MSGP")


def pad4(n):
    return (n + 3) & ~3


def expected(truth):
    """What the summary should count, from the generator's truth."""
    want = {"calls": 0, "replies": 0, "retries": 0, "incomplete": 0,
            "inline_bytes": 0, "ddp_bytes": 0, "long_bytes": 0}
    for m in truth["messages"]:
        ch = m["chunks"]
        want["calls" if m["dir"] == "call" else "replies"] += 1
        ddp_chunks = [sum(s["length"] for s in r["segments"]) for r in ch["reads"] if r["position"]]
        ddp_chunks += [sum(s["length"] for s in w["segments"]) for w in ch["writes"]] if m["dir"] == "reply" else []
        long_bytes = sum(s["length"] for r in ch["reads"] if not r["position"] for s in r["segments"])
        if m["dir"] == "reply" and ch["reply"]:
            long_bytes += sum(s["length"] for s in ch["reply"])
        want["ddp_bytes"] += sum(ddp_chunks)
        want["long_bytes"] += long_bytes
        if m["rdma_proc"] in INLINE_PROCS:
            want["inline_bytes"] += m["payload_len"] - sum(pad4(n) for n in ddp_chunks)
    return want


def summary_totals(lint, cap):
    p = subprocess.run([lint, "--summary", "--format", "json", "--quiet", cap],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed (%d) on %s:\n%s" % (p.returncode, cap, p.stderr.decode()))
    line = [l for l in p.stdout.decode().splitlines() if '"summary"' in l]
    conns = json.loads(line[-1])["summary"]["connections"]
    return {k: sum(c[k] for c in conns) for k in ("calls", "replies", "retries", "incomplete",
                                                  "inline_bytes", "ddp_bytes", "long_bytes")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--links", default="rocev2,iwarp")
    ap.add_argument("scenarios", nargs="+")
    a = ap.parse_args()
    fail = Failures("summary-truth")
    tmp = tempfile.mkdtemp(prefix="rr-summary-truth-")
    checks = 0
    try:
        for scn in a.scenarios:
            base = os.path.splitext(os.path.basename(scn))[0]
            for link in a.links.split(","):
                for hs in ("--handshake", "--no-handshake"):
                    cap = os.path.join(tmp, "%s-%s%s.pcap" % (base, link, hs))
                    run([a.pcapgen, "--link", link, hs, scn, "-o", cap, "--truth", cap + ".json"])
                    with open(cap + ".json") as f:
                        want = expected(json.load(f))
                    got = summary_totals(a.lint, cap)
                    label = "%s %s %s" % (base, link, hs[2:])
                    checks += 1
                    bad = [k for k in want if want[k] != got[k]]
                    for k in bad:
                        fail.add("%s: %s: the truth says %d, ulb-lint --summary %d" % (label, k, want[k], got[k]))
                    if not bad:
                        print("%s: %d calls, %d replies; bytes inline %d, DDP %d, Long %d, as the truth says" %
                              (label, got["calls"], got["replies"], got["inline_bytes"], got["ddp_bytes"],
                               got["long_bytes"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


if __name__ == "__main__":
    main()
