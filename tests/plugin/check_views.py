#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's statistics views, read from tshark as a user runs them,
against oracles that do not go through the code under test.

  check_views.py --view tree|srt|conv|flow|color --ws-user W --plugin P --lint L
                 [--colorfilters F] CAPTURE...

tshark runs as an unprivileged user with the plugin in its personal folder
(ws-user.sh), two-pass (-2) as the views need the whole capture.

  tree   -z rpcrdma,tree: one row per connection (ulb-lint --summary's
         connections), every parent row carries its children, response
         times in ms with ulb-lint's count per operation, bytes per message
         whose Count x Average is ulb-lint's total, zero-length advertised
         segments on their own row and out of the size ranges.
  srt    -z rpcrdma,srt: one row per operation, its count ulb-lint's
         response-time count, min / max / sum those of rpcrdma.time in the
         replies' message trees (Wireshark's PDML of the same capture).
  conv   -z conv,rpcrdma: one row per connection, frames each way those of
         ulb-lint --dump's messages by sender, bytes ulb-lint's.
  flow   -z flow,rpcrdma,standard: one arrow per frame the plugin drew
         (frames showing rpcrdma, the CM private data frames aside, at
         their capture times), labelled with the message ulb-lint --dump
         rebuilt in it, as its message tree names it.
  color  the shipped colorfilters in a temporary profile (-C): the frames
         named by each rule are exactly those of ulb-lint's findings of
         that severity (errors first).

Each check is run once more on a copy of the oracle with one value
changed, which must fail (a comparison that compares nothing cannot pass).
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, lint_dump, lint_findings, run  # noqa: E402


def lint_summary(lint, cap):
    """ulb-lint --summary --format json: {connection id: record}."""
    p = subprocess.run([lint, "--summary", "--format", "json", "--quiet", cap],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed (%d) on %s:\n%s" % (p.returncode, cap, p.stderr.decode()))
    for line in p.stdout.decode().splitlines():
        if line.startswith('{"file"') and '"summary"' in line:
            return {c["id"]: c for c in json.loads(line)["summary"]["connections"]}
    raise SystemExit("ulb-lint --summary printed no summary for %s" % cap)


def response_counts(summ):
    """{operation: replies timed} over all connections."""
    out = {}
    for c in summ.values():
        for op, t in c.get("response_ms", {}).items():
            out[op] = out.get(op, 0) + t["count"]
    return out


class Tshark:
    """tshark as the unprivileged user, one Wireshark home for every run."""

    def __init__(self, ws_user, plugin, tmp):
        self.ws_user, self.plugin, self.home = ws_user, plugin, os.path.join(tmp, "home")
        self.first = True

    def __call__(self, *args):
        plugin = self.plugin if self.first else "none"
        self.first = False
        return run([self.ws_user, plugin, "--home", self.home, "--", "tshark", "-2"] + list(args))

    def offers(self, cap, tap):
        """Whether this Wireshark offers -z tap (the Flow Graph needs a header 4.0 alone installs)."""
        plugin = self.plugin if self.first else "none"
        self.first = False
        p = subprocess.run([self.ws_user, plugin, "--home", self.home, "--", "tshark", "-q", "-c", "1", "-r", cap,
                            "-z", tap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return "Invalid -z argument" not in p.stderr.decode(errors="replace")


# ---- tree ----

TREE_ROW = re.compile(r"^( *)(\S.*?)\s{2,}(\d+)(?:\s+(-|[\d.]+))?(?:\s+(-|[\d.]+))?(?:\s+(-|[\d.]+))?\s+[\d.]+\s")


def parse_tree(text):
    """The rows of a stats_tree's plain text: [{depth, name, count, avg, min, max, children}]."""
    roots, stack = [], []
    body = False
    for line in text.splitlines():
        if line.startswith("-----"):
            body = not body
            continue
        if not body or not line.strip():
            continue
        m = TREE_ROW.match(line)
        if not m:
            continue
        node = {"depth": len(m.group(1)), "name": m.group(2).strip(), "count": int(m.group(3)),
                "avg": m.group(4), "min": m.group(5), "max": m.group(6), "children": []}
        while stack and stack[-1]["depth"] >= node["depth"]:
            stack.pop()
        (stack[-1]["children"] if stack else roots).append(node)
        stack.append(node)
    return {n["name"]: n for n in roots}


def num(s):
    return float(s) if s not in (None, "-") else None


def check_tree(name, tree, summ, fail):
    need = ("Messages by type", "Chunk usage per operation (calls)",
            "Bytes per message (Average); total = Count x Average", "Chunk segments advertised by calls",
            "Chunk segments: bytes seen moved (per segment)",
            "Calls outstanding per connection (Max Val: the highest)", "Response time per operation (ms)")
    for n in need:
        if n not in tree:
            fail.add("%s: tree has no row %r (rows: %s)" % (name, n, sorted(tree)))
            return
    calls = sum(c["calls"] for c in summ.values())
    msgs = calls + sum(c["replies"] for c in summ.values())
    # Parents carry their children.
    for n in ("Messages by type", "Calls outstanding per connection (Max Val: the highest)",
              "Response time per operation (ms)", "Chunk usage per operation (calls)",
              "Chunk segments advertised by calls"):
        kids = sum(k["count"] for k in tree[n]["children"])
        if tree[n]["count"] != kids:
            fail.add("%s: %r shows %d, its rows add up to %d" % (name, n, tree[n]["count"], kids))
    for n in ("Chunk segments: bytes seen moved (per segment)",):
        kids = sum(k["count"] for k in tree[n]["children"])
        if tree[n]["count"] != kids:
            fail.add("%s: %r shows %d, its ranges add up to %d" % (name, n, tree[n]["count"], kids))
    if tree["Messages by type"]["count"] != msgs:
        fail.add("%s: Messages by type %d, ulb-lint --summary %d" % (name, tree["Messages by type"]["count"], msgs))
    # One row per connection, a call each.
    rows = {}
    for k in tree["Calls outstanding per connection (Max Val: the highest)"]["children"]:
        m = re.match(r"connection (\d+): ", k["name"])
        cid = int(m.group(1)) if m else -1
        if cid in rows:
            fail.add("%s: connection %d has more than one outstanding-calls row" % (name, cid))
        rows[cid] = k["count"]
    want = {cid: c["calls"] for cid, c in summ.items() if c["calls"]}
    if rows != want:
        fail.add("%s: calls per connection row %s, ulb-lint --summary %s" % (name, rows, want))
    # Response times: ms, one row per operation, counted as ulb-lint counts them.
    rtt = {k["name"]: k for k in tree["Response time per operation (ms)"]["children"]}
    got = {n: k["count"] for n, k in rtt.items() if not n.endswith("(backchannel)")}
    if got != response_counts(summ):
        fail.add("%s: response times per operation %s, ulb-lint --summary %s" % (name, got, response_counts(summ)))
    for op, k in rtt.items():
        for c in summ.values():
            t = c.get("response_ms", {}).get(op)
            # Each connection's median lies within the operation's [min, max], in the same unit.
            if t and not (num(k["min"]) - 0.002 <= t["median"] <= num(k["max"]) + 0.002):
                fail.add("%s: %s median %.3f ms (ulb-lint) outside the tree's min %s / max %s" %
                         (name, op, t["median"], k["min"], k["max"]))
    # Bytes: per message, Count x Average is the total.
    b = {k["name"]: k for k in tree["Bytes per message (Average); total = Count x Average"]["children"]}
    for row, key in (("inline", "inline_bytes"), ("by DDP", "ddp_bytes"), ("in Long messages", "long_bytes")):
        total = sum(c[key] for c in summ.values())
        k = b.get(row)
        if not k or k["count"] != msgs or abs(k["count"] * num(k["avg"]) - total) > 0.006 * msgs + 1e-6 * total:
            fail.add("%s: bytes %s row %s, ulb-lint total %d over %d messages" % (name, row, k, total, msgs))
    # Advertised segments: zero-length on its own row, out of the ranges.
    adv = {k["name"]: k for k in tree["Chunk segments advertised by calls"]["children"]}
    if "zero-length" not in adv or "by advertised length (bytes)" not in adv:
        fail.add("%s: advertised segments rows %s" % (name, sorted(adv)))
    else:
        lengths = adv["by advertised length (bytes)"]
        kids = sum(k["count"] for k in lengths["children"])
        if lengths["count"] != kids:
            fail.add("%s: advertised lengths %d, ranges add up to %d" % (name, lengths["count"], kids))
        if lengths["count"] and num(lengths["min"]) < 1:
            fail.add("%s: a zero length is in the advertised size ranges" % name)


def bent_summary(summ):
    s = copy.deepcopy(summ)
    c = s[min(s)]
    c["calls"] += 1
    return s


def view_tree(a, tsh, cap, name, fail):
    summ = lint_summary(a.lint, cap)
    tree = parse_tree(tsh("-q", "-r", cap, "-z", "rpcrdma,tree"))
    before = len(fail.items)
    check_tree(name, tree, summ, fail)
    probe = Failures("probe")
    check_tree(name, tree, bent_summary(summ), probe)
    if not probe.items:
        fail.add("%s: the tree check does not notice a changed oracle" % name)
    return len(fail.items) == before


# ---- srt ----

SRT_ROW = re.compile(r"^\s+(\d+)\s+(.+?)\s+(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s*$")


def parse_srt(text):
    """The tables of -z rpcrdma,srt, in order: [{operation: (calls, min, max, avg, sum)}]."""
    tables, cur = [], None
    for line in text.splitlines():
        if line.startswith("Index"):
            cur = {}
            tables.append(cur)
            continue
        m = SRT_ROW.match(line)
        if m and cur is not None:
            cur[m.group(2)] = (int(m.group(3)),) + tuple(float(x) for x in m.group(4, 5, 6, 7))
    return tables


def shown_true(show):
    """A boolean field's PDML "show": 1 up to Wireshark 4.0, True from 4.2 on."""
    return show in ("1", "True", "true")


def pdml_times(text):
    """(forward, backchannel): {operation: [seconds]} of rpcrdma.time in each message tree."""
    fwd, back = {}, {}
    for msg in ET.fromstring(text).iter("field"):
        if msg.get("name") != "rpcrdma.message":
            continue
        f = {c.get("name"): c.get("show") for c in msg if c.tag == "field"}
        if "rpcrdma.time" in f:
            d = back if shown_true(f.get("rpcrdma.backchannel")) else fwd
            d.setdefault(f.get("rpcrdma.op"), []).append(float(f["rpcrdma.time"]))
    return fwd, back


def check_srt(name, tables, counts, times, fail):
    fwd = tables[0] if tables else {}
    got = {op: r[0] for op, r in fwd.items()}
    if got != counts:
        fail.add("%s: SRT calls per operation %s, ulb-lint --summary %s" % (name, got, counts))
    drawn = times[0]
    for i, d in enumerate(times):
        t = tables[i] if i < len(tables) else {}
        for op, v in d.items():
            r = t.get(op)
            if not r:
                fail.add("%s: table %d has no row %r (%d replies with rpcrdma.time)" % (name, i, op, len(v)))
                continue
            want = (len(v), min(v), max(v), sum(v))
            if r[0] != want[0] or abs(r[1] - want[1]) > 1e-6 or abs(r[2] - want[2]) > 1e-6 or \
               abs(r[4] - want[3]) > 1e-6 * max(1, len(v)):
                fail.add("%s: SRT %r (calls, min, max, sum) %s, rpcrdma.time %s" %
                         (name, op, (r[0], r[1], r[2], r[4]), want))
    if set(fwd) != set(drawn):
        fail.add("%s: SRT operations %s, replies with rpcrdma.time %s" % (name, sorted(fwd), sorted(drawn)))


def view_srt(a, tsh, cap, name, fail):
    counts = response_counts(lint_summary(a.lint, cap))
    tables = parse_srt(tsh("-q", "-r", cap, "-z", "rpcrdma,srt"))
    times = pdml_times(tsh("-r", cap, "-Y", "rpcrdma.time", "-T", "pdml", "-J", "rpcrdma"))
    before = len(fail.items)
    check_srt(name, tables, counts, times, fail)
    probe = Failures("probe")
    bent = dict(counts)
    if bent:
        bent[min(bent)] += 1
    else:
        bent["?"] = 1
    check_srt(name, tables, bent, times, probe)
    if not probe.items:
        fail.add("%s: the SRT check does not notice a changed oracle" % name)
    return len(fail.items) == before


# ---- conv ----

CONV_ROW = re.compile(r"^(\S+)\s+<->\s+(\S+)\s+(\d+) (\d+) (bytes|kB|MB|GB)\s+(\d+) (\d+) (bytes|kB|MB|GB)\s+"
                      r"(\d+) (\d+) (bytes|kB|MB|GB)\s")
UNIT = {"bytes": 1, "kB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3}


def parse_conv(text):
    """Rows of -z conv: [(frames <-, bytes <-, unit, frames ->, bytes ->, unit)]."""
    out = []
    for line in text.splitlines():
        m = CONV_ROW.match(line)
        if m:
            g = m.groups()
            out.append(((int(g[2]), int(g[3]) * UNIT[g[4]], UNIT[g[4]]),
                        (int(g[5]), int(g[6]) * UNIT[g[7]], UNIT[g[7]])))
    return out


def conv_oracle(dump, summ):
    """Per connection: {(frames, bytes) sent by the requester, (frames, bytes) sent by the responder}."""
    per = {}
    for m in dump:
        by_requester = (m["dir"] == "call") != bool(m.get("backchannel"))
        c = per.setdefault(m["conn"], [0, 0])
        c[0 if by_requester else 1] += len(m["frames"])
    out = []
    for cid, (req, rsp) in per.items():
        out.append((cid, sorted((req, rsp)), summ[cid]["inline_bytes"] + summ[cid]["ddp_bytes"] +
                    summ[cid]["long_bytes"]))
    return out


def check_conv(name, rows, oracle, fail):
    if len(rows) != len(oracle):
        fail.add("%s: %d conversations, ulb-lint %d connections" % (name, len(rows), len(oracle)))
    left = list(rows)
    for cid, frames, total in oracle:
        hit = None
        for r in left:
            if sorted((r[0][0], r[1][0])) == frames and \
               abs(r[0][1] + r[1][1] - total) <= r[0][2] + r[1][2]:
                hit = r
                break
        if hit is None:
            fail.add("%s: connection %d (frames each way %s, %d bytes) has no conversation row (rows %s)" %
                     (name, cid, frames, total, [(r[0][:2], r[1][:2]) for r in left]))
        else:
            left.remove(hit)


def view_conv(a, tsh, cap, name, fail):
    summ = lint_summary(a.lint, cap)
    oracle = conv_oracle(lint_dump(a.lint, cap), summ)
    rows = parse_conv(tsh("-q", "-r", cap, "-z", "conv,rpcrdma"))
    before = len(fail.items)
    check_conv(name, rows, oracle, fail)
    probe = Failures("probe")
    bent = copy.deepcopy(oracle)
    if bent:
        bent[0][1][0] += 1
    else:
        bent.append((0, [1, 1], 1))
    check_conv(name, rows, bent, probe)
    if not probe.items:
        fail.add("%s: the conversation check does not notice a changed oracle" % name)
    return len(fail.items) == before


# ---- flow ----

FLOW_ITEM = re.compile(r"^\|(\d+\.\d+)\s*\|(.*)\|(.*)$")


def parse_flow(text):
    """[(time, label)] of the flow's arrows, in order (a label line holds the time)."""
    out = []
    for line in text.splitlines():
        m = FLOW_ITEM.match(line)
        if m:
            label = re.sub(r"\s*\|\s*", " ", m.group(2)).strip()
            out.append((m.group(1), label))
    return out


def pdml_messages(text):
    """{frame: [(xid, dir, op, backchannel)]} of the message trees Wireshark shows."""
    out = {}
    for pkt in ET.fromstring(text).iter("packet"):
        frame = None
        for f in pkt.iter("field"):
            if f.get("name") == "frame.number":
                frame = int(f.get("show"))
                break
        for msg in pkt.iter("field"):
            if msg.get("name") != "rpcrdma.message":
                continue
            f = {c.get("name"): c.get("show") for c in msg if c.tag == "field"}
            # rpcrdma.message.dir is a number with names (0 call, 1 reply); PDML shows the number.
            d = {"0": "call", "1": "reply"}.get(f.get("rpcrdma.message.dir"), f.get("rpcrdma.message.dir"))
            out.setdefault(frame, []).append((int(f.get("rpcrdma.xid", "0"), 16), d,
                                              f.get("rpcrdma.op"), shown_true(f.get("rpcrdma.backchannel"))))
    return out


def check_flow(name, items, drawn, dump, shown, fail):
    if len(items) != len(drawn):
        fail.add("%s: %d arrows, %d frames drawn" % (name, len(items), len(drawn)))
        return
    at = {}
    for (t, label), (frame, ft) in zip(items, drawn):
        if abs(float(t) - float(ft)) > 1e-6:
            fail.add("%s: arrow at %s, frame %d at %s" % (name, t, frame, ft))
            return
        at[frame] = label
    for m in dump:
        frame, xid = m["last_frame"], int(m["xid"], 16)
        ops = [op for (x, d, op, bc) in shown.get(frame, []) if x == xid and d == m["dir"]]
        label = at.get(frame)
        if label is None or not ops:
            fail.add("%s: XID 0x%08x %s rebuilt in frame %d: no arrow or no message tree there" %
                     (name, xid, m["dir"], frame))
            continue
        want = "%s %s%s XID 0x%08x" % (ops[0], "backchannel " if m.get("backchannel") else "", m["dir"], xid)
        # The text dump cuts labels to its column; a frame may rebuild several messages.
        if not any(("%s %s%s XID 0x%08x" % (op, "backchannel " if bc else "", d, x)).startswith(label)
                   for (x, d, op, bc) in shown[frame]):
            fail.add("%s: frame %d arrow %r, expected the start of %r" % (name, frame, label, want))


SKIPPED = 77


def view_flow(a, tsh, cap, name, fail):
    if not tsh.offers(cap, "flow,rpcrdma,standard"):
        print("SKIP: this Wireshark offers no RPC-over-RDMA Flow Graph (docs/plugin.md, Flow Graph)")
        sys.exit(SKIPPED)
    dump = lint_dump(a.lint, cap)
    items = parse_flow(tsh("-q", "-r", cap, "-z", "flow,rpcrdma,standard"))
    drawn = [tuple(l.split("\t")) for l in tsh("-r", cap, "-Y", "rpcrdma && !rpcrdma.cm.magic", "-T", "fields", "-e", "frame.number",
                                                 "-e", "frame.time_relative").split("\n") if l.strip()]
    drawn = [(int(f), t) for f, t in drawn]
    shown = pdml_messages(tsh("-r", cap, "-Y", "rpcrdma.message", "-T", "pdml", "-J", "frame rpcrdma"))
    before = len(fail.items)
    check_flow(name, items, drawn, dump, shown, fail)
    probe = Failures("probe")
    bent = copy.deepcopy(dump)
    if bent:
        bent[0]["dir"] = "reply" if bent[0]["dir"] == "call" else "call"
    check_flow(name, items, drawn if bent else drawn + [(0, "0")], bent, shown, probe)
    if not probe.items:
        fail.add("%s: the flow check does not notice a changed oracle" % name)
    return len(fail.items) == before


# ---- color ----

def color_oracle(findings):
    """{frame: rule name} the shipped rules must give: errors first, then warnings."""
    out = {}
    for sev, rule in (("warning", "RPC-over-RDMA warning"), ("error", "RPC-over-RDMA error")):
        for d in findings:
            if d["severity"] == sev and d.get("frame"):
                out[d["frame"]] = rule
    return out


def check_color(name, got, want, n_unplaced, fail):
    extra = {f: r for f, r in got.items() if want.get(f) != r}
    missing = {f: r for f, r in want.items() if got.get(f) != r}
    if missing or len(extra) > n_unplaced:
        fail.add("%s: coloured frames differ from ulb-lint's findings: missing %s, extra %s" %
                 (name, sorted(missing.items())[:10], sorted(extra.items())[:10]))


def view_color(a, tsh, cap, name, fail):
    findings, _ = lint_findings(a.lint, cap)
    want = color_oracle(findings)
    # Findings not tied to a frame are shown where they were raised: they may colour frames the oracle cannot name.
    unplaced = sum(1 for d in findings if d["severity"] in ("error", "warning") and not d.get("frame"))
    prof = os.path.join(tsh.home, ".config", "wireshark", "profiles", "rpcrdma-colors")
    if not os.path.isdir(prof):
        os.makedirs(prof)
        shutil.copyfile(a.colorfilters, os.path.join(prof, "colorfilters"))
        if os.getuid() == 0:
            for d, _, files in os.walk(os.path.join(tsh.home, ".config")):
                os.chown(d, 65534, 65534)
                for f in files:
                    os.chown(os.path.join(d, f), 65534, 65534)
    out = tsh("-r", cap, "-C", "rpcrdma-colors", "--color", "-T", "fields", "-e", "frame.number",
              "-e", "frame.coloring_rule.name")
    got = {}
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) == 2 and f[1].startswith("RPC-over-RDMA"):
            got[int(f[0])] = f[1]
    before = len(fail.items)
    check_color(name, got, want, unplaced, fail)
    probe = Failures("probe")
    bent = dict(want)
    bent[10 ** 9] = "RPC-over-RDMA error"
    check_color(name, got, bent, unplaced, probe)
    if not probe.items:
        fail.add("%s: the colour check does not notice a changed oracle" % name)
    if not fail.items[before:]:
        print("%s: %d frames coloured, as ulb-lint's findings" % (name, len(got)))
    return len(fail.items) == before


VIEWS = {"tree": view_tree, "srt": view_srt, "conv": view_conv, "flow": view_flow, "color": view_color}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--view", required=True, choices=sorted(VIEWS))
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--colorfilters")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    if a.view == "color" and not a.colorfilters:
        ap.error("--view color needs --colorfilters")
    fail = Failures("views-" + a.view)
    tmp = tempfile.mkdtemp(prefix="rr-views-")
    os.chmod(tmp, 0o755)
    tsh = Tshark(a.ws_user, a.plugin, tmp)
    checks = 0
    try:
        for src in a.captures:
            # tshark runs as an unprivileged user, who may not reach the source tree.
            cap = os.path.join(tmp, os.path.basename(src))
            shutil.copyfile(src, cap)
            os.chmod(cap, 0o644)
            if VIEWS[a.view](a, tsh, cap, os.path.basename(src), fail):
                print("%s: %s view agrees with its oracle" % (os.path.basename(src), a.view))
            checks += 1
            os.unlink(cap)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


if __name__ == "__main__":
    main()
