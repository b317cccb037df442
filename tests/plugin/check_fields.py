#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's filter fields: how they are registered, and what they match.

tshark runs as an unprivileged user with the plugin (ws-user.sh).

  registry  (tshark -G fields) every rpcrdma field has a description
            (blurb), and no two rpcrdma fields share a display name.
  filters   (each capture, against ulb-lint --dump and --format json):
            `rpcrdma.chunk.role == "write"` marks the Sends whose headers
            carry write chunks; `rpcrdma.reply` only those that carry a
            reply chunk, `rpcrdma.reads` only those with read chunks;
            `rpcrdma.message.dir == "call"`/`"reply"` count the messages;
            `rpcrdma.finding` marks every finding and `rpcrdma.violation`
            only those of rules (not capture conditions) at error or
            warning; `rpcrdma.op` is spelled "NFSv3 READ", "NFSv4.1 READ",
            "NFSv4 CB_COMPOUND".
  docs      every display filter docs/plugin.md writes (a `rpcrdma.`
            expression that is not a preference or a template) is one
            tshark takes, and each of its examples (the "Examples:"
            paragraph, the `rpcrdma.op == ...` filters) matches a frame of
            the captures: a user who pastes one gets something.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, lint_dump, lint_findings  # noqa: E402


class Tshark:
    def __init__(self, ws_user, plugin, home):
        self.cmd = [ws_user, plugin, "--home", home, "--", "tshark"]

    def run(self, args):
        p = subprocess.run(self.cmd + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0 or "Couldn't load plugin" in p.stderr.decode(errors="replace"):
            sys.stderr.write("tshark failed (%d): %s\n%s\n" % (p.returncode, " ".join(args),
                                                              p.stderr.decode(errors="replace")[-3000:]))
            raise SystemExit(1)
        return p.stdout.decode(errors="replace")

    def frames(self, cap, filt):
        """The frame numbers matching a display filter (-2)."""
        out = self.run(["-2", "-r", cap, "-Y", filt, "-T", "fields", "-e", "frame.number"])
        return [int(x) for x in out.split()]

    def values(self, cap, filt, field):
        out = self.run(["-2", "-r", cap, "-Y", filt, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
                        "-e", field])
        return [v for line in out.splitlines() for v in line.split("|") if v]


def check_registry(ts, fail):
    rows = [l.split("\t") for l in ts.run(["-G", "fields"]).splitlines()]
    fields = [r for r in rows if len(r) > 4 and r[0] == "F" and r[4] == "rpcrdma"]
    names = collections.defaultdict(list)
    for r in fields:
        blurb = r[7] if len(r) > 7 else ""
        if not blurb.strip():
            fail.add("field %s (%s) has no description" % (r[2], r[1]))
        names[r[1]].append(r[2])
    for name, abbrevs in sorted(names.items()):
        if len(abbrevs) > 1:
            fail.add("display name %r is shared by %s" % (name, ", ".join(abbrevs)))
    print("registry: %d rpcrdma fields, %d display names" % (len(fields), len(names)))


OP = re.compile(r"^(NFSv[234] [A-Z_0-9]+|NFSv4\.[0-9]+ [A-Z_0-9]+|NFSv4 CB_[A-Z_]+|[A-Z_0-9]+ v[0-9]+ [A-Z_0-9]+)$")


def check_capture(ts, lint, cap, fail):
    name = os.path.basename(cap)
    dump = lint_dump(lint, cap)
    # A header is drawn in the frame its Send ends in, one of its message's frames.
    def frames_of(ms):
        return set(f for m in ms for f in m["frames"])

    # A reply's header carries the write list and reply chunk it used, as its call's does.
    for filt, want in (('rpcrdma.chunk.role == "write"', [m for m in dump if m["write_chunks"]]),
                       ("rpcrdma.reply", [m for m in dump if m["reply_chunk"]]),
                       ("rpcrdma.reads", [m for m in dump if m["read_positions"]])):
        got = set(ts.frames(cap, filt + " && rpcrdma.send"))
        if not got <= frames_of(want) or (want and not got):
            fail.add("%s: %s matches %d frames, %d of them outside the %d messages ulb-lint says have it" %
                     (name, filt, len(got), len(got - frames_of(want)), len(want)))
        hit = sum(1 for m in want if got & set(m["frames"]))
        if hit != len(want):
            fail.add("%s: %s finds %d of the %d messages ulb-lint says have it" % (name, filt, hit, len(want)))
        print("%s: %s: %d frames, %d messages" % (name, filt, len(got), len(want)))
    for d in ("call", "reply"):
        n = len(ts.values(cap, 'rpcrdma.message.dir == "%s"' % d, "rpcrdma.message.dir"))
        want = sum(1 for m in dump if m["dir"] == d)
        if n != want:
            fail.add("%s: rpcrdma.message.dir == \"%s\": %d messages, ulb-lint %d" % (name, d, n, want))
    findings, _ = lint_findings(lint, cap)
    kinds = rule_kinds(lint)
    viol = sum(1 for f in findings if kinds.get(f["rule"]) == "rule" and f["severity"] in ("error", "warning"))
    n_find = len(ts.values(cap, "rpcrdma.finding", "rpcrdma.rule"))
    n_viol = len(ts.values(cap, "rpcrdma.violation", "rpcrdma.violation"))
    if n_find != len(findings) or n_viol != viol:
        fail.add("%s: %d rpcrdma.finding, %d rpcrdma.violation; ulb-lint: %d findings, %d rule violations" %
                 (name, n_find, n_viol, len(findings), viol))
    ops = set(ts.values(cap, "rpcrdma.op", "rpcrdma.op"))
    for op in sorted(o for o in ops if not OP.match(o)):
        fail.add("%s: operation label %r is not in the one format" % (name, op))
    print("%s: %d findings (%d violations), %d operation labels" % (name, n_find, n_viol, len(ops)))


_kinds = {}


def rule_kinds(lint):
    """code -> "rule" for rules of the binding with a check, else "condition" (ulb-lint --list-rules)."""
    if not _kinds:
        out = subprocess.run([lint, "--list-rules"], stdout=subprocess.PIPE, check=True).stdout.decode()
        for line in out.splitlines():
            f = line.split()
            if f and re.match(r"^(RR|CAP|ENG)-", f[0]):
                _kinds[f[0]] = "rule" if f[0].startswith("RR-") else "condition"
    return _kinds


DOCS = os.path.join(HERE, "..", "..", "docs", "plugin.md")
PREFS = {"rpcrdma.builtin", "rpcrdma.checks", "rpcrdma.profile", "rpcrdma.inline_threshold", "rpcrdma.iwarp_port"}


def doc_filters():
    """(every filter docs/plugin.md writes, the examples among them)."""
    text = open(DOCS).read()
    spans = [m.replace("\n", " ") for m in re.findall(r"`([^`]+)`", text)]
    filters = [f for f in spans if re.match(r"^!?\(?[a-z]", f) and "rpcrdma." in f and f not in PREFS and
               not re.search(r"[<:\[]|tshark|\.h$|\.so$|== N$", f)]
    m = re.search(r"^Examples: (.*?)\n\n", text, re.S | re.M)
    examples = [f.replace("\n", " ") for f in re.findall(r"`([^`]+)`", m.group(1))] if m else []
    examples += [f for f in filters if f.startswith("rpcrdma.op ==")]
    return sorted(set(filters)), sorted(set(examples))


def check_docs(ts, caps, fail):
    filters, examples = doc_filters()
    if len(examples) < 5:
        fail.add("docs/plugin.md: only %d example filters found (%s)" % (len(examples), examples))
    def refused(f):
        p = subprocess.run(ts.cmd + ["-r", caps[0], "-c", "1", "-Y", f], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        return p.returncode != 0 and (p.stderr.decode(errors="replace").strip().splitlines() or ["?"])[0]

    # All at once first (one tshark); one by one only to name the ones refused.
    bad = []
    if refused(" || ".join("(%s)" % f for f in filters)):
        bad = [(f, why) for f, why in ((f, refused(f)) for f in filters) if why]
        if not bad:
            fail.add("docs/plugin.md's filters are each taken, but not together")
    for f, why in bad:
        fail.add("docs/plugin.md writes the filter %r, which tshark refuses: %s" % (f, why))
    for f in examples:
        if not any(ts.run(["-2", "-r", cap, "-Y", f, "-T", "fields", "-e", "frame.number"]).strip() for cap in caps):
            fail.add("docs/plugin.md's example filter %r matches no frame of %d captures" % (f, len(caps)))
    print("docs: %d filters tshark takes, %d examples that match" % (len(filters) - len(bad), len(examples)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-fields-")
    os.chmod(tmp, 0o755)
    ts = Tshark(a.ws_user, a.plugin, os.path.join(tmp, "home"))
    fail = Failures("plugin_fields")
    try:
        check_registry(ts, fail)
        caps = []
        for src in a.captures:
            cap = os.path.join(tmp, os.path.basename(src))
            shutil.copyfile(src, cap)
            os.chmod(cap, 0o644)
            check_capture(ts, a.lint, cap, fail)
            caps.append(cap)
        if caps:
            check_docs(ts, caps, fail)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(1 + len(a.captures))


if __name__ == "__main__":
    main()
