#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""conformance.py [--rules RULES.DEF] [--md OUT.md] [--json OUT.json] INPUT...

The conformance tables of the Linux kernel's RPC-over-RDMA: per role (server =
svcrdma, which the agent drives; client = xprtrdma, in front of which a proxy
breaks the server's replies), per kernel, per transport, one row per injection.
Each INPUT is a `capture/vm/lab agent` output directory (its manifests and logs)
or a conformance.json this tool wrote; several INPUTs (one per kernel) are
merged into one table with a column per kernel. The formats are described in
docs/conformance/README.md. Without --md and --json the Markdown goes to stdout.
Exit status: 0 written, 2 an input missing or malformed (the message names it).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance_md  # noqa: E402
import conformance_read as cr  # noqa: E402
import conformance_rows  # noqa: E402

FORMAT = "rpcrdma-conformance"
VERSION = 1
ROLES = ("server", "client")
IMPL = {"server": "svcrdma", "client": "xprtrdma"}


def _kernel_key(label):
    """6.1 < 6.12 < 7, names after numbers."""
    parts = []
    for p in label.replace("-", ".").split("."):
        parts.append((0, int(p), "") if p.isdigit() else (1, 0, p))
    return parts


def load(inputs, rules):
    """(kernels, rows) of every INPUT; a kernel label twice is an error."""
    kernels, rows = [], []
    for i in inputs:
        if os.path.isdir(i):
            k, r = conformance_rows.dir_rows(i, rules)
            ks, rs = [k], r
        else:
            try:
                with open(i, encoding="utf-8") as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                raise cr.ConformanceInputError("%s: not a lab output directory nor a readable "
                                               "conformance.json (%s)" % (i, e))
            if doc.get("format") != FORMAT or not isinstance(doc.get("rows"), list):
                raise cr.ConformanceInputError("%s: not a %s document" % (i, FORMAT))
            ks, rs = doc.get("kernels", []), doc["rows"]
        for k in ks:
            if any(o["label"] == k["label"] for o in kernels):
                raise cr.ConformanceInputError("%s: kernel %s is already given by another input"
                                               % (i, k["label"]))
            kernels.append(k)
        rows += rs
    kernels.sort(key=lambda k: _kernel_key(k["label"]))
    return kernels, rows


def _row_key(r):
    return (r["transport"], r["run"], r.get("spec", r["injected"]), r["judged"])


def _order(key):
    t, run, spec, judged = key
    return ({"rxe": 0, "siw": 1}.get(t, 2), t, spec == "", spec, run, judged)


def _cell(r):
    return {"verdict": r["verdict"], "answer": r["answer"], "why": r["why"],
            "verify": r["agent"].get("verify", ""), "capture": r["capture"]}


def _not_run(why):
    return {"verdict": "not run", "answer": "", "why": why, "verify": "", "capture": ""}


def matrix(kernels, rows, rules):
    """Per role, the side-by-side rows: the same run and injection on every kernel.
    Injections the agent has that no run made are rows of "not run" cells."""
    labels = [k["label"] for k in kernels]
    transports = []
    for k in kernels:
        transports += [t for t in k.get("transports", []) if t not in transports]
    out = {}
    for role in ROLES:
        mine = [r for r in rows if r["role"] == role]
        keyed = {}
        for r in mine:
            e = keyed.setdefault(_row_key(r), {
                "transport": r["transport"], "run": r["run"], "spec": r.get("spec", r["injected"]),
                "injector": r.get("injector", r["injected"]), "injected": r["injected"],
                "when": r.get("when", ""), "injected_ref": r["injected_ref"],
                "injected_name": r["injected_name"], "judged": r["judged"],
                "judged_ref": r["judged_ref"], "judged_name": r["judged_name"], "cells": {}})
            e["cells"][r["kernel"]] = _cell(r)
        # an injector ran if a row names it, or names its rule the older way (--inject RR-nnn)
        ran = {(r["transport"], r.get("injector", r["injected"])) for r in mine}
        for k in kernels:
            for p in k.get("planned", {}).get(role, []):
                if isinstance(p, str):
                    p = {"injector": p, "rule": p}
                for t in transports:
                    if (t, p["injector"]) in ran or (t, p["rule"]) in ran:
                        continue
                    rule = rules.get(p["rule"], {})
                    keyed.setdefault((t, "-", p["injector"], ""), {
                        "transport": t, "run": "-", "spec": p["injector"], "injector": p["injector"],
                        "injected": p["rule"], "when": "",
                        "injected_ref": rule.get("ref", "?"), "injected_name": rule.get("name", ""),
                        "judged": "", "judged_ref": "", "judged_name": "", "cells": {}})
        with_role = {r["kernel"] for r in mine}
        for e in keyed.values():
            for lab in labels:
                if lab in e["cells"]:
                    continue
                if role == "client" and lab not in with_role:
                    why = "no xprtrdma run on %s yet (the proxy's manifests)" % lab
                else:
                    why = "not in the lab run of %s" % lab
                e["cells"][lab] = _not_run(why)
        out[role] = {"implementation": IMPL[role],
                     "rows": [keyed[k] for k in sorted(keyed, key=_order)]}
    return out


def document(kernels, rows, rules):
    rows = sorted(rows, key=lambda r: (ROLES.index(r["role"]) if r["role"] in ROLES else 9,
                                       _kernel_key(r["kernel"]), _order(_row_key(r))))
    return {"format": FORMAT, "version": VERSION, "kernels": kernels,
            "matrix": matrix(kernels, rows, rules), "rows": rows}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--rules", default=os.path.join(here, "..", "..", "analyzer", "include",
                                                    "rpcrdma", "rules.def"))
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("inputs", nargs="+", metavar="INPUT")
    a = ap.parse_args(argv[1:])
    try:
        rules = cr.read_rules(a.rules)
        kernels, rows = load(a.inputs, rules)
    except cr.ConformanceInputError as e:
        print("conformance.py: %s" % e, file=sys.stderr)
        return 2
    doc = document(kernels, rows, rules)
    md = conformance_md.render(doc)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")
    if a.md:
        with open(a.md, "w", encoding="utf-8") as f:
            f.write(md)
    if not a.md and not a.json:
        sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
