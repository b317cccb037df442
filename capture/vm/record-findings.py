#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""record-findings.py --lint ULB_LINT --json FILE CAPTURE... : write what ulb-lint finds in
fresh lab captures into tests/integration/real_findings.json (the entries of those
captures only), keyed as check_real_findings.py keys them ("6.12/nfs3-rxe.pcap" for a
capture in a kernel folder).

This records today's findings as the starting point of the expectations: every rule
in them must still be explained (WHY in check_real_findings.py) and reviewed, since a
finding recorded here is not yet known to be right. cut_at is the first frame that
tshark decodes as RPC-over-RDMA, so the cut variant loses the first handshake only.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import tempfile


def findings(lint, cap):
    p = subprocess.run([lint, "--format", "json", cap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed on %s: %s" % (cap, p.stderr.decode()[-2000:]))
    rows = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    out = collections.defaultdict(list)
    for d in rows:
        out[d["rule"]].append(d["frame"])
    return {r: sorted(v) for r, v in sorted(out.items())}


def first_rpcrdma(cap):
    out = subprocess.run(["tshark", "-r", cap, "-Y", "rpcordma", "-T", "fields", "-e", "frame.number"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().split()
    return int(out[0]) if out else None


def key(cap):
    folder = os.path.basename(os.path.dirname(os.path.abspath(cap)))
    name = os.path.basename(cap)
    return "%s/%s" % (folder, name) if re.match(r"^[0-9]+(\.[0-9]+)*$", folder) else name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    table = json.load(open(a.json))
    with tempfile.TemporaryDirectory() as tmp:
        for cap in a.captures:
            entry = {"captured": findings(a.lint, cap)}
            cut_at = first_rpcrdma(cap)
            if cut_at:
                cut = os.path.join(tmp, "cut.pcap")
                subprocess.run(["editcap", "-r", cap, cut, "%d-%d" % (cut_at, 2 ** 31 - 1)], check=True)
                got = {r: [f + cut_at - 1 for f in v] for r, v in findings(a.lint, cut).items()}
                want = entry["captured"]
                entry["cut_at"] = cut_at
                entry["cut_extra"] = {r: sorted(set(v) - set(want.get(r, []))) for r, v in got.items()
                                      if set(v) - set(want.get(r, []))}
                entry["cut_missing"] = {r: sorted(set(v) - set(got.get(r, []))) for r, v in want.items()
                                        if set(v) - set(got.get(r, []))}
            table[key(cap)] = entry
            print("%s: %s" % (key(cap), {r: len(v) for r, v in entry["captured"].items()}))
    with open(a.json, "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
