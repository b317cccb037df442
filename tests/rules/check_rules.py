#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rule scenarios against the rule engine.

Every rule with a violation scenario has a pair in this folder:
RR-xxx.scn breaks that rule (and only what it must break with it, see the
scenario's comment) and RR-xxx.clean.scn is the same traffic without the
violation. For each pair, link and handshake setting, the runner generates
both captures with rpcrdma-pcapgen, runs `ulb-lint --format json` on them and
compares the set of (rule, frame) findings whose rule is RR-* with the
truth file's "expect" list (with `--profile P` when the truth names a
"profile": the scenario's `profile rfc5666` directive), which the generator computes from what it
emitted (docs/pcapgen.md, "Expected findings"). The clean twin must give
no RR-* finding at all. CAP-* and ENG-* codes are ignored.

usage: check_rules.py [--lint ULB-LINT] [--pcapgen GENERATOR] [--rules-dir DIR]
                      [--links ib,rocev2,iwarp] [-k PATTERN] [--keep DIR] [-v]
Exit status: 0 when every case matches, 1 otherwise, 2 on usage errors.
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from lintjson import cut_pcap  # noqa: E402  (one pcap cutter for every snaplen test)

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
TEXT_LINE = re.compile(r"^frame (\d+): (\w+) ((?:RR|CAP|ENG)-[A-Z0-9-]+)\b")


def default_tool(name):
    for d in (os.path.join(TOP, "build", "bin"),):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return shutil.which(name) or name


def pairs(rules_dir, patterns):
    """(rule, violation scenario, clean scenario) for every complete pair."""
    out, lonely = [], []
    for scn in sorted(glob.glob(os.path.join(rules_dir, "RR-*.scn"))):
        base = os.path.basename(scn)
        if base.endswith(".clean.scn"):
            if not os.path.exists(scn[:-len(".clean.scn")] + ".scn"):
                lonely.append(base)
            continue
        rule = base[:-len(".scn")]
        clean = scn[:-len(".scn")] + ".clean.scn"
        if not os.path.exists(clean):
            lonely.append(base)
            continue
        if patterns and not any(fnmatch.fnmatch(rule, p) or p in rule for p in patterns):
            continue
        out.append((rule, scn, clean))
    return out, lonely


def generate(gen, scn, link, handshake, cap, truth):
    cmd = [gen, scn, "--link", link, "--handshake" if handshake else "--no-handshake",
           "-o", cap, "--truth", truth]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return None, "rpcrdma-pcapgen failed (%d): %s" % (p.returncode,
                                                         p.stderr.decode(errors="replace").strip())
    with open(truth) as f:
        return json.load(f), None


def lint(tool, cap, profile=None):
    """Findings as a list of dicts (rule, frame, severity, text), or an error.
    profile: the ulb-lint profile the truth's expectations are for (the
    scenario's "profile" directive; absent means the default, rfc8166)."""
    opts = ["--profile", profile] if profile else []
    p = subprocess.run([tool, "--format", "json"] + opts + [cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        return None, "ulb-lint exit status %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[-2000:])
    found, text_lines = [], 0
    for line in p.stdout.decode(errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            m = TEXT_LINE.match(line)
            if m:  # a ulb-lint that does not write JSON yet
                text_lines += 1
                found.append({"rule": m.group(3), "frame": int(m.group(1)),
                              "severity": m.group(2), "text": line})
            continue
        if not isinstance(rec, dict):
            continue
        rule = rec.get("rule", rec.get("code"))
        if rule is None:
            continue
        found.append({"rule": rule, "frame": rec.get("frame"),
                      "severity": rec.get("severity", ""),
                      "text": rec.get("text", rec.get("message", ""))})
    return (found, text_lines), None


def serious(findings):
    return {(f["rule"], f["frame"]) for f in findings
            if str(f["rule"]).startswith("RR-") and f["severity"] in ("error", "warning")}


def rr_set(findings):
    return {(f["rule"], f["frame"]) for f in findings if str(f["rule"]).startswith("RR-")}


def fmt(pairs_):
    return ", ".join("%s@%s" % p for p in sorted(pairs_, key=lambda p: (p[1] or 0, p[0])))


class Case:
    """One generated capture: a twin of a rule's pair on one link, with or
    without the handshake, and its cuts."""

    def __init__(self, rule, twin, path, link, hs, tmp):
        self.rule, self.twin, self.link, self.hs = rule, twin, link, hs
        self.tag = "%s %s %s handshake %s" % (rule, twin, link, "on" if hs else "off")
        stem = "%s%s-%s-%s" % (rule, "" if twin == "violation" else ".clean", link, "hs" if hs else "nohs")
        self.scn = path
        self.cap = os.path.join(tmp, stem + ".pcap")
        self.tj = os.path.join(tmp, stem + ".json")
        self.problems, self.want, self.truth = [], set(), None
        self.cuts = {}                   # snaplen: cut capture


def prepare(a, case, snaplens):
    """Generate the capture, read what its truth expects, cut it."""
    truth, err = generate(a.pcapgen, case.scn, case.link, case.hs, case.cap, case.tj)
    if err:
        case.problems.append(err)
        return
    if "expect" not in truth:
        case.problems.append("scenario error: the truth has no \"expect\" list "
                             "(the scenario needs \"expect on\")")
        return
    case.truth = truth
    case.want = {(e["rule"], e["frame"]) for e in truth["expect"]}
    if case.twin == "clean" and case.want:
        case.problems.append("scenario error: the clean twin's truth expects %s" % fmt(case.want))
        case.want = set()
    for snap in snaplens:
        cut = case.cap + ".cut%d.pcap" % snap
        if cut_pcap(case.cap, cut, snap) is not None:
            case.cuts[snap] = cut


def lint_many(tool, paths, profile, chunk=400):
    """lint() of many captures with few ulb-lint starts: ulb-lint reads each
    FILE with an engine of its own and names it in every JSON finding.
    {path: (result, error)} as lint() returns them; a start that fails, or
    output that is not JSON, is redone one file at a time, so an error is
    told against its own capture."""
    out = {}
    for i in range(0, len(paths), chunk):
        part = paths[i:i + chunk]
        opts = ["--profile", profile] if profile else []
        p = subprocess.run([tool, "--format", "json", "--quiet"] + opts + part,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        found = {path: [] for path in part}
        ok = p.returncode in (0, 1)
        for line in p.stdout.decode(errors="replace").splitlines() if ok else []:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                ok = False
                break
            rule = rec.get("rule", rec.get("code")) if isinstance(rec, dict) else None
            if rule is None:
                continue
            if rec.get("file") not in found:
                ok = False
                break
            found[rec["file"]].append({"rule": rule, "frame": rec.get("frame"),
                                       "severity": rec.get("severity", ""),
                                       "text": rec.get("text", rec.get("message", ""))})
        for path in part:
            out[path] = ((found[path], 0), None) if ok else lint(tool, path, profile)
    return out


def lint_cases(a, cases):
    """Every capture and cut of every case through ulb-lint, grouped by profile."""
    by_profile = {}
    for c in cases:
        if c.truth is not None:
            by_profile.setdefault(c.truth.get("profile"), []).extend([c.cap] + list(c.cuts.values()))
    res = {}
    for profile, paths in by_profile.items():
        res.update(lint_many(a.lint, paths, profile))
    return res


def judge(case, res, verbose):
    """The case's problems: findings against the truth, and what each cut adds.
    Returns the number of findings read as text."""
    if case.truth is None:
        return 0
    got, err = res[case.cap]
    if err:
        case.problems.append(err)
        return 0
    found, ntext = got
    have = rr_set(found)
    missing, extra = case.want - have, have - case.want
    if missing:
        case.problems.append("missing:    %s" % fmt(missing))
    if extra:
        case.problems.append("unexpected: %s" % fmt(extra))
        for f in found:
            if (f["rule"], f["frame"]) in extra and f.get("text"):
                case.problems.append("    %s" % f["text"][:200])
    for snap, cut in case.cuts.items():
        res2, err2 = res[cut]
        if err2:
            case.problems.append("cut at %d: %s" % (snap, err2))
            continue
        new = serious(res2[0]) - serious(found)
        if new:
            case.problems.append("cut at %d adds: %s" % (snap, fmt(new)))
            for f in res2[0]:
                if (f["rule"], f["frame"]) in new:
                    case.problems.append("    %s" % f["text"][:200])
    if not case.problems and verbose:
        print("ok   %s: %s" % (case.tag, fmt(case.want) or "no finding"))
    if case.problems:
        case.problems.insert(0, "expected:   %s" % (fmt(case.want) or "none"))
    return ntext


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lint", default=default_tool("ulb-lint"))
    ap.add_argument("--pcapgen", default=default_tool("rpcrdma-pcapgen"))
    ap.add_argument("--rules-dir", default=HERE)
    ap.add_argument("--links", action="append",
                    help="comma-separated link types (default ib,rocev2,iwarp); repeatable")
    ap.add_argument("-k", dest="patterns", action="append", default=[],
                    help="only rules matching this glob or substring (repeatable)")
    ap.add_argument("--keep", metavar="DIR", help="copy the captures and truths of failing "
                    "cases into DIR")
    ap.add_argument("-v", "--verbose", action="store_true", help="print passing cases too")
    ap.add_argument("--snaplens", default="",
                    help="comma-separated: also cut every capture at these snaplens; a cut may "
                         "lose findings but must add no RR error or warning")
    a = ap.parse_args(argv[1:])
    links = []
    for item in a.links or ["ib,rocev2,iwarp"]:
        links += [l for l in item.split(",") if l]

    todo, lonely = pairs(a.rules_dir, a.patterns)
    for base in lonely:
        print("WARNING %s has no twin (RR-xxx.scn needs RR-xxx.clean.scn)" % base)
    if not todo:
        print("no rule scenarios selected in %s" % a.rules_dir)
        return 2
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)

    snaplens = [int(x) for x in a.snaplens.split(",") if x]
    failed = passed = 0
    text_fallback = 0
    per_rule = {}
    with tempfile.TemporaryDirectory(prefix="rules-") as tmp:
        # Every capture first, then ulb-lint over all of them at once.
        groups = [[Case(rule, twin, path, link, hs, tmp)
                   for hs in (True, False) for twin, path in (("violation", scn), ("clean", clean))]
                  for rule, scn, clean in todo for link in links]
        for c in (c for g in groups for c in g):
            prepare(a, c, snaplens)
        res = lint_cases(a, [c for g in groups for c in g])
        for group in groups:
            rule, link = group[0].rule, group[0].link
            # does the violation expect its own rule at all?
            named = any(c.twin == "violation" and c.truth is not None and
                        any(r == rule for r, f in c.want) for c in group)
            for c in group:
                text_fallback += judge(c, res, a.verbose)
                st = per_rule.setdefault(rule, [0, 0])
                if c.problems:
                    failed += 1
                    st[1] += 1
                    print("FAIL %s" % c.tag)
                    for p in c.problems:
                        print("     " + p)
                    if a.keep and os.path.exists(c.cap):
                        shutil.copy(c.cap, a.keep)
                        shutil.copy(c.tj, a.keep)
                else:
                    passed += 1
                    st[0] += 1
            if not named:
                failed += 1
                per_rule.setdefault(rule, [0, 0])[1] += 1
                print("FAIL %s violation %s: scenario error: %s is expected with neither "
                      "handshake setting (did the injector apply?)" % (rule, link, rule))
    if text_fallback:
        print("note: ulb-lint printed %d findings as text, not JSON Lines; they were parsed "
              "as text" % text_fallback)
    bad = sorted(r for r, (p, f) in per_rule.items() if f)
    print("rules passing everywhere: %d of %d%s" % (len(per_rule) - len(bad), len(per_rule),
                                                   ("; failing: " + " ".join(bad)) if bad else ""))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
