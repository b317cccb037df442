#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's expert infos and finding texts against ulb-lint.

tshark runs as an unprivileged user with the plugin (ws-user.sh).

  per-rule  (--profiles, -2) every expert info the plugin adds is the one of
            its finding's rule (`rpcrdma.rule.rr_029`), at the severity
            ulb-lint --format json --profile P gives the finding: the counts
            per (rule, severity) equal ulb-lint's, in each profile.
  whole     (--whole) no finding text is cut at Wireshark's 240-byte
            label limit: every expert message of the plugin is
            "CODE: <the first sentence of ulb-lint's message>", the
            finding's `rpcrdma.rule.detail` items are the sentences after
            it, and no label of the plugin's tree (tshark -V) reaches 239
            bytes unless it ends a sentence.
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures  # noqa: E402

# Wireshark's expert severities (epan/proto.h PI_*), by ulb-lint's severity names.
PI = {"info": 0x400000, "warning": 0x600000, "error": 0x800000}
# Wireshark cuts a label at ITEM_LABEL_LENGTH (240 bytes, with its NUL).
CUT = 239


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


def lint(lint_bin, cap, profile):
    p = subprocess.run([lint_bin, "--format", "json", "--profile", profile, cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.stderr.write("ulb-lint failed on %s: %s\n" % (cap, p.stderr.decode()))
        raise SystemExit(1)
    return [d for d in (json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()) if "rule" in d]


def ei_name(code):
    return "rpcrdma.rule." + code.lower().replace("-", "_")




def walk(node, out):
    """Every _ws.expert object under node (a list of (key, value) pairs)."""
    if isinstance(node, list):
        for k, v in node:
            if k == "_ws.expert" and isinstance(v, list):
                out.append(dict((a, b) for a, b in v if not isinstance(b, list)))
            if isinstance(v, list):
                walk(v, out)


def experts(ts, cap, profile):
    """Counter of (expert field name, severity) over the expert infos in the plugin's tree (-2)."""
    out = ts.run(["-2", "-r", cap, "-o", "rpcrdma.profile:" + profile, "-Y", "rpcrdma", "-T", "json",
                  "-J", "rpcrdma"])
    got = collections.Counter()
    if not out.strip():
        return got
    for pkt in json.loads(out, object_pairs_hook=lambda kv: kv):
        found = []
        walk(pkt, found)
        for e in found:
            names = [k for k in e if k.startswith("rpcrdma.")]
            for n in names:
                got[(n, int(e.get("_ws.expert.severity", "0")))] += 1
            if not names:
                got[("(not a rule's expert info: %s)" % e.get("_ws.expert.message", "?"), 0)] += 1
    return got


def check_per_rule(ts, lint_bin, cap, fail, profiles):
    name = os.path.basename(cap)
    for prof in profiles:
        want = collections.Counter((ei_name(d["rule"]), PI[d["severity"]]) for d in lint(lint_bin, cap, prof))
        got = experts(ts, cap, prof)
        for k in sorted(set(want) | set(got)):
            if want[k] != got[k]:
                fail.add("%s (%s): expert %s severity 0x%x: ulb-lint %d, plugin %d" %
                         (name, prof, k[0], k[1], want[k], got[k]))
        print("%s (%s): %d expert infos of %d rules; ulb-lint %d findings" %
              (name, prof, sum(got.values()), len(set(k[0] for k in got)), sum(want.values())))


def sentences(text):
    return text.split(". ")


def check_whole(ts, lint_bin, cap, fail):
    name = os.path.basename(cap)
    want = collections.Counter()
    for d in lint(lint_bin, cap, "rfc8166"):
        s = sentences(d["message"])
        want[("%s: %s" % (d["rule"], s[0]), tuple(s[1:]))] += 1
    out = ts.run(["-2", "-r", cap, "-Y", "rpcrdma", "-T", "json", "-J", "rpcrdma"])
    got = collections.Counter()
    for pkt in (json.loads(out, object_pairs_hook=lambda kv: kv) if out.strip() else []):
        findings = []
        collect_findings(pkt, findings)
        for code, msg, details in findings:
            got[(msg, tuple(details))] += 1
    for k in sorted(set(want) | set(got)):
        if want[k] != got[k]:
            fail.add("%s: finding %r with details %r: ulb-lint %d, plugin %d" % (name, k[0], k[1], want[k], got[k]))
    longest = 0
    tree = ts.run(["-2", "-r", cap, "-Y", "rpcrdma", "-V"])
    ours = False
    for line in tree.splitlines():
        if not line.startswith(" "):
            # A protocol's top line: the plugin's tree, or another dissector's (not ours to judge).
            ours = line.startswith("RPC-over-RDMA v1 (rpcrdma-toolkit)")
        if not ours:
            continue
        label = line.strip()
        if label.startswith("[") and label.endswith("]"):
            label = label[1:-1]
        n = len(label.encode())
        longest = max(longest, n)
        if n >= CUT and not label.endswith("."):
            fail.add("%s: a label is cut at %d bytes: %s" % (name, n, label[-60:]))
    print("%s: %d findings whole in expert messages and details; longest label %d bytes" %
          (name, sum(got.values()), longest))


def collect_findings(node, out):
    """(code, expert message, [details]) of every rpcrdma.finding tree."""
    if not isinstance(node, list):
        return
    for k, v in node:
        if k in ("rpcrdma.finding", "rpcrdma.finding_tree") and isinstance(v, list):
            code = next((b for a, b in v if a == "rpcrdma.rule"), None)
            details = [b for a, b in v if a == "rpcrdma.rule.detail"]
            msgs = []
            walk(v, msgs)
            for e in msgs:
                out.append((code, e.get("_ws.expert.message"), details))
        elif isinstance(v, list):
            collect_findings(v, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--profiles", default="", help="comma-separated: the per-rule check in these profiles")
    ap.add_argument("--whole", action="store_true", help="the no-cut check")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-expert-")
    os.chmod(tmp, 0o755)
    ts = Tshark(a.ws_user, a.plugin, os.path.join(tmp, "home"))
    fail = Failures("plugin_expert")
    try:
        for src in a.captures:
            cap = os.path.join(tmp, os.path.basename(src))
            shutil.copyfile(src, cap)
            os.chmod(cap, 0o644)
            if a.profiles:
                check_per_rule(ts, a.lint, cap, fail, [p for p in a.profiles.split(",") if p])
            if a.whole:
                check_whole(ts, a.lint, cap, fail)
            os.unlink(cap)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(len(a.captures))


if __name__ == "__main__":
    main()
