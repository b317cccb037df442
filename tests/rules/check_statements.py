#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The statement catalogue (docs/spec/statements.tsv) agrees with the rule
table and with README.md:

* every rule a row names exists in rules.def; the checks column names only
  RR_RULE entries (rules with a check), the nocheck column only RR_NOCHECK;
* every RR_RULE and RR_NOCHECK whose ref cites RFC 8166, RFC 8167 or
  RFC 8267 is named by at least one row (a statement, or a row of kind
  derived or perm when the rule rests on text without a key word);
* a rule's ref cites the section of at least one row that names it: the
  section a finding prints holds a statement the rule stands for;
* the numbers README.md states (rules with a check, statements, checkable,
  checked in full) are those counted from rules.def and the catalogue.

rules.def and the catalogue are read as text, independently of the C code
that prints docs/rules.md from them.  With --generator, that program must
also refuse a catalogue with a malformed row, naming its line."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

COLUMNS = ["id", "rfc", "section", "kind", "statement", "wire", "why", "checks", "cover", "nocheck", "note"]
CITED = re.compile(r"RFC 816[67]|RFC 8267")


def read_rules(path):
    """{code: (kind, ref)} from rules.def; ref is the first string after the
    group (RR_NOCHECK) or after the check function (RR_RULE)."""
    rules = {}
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r'^(RR_RULE|RR_NOCHECK)\((.*?)\)\s*$', text, re.M | re.S):
        head = re.match(r'\s*\w+,\s*"(RR-\d+)",\s*"[^"]*",\s*\'.\',\s*(.*)', m.group(2), re.S)
        if not head:
            continue
        rest = head.group(2)
        if m.group(1) == "RR_RULE":
            # sev, sev5666, facts, check, then the ref string
            ref = re.match(r'\s*\w+,\s*\w+,\s*[^,]+,\s*\w+,\s*"([^"]*)"', rest, re.S)
        else:
            ref = re.match(r'\s*"([^"]*)"', rest, re.S)
        rules[head.group(1)] = (m.group(1), ref.group(1) if ref else "")
    return rules


def read_catalogue(path, problems):
    rows = []
    header = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
            if cells != COLUMNS:
                problems.append("%s:%d: the header is not %s" % (path, n, "/".join(COLUMNS)))
            continue
        if len(cells) != len(COLUMNS):
            problems.append("%s:%d: %d cells, not %d" % (path, n, len(cells), len(COLUMNS)))
            continue
        row = dict(zip(COLUMNS, cells))
        row["line"] = n
        rows.append(row)
    return rows


def codes(cell):
    return [] if cell == "-" else cell.split(" ")


def check_rules(rows, rules, path, problems):
    named = set()
    for r in rows:
        for col, want in (("checks", "RR_RULE"), ("nocheck", "RR_NOCHECK")):
            for code in codes(r[col]):
                named.add(code)
                if code not in rules:
                    problems.append("%s:%d: %s names %s, which rules.def does not have" % (path, r["line"], r["id"], code))
                elif rules[code][0] != want:
                    problems.append("%s:%d: %s lists %s in its %s column, but it is an %s entry" %
                                    (path, r["line"], r["id"], code, col, rules[code][0]))
        if r["wire"] not in ("full", "partly", "no"):
            problems.append("%s:%d: %s: wire %r" % (path, r["line"], r["id"], r["wire"]))
        if (r["cover"] in ("none", "-")) != (r["checks"] == "-"):
            problems.append("%s:%d: %s: cover %r with checks %r" % (path, r["line"], r["id"], r["cover"], r["checks"]))
    unnamed = sorted(c for c, (kind, ref) in rules.items() if CITED.search(ref) and c not in named)
    if unnamed:
        problems.append("rules citing RFC 8166/8167/8267 that no catalogue row names (add them to a statement, "
                        "or a derived or perm row if no key word states them): " +
                        ", ".join("%s (%s)" % (c, rules[c][1]) for c in unnamed))
    others = sorted(c for c, (kind, ref) in rules.items() if c not in named)
    if others:
        print("statements: not named by any row, their refs citing other documents only (fine): " +
              ", ".join("%s (%s)" % (c, rules[c][1]) for c in others))
    ids = [r["id"] for r in rows]
    dups = sorted(set(i for i in ids if ids.count(i) > 1))
    if dups:
        problems.append("duplicate ids: " + ", ".join(dups))


def cited_sections(ref):
    """{(document, section)} a ref cites: "RFC 8166 §3.4.5, §4.3.3; RFC 8267 §6.1"."""
    out = set()
    doc = None
    for part in re.split(r"[;,]\s*", ref):
        m = re.match(r"(RFC \d+|draft-[\w-]+)\s*(.*)", part.strip())
        rest = part.strip()
        if m:
            doc, rest = m.group(1), m.group(2)
        for sec in re.findall(r"§([\d.]+)", rest):
            out.add((doc, sec))
    return out


def check_refs_hold(rows, rules, path, problems):
    """Each rule citing RFC 8166/8167/8267 cites the section of a row naming it."""
    sections = {}
    for r in rows:
        for code in codes(r["checks"]) + codes(r["nocheck"]):
            for sec in r["section"].split(","):
                sections.setdefault(code, set()).add((r["rfc"], sec.strip()))
    for code, (kind, ref) in sorted(rules.items()):
        if not CITED.search(ref) or code not in sections:
            continue
        if not cited_sections(ref) & sections[code]:
            problems.append("%s cites %r, but the rows naming it are in %s: the ref does not name a section "
                            "that holds its statement" % (code, ref,
                                                          ", ".join("%s §%s" % s for s in sorted(sections[code]))))


def totals(rows, rules):
    counted = [r for r in rows if r["kind"] in ("norm", "table")]
    checkable = [r for r in counted if r["wire"] != "no"]
    return {
        "rules with a check": sum(1 for kind, _ in rules.values() if kind == "RR_RULE"),
        "statements": len(counted),
        "checkable": len(checkable),
        "checked in full": sum(1 for r in checkable if r["cover"] == "full"),
    }


# The README sentence, e.g. "118 rules with a check ... of the 110 normative statements of RFC 8166,
# RFC 8167 and RFC 8267, 96 can be checked from a capture and 59 are checked in full".
README = {
    "rules with a check": r"(\d+)\s+rules\s+with\s+a\s+check",
    "statements": r"of\s+the\s+(\d+)\s+normative\s+statements",
    "checkable": r"(\d+)\s+can\s+be\s+checked\s+from\s+a\s+capture",
    "checked in full": r"(\d+)\s+are\s+checked\s+in\s+full",
}


def check_readme(path, want, problems):
    text = open(path, encoding="utf-8").read()
    for what, pat in README.items():
        m = re.search(pat, text, re.I)
        if not m:
            problems.append("%s: no sentence states the number of %s (pattern %r)" % (path, what, pat))
        elif int(m.group(1)) != want[what]:
            problems.append("%s says %s %s; rules.def and the catalogue give %d" %
                            (path, m.group(1), what, want[what]))


def check_generator(generator, catalogue, problems):
    """Break the cover cell of the first counted row: the generator exits 1 naming that line."""
    lines = open(catalogue, encoding="utf-8").read().split("\n")
    header = False
    for n, line in enumerate(lines):
        if not line or line.startswith("#"):
            continue
        if not header:
            header = True
            continue
        cells = line.split("\t")
        cells[COLUMNS.index("cover")] = "bogus"
        lines[n] = "\t".join(cells)
        break
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "statements.tsv")
        open(bad, "w", encoding="utf-8").write("\n".join(lines))
        run = subprocess.run([generator, bad], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        where = "%s:%d:" % (bad, n + 1)
        if run.returncode != 1 or where not in run.stderr.decode():
            problems.append("the generator given a bad cover cell at %s exited %d saying %r" %
                            (where, run.returncode, run.stderr.decode().strip()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules-def", required=True)
    ap.add_argument("--catalogue", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--generator", help="rr-rules-doc, to check it refuses a malformed catalogue")
    a = ap.parse_args()
    problems = []
    rules = read_rules(a.rules_def)
    if not rules:
        problems.append("%s: no RR_RULE or RR_NOCHECK entry read" % a.rules_def)
    rows = read_catalogue(a.catalogue, problems)
    check_rules(rows, rules, a.catalogue, problems)
    check_refs_hold(rows, rules, a.catalogue, problems)
    want = totals(rows, rules)
    check_readme(a.readme, want, problems)
    if a.generator:
        check_generator(a.generator, a.catalogue, problems)
    for p in problems:
        print("FAIL statements: " + p)
    print("statements: %d rows, %s; %s" % (len(rows), ", ".join("%s %d" % kv for kv in want.items()),
                                           "FAILED" if problems else "all agree"))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
