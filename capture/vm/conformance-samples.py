#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance-samples.py [--max-bytes N] DEST OUTDIR... : the captures behind
the FAIL rows of the conformance table, kept with the project.

For each `capture/vm/lab agent` output directory, every capture with a failing
row is copied with its manifest into DEST/<kernel label>/ (sample-pcaps/agent/6.12/
...), where `ctest -R agent_verify_samples` verifies it offline, and
DEST/<label>/PROVENANCE.md says which run, kernel and row each one shows.
Exit status: 0 copied, 1 a failing capture missing or over --max-bytes, 2 usage
or an unreadable input.
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance_read as cr  # noqa: E402
import conformance_rows  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rules", default=os.path.join(here, "..", "..", "analyzer", "include",
                                                    "rpcrdma", "rules.def"))
    ap.add_argument("--max-bytes", type=int, default=200000)
    ap.add_argument("dest")
    ap.add_argument("outdirs", nargs="+")
    a = ap.parse_args(argv[1:])
    try:
        rules = cr.read_rules(a.rules)
        runs = [(d,) + conformance_rows.dir_rows(d, rules) for d in a.outdirs]
    except cr.ConformanceInputError as e:
        print("conformance-samples.py: %s" % e, file=sys.stderr)
        return 2
    bad = 0
    for d, k, rows in runs:
        fails = [r for r in rows if r["verdict"] == "fail"]
        dest = os.path.join(a.dest, k["label"])
        lines = []
        for cap in sorted({r["capture"] for r in fails}):
            src = os.path.join(d, cap)
            if not os.path.exists(src) or not os.path.exists(src + ".manifest"):
                print("%s: %s or its manifest is missing" % (d, cap), file=sys.stderr)
                bad += 1
                continue
            size = os.path.getsize(src)
            if size > a.max_bytes:
                print("%s: %s is %d bytes, over %d" % (d, cap, size, a.max_bytes), file=sys.stderr)
                bad += 1
                continue
            os.makedirs(dest, exist_ok=True)
            shutil.copy(src, dest)
            shutil.copy(src + ".manifest", dest)
            for r in fails:
                if r["capture"] == cap:
                    lines.append("| %s | %d | %s | %s | %s | %s |" % (
                        cap, size, r["transport"], r["injected"] or "-", r["judged"] or "-", r["why"]))
        if not lines:
            continue
        with open(os.path.join(dest, "PROVENANCE.md"), "w", encoding="utf-8") as f:
            f.write("# Failing rows of the conformance table: kernel %s\n\n" % k["label"])
            f.write("Recorded by `%s` on %s: `rpcrdma-agent drive --target kernel` in the client\n"
                    "guest against the Linux NFS server of the server guest (server `%s`, client `%s`),\n"
                    "captured by the agent itself. Each NAME.pcap comes with NAME.pcap.manifest;\n"
                    "`ctest -R agent_verify_samples` verifies every pair, and docs/conformance/\n"
                    "has the rows.\n\n" % (k["cmdline"] or "capture/vm/lab agent", k["date"] or "?",
                                           k["server_uname"], k["client_uname"]))
            f.write("| capture | bytes | transport | injected | rule judged | verdict |\n")
            f.write("|---|---|---|---|---|---|\n")
            f.write("\n".join(lines) + "\n")
        print("%s: %d failing captures in %s" % (k["label"], len(set(l.split(" | ")[0] for l in lines)), dest))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
